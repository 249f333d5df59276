"""`python manage.py seed_concours --teams N --rounds R`: a concours played through the services,
for demos and benchmarks: teams registered from a pasted list, each round drawn by the engine,
every table scored deal by deal through the match services (as its phone would), the round
closed. `--paper` types each table's totals instead (much faster); `--open-last` leaves the last
round drawn and half played; `--planned` plans more rounds than are played (so one more can be
drawn). Prints the tournament's id."""

import random
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.concours import services
from scorekeeper.concours.models import Round, Table, Tournament
from scorekeeper.engine.scoring import parse_deal
from scorekeeper.matches import services as match_services
from scorekeeper.matches.models import Match

TRUMPS = ("hearts", "diamonds", "clubs", "spades")
PHONE = match_services.Author(key="seed-table-phone", label="table link")


def play_table(table: Table, rng: random.Random, deals: int | None = None) -> None:
    """Score the table's deals one by one until the partie ends (or `deals` of them)."""
    assert table.match_id is not None
    match = Match.objects.get(concours_table=table)
    count = 0
    while not match.is_finished and (deals is None or count < deals):
        points = rng.randint(0, 162)
        deal = parse_deal(
            {"taker": rng.randint(0, 1), "trump": rng.choice(TRUMPS), "taker_points": points}
        )
        match_services.record_deal(
            match_id=table.match_id, expected_version=None, deal=deal, author=PHONE
        )
        match.refresh_from_db(fields=["status", "deal_count"])
        count += 1


def play_round(round_: Round, rng: random.Random, *, paper: bool, half: bool = False) -> None:
    tables = list(round_.tables.order_by("number"))
    for index, table in enumerate(tables):
        if half and index % 2:
            play_table(table, rng, deals=rng.randint(0, 6))
        elif paper:
            first = rng.randint(500, 1444)
            services.record_paper_totals(table=table, totals=(first, 1944 - first))
        else:
            play_table(table, rng)


class Command(BaseCommand):
    help = "Seed a concours played through the services (teams, draws, tables scored deal by deal)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--teams", type=int, default=150)
        parser.add_argument("--rounds", type=int, default=5, help="rounds played")
        parser.add_argument("--planned", type=int, default=None, help="rounds planned (≥ played)")
        parser.add_argument("--owner", default="organiser", help="the organiser's username")
        parser.add_argument("--preset", default="belote", choices=sorted(services.FORMATS))
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--paper", action="store_true", help="type totals, no deals")
        parser.add_argument("--open-last", action="store_true", help="leave the last round open")

    def handle(self, *args: object, **options: object) -> None:
        teams, rounds = int(str(options["teams"])), int(str(options["rounds"]))
        planned = int(str(options["planned"])) if options["planned"] is not None else rounds
        if teams < 2 or rounds < 0 or planned < max(rounds, 1):
            raise CommandError("need 2 teams or more, and --planned at least --rounds")
        seed = int(str(options["seed"]))
        rng = random.Random(seed)
        owner, _ = get_user_model().objects.get_or_create(username=str(options["owner"]))
        tournament = services.create_tournament(
            owner=owner,
            name=f"Concours {teams} × {rounds}",
            preset=str(options["preset"]),
            overrides={"seed": seed, "rounds": planned},
        )
        if tournament.melee:
            text = "\n".join(f"Player {i}" for i in range(1, teams + 1))
        else:
            text = "\n".join(f"Team {i}; Player {i}a; Player {i}b" for i in range(1, teams + 1))
        services.add_entrants_from_text(tournament=tournament, text=text)
        started = time.perf_counter()
        for number in range(1, rounds + 1):
            round_ = services.draw_round(tournament=tournament)
            last = number == rounds and bool(options["open_last"])
            play_round(round_, rng, paper=bool(options["paper"]), half=last)
            if not last:
                services.close_round(round_=round_)
            self.stderr.write(f"round {number}: {time.perf_counter() - started:.1f} s")
        tournament = Tournament.objects.get(pk=tournament.pk)
        self.stdout.write(str(tournament.pk))
