"""`python manage.py seed_demo --matches N`: realistic random matches scored through the engine,
for demos and benchmarks. Deals are drawn like real ones (bids, trumps, points, belotes,
announcements, coinches) and each is checked and scored by the engine.

`--bulk` inserts a few hundred matches per query (services.import_matches, as a restored backup)
instead of services.create_match and services.rescore one match at a time: the scores and texts
still come from the engine (the same fields rescore writes), only the writes are batched.
scripts/bench_history.py seeds 10,000 matches that way and checks a sample against
services.rescore."""

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils import timezone

from scorekeeper.engine.scoring import (
    PRESETS,
    Announcement,
    InvalidInput,
    Kind,
    MatchFile,
    PassedDeal,
    PlayedDeal,
    Rank,
    Rules,
    Team,
    Trump,
    check_deal,
    score_match,
)
from scorekeeper.engine.scoring import Deal as EngineDeal
from scorekeeper.matches import services
from scorekeeper.matches.models import Match, Player

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
    # Who took (most tables say) and who coinched or surcoinched: seats of the right team.
    taker_player = taker + 2 * rng.randrange(2) if rng.random() < 0.7 else None
    caller = {"coinche": 1 - taker, "surcoinche": taker}.get(coinche)
    coinche_player = caller + 2 * rng.randrange(2) if caller is not None else None
    return PlayedDeal(
        taker=taker,
        trump=trump,
        contract=contract,  # type: ignore[arg-type]
        coinche=coinche,  # type: ignore[arg-type]
        taker_points=points,
        capot=capot,
        belote=belote,
        announcements=announcements,
        taker_player=taker_player,
        coinche_player=coinche_player,
    )


MAX_DEALS = 60
DRAWN_AT_ONCE = 16  # deals drawn before asking the engine whether the match is over
BULK_BATCH = 500  # matches per transaction with --bulk


def random_match_deals(rng: random.Random, rules: Rules, first_dealer: int) -> list[EngineDeal]:
    """Valid deals up to the one after which the engine says the match is over (or 60)."""
    deals: list[EngineDeal] = []
    while len(deals) < MAX_DEALS:
        wanted = min(MAX_DEALS, len(deals) + DRAWN_AT_ONCE)
        while len(deals) < wanted:
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
            return deals[:end]
    return deals


@dataclass(frozen=True)
class PlannedMatch:
    rules: Rules
    teams: tuple[str, str]
    seated: list[str]
    first_dealer: int
    deals: list[EngineDeal]
    created_at: datetime | None  # None: now
    minutes: int  # how long it was played (updated_at, finished_at), with created_at


def plan_matches(
    rng: random.Random,
    count: int,
    names: Sequence[str],
    player: str = "",
    player_matches: int = 0,
    spread_days: int = 0,
) -> Iterator[PlannedMatch]:
    """`count` random matches, oldest first. `player` sits at the table in `player_matches` of
    them (and in no other); with `spread_days`, the matches are spread over that many days up to
    now instead of all being created now."""
    pool = [n for n in names if n.casefold() != player.casefold()] if player else list(names)
    featured = set(rng.sample(range(count), min(count, player_matches))) if player else set()
    presets = list(PRESETS)
    now = timezone.now()
    span = timedelta(days=spread_days)
    for index in range(count):
        rules = PRESETS[rng.choice(presets)]
        if index in featured:
            seated = rng.sample(pool, 3)
            seated.insert(rng.randrange(4), player)
        else:
            seated = rng.sample(pool, 4)
        teams = rng.sample(TEAMS, 2)
        first_dealer = rng.randrange(4)
        deals = random_match_deals(rng, rules, first_dealer)
        created_at = None
        if spread_days:
            created_at = now - span + span * (index + rng.random()) / count
        minutes = 3 * len(deals) + rng.randrange(10)
        yield PlannedMatch(
            rules=rules,
            teams=(teams[0], teams[1]),
            seated=seated,
            first_dealer=first_dealer,
            deals=deals,
            created_at=created_at,
            minutes=minutes,
        )


def _dated(match: Match, plan: PlannedMatch) -> None:
    if plan.created_at is None:
        return
    match.created_at = plan.created_at
    match.updated_at = plan.created_at + timedelta(minutes=plan.minutes)
    match.finished_at = match.updated_at if match.is_finished else None


def _seed_one(plan: PlannedMatch, key: str, owner: Any) -> None:
    """Through the services, as a phone would (one match, a few queries)."""
    with transaction.atomic():
        match = services.create_match(
            owner_key=key,
            rules=plan.rules,
            team_names=plan.teams,
            players=plan.seated,
            first_dealer=plan.first_dealer,
        )
        services.rescore(match, services.new_deal_rows(match, plan.deals))
        _dated(match, plan)
        Match.objects.filter(pk=match.pk).update(
            owner=owner,
            created_at=match.created_at,
            updated_at=match.updated_at,
            finished_at=match.finished_at,
        )


def _seed_bulk(plans: list[PlannedMatch], key: str, owner: Any) -> None:
    """The same matches as _seed_one, scored by the engine the same way, in a few queries."""
    match_files = [
        MatchFile(
            rules=plan.rules,
            teams=(
                Team(plan.teams[0], (plan.seated[0], plan.seated[2])),
                Team(plan.teams[1], (plan.seated[1], plan.seated[3])),
            ),
            first_dealer=plan.first_dealer,
            deals=tuple(plan.deals),
        )
        for plan in plans
    ]
    with transaction.atomic():
        matches = services.import_matches(match_files=match_files, owner_key=key, owner=owner)
        if any(plan.created_at is not None for plan in plans):
            for match, plan in zip(matches, plans, strict=True):
                _dated(match, plan)
            # bulk_create stamps auto_now_add fields with now; bulk_update leaves them as set.
            Match.objects.bulk_update(
                matches, ["created_at", "updated_at", "finished_at"], batch_size=BULK_BATCH
            )


class Command(BaseCommand):
    help = "Create realistic random matches (scored by the engine) for demos and benchmarks."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--matches", type=int, default=20)
        parser.add_argument("--seed", type=int, default=None, help="for repeatable data")
        parser.add_argument(
            "--owner", default=None, help="username to own the matches (created if missing)"
        )
        parser.add_argument("--players", type=int, default=12, help="size of the pool of names")
        parser.add_argument(
            "--player", default="", help="a name that plays in exactly --player-matches matches"
        )
        parser.add_argument("--player-matches", type=int, default=0)
        parser.add_argument(
            "--spread-days",
            type=int,
            default=0,
            help="spread the matches' dates over that many days up to now (default: all now)",
        )
        parser.add_argument(
            "--bulk",
            action="store_true",
            help=f"insert {BULK_BATCH} matches per transaction (same engine scores, much faster)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["matches"] < 1:
            raise CommandError(f"--matches must be at least 1 (got {options['matches']})")
        rng = random.Random(options["seed"])
        owner = None
        if options["owner"]:
            owner, _ = get_user_model().objects.get_or_create(username=options["owner"])
        key = f"demo-{options['owner'] or 'anonymous'}"
        player = " ".join(options["player"].split())
        pool = [n for n in NAMES if n.casefold() != player.casefold()]
        names = pool[: max(4, min(options["players"], len(pool)))]
        plans = plan_matches(
            rng,
            options["matches"],
            names,
            player=player,
            player_matches=options["player_matches"] if player else 0,
            spread_days=options["spread_days"],
        )
        created = 0
        if options["bulk"]:
            batch: list[PlannedMatch] = []
            for plan in plans:
                batch.append(plan)
                if len(batch) == BULK_BATCH:
                    _seed_bulk(batch, key, owner)
                    created += len(batch)
                    batch = []
            if batch:
                _seed_bulk(batch, key, owner)
                created += len(batch)
        else:
            for plan in plans:
                _seed_one(plan, key, owner)
                created += 1
        if owner is not None:
            Player.objects.filter(owner_key=key, owner__isnull=True).update(owner=owner)
        where = (
            f"in the history of {options['owner']}"
            if owner is not None
            else "owned by no account (see them in the admin, or pass --owner NAME)"
        )
        self.stdout.write(f"Created {created} matches, {where}.")
