"""Benchmark of the concours's data layer against issue 15's budgets.

Seeds a concours of 150 teams and 5 rounds (`seed_concours`: every table scored deal by deal
through the match services, 4,500 deals; `--paper` types the totals instead), one of 8 teams
(same rounds), and one of 150 teams whose fifth round is under way (half its tables playing).
Then prints the median (and p90) time and the query count of:

* the standings selector (`tournaments.selectors.standings`) after 5 rounds: budget < 100 ms
  median, the same query count for 8 teams and for 150;
* the same with a round under way (the sync reads the open tables' matches);
* the projector poll's change key (`selectors.change_key`, one query): the whole unchanged poll
  has a 10 ms budget;
* drawing round 6 (75 tables, 75 matches created): budget < 2 s (each run rolled back);
* the pages themselves, through Django's test client (middleware, templates, DEBUG off): the
  public standings page and the projector (budget < 100 ms median, the same query count for 8
  teams and 150), and the projector's unchanged poll answered 304 (budget < 10 ms).

Run from the repository root:

    .venv/bin/python scripts/bench_concours.py [--runs N] [--paper] [--show-sql]

Everything happens in a throwaway SQLite database in a temporary directory, with DEBUG off. The
exit code is 0 whatever the figures: this is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_report import percentile, print_sql, print_table, setup_django

STANDINGS_BUDGET_MS = 100.0
DRAW_BUDGET_S = 2.0
POLL_BUDGET_MS = 10.0


def seed(teams: int, rounds: int, *extra: str) -> int:
    import io

    from django.core.management import call_command

    out = io.StringIO()
    started = time.perf_counter()
    call_command(
        "seed_concours", *extra, teams=teams, rounds=rounds, planned=rounds + 1, stdout=out,
        stderr=io.StringIO(),
    )  # fmt: skip
    print(f"seeded {teams} teams × {rounds} rounds{''.join(' ' + e for e in extra)}: "
          f"{time.perf_counter() - started:.1f} s")  # fmt: skip
    return int(out.getvalue().strip())


def standings_timing(pk: int, runs: int) -> tuple[list[float], int, list[str]]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from scorekeeper.tournaments import selectors
    from scorekeeper.tournaments.models import Tournament

    samples = []
    for _ in range(runs + 2):  # two warm-up runs
        started = time.perf_counter()
        tournament = Tournament.objects.get(pk=pk)
        selectors.standings(tournament)
        samples.append((time.perf_counter() - started) * 1000)
    with CaptureQueriesContext(connection) as queries:
        selectors.standings(Tournament.objects.get(pk=pk))
    return samples[2:], len(queries), [q["sql"] for q in queries.captured_queries]


def poll_timing(pk: int, runs: int) -> list[float]:
    from scorekeeper.tournaments import selectors
    from scorekeeper.tournaments.models import Tournament

    token = Tournament.objects.get(pk=pk).public_token
    samples = []
    for _ in range(runs + 2):
        started = time.perf_counter()
        selectors.change_key(public_token=token)
        samples.append((time.perf_counter() - started) * 1000)
    return samples[2:]


def page_timing(pk: int, runs: int, page: str, poll: bool = False) -> tuple[list[float], int, int]:
    """A public page over the test client: (milliseconds, queries, status). `poll`: the htmx
    poll of its fragment carrying the tag of the previous answer (nothing changed: 304)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from scorekeeper.tournaments.models import Tournament

    client = Client()
    url = reverse(f"concours_public:{page}", args=[Tournament.objects.get(pk=pk).public_token])
    headers: dict[str, str] = {}
    if poll:
        headers["HX-Request"] = "true"
        headers["If-None-Match"] = client.get(url, headers=headers, secure=True)["ETag"]
    samples, status = [], 0
    for _ in range(runs + 2):
        started = time.perf_counter()
        status = client.get(url, headers=headers, secure=True).status_code
        samples.append((time.perf_counter() - started) * 1000)
    with CaptureQueriesContext(connection) as queries:
        client.get(url, headers=headers, secure=True)
    return samples[2:], len(queries), status


def draw_timing(pk: int, runs: int) -> tuple[list[float], int]:
    from django.db import transaction

    from scorekeeper.tournaments import services
    from scorekeeper.tournaments.models import Tournament

    samples, tables = [], 0
    for _ in range(runs):
        with transaction.atomic():
            started = time.perf_counter()
            round_ = services.draw_round(tournament=Tournament.objects.get(pk=pk))
            samples.append(time.perf_counter() - started)
            tables = round_.tables.count()
            transaction.set_rollback(True)
    return samples, tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--paper", action="store_true", help="seed with typed totals, no deals")
    parser.add_argument("--show-sql", action="store_true")
    args = parser.parse_args()
    extra = ("--paper",) if args.paper else ()
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "bench.sqlite3")
        big = seed(150, 5, *extra)
        small = seed(8, 5, *extra)
        under_way = seed(150, 5, "--paper", "--open-last")
        rows: list[list[str]] = []
        verdicts: list[str] = []
        results: dict[str, Any] = {}
        for label, pk in (("150 teams × 5", big), ("8 teams × 5", small),
                          ("150 teams, round 5 under way", under_way)):  # fmt: skip
            samples, queries, sql = standings_timing(pk, args.runs)
            results[label] = (samples, queries, sql)
            rows.append([f"standings, {label}", f"{statistics.median(samples):.1f} ms",
                         f"{percentile(samples, 0.9):.1f} ms", str(queries)])  # fmt: skip
        pages: dict[tuple[str, str], tuple[list[float], int, int]] = {}
        for label, pk in (("150 teams × 5", big), ("8 teams × 5", small),
                          ("150 teams, round 5 under way", under_way)):  # fmt: skip
            for page in ("standings", "projector"):
                timing = pages[(page, label)] = page_timing(pk, args.runs, page)
                rows.append([f"{page} page, {label}", f"{statistics.median(timing[0]):.1f} ms",
                             f"{percentile(timing[0], 0.9):.1f} ms", str(timing[1])])  # fmt: skip
        unchanged, poll_queries, poll_status = page_timing(under_way, args.runs, "projector", True)
        rows.append([f"projector poll, unchanged ({poll_status})",
                     f"{statistics.median(unchanged):.2f} ms",
                     f"{percentile(unchanged, 0.9):.2f} ms", str(poll_queries)])  # fmt: skip
        polls = poll_timing(under_way, args.runs)
        rows.append(["poll key, round 5 under way", f"{statistics.median(polls):.2f} ms",
                     f"{percentile(polls, 0.9):.2f} ms", "1"])  # fmt: skip
        draws, tables = draw_timing(big, max(3, args.runs // 10))
        rows.append([f"draw round 6 ({tables} tables)", f"{statistics.median(draws):.2f} s",
                     f"{percentile(draws, 0.9):.2f} s", ""])  # fmt: skip
        print()
        print_table(["measure", "median", "p90", "queries"], rows, right={1, 2, 3})
        big_samples, big_queries, big_sql = results["150 teams × 5"]
        small_queries = results["8 teams × 5"][1]
        median = statistics.median(big_samples)
        verdicts.append(
            f"{'PASS' if median < STANDINGS_BUDGET_MS else 'FAIL'} standings 150 × 5: "
            f"{median:.1f} ms (budget {STANDINGS_BUDGET_MS:.0f} ms)"
        )
        verdicts.append(
            f"{'PASS' if big_queries == small_queries else 'FAIL'} constant queries: "
            f"{small_queries} for 8 teams, {big_queries} for 150"
        )
        for page in ("standings", "projector"):
            samples, queries, _status = pages[(page, "150 teams × 5")]
            median = statistics.median(samples)
            small_page = pages[(page, "8 teams × 5")][1]
            verdicts.append(
                f"{'PASS' if median < STANDINGS_BUDGET_MS else 'FAIL'} {page} page 150 × 5: "
                f"{median:.1f} ms (budget {STANDINGS_BUDGET_MS:.0f} ms)"
            )
            verdicts.append(
                f"{'PASS' if queries == small_page else 'FAIL'} {page} page constant queries: "
                f"{small_page} for 8 teams, {queries} for 150"
            )
        median = statistics.median(unchanged)
        verdicts.append(
            f"{'PASS' if median < POLL_BUDGET_MS and poll_status == 304 else 'FAIL'} projector "
            f"poll, unchanged: {median:.2f} ms, {poll_status}, {poll_queries} queries "
            f"(budget {POLL_BUDGET_MS:.0f} ms)"
        )
        poll = statistics.median(polls)
        verdicts.append(
            f"{'PASS' if poll < POLL_BUDGET_MS else 'FAIL'} poll key: {poll:.2f} ms "
            f"(budget {POLL_BUDGET_MS:.0f} ms for the whole unchanged poll)"
        )
        draw = statistics.median(draws)
        verdicts.append(
            f"{'PASS' if draw < DRAW_BUDGET_S else 'FAIL'} draw of {tables} tables: "
            f"{draw:.2f} s (budget {DRAW_BUDGET_S:.0f} s)"
        )
        print()
        print("\n".join(verdicts))
        if args.show_sql:
            print_sql("standings, 150 teams × 5", big_sql)


if __name__ == "__main__":
    main()
