"""Benchmark of the scoreboard against the performance budget.

For matches of 5 and 300 played deals, prints the SQL queries and the median (and p90) server time
of the scoreboard (GET /score/<token>/) and of saving a deal (POST /score/<token>/deal/), and the
bytes a phone downloads for the scoreboard: the HTML plus every CSS and JS file it links, each
gzip-compressed (level 6). Then PASS/FAIL for each budget:

* the query count does not grow with the deals (same count at 5 and at 300 deals);
* the scoreboard takes under 50 ms (median) at 300 deals on this machine;
* a phone downloads under 60 KB for the scoreboard.

Run from the repository root:

    .venv/bin/python scripts/bench_scoreboard.py [--runs N] [--show-sql] [--seed S]

Everything happens in a throwaway SQLite database in a temporary directory, with DEBUG off. The
exit code is 0 whatever the figures: this is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import gzip
import os
import random
import shutil
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from bench_report import Samples, print_sql, print_table

REPO_ROOT = Path(__file__).resolve().parent.parent

SMALL, LARGE = 5, 300
QUERY_BUDGET_NOTE = "same count at 5 and 300 deals"
TIME_BUDGET_MS = 50.0
BYTES_BUDGET = 60 * 1024
GZIP_LEVEL = 6
WARMUP = 3
PHONE_HEADERS = {
    "HTTP_ACCEPT_ENCODING": "gzip, deflate, br",
    "HTTP_USER_AGENT": "Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile bench",
    "HTTP_ACCEPT_LANGUAGE": "en",
}


# Django setup (everything environment-related must happen before django.setup()) ----------------


def setup_django(tmp: Path) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp / 'bench.sqlite3'}"
    os.environ["SECRET_KEY"] = "bench-" + uuid.uuid4().hex * 2
    os.environ["DEBUG"] = "0"
    os.environ["ALLOWED_HOSTS"] = "testserver,localhost,127.0.0.1"
    os.environ["SECURE_SSL_REDIRECT"] = "false"  # the test client speaks http: no redirect to https
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))

    from django.conf import settings

    # With DEBUG off the settings pick WhiteNoise's manifest storage, which needs `collectstatic`
    # to have run; the plain storage gives the same files under unhashed names instead. WhiteNoise
    # also scans STATIC_ROOT at start-up: point it at an empty directory of our own.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    static_root = tmp / "staticfiles"
    static_root.mkdir()
    settings.STATIC_ROOT = static_root

    import django

    django.setup()
    assert not settings.DEBUG

    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


# Realistic random coinche deals -----------------------------------------------------------------


def random_deal(rng: random.Random, rules: Any) -> Any:
    """A played coinche deal as a table would record it, kept only if the engine accepts it."""
    from scorekeeper.engine.scoring import (
        Announcement,
        InvalidInput,
        Kind,
        PlayedDeal,
        Rank,
        Trump,
        check_deal,
    )

    trumps = [t for t in Trump if t.is_suit or rules.sa_ta]
    suits = [t for t in trumps if t.is_suit]
    while True:
        taker = rng.randrange(2)
        # Mostly suit contracts, now and then sans atout / tout atout.
        trump = rng.choice(suits) if rng.random() < 0.85 else rng.choice(trumps)
        bids = list(rules.bid_values())
        weights = [max(1, 12 - 2 * i) for i in range(len(bids))]  # low bids are the common ones
        contract: Any = rng.choices(bids, weights)[0]
        capot = None
        taker_points: int | None = rng.randint(0, 162)
        if rng.random() < 0.6:  # the takers usually make it: lean towards their bid
            taker_points = min(162, max(0, int(rng.gauss(contract - 10, 20))))
        if rules.capot_bid is not None and rng.random() < 0.03:
            contract, capot, taker_points = "capot", taker, None
        elif rng.random() < 0.03:
            capot, taker_points = taker, None  # an unannounced capot
        coinche = rng.choices(["none", "coinche", "surcoinche"], [90, 8, 2])[0]
        belote = (0, 0)
        if trump is not Trump.NO_TRUMP and rng.random() < 0.3:
            belote = (1, 0) if rng.random() < 0.55 else (0, 1)
        announcements: tuple[tuple[Any, ...], tuple[Any, ...]] = ((), ())
        if rules.announcements and rng.random() < 0.25:
            kind = rng.choice([Kind.TIERCE, Kind.TIERCE, Kind.QUARTE])
            high = rng.choice([Rank.ACE, Rank.KING, Rank.QUEEN])
            team = rng.randrange(2)
            items: list[Any] = [(), ()]
            items[team] = (Announcement(kind, high),)
            announcements = (items[0], items[1])
        note = "coinche à la dernière" if rng.random() < 0.03 else None
        deal = PlayedDeal(
            taker=taker,
            trump=trump,
            contract=contract,
            coinche=coinche,
            taker_points=taker_points,
            capot=capot,
            belote=belote,
            announcements=announcements,
            note=note,
        )
        try:
            check_deal(rules, deal)
        except InvalidInput:
            continue
        return deal


def random_form_data(rng: random.Random, rules: Any) -> dict[str, str]:
    """The fields of forms.DealForm for a random valid deal (points, no capot, no announcements)."""
    while True:
        deal = random_deal(rng, rules)
        if deal.capot is None and isinstance(deal.contract, int):
            break
    return {
        "taker": str(deal.taker),
        "contract": str(deal.contract),
        "trump": deal.trump.value,
        "coinche": deal.coinche,
        "taker_points": str(deal.taker_points),
        "belote0": str(deal.belote[0]),
        "belote1": str(deal.belote[1]),
    }


def build_match(rng: random.Random, deals: int) -> Any:
    from scorekeeper.engine.scoring import rules_from_dict
    from scorekeeper.matches import services
    from scorekeeper.matches.models import Match

    rules = rules_from_dict({"preset": "coinche", "target": 100000})
    owner = "bench-owner-" + uuid.uuid4().hex[:8]
    match = services.create_match(
        owner_key=owner,
        rules=rules,
        team_names=("Nous", "Eux"),
        players=("Alice", "Bruno", "Chloé", "David"),
        first_dealer=0,
    )
    author = services.Author(key=owner, label="creator")
    for _ in range(deals):
        version = Match.objects.values_list("version", flat=True).get(pk=match.pk)
        services.record_deal(
            match_id=match.pk,
            expected_version=version,
            deal=random_deal(rng, rules),
            author=author,
            submission=uuid.uuid4().hex,
        )
    match.refresh_from_db()
    assert match.deal_count == deals, (match.deal_count, deals)
    assert not match.is_finished, "the match finished early: raise the target"
    return match


# Measuring --------------------------------------------------------------------------------------


@dataclass
class Timing(Samples):
    label: str
    deals_before: int
    deals_after: int
    samples_ms: list[float]
    queries: list[int]
    sql: list[str] = field(default_factory=list)  # the SQL of the last captured request


def captured(fn: Any) -> tuple[Any, list[str]]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        result = fn()
    return result, [q["sql"] for q in ctx.captured_queries]


def bench_scoreboard(client: Any, match: Any, runs: int) -> Timing:
    url = f"/score/{match.scorer_token}/"

    def get() -> Any:
        response = client.get(url, **PHONE_HEADERS)
        assert response.status_code == 200, (url, response.status_code)
        return response

    for _ in range(WARMUP):  # also stores the match in this client's session (first visit)
        get()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        get()
        samples.append((time.perf_counter() - start) * 1000)
    counts, sql = [], []
    for _ in range(3):  # counted apart, so the debug cursor does not weigh on the timings
        _, sql = captured(get)
        counts.append(len(sql))
    return Timing("scoreboard GET", match.deal_count, match.deal_count, samples, counts, sql)


def bench_save(client: Any, match: Any, runs: int, rng: random.Random) -> Timing:
    from scorekeeper.matches.models import Match

    url = f"/score/{match.scorer_token}/deal/"
    rules = match.engine_rules
    before = Match.objects.get(pk=match.pk).deal_count

    def post() -> Any:
        version = Match.objects.values_list("version", flat=True).get(pk=match.pk)
        data = {**random_form_data(rng, rules), "version": str(version)}
        data["submission"] = uuid.uuid4().hex
        return data

    def send(data: dict[str, str]) -> Any:
        response = client.post(url, data, **PHONE_HEADERS)
        if response.status_code != 302 or not response["Location"].endswith(
            f"/score/{match.scorer_token}/"
        ):
            errors = (
                getattr(response.context.get("form"), "errors", None) if response.context else None
            )
            raise SystemExit(f"saving a deal failed: {response.status_code} {errors or ''}")
        return response

    for _ in range(WARMUP):
        send(post())
    samples = []
    for _ in range(runs):
        data = post()  # reading the version is the phone's business, not the server's
        start = time.perf_counter()
        send(data)
        samples.append((time.perf_counter() - start) * 1000)
    counts, sql = [], []
    for _ in range(3):
        data = post()
        _, sql = captured(lambda data=data: send(data))
        counts.append(len(sql))
    after = Match.objects.get(pk=match.pk).deal_count
    assert after == before + WARMUP + runs + 3, (before, after)
    return Timing("save a deal POST", before, after, samples, counts, sql)


class AssetParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.assets: list[tuple[str, str]] = []  # (kind, url)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: v or "" for k, v in attrs}
        if tag == "link" and "stylesheet" in values.get("rel", "").lower().split():
            if values.get("href"):
                self.assets.append(("css", values["href"]))
        elif tag == "script" and values.get("src"):
            self.assets.append(("js", values["src"]))


def gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0))


def page_weight(client: Any, match: Any) -> list[tuple[str, int, int]]:
    """(name, raw bytes, gzip bytes) of the HTML and of every CSS and JS file it links."""
    from urllib.parse import urlsplit

    from django.conf import settings
    from django.contrib.staticfiles import finders

    # Asked without Accept-Encoding so the body is the plain HTML (GZipMiddleware would pad it).
    response = client.get(f"/score/{match.scorer_token}/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content
    rows = [(f"HTML /score/…/ ({match.deal_count} deals)", len(html), gz(html))]
    parser = AssetParser()
    parser.feed(html.decode(response.charset or "utf-8"))
    static_url = urlsplit(settings.STATIC_URL).path
    for kind, url in parser.assets:
        path = urlsplit(url).path
        if not path.startswith(static_url):
            rows.append((f"{kind.upper()} {url} (not a static file: not counted)", 0, 0))
            continue
        found = finders.find(path[len(static_url) :])
        if not found:
            rows.append((f"{kind.upper()} {url} (NOT FOUND)", 0, 0))
            continue
        data = Path(found).read_bytes()
        rows.append((f"{kind.upper()} {path}", len(data), gz(data)))
    return rows


# Report -----------------------------------------------------------------------------------------


def kb(n: int) -> str:
    return f"{n / 1024:.1f} KB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=30, help="timed requests per measure (30)")
    parser.add_argument("--seed", type=int, default=2026, help="random seed of the deals")
    parser.add_argument("--show-sql", action="store_true", help="print every query")
    args = parser.parse_args()
    runs = max(1, args.runs)
    rng = random.Random(args.seed)

    tmp = Path(tempfile.mkdtemp(prefix="bench-scoreboard-"))
    try:
        started = time.perf_counter()
        setup_django(tmp)
        import django
        from django.db import connection
        from django.test import Client

        small = build_match(rng, SMALL)
        large = build_match(rng, LARGE)
        built = time.perf_counter() - started
        print(
            f"Scoreboard benchmark · Django {django.get_version()} · Python "
            f"{sys.version.split()[0]} · {connection.vendor} (throwaway DB in {tmp}) · DEBUG off"
        )
        print(
            f"{runs} timed runs per measure after {WARMUP} warm-up requests; matches built "
            f"through services.record_deal in {built:.1f} s (seed {args.seed})\n"
        )

        # One client per match: a phone that opened the scorer link (no ownership needed).
        clients = {SMALL: Client(), LARGE: Client()}
        matches = {SMALL: small, LARGE: large}
        boards = {n: bench_scoreboard(clients[n], matches[n], runs) for n in (SMALL, LARGE)}
        weights = {n: page_weight(clients[n], matches[n]) for n in (SMALL, LARGE)}
        saves = {n: bench_save(clients[n], matches[n], runs, rng) for n in (SMALL, LARGE)}

        print("Server time and SQL queries (django.test.Client, phone-like headers incl. gzip)")
        rows = []
        for timings in (boards, saves):
            for n in (SMALL, LARGE):
                t = timings[n]
                deals = (
                    str(t.deals_before)
                    if t.deals_before == t.deals_after
                    else f"{t.deals_before}→{t.deals_after}"
                )
                rows.append(
                    [
                        t.label,
                        f"{n}",
                        deals,
                        t.query_text,
                        f"{t.median:.2f}",
                        f"{t.p90:.2f}",
                        f"{min(t.samples_ms):.2f}",
                    ]
                )
        print_table(
            ["measure", "match", "deals", "queries", "median ms", "p90 ms", "min ms"],
            rows,
            right={1, 2, 3, 4, 5, 6},
        )

        print(f"\nBytes a phone downloads for the scoreboard (gzip level {GZIP_LEVEL})")
        rows = []
        totals = {}
        for n in (SMALL, LARGE):
            raw_total = sum(r[1] for r in weights[n])
            gz_total = sum(r[2] for r in weights[n])
            totals[n] = gz_total
            for name, raw, packed in weights[n]:
                rows.append([f"{n}-deal match", name, kb(raw), kb(packed)])
            rows.append([f"{n}-deal match", "TOTAL", kb(raw_total), kb(gz_total)])
        print_table(["match", "file", "raw", "gzip"], rows, right={2, 3})

        if args.show_sql:
            for timings in (boards, saves):
                for n in (SMALL, LARGE):
                    print_sql(f"{timings[n].label}, {n}-deal match", timings[n].sql, limit=300)

        print("\nBudgets")
        verdicts = []
        for timings in (boards, saves):
            a, b = timings[SMALL], timings[LARGE]
            same = set(a.queries) == set(b.queries) and len(set(a.queries)) == 1
            verdicts.append(
                (
                    same,
                    f"queries do not grow with the deals ({a.label}): "
                    f"{a.query_text} at {SMALL} deals, {b.query_text} at {LARGE} deals "
                    f"({QUERY_BUDGET_NOTE})",
                )
            )
            if not same:
                extra = [q for q in b.sql if q not in a.sql]
                for q in extra[:5]:
                    print(f"  only at {LARGE} deals: {q[:200]}")
        median = boards[LARGE].median
        verdicts.append(
            (
                median < TIME_BUDGET_MS,
                f"scoreboard median at {LARGE} deals: {median:.2f} ms "
                f"(budget < {TIME_BUDGET_MS:.0f} ms; p90 {boards[LARGE].p90:.2f} ms)",
            )
        )
        worst = max(totals.values())
        verdicts.append(
            (
                worst < BYTES_BUDGET,
                f"scoreboard download (HTML+CSS+JS, gzip): {kb(totals[SMALL])} at {SMALL} deals, "
                f"{kb(totals[LARGE])} at {LARGE} deals (budget < {kb(BYTES_BUDGET)})",
            )
        )
        for ok, text in verdicts:
            print(f"  {'PASS' if ok else 'FAIL'}  {text}")
        if not all(ok for ok, _ in verdicts):
            print("\n(some budget fails; this script still exits 0: it is a benchmark)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
