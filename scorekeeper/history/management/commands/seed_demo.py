"""`python manage.py seed_demo --matches N`: realistic random matches scored through the engine,
for demos and benchmarks. Deals are drawn like real ones (bids, trumps, points, belotes,
announcements, coinches) and each is checked and scored by the engine."""

import random
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction

from scorekeeper.matches import services
from scorekeeper.matches.models import Match, Player
from scorekeeper.scoring import (
    PRESETS,
    Announcement,
    InvalidInput,
    Kind,
    PassedDeal,
    PlayedDeal,
    Rank,
    Rules,
    Trump,
    check_deal,
    score_match,
)
from scorekeeper.scoring import Deal as EngineDeal

NAMES = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid", "Gaëlle", "Hugo", "Inès", "Julien",
         "Karim", "Léa", "Marc", "Nora", "Olivier", "Paul", "Quentin", "Rose", "Sami", "Théo"]  # fmt: skip
TEAMS = [
    "Nous",
    "Eux",
    "Les As",
    "Belote Club",
    "Les Coincheurs",
    "Capot",
    "Atout Cœur",
    "Dix de Der",
]


def random_deal(rng: random.Random, rules: Rules) -> EngineDeal:
    if rng.random() < 0.05:
        return PassedDeal()
    trumps = [t for t in Trump if t.is_suit or (rules.sa_ta and rng.random() < 0.15)]
    trump = rng.choice(trumps)
    taker = rng.randrange(2)
    points: int | None = max(0, min(162, int(rng.gauss(95, 30))))
    capot = None
    if rng.random() < 0.04:
        capot, points = taker, None
    belote = (0, 0)
    if trump is not Trump.NO_TRUMP and rng.random() < 0.25:
        belote = (1, 0) if rng.random() < 0.6 else (0, 1)
        belote = belote if taker == 0 else (belote[1], belote[0])
    announcements: tuple[tuple[Announcement, ...], tuple[Announcement, ...]] = ((), ())
    if rules.announcements and rng.random() < 0.2:
        item = Announcement(Kind.TIERCE, rng.choice([Rank.NINE, Rank.TEN, Rank.KING, Rank.ACE]))
        announcements = ((item,), ()) if rng.random() < 0.5 else ((), (item,))
    contract: int | str | None = None
    coinche = "none"
    if rules.is_coinche:
        bids = rules.bid_values()
        estimate = (points if points is not None else 160) + 20 * sum(belote)
        # Players bid what their hand is worth, give or take: most contracts are made.
        fitting = [b for b in bids if b <= estimate + rng.choice((-30, -20, -10, 0, 0, 10))]
        contract = (fitting or [bids[0]])[-1]
        if capot is not None and rules.capot_bid is not None and rng.random() < 0.5:
            contract = "capot"
        roll = rng.random()
        coinche = "coinche" if roll < 0.08 else "surcoinche" if roll < 0.1 else "none"
    return PlayedDeal(
        taker=taker,
        trump=trump,
        contract=contract,  # type: ignore[arg-type]
        coinche=coinche,  # type: ignore[arg-type]
        taker_points=points,
        capot=capot,
        belote=belote,
        announcements=announcements,
    )


MAX_DEALS = 60


def random_match_deals(rng: random.Random, rules: Rules, first_dealer: int) -> list[EngineDeal]:
    """Valid deals up to the one after which the engine says the match is over (or 60)."""
    deals: list[EngineDeal] = []
    while len(deals) < MAX_DEALS:
        deal = random_deal(rng, rules)
        try:
            check_deal(rules, deal)
        except InvalidInput:
            continue
        deals.append(deal)
    try:
        score_match(rules, deals, first_dealer)
    except InvalidInput as error:  # "deals[N]": the match was over after deal N
        end = int(error.path.removeprefix("deals[").split("]")[0])
        deals = deals[:end]
    return deals


class Command(BaseCommand):
    help = "Create realistic random matches (scored by the engine) for demos and benchmarks."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, default=20)
        parser.add_argument("--seed", type=int, default=None, help="for repeatable data")
        parser.add_argument(
            "--owner", default=None, help="username to own the matches (created if missing)"
        )
        parser.add_argument("--players", type=int, default=12, help="size of the pool of names")

    def handle(self, *args: Any, **options: Any) -> None:
        rng = random.Random(options["seed"])
        owner = None
        if options["owner"]:
            owner, _ = get_user_model().objects.get_or_create(username=options["owner"])
        key = f"demo-{options['owner'] or 'anonymous'}"
        names = NAMES[: max(4, min(options["players"], len(NAMES)))]
        presets = list(PRESETS)
        created = 0
        for _ in range(options["matches"]):
            rules = PRESETS[rng.choice(presets)]
            seated = rng.sample(names, 4)
            teams = rng.sample(TEAMS, 2)
            first_dealer = rng.randrange(4)
            deals = random_match_deals(rng, rules, first_dealer)
            with transaction.atomic():
                match = services.create_match(
                    owner_key=key,
                    rules=rules,
                    team_names=(teams[0], teams[1]),
                    players=seated,
                    first_dealer=first_dealer,
                )
                services.rescore(match, services.new_deal_rows(match, deals))
                if owner is not None:
                    Match.objects.filter(pk=match.pk).update(owner=owner)
            created += 1
        if owner is not None:
            Player.objects.filter(owner_key=key, owner__isnull=True).update(owner=owner)
        self.stdout.write(f"Created {created} matches.")
