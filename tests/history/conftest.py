"""Fixtures of the history tests: matches built through the real services (so the engine scores
them) and two small hand-built data sets whose facts and statistics the tests compute by hand
(`browser`, a test client with its own device key, is the suite's: tests/conftest.py)."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import pytest
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.engine.scoring import (
    Announcement,
    Kind,
    PassedDeal,
    PlayedDeal,
    Rank,
    Trump,
    rules_from_dict,
)
from scorekeeper.engine.scoring import Deal as EngineDeal
from scorekeeper.matches import services
from scorekeeper.matches.models import Match, MatchScorer, Player
from tests import factories
from tests.conftest import Browser

OWNER_KEY = "history-owner-device"
PASSWORD = factories.PASSWORD  # every test account's (tests/factories.py)

MakeMatch = factories.MakeMatch


def author(key: str) -> services.Author:
    return services.Author(key=key, label="test")


def in_list(html: str, match: Match) -> bool:
    """Whether a match list (My matches, home) shows this match: its row opens the scoreboard
    while the match is in play, its review otherwise (issue 11)."""
    rows = (f'href="/score/{match.scorer_token}/"', f'href="/view/{match.view_token}/review/"')
    return any(row in html for row in rows)


@pytest.fixture
def owner_key() -> str:
    """The history tests' creating browser: the suite's make_match (tests/conftest.py) makes its
    matches with this key unless told another."""
    return OWNER_KEY


# The hand-built coinche match (preset "coinche", target 2000) ----------------------------------
# Team 0 "Nous" = Alice (seat 0) + Bruno (seat 2); team 1 "Eux" = Chloé (seat 1) + David (seat 3).

TIERCE = Announcement(Kind.TIERCE, Rank.KING)

FACTS_DEALS: list[EngineDeal] = [
    # 1. Nous 100 ♠, 83 + a tierce = 103 vs 79: made. 203 -> 200, 79 -> 80.
    PlayedDeal(
        taker=0,
        trump=Trump.SPADES,
        contract=100,
        taker_points=83,
        announcements=((TIERCE,), ()),
    ),
    # 2. Eux 90 ♥, 89: failed. Nous 160 + 90 = 250.
    PlayedDeal(taker=1, trump=Trump.HEARTS, contract=90, taker_points=89),
    # 3. Nous 110 ♥ coinché, 120 + belote: made. 2 × (160 + 110 + 20) = 580.
    PlayedDeal(
        taker=0,
        trump=Trump.HEARTS,
        contract=110,
        coinche="coinche",
        taker_points=120,
        belote=(1, 0),
    ),
    # 4. All passed.
    PassedDeal(),
    # 5. Eux 80 ♠, unbid capot by Eux, Nous hold the belote: Eux 252 + 80 = 332 -> 330; Nous 20.
    PlayedDeal(taker=1, trump=Trump.SPADES, contract=80, capot=1, belote=(1, 0)),
    # 6. Eux 120 ♠ surcoinché, 100: failed. Nous 4 × (160 + 120) = 1120: 2170, Nous win.
    PlayedDeal(taker=1, trump=Trump.SPADES, contract=120, coinche="surcoinche", taker_points=100),
]
FACTS_SCORES = [(200, 80), (250, 0), (580, 0), (0, 0), (20, 330), (1120, 0)]
FACTS_TOTALS = [(200, 80), (450, 80), (1030, 80), (1030, 80), (1050, 410), (2170, 410)]


@pytest.fixture
def facts_match(make_match: MakeMatch) -> Match:
    return make_match("coinche", FACTS_DEALS)


# Alice's three matches, for the player page --------------------------------------------------


@dataclass(frozen=True)
class AliceData:
    m1: Match  # the facts match: Alice (team 0) wins
    m2: Match  # Alice in team 1 with Emma, in play
    m3: Match  # Alice in team 1 with Bruno, lost


@pytest.fixture
def alice_data(make_match: MakeMatch) -> AliceData:
    m1 = make_match("coinche", FACTS_DEALS, created_at=datetime.fromisoformat("2025-01-10T12:00Z"))
    m2 = make_match(
        "coinche",
        [
            # Alice's team 80 ♣ coinché, 81-81: failed. Defence 2 × (160 + 80) = 480.
            PlayedDeal(taker=1, trump=Trump.CLUBS, contract=80, coinche="coinche", taker_points=81),
            # Alice's team 90 ♦, unbid capot: 252 + 90 = 342 -> 340; defence 0.
            PlayedDeal(taker=1, trump=Trump.DIAMONDS, contract=90, capot=1),
        ],
        team_names=("Les As", "Capot"),
        players=("Bruno", "Alice", "Chloé", "Emma"),
        created_at=datetime.fromisoformat("2025-01-11T12:00Z"),
    )
    m3 = make_match(
        rules_from_dict({"preset": "coinche", "target": 300}),
        # Chloé and David bid capot and make it with a belote: 252 + 20 + 250 = 522 -> 520.
        [PlayedDeal(taker=0, trump=Trump.SPADES, contract="capot", capot=0, belote=(1, 0))],
        team_names=("Atout Cœur", "Dix de Der"),
        players=("Chloé", "Alice", "David", "Bruno"),
        created_at=datetime.fromisoformat("2025-01-12T12:00Z"),
    )
    return AliceData(m1, m2, m3)


# The privacy cast ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Cast:
    match: Match  # owned by `owner`, scored by `scorer`
    other: Match  # another owner's match nobody of the cast may see
    owner: Client
    scorer: Client
    viewer: Client  # anonymous, holds the read-only link
    stranger: Client  # signed in, no link
    anonymous: Client  # no account, no link
    owner_user: User
    scorer_user: User


@pytest.fixture
def cast(make_match: MakeMatch, browser: Browser, make_user: Callable[[str], User]) -> Cast:
    return build_cast(make_match, browser, make_user)


def build_cast(make_match: MakeMatch, browser: Browser, make_user: Callable[[str], User]) -> Cast:
    """The cast, made by these makers (the fixtures, or plain functions for shared data)."""
    owner_user, scorer_user = make_user("olivia"), make_user("sam")
    match = make_match("coinche", FACTS_DEALS[:3], owner=owner_user)
    # The owner's browser named the players; signing in made them the account's too.
    Player.objects.filter(owner_key=OWNER_KEY).update(owner=owner_user)
    other = make_match(
        "belote",
        [PlayedDeal(taker=0, trump=Trump.CLUBS, taker_points=100)],
        owner_key="someone-else",
        team_names=("Others", "Them"),
        players=("Xavier", "Yann", "Zoé", "Walter"),
    )
    scorer = browser("scorer-device", scorer_user)
    assert scorer.get(f"/score/{match.scorer_token}/").status_code == 200
    # Opening the link writes no row (issue 13): the browser's session remembers it.
    assert not MatchScorer.objects.filter(match=match, user=scorer_user).exists()
    viewer = browser("viewer-device")
    assert viewer.get(f"/view/{match.view_token}/").status_code == 200
    return Cast(
        match=match,
        other=other,
        owner=browser("owner-other-device", owner_user),
        scorer=scorer,
        viewer=viewer,
        stranger=browser("stranger-device", make_user("stan")),
        anonymous=browser("anonymous-device"),
        owner_user=owner_user,
        scorer_user=scorer_user,
    )
