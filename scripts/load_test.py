"""Load test: the real app under gunicorn on PostgreSQL, driven through its forms like phones do.

Creates its own database (`scorekeeper_load_<pid>` on 127.0.0.1:5432, user postgres, trust auth),
migrates it, collects the static files, starts gunicorn with the project's gunicorn.conf.py on a
free loopback port (DEBUG off), then drives `--tables` tables at once, one thread each:

* New match: GET /new/, POST the form (CSRF token and cookie as a browser sends them);
* `--deals` times: GET the deal form, POST Save (with its version and one-time submission id),
  follow the redirect to the scoreboard (GET), then wait `--think` seconds (jittered +-25 %).

`--spectators` threads poll the read-only scoreboard fragment of the tables (htmx request, every
`--poll` seconds) with If-None-Match, as a phone's browser cache does.

Every table creates its match first; the deals start once all have one (each after a random part
of `--ramp` seconds), and the server's CPU is measured from there. Everything stops after
`--duration` seconds at the latest. Then the script checks in the database
that every deal the server acknowledged (302 after Save) is there exactly once and nothing else,
and that every match, scored again by the engine, gives the totals and deal scores stored; prints
deals/s, p50/p95/p99 per request kind, errors, and the server's CPU per deal cycle (user + system
time of the gunicorn master and workers, from /proc, over the drive, divided by the deals saved);
stops gunicorn and drops the database (`--keep-db` keeps it).

    .venv/bin/python scripts/load_test.py --tables 50 --deals 10 --think 0
    .venv/bin/python scripts/load_test.py --tables 200 --deals 10 --think 20   # the budget run

The exit code is 1 when a deal was lost or duplicated, a score is wrong or a request failed.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

from bench_report import percentile, print_table

REPO_ROOT = Path(__file__).resolve().parent.parent
PG = "postgres://postgres@127.0.0.1:5432"
CLK_TCK = os.sysconf("SC_CLK_TCK")
INPUT = re.compile(r"<input\b[^>]*>")
ATTR = re.compile(r'(\w[\w-]*)="([^"]*)"')


# Server --------------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_env(db_name: str, port: int, args: argparse.Namespace) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
            "DATABASE_URL": f"{PG}/{db_name}",
            "DEBUG": "false",
            "SECRET_KEY": "load-test-" + uuid.uuid4().hex * 2,
            "ALLOWED_HOSTS": "127.0.0.1",
            # The client speaks plain HTTP on loopback and says it came through a TLS proxy
            # (X-Forwarded-Proto: https); no redirect to https either way.
            "SECURE_SSL_REDIRECT": "false",
            "SECURE_HSTS_SECONDS": "0",
            "LOG_LEVEL": "ERROR",
            "GUNICORN_BIND": f"127.0.0.1:{port}",
            "GUNICORN_LOG_LEVEL": "warning",
        }
    )
    if args.workers is not None:
        env["GUNICORN_WORKERS"] = str(args.workers)
    if args.threads is not None:
        env["GUNICORN_THREADS"] = str(args.threads)
    if args.worker_class is not None:
        env["GUNICORN_WORKER_CLASS"] = args.worker_class
    return env


def manage(env: dict[str, str], *command: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *command, "-v", "0"],
        cwd=REPO_ROOT,
        env=env,
        check=True,
    )


def create_database(name: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(name: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def start_gunicorn(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent)) or "gunicorn"
    proc = subprocess.Popen(
        [gunicorn, "-c", "gunicorn.conf.py", "scorekeeper.wsgi"], cwd=REPO_ROOT, env=env
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/healthz", headers={"X-Forwarded-Proto": "https"})
            conn.getresponse().read()
            conn.close()
            return proc
        except OSError:
            if proc.poll() is not None:
                raise SystemExit("gunicorn did not start") from None
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("gunicorn did not answer within 30 s")


def process_tree_cpu(master: int) -> float:
    """Seconds of CPU of the master and its live workers, plus that of workers already gone
    (reaped by the master: its cutime/cstime)."""

    def stat(pid: int) -> list[str] | None:
        try:
            text = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return None
        return text[text.rindex(")") + 2 :].split()  # fields from 3 (state) on

    total = 0.0
    fields = stat(master)
    if fields is None:
        return 0.0
    # Fields 14-17 (utime, stime, cutime, cstime) are at indexes 11-14 here.
    total += sum(int(v) for v in fields[11:15]) / CLK_TCK
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == master:
            continue
        child = stat(int(entry.name))
        if child is not None and int(child[1]) == master:  # field 4: ppid
            total += (int(child[11]) + int(child[12])) / CLK_TCK
    return total


# Client --------------------------------------------------------------------------------------


@dataclass
class Stats:
    """Every request's latency by kind, errors, and the deals the server acknowledged."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    statuses: dict[str, dict[int, int]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(int))
    )
    errors: list[str] = field(default_factory=list)
    acknowledged: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    view_tokens: list[str] = field(default_factory=list)

    def record(self, kind: str, seconds: float, status: int) -> None:
        with self.lock:
            self.times[kind].append(seconds * 1000)
            self.statuses[kind][status] += 1

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


class Browser:
    """One phone: a keep-alive connection, its cookies, HTTPS as seen by the app (behind a
    TLS-terminating proxy), and the Origin/Referer a browser sends with a form."""

    def __init__(self, port: int, stats: Stats, timeout: float) -> None:
        self.port = port
        self.stats = stats
        self.timeout = timeout
        self.origin = f"https://127.0.0.1:{port}"
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None

    def request(
        self,
        kind: str,
        method: str,
        path: str,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], str]:
        sent = {
            "Host": f"127.0.0.1:{self.port}",
            "X-Forwarded-Proto": "https",
            "Accept-Language": "en",
            "Accept-Encoding": "gzip",
            **(headers or {}),
        }
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode(data).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["Origin"] = self.origin
            sent["Referer"] = self.origin + path
        for attempt in (1, 2):  # a keep-alive connection the server closed: reconnect once
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            start = time.perf_counter()
            try:
                self.conn.request(method, path, body=body, headers=sent)
                response = self.conn.getresponse()
                raw = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
                continue
            elapsed = time.perf_counter() - start
            break
        self.stats.record(kind, elapsed, response.status)
        for header in response.headers.get_all("Set-Cookie") or []:
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value
        if response.headers.get("Content-Encoding") == "gzip":
            import gzip

            raw = gzip.decompress(raw)
        if response.status >= 500 or response.status in (400, 403, 404, 405):
            self.stats.error(f"{kind} {method} {path}: HTTP {response.status}")
        return response.status, dict(response.headers.items()), raw.decode("utf-8", "replace")

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


def form_inputs(html: str) -> dict[str, str]:
    """Hidden and text inputs of the page, by name (the last one of a name wins)."""
    values = {}
    for tag in INPUT.findall(html):
        attrs = dict(ATTR.findall(tag))
        if "name" in attrs:
            values[attrs["name"]] = attrs.get("value", "")
    return values


NEW_MATCH = {
    "preset": "coinche",
    "team0_name": "Nous",
    "team1_name": "Eux",
    "seat0": "Alice",
    "seat1": "Chloé",
    "seat2": "Bruno",
    "seat3": "David",
    "first_dealer": "0",
    "target": "100000",  # ten deals never end the match
}


def deal_fields(rng: random.Random) -> dict[str, str]:
    return {
        "taker": str(rng.randrange(2)),
        "contract": rng.choice(["80", "90", "100", "110"]),
        "trump": rng.choice(["hearts", "spades", "diamonds", "clubs"]),
        "coinche": "none",
        "taker_points": str(rng.randrange(40, 163)),
        "defence_points": "",
        "capot": "",
        "belote0": rng.choice(["0", "0", "1"]),
        "belote1": "0",
        "note": "",
    }


def create_match(index: int, phone: Browser, stats: Stats, spectators: bool) -> str | None:
    """New match through the form; the scoreboard's path."""
    try:
        _, _, html = phone.request("new_form", "GET", "/new/")
        data = {**NEW_MATCH, "csrfmiddlewaretoken": form_inputs(html)["csrfmiddlewaretoken"]}
        status, headers, _ = phone.request("new_save", "POST", "/new/", data)
        if status != 302:
            stats.error(f"table {index}: New match answered {status}")
            return None
        scoreboard = urlsplit(headers["Location"]).path
        if spectators:
            _, _, share = phone.request("share", "GET", f"{scoreboard}share/")
            found = re.search(r"/view/([\w-]+)/", share)
            if found:
                with stats.lock:
                    stats.view_tokens.append(found.group(1))
        return scoreboard
    except (OSError, KeyError) as error:
        stats.error(f"table {index}: New match: {error!r}")
        return None


def run_table(
    index: int,
    args: argparse.Namespace,
    stats: Stats,
    deadline: float,
    ready: threading.Barrier,
) -> None:
    """Create the match; wait until every table has one (the CPU of the deals is measured from
    there); then the deals, the first one after a random part of the ramp."""
    rng = random.Random(args.seed * 1000 + index)
    phone = Browser(args.port, stats, args.request_timeout)
    scoreboard = create_match(index, phone, stats, bool(args.spectators))
    with contextlib.suppress(threading.BrokenBarrierError):
        ready.wait()
    if scoreboard is None:
        phone.close()
        return
    token = scoreboard.rstrip("/").rsplit("/", 1)[1]
    try:
        time.sleep(rng.uniform(0, args.ramp))  # tables do not all start on the same second
        for _deal in range(args.deals):
            if time.monotonic() > deadline:
                return
            status, _, html = phone.request("deal_form", "GET", f"{scoreboard}deal/")
            inputs = form_inputs(html)
            post = {
                **deal_fields(rng),
                "csrfmiddlewaretoken": inputs["csrfmiddlewaretoken"],
                "version": inputs["version"],
                "submission": inputs["submission"],
            }
            for _attempt in range(3):  # a failed Save is tapped again (same submission id)
                try:
                    status, headers, _ = phone.request("save", "POST", f"{scoreboard}deal/", post)
                except OSError as error:
                    stats.error(f"table {index}: save: {error!r}")
                    continue
                if status < 500:
                    break
            if status == 302 and urlsplit(headers["Location"]).path == scoreboard:
                with stats.lock:
                    stats.acknowledged[token].append(post["submission"])
                phone.request("scoreboard", "GET", scoreboard)
            else:
                stats.error(f"table {index}: save answered {status}")
            if args.think:
                time.sleep(args.think * rng.uniform(0.75, 1.25))
    except (OSError, KeyError, IndexError) as error:
        stats.error(f"table {index}: {error!r}")
    finally:
        phone.close()


def run_spectator(index: int, args: argparse.Namespace, stats: Stats, stop: threading.Event):
    rng = random.Random(-index - 1)
    phone = Browser(args.port, stats, args.request_timeout)
    etag = ""
    stop.wait(rng.uniform(0, args.poll))
    try:
        while not stop.is_set():
            with stats.lock:
                tokens = list(stats.view_tokens)
            if tokens:
                path = f"/view/{tokens[index % len(tokens)]}/"
                headers = {"HX-Request": "true", "HX-Target": "scoreboard"}
                if etag:
                    headers["If-None-Match"] = etag
                _, answer, _ = phone.request("poll", "GET", path, headers=headers)
                etag = answer.get("ETag", "") or etag
            stop.wait(args.poll)
    except OSError as error:
        stats.error(f"spectator {index}: {error!r}")
    finally:
        phone.close()


# Checks --------------------------------------------------------------------------------------


def verify(db_name: str, stats: Stats) -> list[str]:
    """Every acknowledged deal there exactly once, nothing else; every match re-scored by the
    engine equals what is stored. Returns the problems found."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
    os.environ["DATABASE_URL"] = f"{PG}/{db_name}"
    os.environ.setdefault("SECRET_KEY", "load-test-verify")
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    import django

    django.setup()
    from django.db import connections

    from scorekeeper.engine.scoring import score_match
    from scorekeeper.matches.models import DealChange, Match

    problems = []
    matches = 0
    for match in Match.objects.all():
        matches += 1
        acked = stats.acknowledged.get(match.scorer_token, [])
        rows = list(match.deals.in_order())
        adds = DealChange.objects.filter(match=match, action=DealChange.Action.ADD)
        saved = [c.submission for c in adds.order_by("id")]
        if sorted(saved) != sorted(acked) or len(set(saved)) != len(saved):
            problems.append(f"match {match.pk}: acknowledged {len(acked)}, saved {len(saved)}")
        if len(rows) != len(acked):
            problems.append(f"match {match.pk}: {len(acked)} acknowledged, {len(rows)} deals")
        result = score_match(match.engine_rules, [r.to_engine() for r in rows], match.first_dealer)
        if result.totals != (match.total0, match.total1) or len(result.deals) != match.deal_count:
            problems.append(f"match {match.pk}: stored totals differ from the engine's")
        for row, scored in zip(rows, result.deals, strict=True):
            if (row.score0, row.score1, row.total0, row.total1) != (*scored.scores, *scored.totals):
                problems.append(f"match {match.pk} deal {row.seq}: cached scores differ")
    if matches != len(stats.acknowledged) and stats.acknowledged:
        problems.append(f"{matches} matches in the database, {len(stats.acknowledged)} driven")
    connections.close_all()
    return problems


# Main ----------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--deals", type=int, default=10, help="deals per table")
    parser.add_argument("--think", type=float, default=0.0, help="seconds between deals")
    parser.add_argument("--spectators", type=int, default=0, help="phones polling a fragment")
    parser.add_argument("--poll", type=float, default=10.0, help="seconds between polls")
    parser.add_argument("--workers", type=int, default=None, help="GUNICORN_WORKERS")
    parser.add_argument("--threads", type=int, default=None, help="GUNICORN_THREADS")
    parser.add_argument("--worker-class", default=None, help="GUNICORN_WORKER_CLASS")
    parser.add_argument("--duration", type=float, default=600.0, help="hard limit, seconds")
    parser.add_argument("--ramp", type=float, default=None, help="first deals spread, seconds")
    parser.add_argument("--request-timeout", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-db", action="store_true")
    args = parser.parse_args()
    if args.ramp is None:
        args.ramp = min(args.think, 20.0)

    db_name = f"scorekeeper_load_{os.getpid()}"
    args.port = free_port()
    env = server_env(db_name, args.port, args)
    create_database(db_name)
    proc = None
    try:
        manage(env, "migrate", "--noinput")
        manage(env, "collectstatic", "--noinput")
        proc = start_gunicorn(env, args.port)
        print(
            f"gunicorn pid {proc.pid} on 127.0.0.1:{args.port}, database {db_name}; "
            f"{args.tables} tables x {args.deals} deals, think {args.think} s, "
            f"{args.spectators} spectators",
            flush=True,
        )
        stats = Stats()
        ready = threading.Barrier(args.tables + 1)
        cpu_start = process_tree_cpu(proc.pid)
        start = time.monotonic()
        deadline = start + args.duration
        stop = threading.Event()
        tables = [
            threading.Thread(target=run_table, args=(i, args, stats, deadline, ready), daemon=True)
            for i in range(args.tables)
        ]
        watchers = [
            threading.Thread(target=run_spectator, args=(i, args, stats, stop), daemon=True)
            for i in range(args.spectators)
        ]
        for thread in tables:
            thread.start()
        try:
            ready.wait(timeout=args.duration)
        except threading.BrokenBarrierError:
            stats.error("not every table could create its match in time")
        cpu_before = process_tree_cpu(proc.pid)
        created = time.monotonic()
        setup_cpu = cpu_before - cpu_start
        for thread in watchers:
            thread.start()
        for thread in tables:
            thread.join(max(0.0, deadline + args.request_timeout - time.monotonic()))
        elapsed = time.monotonic() - created
        stop.set()
        for thread in watchers:
            thread.join(args.request_timeout)
        cpu = process_tree_cpu(proc.pid) - cpu_before
        if any(thread.is_alive() for thread in tables):
            stats.error("the hard time limit stopped some tables")
    finally:
        if proc is not None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
    try:
        problems = verify(db_name, stats)
    finally:
        if not args.keep_db:
            drop_database(db_name)

    deals = sum(len(v) for v in stats.acknowledged.values())
    print(f"\n{deals} deals saved in {elapsed:.1f} s: {deals / elapsed:.1f} deals/s")
    rows = []
    for kind in ["new_form", "new_save", "share", "deal_form", "save", "scoreboard", "poll"]:
        values = stats.times.get(kind)
        if not values:
            continue
        codes = " ".join(f"{c}x{n}" for c, n in sorted(stats.statuses[kind].items()))
        rows.append(
            [
                kind,
                str(len(values)),
                f"{percentile(values, 0.5):.0f}",
                f"{percentile(values, 0.95):.0f}",
                f"{percentile(values, 0.99):.0f}",
                f"{max(values):.0f}",
                codes,
            ]
        )
    print_table(
        ["request", "count", "p50 ms", "p95 ms", "p99 ms", "max ms", "status"],
        rows,
        {1, 2, 3, 4, 5},
    )
    print(
        f"\nserver CPU: {setup_cpu:.1f} s for the {args.tables} New match forms "
        f"({setup_cpu * 1000 / max(1, args.tables):.0f} ms each), then {cpu:.1f} s for the deals"
        + (f" and polls: {cpu * 1000 / deals:.1f} ms per deal cycle" if deals else "")
    )
    print(f"errors: {len(stats.errors)}")
    for text in stats.errors[:20]:
        print(f"  {text}")
    print(f"database check: {'OK' if not problems else f'{len(problems)} problems'}")
    for text in problems[:20]:
        print(f"  {text}")
    return 1 if stats.errors or problems or not deals else 0


if __name__ == "__main__":
    sys.exit(main())
