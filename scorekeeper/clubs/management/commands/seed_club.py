"""`python manage.py seed_club`: a club with years of records, for demos and the benchmark
(scripts/bench_clubs.py): `--seasons` seasons (September to June) of `--per-season` monthly
concours, each of `--teams` entrants drawn from a pool of regular teams (the same names come back
from one concours to the next, so records and seasons mean something), every tenth concours à la
mêlée; each played through the services (registration, draws, each table's paper totals, rounds
closed, finished), attached to the club and published. The seasons rank by total points,
placement points or the best 8 results, teams or players. Prints the club's slug.

The defaults make issue 16's club: 10 seasons, 120 concours, 6,000 entrants."""

import datetime
import random
import time

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Season
from scorekeeper.concours import services
from scorekeeper.concours.models import Round, Tournament
from scorekeeper.engine.season import SeasonRule, rule_to_dict

RULES = (
    SeasonRule(measure="points", rank="teams"),
    SeasonRule(measure="placement", rank="players"),
    SeasonRule(measure="points", best=8, rank="players"),
    SeasonRule(measure="placement", best=8, rank="teams"),
)
SUITS = ("Pique", "Cœur", "Carreau", "Trèfle", "Atout", "Belote", "Rebelote", "Capot", "Dix de der")


def play_round(round_: Round, rng: random.Random) -> None:
    for table in round_.tables.order_by("number"):
        first = rng.randint(500, 1444)
        services.record_paper_totals(table=table, totals=(first, 1944 - first))
    services.close_round(round_=round_)


class Command(BaseCommand):
    help = "Seed a club with seasons of concours played through the services (paper totals)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--seasons", type=int, default=10)
        parser.add_argument("--per-season", type=int, default=12, help="concours a season")
        parser.add_argument("--teams", type=int, default=50, help="entrants a concours")
        parser.add_argument("--rounds", type=int, default=3)
        parser.add_argument("--owner", default="club-organiser")
        parser.add_argument("--name", default="Belote Club du Vieux Port")
        parser.add_argument("--seed", type=int, default=1)

    def handle(self, *args: object, **options: object) -> None:
        count = int(str(options["seasons"]))
        per_season = int(str(options["per_season"]))
        teams = int(str(options["teams"]))
        rounds = int(str(options["rounds"]))
        if count < 1 or per_season < 1 or teams < 4 or rounds < 1:
            raise CommandError("need a season, a concours a season, 4 entrants and a round")
        rng = random.Random(int(str(options["seed"])))
        owner, _ = get_user_model().objects.get_or_create(username=str(options["owner"]))
        club = club_services.create_club(user=owner, name=str(options["name"]), town="Marseille")
        pool = [
            (f"{SUITS[i % len(SUITS)]} {i // len(SUITS) + 1}", f"Joueur {2 * i}", f"Joueur {2 * i + 1}")
            for i in range(teams * 3)
        ]  # fmt: skip
        players = [f"Joueur {n}" for n in range(teams * 6)]
        started = time.perf_counter()
        first_year = 2026 - count
        number = 0
        for s in range(count):
            year = first_year + s
            Season.objects.create(
                club=club,
                name=f"Saison {year}-{year + 1}",
                start=datetime.date(year, 9, 1),
                end=datetime.date(year + 1, 6, 30),
                rule=rule_to_dict(RULES[s % len(RULES)]),
                published=True,
            )
            for m in range(per_season):
                month = 9 + m * 10 // per_season
                when = datetime.date(year + (month > 12), (month - 1) % 12 + 1, 1 + m % 28)
                number += 1
                melee = number % 10 == 0
                tournament = services.create_tournament(
                    owner=owner,
                    name=f"Concours n° {number}",
                    preset="melee" if melee else "belote",
                    overrides={"rounds": rounds, "seed": rng.randrange(2**31)},
                    date=when,
                    place="Salle des fêtes",
                    prizes={1: "Un jambon", 2: "Deux bouteilles", 3: "Un panier garni"},
                )
                if melee:
                    text = "\n".join(rng.sample(players, teams))
                else:
                    text = "\n".join(f"{n}; {a}; {b}" for n, a, b in rng.sample(pool, teams))
                services.add_entrants_from_text(tournament=tournament, text=text)
                for _round in range(rounds):
                    play_round(services.draw_round(tournament=tournament), rng)
                services.finish(tournament=tournament)
                club_services.attach(club=club, tournament=tournament, user=owner)
                club_services.publish(club=club, tournament=tournament, published=True)
            elapsed = time.perf_counter() - started
            self.stderr.write(f"season {s + 1}/{count}: {number} concours, {elapsed:.0f} s")
        done = Tournament.objects.filter(club=club).count()
        self.stderr.write(f"{done} concours, {done * teams} entrants")
        self.stdout.write(club.slug)
