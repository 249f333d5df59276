"""Live pages against polling (issue 43), side by side in one run on PostgreSQL.

    .venv/bin/python scripts/bench_live.py [--spectators 1000] [--matches 200] [--idle 60]

1. 200 matches; their spectators (5 a match) open streams on one streams' server (uvicorn via
   scorekeeper/web/live/serve.py); the server's CPU is measured over `--idle` seconds of quiet.
2. A deal is saved at each match, one every 50 ms (through the services, as a Save commits it):
   from each commit to each stream of that match receiving the event, p50/p95/max; then every
   stream asks its fragment (one GET through gunicorn, as live.js does): commit to fragment.
3. The same spectators polling the fragment every 10 s with its ETag (today's fallback) against
   gunicorn (4 sync workers): gunicorn's CPU over the same idle time.
The clients run in this process (asyncio); only the servers' CPU is counted (/proc)."""

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")


def cpu_of(pid: int) -> float:
    """CPU seconds of a process and its children (alive ones), from /proc."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    pids = [pid]
    for child in Path(f"/proc/{pid}/task").glob("*/children"):
        pids += [int(p) for p in child.read_text().split()]
    for p in pids:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except OSError:
            continue
    return total


async def http_get(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str]]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    lines = [f"GET {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head = raw.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    found = dict(line.split(": ", 1) for line in head[1:] if ": " in line)
    return int(head[0].split()[1]), found


class Spectator:
    def __init__(self, topic: str, signed: str, version: int, view: str) -> None:
        self.topic, self.signed, self.version, self.view = topic, signed, version, view
        self.events: list[tuple[float, str]] = []
        self.fragments: list[float] = []

    async def follow(self, live_port: int, web_port: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", live_port)
        path = f"/live/?t={self.signed}&v={self.topic}={self.version}"
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        await writer.drain()
        while line := await reader.readline():
            if line.startswith(b"data: "):
                self.events.append((time.perf_counter(), line.decode().split()[-1]))
                status, _ = await http_get(
                    web_port,
                    f"/view/{self.view}/",
                    {"HX-Request": "true", "HX-Target": "scoreboard"},
                )
                if status == 200:
                    self.fragments.append(time.perf_counter())

    async def poll(self, web_port: int, every: float, stop: asyncio.Event) -> None:
        tag = ""
        await asyncio.sleep(random.uniform(0, every))
        while not stop.is_set():
            headers = {"HX-Request": "true", "HX-Target": "scoreboard"}
            if tag:
                headers["If-None-Match"] = tag
            _, found = await http_get(web_port, f"/view/{self.view}/", headers)
            tag = found.get("ETag", tag)
            await asyncio.sleep(every)


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else values[0]


async def main_async(args: argparse.Namespace, env: dict[str, str]) -> None:
    import django

    django.setup()
    from scorekeeper.matches import services
    from scorekeeper.matches.models import Match
    from scorekeeper.web.live.topics import sign
    from tests.factories import MatchFactory
    from tests.matches.support import coinche_deal

    matches = [MatchFactory.create() for _ in range(args.matches)]
    spectators = [
        Spectator(f"m{m.pk}", sign(f"m{m.pk}"), m.version, m.view_token)
        for m in matches
        for _ in range(args.spectators // args.matches)
    ]
    web_port, live_port = 18700 + random.randrange(100), 18800 + random.randrange(100)
    gunicorn = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "scorekeeper.wsgi"],
        cwd=REPO, env={**env, "GUNICORN_BIND": f"127.0.0.1:{web_port}", "GUNICORN_WORKERS": "4"},
    )  # fmt: skip
    live = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper.web.live.serve", f"--bind=127.0.0.1:{live_port}"],
        cwd=REPO, env=env,
    )  # fmt: skip
    try:
        await asyncio.sleep(6)
        tasks = [asyncio.create_task(s.follow(live_port, web_port)) for s in spectators]
        await asyncio.sleep(5)
        opened = cpu_of(live.pid)
        await asyncio.sleep(args.idle)
        idle_streams = (cpu_of(live.pid) - opened) * 60 / args.idle
        print(f"{len(spectators)} streams open, idle: {idle_streams:.2f} CPU-s a minute")
        commits: dict[tuple[str, str], float] = {}
        for match in matches:
            services.record_deal(
                match_id=match.pk, expected_version=None, deal=coinche_deal(taker=0),
                author=services.Author(key="bench", label="bench"),
            )  # fmt: skip
            version = Match.objects.values_list("version", flat=True).get(pk=match.pk)
            commits[(f"m{match.pk}", str(version))] = time.perf_counter()
            await asyncio.sleep(0.05)
        await asyncio.sleep(5)
        told = [
            at - commits[(s.topic, v)]
            for s in spectators
            for at, v in s.events
            if (s.topic, v) in commits
        ]
        shown = [
            at - commits[(s.topic, s.events[-1][1])]
            for s in spectators for at in s.fragments[-1:] if s.events
        ]  # fmt: skip
        print(
            f"commit -> event: {len(told)}/{len(spectators)} told, p50 {pct(told, 50) * 1000:.1f} ms,"
            f" p95 {pct(told, 95) * 1000:.1f} ms, max {max(told) * 1000:.1f} ms"
        )
        print(
            f"commit -> fragment shown: {len(shown)}, p50 {pct(shown, 50) * 1000:.1f} ms,"
            f" p95 {pct(shown, 95) * 1000:.1f} ms, max {max(shown) * 1000:.1f} ms"
        )
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        stop = asyncio.Event()
        polls = [asyncio.create_task(s.poll(web_port, 10, stop)) for s in spectators]
        await asyncio.sleep(10)
        start = cpu_of(gunicorn.pid)
        await asyncio.sleep(args.idle)
        idle_polls = (cpu_of(gunicorn.pid) - start) * 60 / args.idle
        stop.set()
        await asyncio.gather(*polls, return_exceptions=True)
        print(f"{len(spectators)} pollers every 10 s, idle: {idle_polls:.2f} CPU-s a minute")
        print(f"streams / polling: 1/{idle_polls / max(idle_streams, 1e-9):.0f}")
    finally:
        for process in (gunicorn, live):
            process.terminate()
            process.wait(20)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--idle", type=float, default=60)
    args = parser.parse_args()
    import psycopg

    name = f"bench_live_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    env = {
        **os.environ, "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
        "DATABASE_URL": f"{PG}/{name}", "DEBUG": "true", "ALLOWED_HOSTS": "127.0.0.1",
        "SECRET_KEY": "bench-live-" + uuid.uuid4().hex * 2, "GUNICORN_LOG_LEVEL": "warning",
        "LIVE_STREAMS_PER_ADDRESS": "100000",
    }  # fmt: skip
    os.environ.update(env, DJANGO_ALLOW_ASYNC_UNSAFE="true")  # this script's own setup
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=REPO, env=env, check=True
        )
        print(f"load: {os.getloadavg()}")
        asyncio.run(main_async(args, env))
        print(f"load: {os.getloadavg()}")
    finally:
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
