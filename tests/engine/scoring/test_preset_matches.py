"""For each preset of docs/rules.md §7, a full match as a table would play it, to its winner.

Each step gives the deal, what each team adds with it (reserve received included), and the running
totals; the arithmetic is in the comments. Scores read (team 0, team 1).
"""

from dataclasses import dataclass

import pytest

from scorekeeper.engine.scoring import (
    PRESETS,
    Announcement,
    Deal,
    Kind,
    PassedDeal,
    PlayedDeal,
    Rank,
    Trump,
    score_match,
)

SPADES, HEARTS, CLUBS, DIAMONDS = Trump.SPADES, Trump.HEARTS, Trump.CLUBS, Trump.DIAMONDS
SA, TA = Trump.NO_TRUMP, Trump.ALL_TRUMP
TIERCE_K = Announcement(Kind.TIERCE, Rank.KING)
TIERCE_Q = Announcement(Kind.TIERCE, Rank.QUEEN)
QUARTE_A = Announcement(Kind.QUARTE, Rank.ACE)
QUINTE_A = Announcement(Kind.QUINTE, Rank.ACE)
CARRE_10 = Announcement(Kind.CARRE, Rank.TEN)
CARRE_K = Announcement(Kind.CARRE, Rank.KING)


@dataclass(frozen=True)
class Step:
    deal: Deal
    scores: tuple[int, int]
    totals: tuple[int, int]


@dataclass(frozen=True)
class Match:
    preset: str
    first_dealer: int
    steps: tuple[Step, ...]
    winner: int


COINCHE = Match(
    "coinche",
    1,
    (
        # 100♠, 83 + tierce 20 = 103 vs 79: 203 → 200, 79 → 80.
        Step(
            PlayedDeal(0, SPADES, 100, taker_points=83, announcements=((TIERCE_K,), ())),
            (200, 80),
            (200, 80),
        ),
        # 90♥ by team 1 with 89: failed, team 0 gets 160 + 90 = 250.
        Step(PlayedDeal(1, HEARTS, 90, taker_points=89), (250, 0), (450, 80)),
        # 110♥ coinché by team 1, 120 + belote: 2 × (160 + 110 + 20) = 580.
        Step(
            PlayedDeal(1, HEARTS, 110, "coinche", taker_points=120, belote=(0, 1)),
            (0, 580),
            (450, 660),
        ),
        # 130 TA, 140 + two belotes = 180 vs 22: 180 + 130 = 310, 22 → 20.
        Step(PlayedDeal(0, TA, 130, taker_points=140, belote=(2, 0)), (310, 20), (760, 680)),
        # 100 SA by team 1, 118 vs 44 + carré of tens 150 = 194: failed, 160 + 150 + 100 = 410.
        Step(
            PlayedDeal(1, SA, 100, taker_points=118, announcements=((CARRE_10,), ())),
            (410, 0),
            (1170, 680),
        ),
        # Capot bid by team 1, made with belote: 252 + 20 + 250 = 522 → 520.
        Step(PlayedDeal(1, CLUBS, "capot", capot=1, belote=(0, 1)), (0, 520), (1170, 1200)),
        # All pass.
        Step(PassedDeal(), (0, 0), (1170, 1200)),
        # 80♣, 81-81: failed, 160 + 80 = 240.
        Step(PlayedDeal(0, CLUBS, 80, taker_points=81), (0, 240), (1170, 1440)),
        # 120♠ surcoinché, 130 + quarte 50 vs 32: 4 × (160 + 120 + 50) = 1320: 2490 ≥ 2000.
        Step(
            PlayedDeal(
                0, SPADES, 120, "surcoinche", taker_points=130, announcements=((QUARTE_A,), ())
            ),
            (1320, 0),
            (2490, 1440),
        ),
    ),
    winner=0,
)

FUNBELOTE = Match(
    "coinche-funbelote",
    0,
    (
        # 80♠, one player of team 0 takes every trick: générale 350 + 80 = 430; defence belote 20.
        Step(
            PlayedDeal(0, SPADES, 80, capot=0, generale=True, belote=(0, 1)), (430, 20), (430, 20)
        ),
        # Capot bid by team 1, made (two players): capot_cards 250 + 250 = 500.
        Step(PlayedDeal(1, HEARTS, "capot", capot=1), (0, 500), (430, 520)),
        # 90♦ by team 1, 70 + belote = 90 vs 92: failed: team 1 keeps 20, team 0 160 + 90 = 250.
        Step(PlayedDeal(1, DIAMONDS, 90, taker_points=70, belote=(0, 1)), (250, 20), (680, 540)),
        # 100♥ coinché by team 0, 110: 2 × (160 + 100) = 520.
        Step(PlayedDeal(0, HEARTS, 100, "coinche", taker_points=110), (520, 0), (1200, 540)),
        # 120 SA by team 1, 130 vs 32: 130 + 120 = 250, 32 → 30.
        Step(PlayedDeal(1, SA, 120, taker_points=130), (30, 250), (1230, 790)),
        # 90♣ by team 0, 95 + tierce 20 = 115 vs 67: 205 → 210, 67 → 70.
        Step(
            PlayedDeal(0, CLUBS, 90, taker_points=95, announcements=((TIERCE_K,), ())),
            (210, 70),
            (1440, 860),
        ),
        # 80♥ by team 0, 100 vs 62: 180, 62 → 60: 1620 ≥ 1501.
        Step(PlayedDeal(0, HEARTS, 80, taker_points=100), (180, 60), (1620, 920)),
    ),
    winner=0,
)

COINCHE_X3 = Match(
    "coinche-x3",
    2,
    (
        # 100♥ coinché by team 0, 110: 162 + 2 × 100 = 362 → 360.
        Step(PlayedDeal(0, HEARTS, 100, "coinche", taker_points=110), (360, 0), (360, 0)),
        # 110♠ surcoinché (× 3) by team 1, 100: failed, 162 + 3 × 110 = 492 → 490.
        Step(PlayedDeal(1, SPADES, 110, "surcoinche", taker_points=100), (490, 0), (850, 0)),
        # 160♣ (the highest bid) by team 1, 150 + belote = 170 vs 12: 170 + 160 = 330, 12 → 10.
        Step(PlayedDeal(1, CLUBS, 160, taker_points=150, belote=(0, 1)), (10, 330), (860, 330)),
        # 90♦ coinché by team 1, 120 + belote: 162 + 2 × 90 + 20 = 362 → 360.
        Step(
            PlayedDeal(1, DIAMONDS, 90, "coinche", taker_points=120, belote=(0, 1)),
            (0, 360),
            (860, 690),
        ),
        # 110♣ by team 1, 160 + belote = 180 vs 2: 180 + 110 = 290, 2 → 0.
        Step(PlayedDeal(1, CLUBS, 110, taker_points=160, belote=(0, 1)), (0, 290), (860, 980)),
        # 80♥ by team 0, 100 vs 62: 180, 62 → 60: both 1040 ≥ 1000, equal: last_deal_winner,
        # the takers of this deal made it.
        Step(PlayedDeal(0, HEARTS, 80, taker_points=100), (180, 60), (1040, 1040)),
    ),
    winner=0,
)

BELOTE = Match(
    "belote",
    3,
    (
        # Team 0 takes ♥, 90 + belote = 110 vs 72.
        Step(PlayedDeal(0, HEARTS, taker_points=90, belote=(1, 0)), (110, 72), (110, 72)),
        # Team 1 takes ♠, 70 vs 92 + belote of team 0 = 112: dedans, 162 + 20 = 182.
        Step(PlayedDeal(1, SPADES, taker_points=70, belote=(1, 0)), (182, 0), (292, 72)),
        # Team 1 takes ♦, 81-81: litige, team 0 81, team 1's 81 held.
        Step(PlayedDeal(1, DIAMONDS, taker_points=81), (81, 0), (373, 72)),
        # Team 1 takes ♣, 100 + tierce 20 = 120 vs 62: made, 120 + the 81 held = 201.
        Step(
            PlayedDeal(1, CLUBS, taker_points=100, announcements=((), (TIERCE_K,))),
            (62, 201),
            (435, 273),
        ),
        # Nobody takes.
        Step(PassedDeal(), (0, 0), (435, 273)),
        # Team 0 takes ♠ and makes capot with belote and a quarte: 252 + 20 + 50 = 322.
        Step(
            PlayedDeal(0, SPADES, capot=0, belote=(1, 0), announcements=((QUARTE_A,), ())),
            (322, 0),
            (757, 273),
        ),
        # Team 1 takes ♥, 100 + belote = 120 vs 62.
        Step(PlayedDeal(1, HEARTS, taker_points=100, belote=(0, 1)), (62, 120), (819, 393)),
        # Team 0 takes ♣, 120 + tierce 20 = 140 vs 42.
        Step(
            PlayedDeal(0, CLUBS, taker_points=120, announcements=((TIERCE_Q,), ())),
            (140, 42),
            (959, 435),
        ),
        # Team 1 takes ♦, 76 vs 86: dedans, team 0 gets 162: 1121 ≥ 1000.
        Step(PlayedDeal(1, DIAMONDS, taker_points=76), (162, 0), (1121, 435)),
    ),
    winner=0,
)

BELOTE_501 = Match(
    "belote-501",
    0,
    (
        # Team 0 takes ♠ with 100 + carré of kings; team 1 has a quarte. by_kind: both count.
        # 100 + 100 = 200 vs 62 + 50 = 112.
        Step(
            PlayedDeal(0, SPADES, taker_points=100, announcements=((CARRE_K,), (QUARTE_A,))),
            (200, 112),
            (200, 112),
        ),
        # Team 1 takes ♥, 95 + tierce K (beats team 0's tierce Q) = 115 vs 67 + belote 20 = 87.
        Step(
            PlayedDeal(
                1, HEARTS, taker_points=95, belote=(1, 0), announcements=((TIERCE_Q,), (TIERCE_K,))
            ),
            (87, 115),
            (287, 227),
        ),
        # Team 0 takes ♦, 60 vs 102: dedans, 162.
        Step(PlayedDeal(0, DIAMONDS, taker_points=60), (0, 162), (287, 389)),
        # Team 1 takes ♣, 80 + belote = 100 vs 82.
        Step(PlayedDeal(1, CLUBS, taker_points=80, belote=(0, 1)), (82, 100), (369, 489)),
        # Team 0 takes ♥, 120 + quinte 100 = 220 vs 42: both pass 501, 589 > 531.
        Step(
            PlayedDeal(0, HEARTS, taker_points=120, announcements=((QUINTE_A,), ())),
            (220, 42),
            (589, 531),
        ),
    ),
    winner=0,
)


@pytest.mark.parametrize(
    "match",
    [
        pytest.param(COINCHE, id="coinche"),
        pytest.param(FUNBELOTE, id="coinche-funbelote"),
        pytest.param(COINCHE_X3, id="coinche-x3"),
        pytest.param(BELOTE, id="belote"),
        pytest.param(BELOTE_501, id="belote-501"),
    ],
)
def test_preset_match(match: Match) -> None:
    rules = PRESETS[match.preset]
    deals = [step.deal for step in match.steps]
    result = score_match(rules, deals, match.first_dealer)

    assert [d.scores for d in result.deals] == [step.scores for step in match.steps]
    assert [d.totals for d in result.deals] == [step.totals for step in match.steps]
    assert [d.dealer for d in result.deals] == [
        (match.first_dealer + i) % 4 for i in range(len(deals))
    ]
    assert (result.finished, result.winner) == (True, match.winner)
    assert (result.totals, result.reserve) == (match.steps[-1].totals, 0)
    assert result.scored_deals == sum(not isinstance(deal, PassedDeal) for deal in deals)
    # Nobody had won before the last deal.
    for n in range(len(deals)):
        partial = score_match(rules, deals[:n], match.first_dealer)
        assert (partial.finished, partial.winner) == (False, None), f"ended after {n} deals"
