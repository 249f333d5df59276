"""Benchmark of the in-browser engine (docs/offline-engine.md): the offline pack's size, the time
from `OfflineEngine.prepare()` to ready on a fast connection and on emulated slow 3G, and the time
to compute a deal's totals offline with the CPU slowed 4x (Chromium's emulation).

The app runs as in production: DEBUG off, `collectstatic` (WhiteNoise's compressed files), gunicorn
on 127.0.0.1, a throwaway SQLite database; Debian's Chromium, driven by Playwright, with a fresh
browser context (empty caches) for each timed prepare(). CDP's Network.emulateNetworkConditions
gives the slow 3G of Chrome DevTools (400 ms latency, 400 kbit/s down and up); its
Emulation.setCPUThrottlingRate slows the page's thread, and the worker's (attached as its own
target), 4x.

    .venv/bin/python scripts/bench_offline_engine.py [--runs N] [--skip-3g]

Needs the runtime (scripts/fetch_pyodide.py). Prints the figures; exit code 0 whatever they are
(a benchmark, not a test).
"""

import argparse
import gzip
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
PREPARE_TIMEOUT_MS = 600_000
SLOW_3G = {  # Chrome DevTools' "Slow 3G" preset
    "offline": False,
    "latency": 400,
    "downloadThroughput": 400 * 1000 / 8,
    "uploadThroughput": 400 * 1000 / 8,
    "connectionType": "cellular3g",
}
CPU_SLOWDOWN = 4
# A coinche match as a table plays it: 12 deals, the last one just typed in the deal form.
DEALS = [
    {"taker": 0, "contract": 110, "trump": "hearts", "coinche": "coinche", "taker_points": 120,
     "belote": [1, 0]},
    {"taker": 1, "contract": 90, "trump": "spades", "taker_points": 95,
     "announcements": [[], [{"kind": "tierce", "high": "K"}]]},
    {"passed": True},
    {"taker": 0, "contract": 80, "trump": "clubs", "taker_points": 70},
    {"taker": 1, "contract": 100, "trump": "diamonds", "taker_points": 101},
    {"taker": 0, "contract": 120, "trump": "hearts", "taker_points": 130, "belote": [1, 0]},
    {"taker": 1, "contract": 80, "trump": "clubs", "taker_points": 90},
    {"taker": 0, "contract": 90, "trump": "spades", "taker_points": 85},
    {"taker": 1, "contract": 100, "trump": "hearts", "taker_points": 110},
    {"taker": 0, "contract": 80, "trump": "diamonds", "taker_points": 100},
    {"taker": 1, "contract": 90, "trump": "clubs", "taker_points": 92},
]  # fmt: skip
MATCH = {
    "format": "belote-match/1",
    "rules": {"preset": "coinche", "target": 2000},
    "teams": [{"name": "Nous"}, {"name": "Eux"}],
    "first_dealer": 0,
    "deals": DEALS,
}
FORM = {"taker": "0", "contract": "100", "trump": "spades", "coinche": "none",
        "taker_points": "104", "belote0": "0", "belote1": "0"}  # fmt: skip
# One offline deal's totals: the deal form read, then the match with it scored.
ONE_DEAL_JS = """async ([form, match]) => {
  const start = performance.now();
  const read = await OfflineEngine.dealFromForm(form, match);
  const scored = await OfflineEngine.scoreMatch({...match, deals: [...match.deals, read.deal]});
  return [performance.now() - start, scored.totals];
}"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "bench-only-" + "x" * 50,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_HSTS_SECONDS": "0",
        "DATABASE_URL": f"sqlite:///{workdir / 'db.sqlite3'}",
        "GUNICORN_BIND": f"127.0.0.1:{port}",
    }
    py = sys.executable
    for args in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run([py, "manage.py", *args], cwd=ROOT, env=env, check=True,
                       stdout=subprocess.DEVNULL)  # fmt: skip
    gunicorn = Path(py).with_name("gunicorn")
    server = subprocess.Popen(
        [str(gunicorn), "-c", "gunicorn.conf.py", "scorekeeper.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server, url
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise SystemExit("the server did not start")


def pack_sizes() -> dict[str, tuple[int, int]]:
    """Each file of the pack: its size, and the bytes WhiteNoise sends (gzip) to a browser."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    import django

    django.setup()
    from scorekeeper.web import offline_engine

    folder = ROOT / "staticfiles" / "offline" / "pyodide"
    out = {}
    for name in offline_engine.RUNTIME_FILES:
        raw = (folder / name).stat().st_size
        packed = folder / f"{name}.gz"
        out[name] = (raw, packed.stat().st_size if packed.exists() else raw)
    zipped = offline_engine.engine_pack().data
    out["engine zip"] = (len(zipped), len(zipped))
    for name in ("offline-engine.js", "offline-engine-worker.js"):
        data = (ROOT / "static" / "js" / name).read_bytes()
        out[name] = (len(data), len(gzip.compress(data, 6)))
    return out


def open_page(browser: Browser, url: str) -> tuple[BrowserContext, Page, CDPSession]:
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(PREPARE_TIMEOUT_MS)
    page.goto(f"{url}/")
    page.add_script_tag(url="/static/js/offline-engine.js")
    page.wait_for_function("() => window.OfflineEngine !== undefined")
    return context, page, context.new_cdp_session(page)


def timed_prepare(
    browser: Browser, url: str, network: dict[str, Any] | None
) -> tuple[float, int, float]:
    """Seconds from prepare() to ready, the bytes received meanwhile, and the seconds of a second
    prepare() on a new page of the same phone (the pack cached)."""
    context, page, cdp = open_page(browser, url)
    received = [0]
    cdp.send("Network.enable")
    cdp.on(
        "Network.loadingFinished",
        lambda e: received.__setitem__(0, received[0] + int(e["encodedDataLength"])),
    )
    if network:
        cdp.send("Network.emulateNetworkConditions", network)
    elapsed: float = page.evaluate(
        "async () => { const t = performance.now(); await OfflineEngine.prepare(); "
        "return (performance.now() - t) / 1000; }"
    )
    assert page.evaluate("OfflineEngine.ready()")
    # A later page load of the same phone: the pack is cached, prepare() only starts the worker.
    again = context.new_page()
    again.set_default_timeout(PREPARE_TIMEOUT_MS)
    again.goto(f"{url}/")
    again.add_script_tag(url="/static/js/offline-engine.js")
    again.wait_for_function("() => window.OfflineEngine !== undefined")
    cached: float = again.evaluate(
        "async () => { const t = performance.now(); await OfflineEngine.prepare(); "
        "return (performance.now() - t) / 1000; }"
    )
    context.close()
    return elapsed, received[0], cached


def throttle_worker(browser: Browser, rate: int) -> bool:
    """Emulation.setCPUThrottlingRate on the engine's worker, attached through the browser's CDP
    session; False if this Chromium does not take it there."""
    session = browser.new_browser_cdp_session()
    targets = session.send("Target.getTargets")["targetInfos"]
    workers = [
        t
        for t in targets
        if t["type"] == "worker" and "/offline/engine/worker-" in t.get("url", "")
    ]
    if not workers:
        workers = [t for t in targets if t["type"] == "worker"]
    if not workers:
        return False
    attached = session.send(
        "Target.attachToTarget", {"targetId": workers[0]["targetId"], "flatten": False}
    )
    answers: list[dict[str, Any]] = []
    session.on(
        "Target.receivedMessageFromTarget", lambda e: answers.append(json.loads(e["message"]))
    )
    message = {"id": 1, "method": "Emulation.setCPUThrottlingRate", "params": {"rate": rate}}
    session.send(
        "Target.sendMessageToTarget",
        {"sessionId": attached["sessionId"], "message": json.dumps(message)},
    )
    for _ in range(50):
        if answers:
            break
        time.sleep(0.05)
    return bool(answers) and "error" not in answers[0]


def timed_deal(browser: Browser, url: str, runs: int) -> dict[str, Any]:
    context, page, cdp = open_page(browser, url)
    page.evaluate("OfflineEngine.prepare()")
    page.evaluate(ONE_DEAL_JS, [FORM, MATCH])  # warm-up
    fast = [page.evaluate(ONE_DEAL_JS, [FORM, MATCH])[0] for _ in range(runs)]
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    worker_throttled = throttle_worker(browser, CPU_SLOWDOWN)
    slow = [page.evaluate(ONE_DEAL_JS, [FORM, MATCH]) for _ in range(runs)]
    context.close()
    return {
        "fast_ms": statistics.median(fast),
        "slow_ms": statistics.median(s[0] for s in slow),
        "totals": slow[0][1],
        "worker_throttled": worker_throttled,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="timed prepare() on a fast connection")
    parser.add_argument("--skip-3g", action="store_true", help="no slow 3G run (about 3 minutes)")
    options = parser.parse_args()
    if not (ROOT / "static" / "offline" / "pyodide" / ".version").exists():
        print("The Pyodide runtime is not installed: python scripts/fetch_pyodide.py")
        return 0
    with tempfile.TemporaryDirectory() as workdir:
        server, url = start_server(Path(workdir))
        try:
            sizes = pack_sizes()
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
                )
                fast = [timed_prepare(browser, url, None) for _ in range(options.runs)]
                slow = None if options.skip_3g else timed_prepare(browser, url, SLOW_3G)
                deal = timed_deal(browser, url, runs=20)
                browser.close()
        finally:
            server.terminate()
            server.wait()
    print("Offline pack (file: bytes on disk / bytes sent, gzip):")
    for name, (raw, sent) in sizes.items():
        print(f"  {name:26} {raw / 1e6:7.2f} MB / {sent / 1e6:6.2f} MB")
    total_raw = sum(raw for raw, _ in sizes.values())
    total_sent = sum(sent for _, sent in sizes.values())
    print(f"  {'total':26} {total_raw / 1e6:7.2f} MB / {total_sent / 1e6:6.2f} MB")
    print(f"Load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    times = [run[0] for run in fast]
    print(f"prepare() to ready, fast connection: median {statistics.median(times):.1f} s "
          f"(runs: {', '.join(f'{t:.1f}' for t in times)}; {fast[0][1] / 1e6:.2f} MB received)")  # fmt: skip
    cached = [run[2] for run in fast]
    print(f"prepare() to ready with the pack cached (a later page load): median "
          f"{statistics.median(cached):.1f} s (runs: {', '.join(f'{t:.1f}' for t in cached)})")  # fmt: skip
    if slow is not None:
        print(f"prepare() to ready, slow 3G: {slow[0]:.0f} s ({slow[1] / 1e6:.2f} MB received)")
    print(f"One offline deal's totals (dealFromForm + scoreMatch, 12 deals): median "
          f"{deal['fast_ms']:.0f} ms; CPU slowed {CPU_SLOWDOWN}x: {deal['slow_ms']:.0f} ms "
          f"(worker throttled too: {'yes' if deal['worker_throttled'] else 'no'}); "
          f"totals {deal['totals']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
