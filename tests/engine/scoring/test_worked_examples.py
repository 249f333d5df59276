"""The worked examples of docs/rules.md §8, each (and each of its sub-cases) as one test row.

Unless the example says otherwise the preset is `coinche` and team 0 takes, so the expected scores
read (takers, defence). The figures are docs/rules.md's own; the arithmetic is repeated in the ids.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace

import pytest
from django.utils import translation

from scorekeeper.engine.scoring import (
    PRESETS,
    Announcement,
    Kind,
    PlayedDeal,
    Rank,
    Trump,
    score_deal,
    score_match,
)
from scorekeeper.engine.scoring.breakdown import Line
from scorekeeper.web.words import breakdown


def render(lines: Sequence[Line], lang: str, teams: tuple[str, str]) -> list[str]:
    """The breakdown's words (the engine has none: scorekeeper/web/words.py) in `lang`."""
    with translation.override(lang):
        return breakdown(lines, teams)


@dataclass(frozen=True)
class Example:
    preset: str
    deal: PlayedDeal
    outcome: str
    scores: tuple[int, int]
    held: int = 0


TIERCE = Announcement(Kind.TIERCE, Rank.KING)
CARRE_OF_TENS = Announcement(Kind.CARRE, Rank.TEN)

EXAMPLES = [
    pytest.param(
        Example(
            "coinche",
            PlayedDeal(0, Trump.SPADES, 100, taker_points=83, announcements=((TIERCE,), ())),
            "made",
            (200, 80),
        ),
        id="1: 100♠, 83+20=103 vs 79 made: 103+100=203→200, 79→80",
    ),
    pytest.param(
        Example("coinche", PlayedDeal(0, Trump.HEARTS, 90, taker_points=89), "failed", (0, 250)),
        id="2: 90♥, takers 89 < 90 failed: 0, 160+90=250",
    ),
    pytest.param(
        Example("coinche", PlayedDeal(0, Trump.CLUBS, 80, taker_points=81), "failed", (0, 240)),
        id="3: 80♣, 81-81 not more than the defence: 0, 160+80=240",
    ),
    pytest.param(
        Example(
            "coinche",
            PlayedDeal(0, Trump.DIAMONDS, 90, taker_points=70, belote=(1, 0)),
            "failed",
            (20, 250),
        ),
        id="4: 90♦, 70+20=90 vs 92 failed: takers keep belote 20, 160+90=250",
    ),
    pytest.param(
        Example(
            "coinche",
            PlayedDeal(0, Trump.HEARTS, 110, coinche="coinche", taker_points=120, belote=(1, 0)),
            "made",
            (580, 0),
        ),
        id="5: 110♥ coinché, 120+belote made: 2×(160+110+20)=580, 0",
    ),
    pytest.param(
        Example(
            "coinche",
            PlayedDeal(0, Trump.HEARTS, 110, coinche="surcoinche", taker_points=120, belote=(1, 0)),
            "made",
            (1160, 0),
        ),
        id="5: Surcoinché: 4×(160+110+20)=1160",
    ),
    pytest.param(
        Example(
            "coinche",
            PlayedDeal(0, Trump.SPADES, 120, coinche="coinche", taker_points=100),
            "failed",
            (0, 560),
        ),
        id="6: 120♠ coinché, takers 100 failed: 0, 2×(160+120)=560",
    ),
    pytest.param(
        Example(
            "coinche", PlayedDeal(0, Trump.SPADES, 80, capot=0, belote=(0, 1)), "made", (330, 20)
        ),
        id="7: 80♠ unbid capot, defence belote: 252+80=332→330, 20",
    ),
    pytest.param(
        Example(
            "coinche",
            PlayedDeal(0, Trump.SPADES, "capot", capot=0, belote=(1, 0)),
            "made",
            (520, 0),
        ),
        id="8: Capot bid made with belote: 252+20+250=522→520, 0",
    ),
    pytest.param(
        Example(
            "coinche", PlayedDeal(0, Trump.SPADES, "capot", taker_points=140), "failed", (0, 410)
        ),
        id="8: Failed: defence 160 + 250 = 410",
    ),
    pytest.param(
        Example(
            "coinche",
            PlayedDeal(
                0, Trump.NO_TRUMP, 100, taker_points=118, announcements=((), (CARRE_OF_TENS,))
            ),
            "failed",
            (0, 410),
        ),
        id="9: 100 SA, 118 vs 44+150 (carré of tens in SA)=194 failed: 0, 160+150+100=410",
    ),
    pytest.param(
        Example(
            "coinche",
            PlayedDeal(0, Trump.ALL_TRUMP, 130, taker_points=140, belote=(2, 0)),
            "made",
            (310, 20),
        ),
        id="10: 130 TA, 140+2 belotes 40=180 vs 22 made: 180+130=310, 22→20",
    ),
    pytest.param(
        Example(
            "belote", PlayedDeal(0, Trump.HEARTS, taker_points=90, belote=(1, 0)), "made", (110, 72)
        ),
        id="11 classic: 90+belote=110 vs 72: 110, 72",
    ),
    pytest.param(
        Example(
            "belote",
            PlayedDeal(0, Trump.HEARTS, taker_points=70, belote=(0, 1)),
            "failed",
            (0, 182),
        ),
        id="11 classic: 70 vs 92+belote=112 dedans: 0, 162+20=182",
    ),
    pytest.param(
        Example("belote", PlayedDeal(0, Trump.HEARTS, taker_points=81), "litige", (0, 81), held=81),
        id="11 classic: 81-81 litige: defence 81, takers' 81 held",
    ),
    pytest.param(
        Example(
            "coinche-x3",
            PlayedDeal(0, Trump.HEARTS, 100, coinche="coinche", taker_points=110),
            "made",
            (360, 0),
        ),
        id="12 coinche-x3: 100♥ coinché, 110 made: 162+2×100=362→360, 0",
    ),
]


@pytest.mark.parametrize("example", EXAMPLES)
def test_worked_example(example: Example) -> None:
    result = score_deal(PRESETS[example.preset], example.deal)
    assert (result.outcome, result.scores, result.held) == (
        example.outcome,
        example.scores,
        example.held,
    )


@pytest.mark.parametrize("example", EXAMPLES)
def test_worked_example_with_team_1_taking(example: Example) -> None:
    """The same example with the teams' seats swapped scores the same, mirrored."""
    deal = example.deal
    mirrored = replace(
        deal,
        taker=1 - deal.taker,
        capot=None if deal.capot is None else 1 - deal.capot,
        belote=(deal.belote[1], deal.belote[0]),
        announcements=(deal.announcements[1], deal.announcements[0]),
    )
    result = score_deal(PRESETS[example.preset], mirrored)
    assert result.scores == (example.scores[1], example.scores[0])
    assert result.held == example.held


@pytest.mark.parametrize(
    "lang, expected",
    [
        pytest.param(
            "en",
            [
                "Us: 83 card points + 20 announcements + 100 contract = 203 → 200",
                "Them: 79 card points → 80",
            ],
            id="en",
        ),
        pytest.param(
            "fr",
            [
                "Us\u00a0: 83 points + 20 annonces + 100 contrat = 203 → 200",
                "Them\u00a0: 79 points → 80",
            ],
            id="fr",
        ),
    ],
)
def test_example_1_breakdown_reads_as_the_rules_do(lang: str, expected: list[str]) -> None:
    deal = PlayedDeal(0, Trump.SPADES, 100, taker_points=83, announcements=((TIERCE,), ()))
    lines = render(score_deal(PRESETS["coinche"], deal).breakdown, lang, ("Us", "Them"))
    assert lines[-2:] == expected


def test_example_11_litige_reserve_goes_to_the_next_deal_winners() -> None:
    """Example 11's "takers' 81 held for the next deal's winners", played on in a match."""
    deals = [
        PlayedDeal(0, Trump.HEARTS, taker_points=81),  # litige: (0, 81), 81 held
        PlayedDeal(1, Trump.SPADES, taker_points=100),  # team 1 made: 100 + 81 held; team 0 62
    ]
    result = score_match(PRESETS["belote"], deals, 0)
    assert [d.scores for d in result.deals] == [(0, 81), (62, 181)]
    assert result.totals == (62, 262)
    assert result.reserve == 0
