"""Benchmark of the history and player pages against the performance budget (issue 4).

Seeds 10,000 matches owned by one account (`seed_demo --bulk`: every match played through the
engine), with one player who sits at the table in 2,000 of them, and a second account with a few
matches (the same player in a handful). Prints the SQL queries and the median (and p90) server
time of the first page of that account's history (GET /history/) and of that player's page
(GET /players/<id>/), then PASS/FAIL for each budget:

* the history's first page takes under 100 ms (median) at 10,000 matches on this machine;
* the player's page takes under 300 ms (median) for a player with 2,000 matches;
* the query counts do not grow with the data (same count for the small account and the large one).

Before measuring, a sample of the seeded matches is re-scored through services.rescore (and rolled
back): the seeded scores and texts must be exactly what the app itself would have written.

Run from the repository root:

    .venv/bin/python scripts/bench_history.py [--runs N] [--show-sql] [--keep DIR]

Everything happens in a throwaway SQLite database in a temporary directory, with DEBUG off. With
`--keep DIR` the database is kept in DIR (one file per seed and size) and reused by the next run
with the same options, which then skips the seeding; migrations still run, so new indexes apply.
Delete the file after changing seed_demo. The exit code is 0 whatever the figures: this is a
benchmark, not a test.
"""

from __future__ import annotations

import argparse
import gzip
import io
import os
import random
import shutil
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench_report import Samples, print_sql, print_table

REPO_ROOT = Path(__file__).resolve().parent.parent

HISTORY_BUDGET_MS = 100.0
PLAYER_BUDGET_MS = 300.0
WARMUP = 3
PLAYER_NAME = "Zoé"
SPREAD_DAYS = 3 * 365
CHECKED_MATCHES = 25
HEADERS = {
    "HTTP_ACCEPT_ENCODING": "gzip, deflate, br",
    "HTTP_USER_AGENT": "Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile bench",
    "HTTP_ACCEPT_LANGUAGE": "en",
}


@dataclass(frozen=True)
class Size:
    label: str
    username: str
    matches: int
    player_matches: int


# Django setup (everything environment-related must happen before django.setup()) ----------------


def setup_django(db_path: Path, tmp: Path) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    os.environ["SECRET_KEY"] = "bench-" + uuid.uuid4().hex * 2
    os.environ["DEBUG"] = "0"
    os.environ["ALLOWED_HOSTS"] = "testserver,localhost,127.0.0.1"
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))

    from django.conf import settings

    # As in bench_scoreboard.py: plain static storage (no collectstatic), an empty STATIC_ROOT.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    static_root = tmp / "staticfiles"
    static_root.mkdir(exist_ok=True)
    settings.STATIC_ROOT = static_root

    import django

    django.setup()
    assert not settings.DEBUG

    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


# Seeding ----------------------------------------------------------------------------------------


def seeded(size: Size) -> bool:
    from scorekeeper.matches.models import Match

    return Match.objects.filter(owner__username=size.username).count() == size.matches


def seed(size: Size, seed_value: int) -> float:
    """Seed `size` through seed_demo --bulk unless the (kept) database already has it."""
    from django.core.management import call_command

    from scorekeeper.matches.models import Match

    if seeded(size):
        return 0.0
    Match.objects.filter(owner__username=size.username).delete()
    started = time.perf_counter()
    call_command(
        "seed_demo",
        matches=size.matches,
        seed=seed_value,
        owner=size.username,
        player=PLAYER_NAME,
        player_matches=size.player_matches,
        spread_days=SPREAD_DAYS,
        bulk=True,
        stdout=io.StringIO(),
    )
    return time.perf_counter() - started


def rescore_differences(match_ids: list[int]) -> list[str]:
    """Re-score these matches through services.rescore, in a transaction rolled back, and list
    every field the seeding wrote differently."""
    from django.db import transaction

    from scorekeeper.matches import services
    from scorekeeper.matches.models import Match

    match_fields = ["total0", "total1", "reserve", "deal_count", "status", "winner"]
    differences: list[str] = []
    with transaction.atomic():
        for match in Match.objects.filter(pk__in=match_ids):
            rows = list(match.deals.in_order())
            before = [{f: getattr(r, f) for f in services.CACHE_FIELDS} for r in rows]
            match_before = {f: getattr(match, f) for f in match_fields}
            services.rescore(match, rows)
            for row, old in zip(rows, before, strict=True):
                for name, value in old.items():
                    if getattr(row, name) != value:
                        differences.append(f"match {match.pk} deal {row.seq} {name}")
            for name, value in match_before.items():
                if getattr(match, name) != value:
                    differences.append(f"match {match.pk} {name}")
        transaction.set_rollback(True)
    return differences


# Measuring --------------------------------------------------------------------------------------


@dataclass
class Timing(Samples):
    label: str
    size: Size
    samples_ms: list[float]
    queries: list[int]
    sql: list[str] = field(default_factory=list)  # the SQL of the last captured request


def measure(label: str, size: Size, client: Any, url: str, expect: str, runs: int) -> Timing:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def get() -> Any:
        # Over HTTPS, as in production (DEBUG off redirects plain http to https).
        response = client.get(url, secure=True, **HEADERS)
        assert response.status_code == 200, (url, response.status_code)
        return response

    for _ in range(WARMUP):
        response = get()
    body = response.content
    if "gzip" in response.get("Content-Encoding", ""):
        body = gzip.decompress(body)
    text = body.decode(response.charset or "utf-8")
    assert expect in text, f"{url}: {expect!r} not on the page"
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        get()
        samples.append((time.perf_counter() - start) * 1000)
    counts, sql = [], []
    for _ in range(3):  # counted apart, so the debug cursor does not weigh on the timings
        with CaptureQueriesContext(connection) as ctx:
            get()
        sql = [q["sql"] for q in ctx.captured_queries]
        counts.append(len(sql))
    return Timing(label, size, samples, counts, sql)


def bench_size(size: Size, runs: int) -> tuple[Timing, Timing]:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from scorekeeper.matches.models import Match, Player

    user = get_user_model().objects.get(username=size.username)
    player = Player.objects.get(owner=user, name=PLAYER_NAME)
    played = Match.objects.filter(players=player).count()
    assert played == size.player_matches, (played, size.player_matches)
    client = Client()
    client.force_login(user)
    history = measure(
        "history, first page", size, client, "/history/", f"{size.matches} matches", runs
    )
    player_page = measure(
        f"player page ({PLAYER_NAME})",
        size,
        client,
        f"/players/{player.pk}/",
        f"<strong>{played}</strong>",
        runs,
    )
    return history, player_page


# Report -----------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="timed requests per measure (30)")
    parser.add_argument("--seed", type=int, default=2026, help="random seed of the matches")
    parser.add_argument("--matches", type=int, default=10_000, help="large account (10000)")
    parser.add_argument(
        "--player-matches", type=int, default=2_000, help="the player's matches in it (2000)"
    )
    parser.add_argument("--show-sql", action="store_true", help="print every query")
    parser.add_argument(
        "--keep", metavar="DIR", type=Path, help="keep the database in DIR and reuse it"
    )
    args = parser.parse_args()
    runs = max(1, args.runs)
    small = Size("small", "bench-small", 30, 6)
    large = Size("large", "bench-large", args.matches, min(args.player_matches, args.matches))

    tmp = Path(tempfile.mkdtemp(prefix="bench-history-"))
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
        db_path = args.keep.resolve() / (
            f"bench-history-{large.matches}-{large.player_matches}-seed{args.seed}.sqlite3"
        )
    else:
        db_path = tmp / "bench.sqlite3"
    try:
        setup_django(db_path, tmp)
        import django
        from django.db import connection

        from scorekeeper.matches.models import Deal, Match

        seconds = {s.label: seed(s, args.seed + i) for i, s in enumerate((small, large))}
        matches = Match.objects.filter(owner__username=large.username)
        deals = Deal.objects.filter(match__owner__username=large.username).count()
        sample = random.Random(args.seed).sample(
            sorted(matches.values_list("pk", flat=True)), min(CHECKED_MATCHES, large.matches)
        )
        differences = rescore_differences(sample)
        connection.close()  # measure on a fresh connection, as a request would

        print(
            f"History benchmark · Django {django.get_version()} · Python "
            f"{sys.version.split()[0]} · {connection.vendor} ({db_path}) · DEBUG off"
        )
        for s in (small, large):
            how = (
                f"seeded in {seconds[s.label]:.1f} s"
                if seconds[s.label]
                else "reused from the kept database"
            )
            print(
                f"  {s.label}: account {s.username}, {s.matches:,} matches, {PLAYER_NAME} in "
                f"{s.player_matches:,} of them ({how}; seed_demo --bulk, seed {args.seed})"
            )
        print(
            f"  {large.matches:,} matches hold {deals:,} deals; {len(sample)} sampled matches "
            f"re-scored through services.rescore: "
            + ("identical" if not differences else f"{len(differences)} DIFFERENCES")
        )
        for text in differences[:10]:
            print(f"    differs: {text}")
        print(f"{runs} timed runs per measure after {WARMUP} warm-up requests\n")

        timings = {s.label: bench_size(s, runs) for s in (small, large)}

        print("Server time and SQL queries (django.test.Client, signed in, phone-like headers)")
        rows = []
        for which in (0, 1):
            for s in (small, large):
                t = timings[s.label][which]
                rows.append(
                    [
                        t.label,
                        f"{s.matches:,}",
                        f"{s.player_matches:,}",
                        t.query_text,
                        f"{t.median:.2f}",
                        f"{t.p90:.2f}",
                        f"{min(t.samples_ms):.2f}",
                    ]
                )
        print_table(
            ["measure", "matches", "player's", "queries", "median ms", "p90 ms", "min ms"],
            rows,
            right={1, 2, 3, 4, 5, 6},
        )

        if args.show_sql:
            for which in (0, 1):
                for s in (small, large):
                    t = timings[s.label][which]
                    print_sql(f"{t.label}, {s.matches:,} matches", t.sql)

        print("\nBudgets")
        verdicts = []
        history, player_page = timings[large.label]
        verdicts.append(
            (
                history.median < HISTORY_BUDGET_MS,
                f"history first page median at {large.matches:,} matches: {history.median:.2f} ms "
                f"(budget < {HISTORY_BUDGET_MS:.0f} ms; p90 {history.p90:.2f} ms)",
            )
        )
        verdicts.append(
            (
                player_page.median < PLAYER_BUDGET_MS,
                f"player page median at {large.player_matches:,} matches: "
                f"{player_page.median:.2f} ms (budget < {PLAYER_BUDGET_MS:.0f} ms; "
                f"p90 {player_page.p90:.2f} ms)",
            )
        )
        for which in (0, 1):
            a, b = timings[small.label][which], timings[large.label][which]
            same = set(a.queries) == set(b.queries) and len(set(a.queries)) == 1
            verdicts.append(
                (
                    same,
                    f"queries do not grow with the data ({a.label}): {a.query_text} at "
                    f"{small.matches} matches, {b.query_text} at {large.matches:,}",
                )
            )
            if not same:
                for q in [q for q in b.sql if q not in a.sql][:5]:
                    print(f"  only at {large.matches:,}: {q[:200]}")
        verdicts.append((not differences, "seeded scores are the app's own (services.rescore)"))
        for ok, text in verdicts:
            print(f"  {'PASS' if ok else 'FAIL'}  {text}")
        if not all(ok for ok, _ in verdicts):
            print("\n(some budget fails; this script still exits 0: it is a benchmark)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
