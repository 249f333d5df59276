"""Profile of the deal cycle in one process: where the server's CPU goes.

One cycle is what a phone does for each deal: GET the deal form, POST Save (redirect), GET the
scoreboard. The script runs `--cycles` cycles on matches of `--deals` deals (DEBUG off, the Django
test client, a throwaway PostgreSQL database `scorekeeper_profile_<pid>` on 127.0.0.1:5432, or
SQLite with --sqlite), prints the time per request kind and the top of cProfile's table of CPU time
(cumulative, then own time; waiting on the database is not counted).

    .venv/bin/python scripts/profile_deal_cycle.py [--cycles 200] [--top 30]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import re
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from pathlib import Path

from bench_report import percentile, print_table

REPO_ROOT = Path(__file__).resolve().parent.parent
PG = "postgres://postgres@127.0.0.1:5432"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=200)
    parser.add_argument("--deals", type=int, default=10, help="deals per match before a new one")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument("--no-profile", action="store_true", help="times only, no cProfile")
    parser.add_argument("--dump", help="also write the raw profile to this file (pstats)")
    args = parser.parse_args()

    db_name = f"scorekeeper_profile_{os.getpid()}"
    tmp = tempfile.mkdtemp()
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
            "DATABASE_URL": f"sqlite:///{tmp}/p.sqlite3" if args.sqlite else f"{PG}/{db_name}",
            "SECRET_KEY": "profile-" + uuid.uuid4().hex * 2,
            "DEBUG": "false",
            "ALLOWED_HOSTS": "testserver",
            "SECURE_SSL_REDIRECT": "false",
            "LOG_LEVEL": "ERROR",
        }
    )
    sys.path.insert(0, str(REPO_ROOT))
    if not args.sqlite:
        import psycopg

        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{db_name}"')
    try:
        import django
        from django.conf import settings

        settings.STORAGES = {  # no collectstatic needed
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        django.setup()
        from django.core.management import call_command
        from django.test import Client

        call_command("migrate", verbosity=0)
        run(args, Client)
    finally:
        if not args.sqlite:
            from django.db import connections

            connections.close_all()
            import psycopg

            with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
    return 0


def run(args: argparse.Namespace, client_class: type) -> None:
    client = client_class(HTTP_X_FORWARDED_PROTO="https", HTTP_ACCEPT_LANGUAGE="en", secure=True)
    times: dict[str, list[float]] = defaultdict(list)
    new_match = {
        "preset": "coinche", "team0_name": "Nous", "team1_name": "Eux", "seat0": "Alice",
        "seat1": "Chloé", "seat2": "Bruno", "seat3": "David", "first_dealer": "0",
        "target": "100000",
    }  # fmt: skip
    value = re.compile(r'name="(version|submission)" value="([^"]*)"')

    def cycle(url: str, index: int) -> None:
        start = time.perf_counter()
        form = client.get(f"{url}deal/")
        times["deal_form"].append(time.perf_counter() - start)
        fields = dict(value.findall(form.text))
        post = {
            "taker": str(index % 2), "contract": "80", "trump": "hearts", "coinche": "none",
            "taker_points": str(60 + index % 90), "defence_points": "", "capot": "",
            "belote0": "0", "belote1": "0", "note": "", **fields,
        }  # fmt: skip
        start = time.perf_counter()
        saved = client.post(f"{url}deal/", post)
        times["save"].append(time.perf_counter() - start)
        assert saved.status_code == 302, saved.status_code
        start = time.perf_counter()
        client.get(url)
        times["scoreboard"].append(time.perf_counter() - start)

    def matches() -> str:
        response = client.post("/new/", new_match)
        assert response.status_code == 302, response.status_code
        return str(response["Location"])

    url = matches()
    for i in range(5):  # warm up: templates, translations, connections
        cycle(url, i)
    profiler = cProfile.Profile(time.process_time)  # CPU, not time spent waiting on the database
    times.clear()
    url = matches()
    if not args.no_profile:
        profiler.enable()
    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(args.cycles):
        if i and i % args.deals == 0:
            url = matches()
        cycle(url, i)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    profiler.disable()
    rows = [
        [
            kind,
            f"{percentile(v, 0.5) * 1000:.1f}",
            f"{percentile(v, 0.95) * 1000:.1f}",
            f"{sum(v) / len(v) * 1000:.1f}",
        ]
        for kind, v in times.items()
    ]
    print(
        f"{args.cycles} cycles: {wall / args.cycles * 1000:.1f} ms per cycle, of which "
        f"{cpu / args.cycles * 1000:.1f} ms CPU in this process (server and test client)"
        f"{'' if args.no_profile else ', profiled'}\n"
    )
    print_table(["request", "p50 ms", "p95 ms", "mean ms"], rows, {1, 2, 3})
    if args.no_profile:
        return
    if args.dump:
        profiler.dump_stats(args.dump)
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats(args.top)
    stats.sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    sys.exit(main())
