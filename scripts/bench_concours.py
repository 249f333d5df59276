"""Benchmark of the concours's data layer against issue 15's budgets.

Seeds a concours of 150 teams and 5 rounds (`seed_concours`: every table scored deal by deal
through the match services, 4,500 deals; `--paper` types the totals instead), one of 8 teams
(same rounds), and one of 150 teams whose fifth round is under way (half its tables playing).
Then prints the median (and p90) time and the query count of:

* the standings selector (`concours.selectors.standings`) after 5 rounds: budget < 100 ms
  median, the same query count for 8 teams and for 150;
* the same with a round under way (the sync reads the open tables' matches);
* the projector poll's change key (`selectors.change_key`, one query): the whole unchanged poll
  has a 10 ms budget;
* drawing round 6 (75 tables, 75 matches created): budget < 2 s (each run rolled back);
* the pages themselves, through Django's test client (middleware, templates, DEBUG off): the
  public standings page and the projector (budget < 100 ms median, the same query count for 8
  teams and 150), and the projector's unchanged poll answered 304 (budget < 10 ms).

`--teams 1000 --rounds 20` (issue 23) measures a big concours instead: a generated
`belote-tournament/1` file of paper totals (random pairings, no engine draw: 1,000 teams × 20
rounds, the last round under way, half its tables typed) imported through
`services.import_tournament`; then every page an organiser or a reader opens on it, over the
test client: the desk (owner, co-organiser link), the public standings, the projector, the prints
(ranking, round 20's draw poster and score sheets) and the files (concours.json, standings CSV).
Each page's p50 and p95 time (and the p95 of the CPU time the request used: the wall clock of a
shared machine counts other processes too), its queries and bytes, and the budgets: p95 under
1 s, the desk under 300 KB.

Run from the repository root:

    .venv/bin/python scripts/bench_concours.py [--runs N] [--paper] [--show-sql]
    .venv/bin/python scripts/bench_concours.py --teams 1000 --rounds 20 [--runs N]

Everything happens in a throwaway SQLite database in a temporary directory, with DEBUG off. The
exit code is 0 whatever the figures: this is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_report import percentile, print_sql, print_table, setup_django

STANDINGS_BUDGET_MS = 100.0
DRAW_BUDGET_S = 2.0
POLL_BUDGET_MS = 10.0
BIG_PAGE_BUDGET_MS = 1000.0  # p95 of every page of the big concours
BIG_DESK_BYTES = 300_000


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

    from scorekeeper.concours import selectors
    from scorekeeper.concours.models import Tournament

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
    from scorekeeper.concours import selectors
    from scorekeeper.concours.models import Tournament

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

    from scorekeeper.concours.models import Tournament

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

    from scorekeeper.concours import services
    from scorekeeper.concours.models import Tournament

    samples, tables = [], 0
    for _ in range(runs):
        with transaction.atomic():
            started = time.perf_counter()
            round_ = services.draw_round(tournament=Tournament.objects.get(pk=pk))
            samples.append(time.perf_counter() - started)
            tables = round_.tables.count()
            transaction.set_rollback(True)
    return samples, tables


def big_file(teams: int, rounds: int, seed: int = 1) -> str:
    """A `belote-tournament/1` file of `teams` teams and `rounds` rounds of paper totals, each
    round's pairing random (the engine's swiss draw takes seconds a round at this size), the last
    round under way: every other table typed, the others waiting."""
    import json
    import random

    from scorekeeper.concours.services import FORMATS
    from scorekeeper.engine import tournament as tournament_engine
    from scorekeeper.engine.tournament.tfile import dump_tournament

    rng = random.Random(seed)
    settings = tournament_engine.settings_from_dict(
        {**FORMATS["belote"], "rounds": rounds, "seed": seed}
    )
    entrants = tuple(
        tournament_engine.Entrant(i, f"Team {i}", (f"Player {i}a", f"Player {i}b"))
        for i in range(1, teams + 1)
    )
    played = []
    for number in range(1, rounds + 1):
        ids = list(range(1, teams + 1))
        rng.shuffle(ids)
        byes = tuple(sorted(ids[teams - teams % 2 :]))
        tables = []
        for index in range(teams // 2):
            sides = ((ids[2 * index],), (ids[2 * index + 1],))
            if number == rounds and index % 2:
                tables.append(tournament_engine.Table(index + 1, sides))
            else:
                first = rng.randint(500, 1444)
                tables.append(
                    tournament_engine.Table(index + 1, sides, totals=(first, 1944 - first))
                )
        played.append(tournament_engine.Round(tuple(tables), byes))
    engine = tournament_engine.Tournament(
        settings, entrants, tuple(played), name=f"Concours {teams} × {rounds}", date="2025-06-01"
    )
    return json.dumps(dump_tournament(engine), ensure_ascii=False)


def big_seed(teams: int, rounds: int) -> tuple[int, int, int]:
    """The big concours imported: (its pk, the file's size in bytes, import seconds)."""
    from django.contrib.auth import get_user_model

    from scorekeeper.concours import services

    text = big_file(teams, rounds)
    owner, _ = get_user_model().objects.get_or_create(username="organiser")
    started = time.perf_counter()
    tournament = services.import_tournament(owner=owner, text=text)
    took = time.perf_counter() - started
    size = len(text.encode())
    print(f"imported {teams} teams × {rounds} rounds ({size // 1024} KB): {took:.1f} s", flush=True)
    return tournament.pk, size, took


def big_pages(pk: int) -> list[tuple[str, str, Any]]:
    """(label, url, client) of every page measured on the big concours."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from scorekeeper.concours.models import Tournament

    tournament = Tournament.objects.get(pk=pk)
    owner = Client()
    owner.force_login(get_user_model().objects.get(pk=tournament.owner_id))
    helper = Client()
    helper.get(reverse("concours:co", args=[tournament.co_token]), secure=True)
    reader = Client()
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 1
    desk = reverse("concours:desk", args=[pk])
    public = tournament.public_token
    return [
        ("desk (owner)", desk, owner),
        ("desk (co-organiser link)", desk, helper),
        ("public standings", reverse("concours_public:standings", args=[public]), reader),
        ("projector", reverse("concours_public:projector", args=[public]), reader),
        ("print: ranking", reverse("concours:print_ranking", args=[pk]), owner),
        (
            f"print: draw poster, round {last}",
            reverse("concours:print_draw", args=[pk, last]),
            owner,
        ),
        (
            f"print: score sheets, round {last}",
            reverse("concours:print_sheets", args=[pk, last]),
            owner,
        ),
        ("file: concours.json", reverse("concours:export", args=[pk]), owner),
        ("file: standings CSV", reverse("concours:standings_csv", args=[pk]), owner),
    ]


def big_timing(client: Any, url: str, runs: int) -> tuple[list[float], list[float], int, int, int]:
    """(milliseconds, CPU milliseconds, queries, bytes, status) of a GET, after one warm-up
    request (its queries
    counted by an execute wrapper: the query log is cleared when a request starts)."""
    from django.db import connection

    def get() -> Any:
        response = client.get(url, secure=True)
        body = b"".join(response) if response.streaming else response.content
        return response, body

    queries: list[str] = []

    def count(execute: Any, sql: str, *args: Any) -> Any:
        queries.append(sql)
        return execute(sql, *args)

    with connection.execute_wrapper(count):
        response, body = get()
    samples, cpu = [], []
    for _ in range(runs):
        started, used = time.perf_counter(), time.process_time()
        get()
        samples.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - used) * 1000)
    return samples, cpu, len(queries), len(body), response.status_code


def big_main(teams: int, rounds: int, runs: int, only: str = "") -> None:
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "bench.sqlite3")
        pk, _size, _took = big_seed(teams, rounds)
        rows: list[list[str]] = []
        verdicts: list[str] = []
        for label, url, client in big_pages(pk):
            if only not in label:
                continue
            samples, cpu, queries, size, status = big_timing(client, url, runs)
            p95 = percentile(samples, 0.95)
            rows.append([label, str(status), f"{statistics.median(samples):.0f} ms",
                         f"{p95:.0f} ms", f"{percentile(cpu, 0.95):.0f} ms", str(queries),
                         f"{size / 1024:.0f} KB"])  # fmt: skip
            ok = p95 < BIG_PAGE_BUDGET_MS and status == 200
            verdicts.append(f"{'PASS' if ok else 'FAIL'} {label}: p95 {p95:.0f} ms, {status} "
                            f"(budget {BIG_PAGE_BUDGET_MS:.0f} ms)")  # fmt: skip
            if label.startswith("desk"):
                ok = size < BIG_DESK_BYTES
                verdicts.append(f"{'PASS' if ok else 'FAIL'} {label}: {size / 1024:.0f} KB "
                                f"(budget {BIG_DESK_BYTES // 1000} KB)")  # fmt: skip
        print()
        load = " ".join(f"{n:.1f}" for n in os.getloadavg())
        print(f"{teams} teams × {rounds} rounds, round {rounds} under way; {runs} runs a page; "
              f"load average {load} ({os.cpu_count()} CPUs): other processes slow the wall "
              "clock, the CPU time of the request is its own")  # fmt: skip
        print_table(["page", "status", "p50", "p95", "CPU p95", "queries", "bytes"], rows,
                    right={1, 2, 3, 4, 5, 6})  # fmt: skip
        print()
        print("\n".join(verdicts))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--paper", action="store_true", help="seed with typed totals, no deals")
    parser.add_argument("--show-sql", action="store_true")
    parser.add_argument("--teams", type=int, help="a big concours instead (with --rounds)")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--only", default="", help="big concours: the pages whose label has it")
    args = parser.parse_args()
    if args.teams:
        big_main(args.teams, args.rounds, args.runs, args.only)
        return
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
