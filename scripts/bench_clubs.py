"""Benchmark of a club's public pages against issue 16's budget.

Seeds issue 16's club (`seed_club`: 10 seasons, 120 concours, 6,000 entrants, every concours
played through the services with paper totals, finished, attached and published; a few minutes),
then requests through Django's test client, as a visitor without an account, and prints the
median (and p90) time, the median CPU time of the process (what a busy shared machine does not
inflate) and the query count of:

* the club page (its 120 concours with their podiums, its seasons);
* each season's ranking page (12 concours; four rules: points or placement, best 8, teams or
  players);
* the record of a regular player and of a regular team (every concours of the club read);
* the season ranking as CSV.

Budget: each page < 100 ms median, with the same number of queries whatever the club's size
(tests/clubs/test_public_pages.py asserts it for 2 and 6 concours). `--small` seeds 2 seasons of 3
concours of 10 entrants instead (quick check that the query counts are the same).

Run from the repository root:

    .venv/bin/python scripts/bench_clubs.py [--runs N] [--small] [--show-sql] [--db PATH]

`--db PATH` keeps the seeded database (seeding takes about 10 minutes on a busy 2-core machine)
and reuses it on the next run.

Everything happens in a throwaway SQLite database in a temporary directory (or `--db`), with
DEBUG off. The
exit code is 0 whatever the figures: this is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import io
import statistics
import tempfile
import time
from pathlib import Path

from bench_report import percentile, print_sql, print_table, setup_django

BUDGET_MS = 100.0


def seed(small: bool) -> str:
    from django.core.management import call_command

    out = io.StringIO()
    started = time.perf_counter()
    sizes = {"seasons": 2, "per_season": 3, "teams": 10} if small else {}
    call_command("seed_club", stdout=out, stderr=io.StringIO(), **sizes)
    print(f"seeded the club: {time.perf_counter() - started:.0f} s")
    return out.getvalue().strip()


def measure(url: str, runs: int) -> tuple[list[float], list[float], int, list[str]]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    response = client.get(url, secure=True)  # warm: templates compiled, people recorded
    assert response.status_code == 200, (url, response.status_code)
    samples, cpu = [], []
    for _ in range(runs):
        started, used = time.perf_counter(), time.process_time()
        response = client.get(url, secure=True)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
        samples.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
    with CaptureQueriesContext(connection) as queries:
        client.get(url, secure=True)
    return samples, cpu, len(queries), [q["sql"] for q in queries.captured_queries]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--small", action="store_true")
    parser.add_argument("--show-sql", action="store_true")
    parser.add_argument(
        "--db", type=Path, help="keep the seeded SQLite database here (seeded once, then reused)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db_path = args.db.resolve() if args.db else Path(folder) / "bench.sqlite3"
        reuse = db_path.exists()
        setup_django(db_path)
        if reuse:
            from scorekeeper.clubs.models import Club as Seeded

            slug = Seeded.objects.order_by("-pk").values_list("slug", flat=True)[0]
            print(f"reusing the club of {db_path}")
        else:
            slug = seed(args.small)
        from django.db.models import Count
        from django.urls import reverse

        from scorekeeper.clubs.models import Club, Person

        club = Club.objects.get(slug=slug)
        pages = [("club page", reverse("club_public:club", args=[slug]))]
        for season in club.seasons.order_by("start"):
            rule = season.rule
            label = f"{season.name} ({rule['measure']}, {rule['rank']}, best {rule['best']})"
            pages.append((label, reverse("club_public:season", args=[slug, season.pk])))
        latest = club.seasons.order_by("-start").first()
        assert latest is not None
        pages.append(("season CSV", reverse("club_public:season_csv", args=[slug, latest.pk])))
        for kind in ("player", "team"):
            regular = (
                Person.objects.filter(club=club, kind=kind)
                .annotate(n=Count("aliases"))
                .order_by("pk")
                .first()
            )
            assert regular is not None
            url = reverse("club_public:record", args=[slug, regular.pk])
            pages.append((f"record of a {kind} ({regular.name})", url))
        rows = []
        sql = {}
        for label, url in pages:
            samples, cpu, count, queries = measure(url, args.runs)
            sql[label] = queries
            median = statistics.median(samples)
            rows.append(
                [
                    label,
                    f"{median:.1f}",
                    f"{percentile(samples, 0.9):.1f}",
                    f"{statistics.median(cpu):.1f}",
                    str(count),
                    "ok" if median < BUDGET_MS else "OVER",
                ]
            )
        print()
        headers = ["page", "median ms", "p90 ms", "CPU ms", "queries", f"< {BUDGET_MS:.0f} ms"]
        print_table(headers, rows, {1, 2, 3, 4})
        if args.show_sql:
            for label, queries in sql.items():
                print_sql(label, queries)


if __name__ == "__main__":
    main()
