"""Benchmark of what working without signal costs a phone (docs/offline.md).

Serves two checkouts of the app one after the other (`--before`, default `main`, and `--after`,
default `HEAD`: each exported with `git archive` to a temporary directory, DEBUG off, static
files collected and served compressed by WhiteNoise, HTML gzipped, a throwaway SQLite database
holding one match) and opens in headless Chromium, as a phone that never visited the site:

* the home page, and a match's scoreboard opened from its QR code (the first visit's download:
  every byte the browser fetched, the service worker's script and what it imports included,
  until the page is loaded and its worker, if any, active);
* with `--after` only: the offline pack of that match (what "Keep this match on this phone" keeps
  in the service worker's cache: its pages, its file and the files they run), and the time from
  the tap to "kept".

The budget: the first visit grows by no more than 10 KB. Run from the repository root:

    .venv/bin/python scripts/bench_offline.py [--before REF] [--after REF]

The exit code is 0 whatever the figures: this is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from io import BytesIO
from pathlib import Path

from playwright.sync_api import BrowserContext, sync_playwright

REPO_ROOT = Path(__file__).resolve().parent.parent
PYTHON = REPO_ROOT / ".venv" / "bin" / "python"
CHROMIUM = "/usr/bin/chromium"
BUDGET = 10 * 1024

MAKE_MATCH = """
from scorekeeper.engine.scoring import PassedDeal
from scorekeeper.engine.scoring.rules import get_preset
from scorekeeper.matches import services
rules = get_preset("coinche")
match = services.create_match(owner_key="bench", rules=rules, team_names=("Us", "Them"))
author = services.Author(key="bench", label="bench")
for _ in range(3):
    services.record_deal(match_id=match.pk, expected_version=None, deal=PassedDeal(), author=author)
print(match.scorer_token)
"""


def export(ref: str, into: Path) -> Path:
    archive = subprocess.run(
        ["git", "archive", "--format=tar", ref], cwd=REPO_ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def environment(tree: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "bench-offline-" + "x" * 50,
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_HSTS_SECONDS": "0",
        "DATABASE_URL": f"sqlite:///{tree / 'bench.sqlite3'}",
        "PYTHONPATH": str(tree),
    }


def prepare(tree: Path) -> str:
    """Migrate, collect the static files, make a match; its scorer token."""
    env = environment(tree)
    for command in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
        subprocess.run([PYTHON, "manage.py", *command], cwd=tree, env=env, check=True,
                       capture_output=True)  # fmt: skip
    made = subprocess.run(
        [PYTHON, "manage.py", "shell", "-c", MAKE_MATCH],
        cwd=tree, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return made.stdout.strip().splitlines()[-1]


def serve(tree: Path, port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [PYTHON, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=tree, env=environment(tree), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


def new_phone(browser: object) -> BrowserContext:
    context: BrowserContext = browser.new_context(  # type: ignore[attr-defined]
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
        locale="en-GB", service_workers="allow",
    )  # fmt: skip
    return context


def download_size(url: str) -> int:
    """What fetching `url` downloads, compressed as the browser would get it, headers included."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as response:
        body = response.read()
        headers = "".join(f"{k}: {v}\r\n" for k, v in response.getheaders())
    return len(body) + len(headers) + len("HTTP/1.1 200 OK\r\n\r\n")


def first_visit(browser: object, url: str) -> tuple[int, int]:
    """Bytes (headers and bodies as sent, compressed) and requests of a first visit to `url`."""
    context = new_phone(browser)
    sizes: list[int] = []

    def finished(request: object) -> None:
        got = request.sizes()  # type: ignore[attr-defined]
        if got["responseBodySize"] <= 0:  # a service worker's request: Chromium says no size
            sizes.append(download_size(request.url))  # type: ignore[attr-defined]
        else:
            sizes.append(got["responseBodySize"] + got["responseHeadersSize"])

    context.on("requestfinished", finished)
    if os.environ.get("BENCH_VERBOSE"):
        context.on("requestfinished", lambda r: print("   ", r.url, r.sizes()))  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(url, wait_until="load")
    # Its service worker (if it has one) installed and active: its script and imports fetched.
    page.evaluate(
        """async () => {
            if (!("serviceWorker" in navigator)) return;
            const registration = await Promise.race([
                navigator.serviceWorker.ready, new Promise((r) => setTimeout(r, 3000))]);
            return registration && registration.active && registration.active.state;
        }"""
    )
    page.wait_for_load_state("networkidle")
    context.close()
    return sum(sizes), len(sizes)


def offline_pack(browser: object, url: str) -> tuple[int, int, float]:
    """Bytes and entries kept by "Keep this match on this phone", and the seconds it took."""
    context = new_phone(browser)
    page = context.new_page()
    page.goto(url, wait_until="load")
    page.evaluate("() => navigator.serviceWorker.ready")
    start = time.perf_counter()
    page.get_by_role("button", name="Keep this match on this phone").click()
    page.wait_for_selector("#offline[data-kept='1']", state="attached", timeout=30_000)
    took = time.perf_counter() - start
    kept = page.evaluate(
        """async () => {
            let bytes = 0, entries = 0;
            for (const name of await caches.keys()) {
                if (!name.startsWith("pages-")) continue;
                const cache = await caches.open(name);
                for (const request of await cache.keys()) {
                    bytes += (await (await cache.match(request)).arrayBuffer()).byteLength;
                    entries += 1;
                }
            }
            return [bytes, entries];
        }"""
    )
    context.close()
    return int(kept[0]), int(kept[1]), took


Visits = dict[str, tuple[int, int]]


def measure(ref: str, browser: object, *, pack: bool) -> tuple[Visits, tuple[int, int, float]]:
    with tempfile.TemporaryDirectory(prefix="bench-offline-") as folder:
        tree = export(ref, Path(folder))
        token = prepare(tree)
        port = free_port()
        server = serve(tree, port)
        try:
            base = f"http://127.0.0.1:{port}"
            visits = {
                "home": first_visit(browser, f"{base}/"),
                "scoreboard": first_visit(browser, f"{base}/score/{token}/"),
            }
            kept = offline_pack(browser, f"{base}/score/{token}/") if pack else (0, 0, 0.0)
            return visits, kept
        finally:
            server.terminate()
            server.wait()


def kb(size: int) -> str:
    return f"{size / 1024:.1f} KB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", default="main", help="git ref without the offline work")
    parser.add_argument("--after", default="HEAD", help="git ref with it")
    args = parser.parse_args()
    if not Path(CHROMIUM).exists():
        sys.exit(f"no Chromium at {CHROMIUM}")
    # The service worker's own requests (its script's imports) counted with the page's.
    os.environ["PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS"] = "1"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        before, _ = measure(args.before, browser, pack=False)
        after, (size, entries, took) = measure(args.after, browser, pack=True)
        browser.close()
    print(f"First visit's download ({args.before} → {args.after}), compressed, headers included:")
    print(f"{'page':<12} {'before':>10} {'after':>10} {'growth':>10}  budget")
    for page in ("home", "scoreboard"):
        (was, n_was), (now, n_now) = before[page], after[page]
        growth = now - was
        verdict = "PASS" if growth <= BUDGET else "FAIL"
        print(
            f"{page:<12} {kb(was):>10} {kb(now):>10} {kb(growth):>10}  "
            f"≤ 10 KB {verdict} ({n_was} → {n_now} requests)"
        )
    print(f"Offline pack of a match (pages, match file, CSS/JS; uncompressed): {kb(size)} "
          f"in {entries} entries, kept {took:.2f} s after the tap (local server)")  # fmt: skip


if __name__ == "__main__":
    main()
