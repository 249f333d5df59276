"""docs/rules.md §4's two score-app variants, row by row: `coinched_scores = "points"` (a made coinché
contract scores m × (the takers' total + C) and the defence keeps its total) and
`capot_bid_scores = "contract"` (a made capot or générale bid, not coinché, scores its contract
alone plus belote). Team 0 takes; scores read (takers, defence); the arithmetic is in each id."""

from collections.abc import Sequence
from dataclasses import replace

import pytest
from django.utils import translation

from scorekeeper.engine.scoring import (
    PRESETS,
    InvalidInput,
    PlayedDeal,
    rules_from_dict,
    score_deal,
)
from scorekeeper.engine.scoring.breakdown import Line, Note
from scorekeeper.web.words import breakdown

from .test_deal_tables import (
    CLUBS,
    DIAMONDS,
    EXACT,
    HEARTS,
    SPADES,
    Row,
    anns,
    carre,
    check,
    row,
    tierce,
)
from .test_deal_tables import K as KING

COINCHE = PRESETS["coinche"]
POINTS = replace(EXACT, coinched_scores="points")
POINTS_ROUNDED = replace(COINCHE, coinched_scores="points")
CONTRACT = replace(EXACT, capot_bid_scores="contract")

COINCHED_ON_POINTS = [
    row(
        "docs/rules.md's example: 2×(120+100)=440, 42→40",
        POINTS_ROUNDED,
        PlayedDeal(0, HEARTS, 100, "coinche", taker_points=120),
        "made",
        (440, 40),
    ),
    row(
        "exact: 2×(120+100)=440, 42",
        POINTS,
        PlayedDeal(0, HEARTS, 100, "coinche", taker_points=120),
        "made",
        (440, 42),
    ),
    row(
        "surcoinché: 4×(120+100)=880, 42",
        POINTS,
        PlayedDeal(0, HEARTS, 100, "surcoinche", taker_points=120),
        "made",
        (880, 42),
    ),
    row(
        "takers' belote and tierce: 2×(120+20+20+110)=540, 42",
        POINTS,
        PlayedDeal(
            0,
            HEARTS,
            110,
            "coinche",
            taker_points=120,
            belote=(1, 0),
            announcements=anns((tierce(),)),
        ),
        "made",
        (540, 42),
    ),
    row(
        "defence's belote stays in its total: 2×(110+100)=420, 52+20=72",
        POINTS,
        PlayedDeal(0, SPADES, 100, "coinche", taker_points=110, belote=(0, 1)),
        "made",
        (420, 72),
    ),
    row(
        "defence's counted carré stays in its total: 2×(140+100)=480, 22+100=122",
        POINTS,
        PlayedDeal(
            0, SPADES, 100, "coinche", taker_points=140, announcements=anns((), (carre(KING),))
        ),
        "made",
        (480, 122),
    ),
    row(
        "capot, takers' belote: 2×(252+20+100)=744, 0",
        POINTS,
        PlayedDeal(0, SPADES, 100, "coinche", capot=0, belote=(1, 0)),
        "made",
        (744, 0),
    ),
    row(
        "capot, the defence's tierce counts for the takers: 2×(252+20+100)=744, 0",
        POINTS,
        PlayedDeal(0, SPADES, 100, "coinche", capot=0, announcements=anns((), (tierce(),))),
        "made",
        (744, 0),
    ),
    row(
        "capot, defence's belote: 2×(252+100)=704, 20",
        POINTS,
        PlayedDeal(0, SPADES, 100, "coinche", capot=0, belote=(0, 1)),
        "made",
        (704, 20),
    ),
    row(
        "capot bid coinché: 2×(252+250)=1004→1000, 0",
        POINTS_ROUNDED,
        PlayedDeal(0, CLUBS, "capot", "coinche", capot=0),
        "made",
        (1000, 0),
    ),
    row(
        "rounding half_up: 3×(95+90)=555→560, 67→70",
        replace(POINTS_ROUNDED, multipliers=(3, 5)),
        PlayedDeal(0, DIAMONDS, 90, "coinche", taker_points=95),
        "made",
        (560, 70),
    ),
    row(
        "rounding half_down: 3×(95+90)=555→550, 67→70; 65 would go to 60",
        replace(POINTS_ROUNDED, multipliers=(3, 5), rounding="half_down"),
        PlayedDeal(0, DIAMONDS, 90, "coinche", taker_points=95),
        "made",
        (550, 70),
    ),
    row(
        "rounding half_down, defence 65→60: 2×(97+90)=374→370",
        replace(POINTS_ROUNDED, rounding="half_down"),
        PlayedDeal(0, DIAMONDS, 90, "coinche", taker_points=97),
        "made",
        (370, 60),
    ),
    row(
        "failed coinché unchanged: 0, 2×(160+120)=560",
        POINTS,
        PlayedDeal(0, SPADES, 120, "coinche", taker_points=100),
        "failed",
        (0, 560),
    ),
    row(
        "failed surcoinché, takers' belote unchanged: 20, 4×(160+100)=1040",
        POINTS,
        PlayedDeal(0, SPADES, 100, "surcoinche", taker_points=70, belote=(1, 0)),
        "failed",
        (20, 1040),
    ),
    row(
        "not coinché unchanged: 110+100=210, 52",
        POINTS,
        PlayedDeal(0, SPADES, 100, taker_points=110),
        "made",
        (210, 52),
    ),
]

CAPOT_BID_AS_CONTRACT = [
    row(
        "capot bid made, takers' belote: 250+20=270, 0",
        CONTRACT,
        PlayedDeal(0, SPADES, "capot", capot=0, belote=(1, 0)),
        "made",
        (270, 0),
    ),
    row(
        "capot bid made, announcements not added: 250, 0",
        CONTRACT,
        PlayedDeal(0, SPADES, "capot", capot=0, announcements=anns((tierce(),), (carre(KING),))),
        "made",
        (250, 0),
    ),
    row(
        "capot bid made, defence's belote: 250, 20",
        CONTRACT,
        PlayedDeal(0, SPADES, "capot", capot=0, belote=(0, 1)),
        "made",
        (250, 20),
    ),
    row(
        "générale bid made: 500+20=520, 0",
        CONTRACT,
        PlayedDeal(0, HEARTS, "generale", capot=0, generale=True, belote=(1, 0)),
        "made",
        (520, 0),
    ),
    row(
        "with contract_only too, announcements still not added: 250+20=270, 0",
        replace(CONTRACT, made_scores="contract_only"),
        PlayedDeal(0, SPADES, "capot", capot=0, belote=(1, 0), announcements=anns((tierce(),))),
        "made",
        (270, 0),
    ),
    row(
        "rounding: capot bid 255 → 260, 0",
        replace(COINCHE, capot_bid_scores="contract", capot_bid=255),
        PlayedDeal(0, SPADES, "capot", capot=0),
        "made",
        (260, 0),
    ),
    row(
        "capot bid failed unchanged: 0, 160+250=410",
        CONTRACT,
        PlayedDeal(0, SPADES, "capot", taker_points=150),
        "failed",
        (0, 410),
    ),
    row(
        "capot bid coinché unchanged: 2×(250+250)=1000, 0",
        CONTRACT,
        PlayedDeal(0, SPADES, "capot", "coinche", capot=0),
        "made",
        (1000, 0),
    ),
    row(
        "ordinary contract with an unbid capot unchanged: 252+80=332, 0",
        CONTRACT,
        PlayedDeal(0, SPADES, 80, capot=0),
        "made",
        (332, 0),
    ),
    row(
        "ordinary contract unchanged: 110+100=210, 52",
        CONTRACT,
        PlayedDeal(0, SPADES, 100, taker_points=110),
        "made",
        (210, 52),
    ),
]


def render(lines: Sequence[Line], lang: str, teams: tuple[str, str]) -> list[str]:
    """The breakdown's words (the engine has none: scorekeeper/web/words.py) in `lang`."""
    with translation.override(lang):
        return breakdown(lines, teams)


@pytest.mark.parametrize("r", COINCHED_ON_POINTS)
def test_coinched_scores_on_points(r: Row) -> None:
    check(r)


@pytest.mark.parametrize("r", CAPOT_BID_AS_CONTRACT)
def test_capot_bid_scores_its_contract(r: Row) -> None:
    check(r)


def test_the_official_values_are_the_default_of_every_preset() -> None:
    for rules in PRESETS.values():
        assert (rules.coinched_scores, rules.capot_bid_scores) == ("base", "total_and_contract")
    assert {"coinched_scores", "capot_bid_scores"} <= set(PRESETS["coinche"].to_dict())
    assert "coinched_scores" not in PRESETS["belote"].to_dict()


@pytest.mark.parametrize(
    ("data", "path", "code", "params"),
    [
        (
            {"coinched_scores": "doubled"},
            "coinched_scores",
            "choice",
            {"choices": "base, points"},
        ),
        (
            {"capot_bid_scores": True},
            "capot_bid_scores",
            "choice",
            {"choices": "total_and_contract, contract"},
        ),
        (
            {"coinched_scores": "points", "multiplier_scope": "contract"},
            "coinched_scores",
            "points_need_deal_scope",
            {},
        ),
    ],
)
def test_bad_values_are_refused_with_their_path(
    data: dict[str, object], path: str, code: str, params: dict[str, object]
) -> None:
    with pytest.raises(InvalidInput) as error:
        rules_from_dict({"preset": "coinche", **data})
    assert (error.value.path, error.value.code, error.value.params) == (path, code, params)


def test_the_variants_are_coinche_settings() -> None:
    with pytest.raises(InvalidInput) as error:
        rules_from_dict({"preset": "belote", "capot_bid_scores": "contract"})
    assert error.value.path == "capot_bid_scores"
    # coinche-x3 multiplies the contract only: on points, it must switch to the whole deal.
    with pytest.raises(InvalidInput):
        rules_from_dict({"preset": "coinche-x3", "coinched_scores": "points"})
    rules = rules_from_dict(
        {"preset": "coinche-x3", "coinched_scores": "points", "multiplier_scope": "deal"}
    )
    assert rules.overrides() == {"coinched_scores": "points", "multiplier_scope": "deal"}


def test_the_breakdown_says_which_variant_scored() -> None:
    deal = PlayedDeal(0, HEARTS, 100, "coinche", taker_points=120)
    lines = score_deal(POINTS_ROUNDED, deal).breakdown
    assert Note("coinched_points") in lines
    assert render(lines, "en", ("Us", "Them"))[-3:] == [
        "Coinched contract scored on points: the defence keeps its total",
        "Us: 2 × (120 card points + 100 contract) = 440",
        "Them: 42 card points → 40",
    ]
    assert render(lines, "fr", ("Nous", "Eux"))[-3:] == [
        "Contrat coinché compté aux points\u00a0: la défense garde les siens",
        "Nous\u00a0: 2 × (120 points + 100 contrat) = 440",
        "Eux\u00a0: 42 points → 40",
    ]
    capot = score_deal(CONTRACT, PlayedDeal(0, SPADES, "capot", capot=0, belote=(1, 0)))
    assert render(capot.breakdown, "en", ("Us", "Them"))[-3:] == [
        "A made capot bid scores its contract alone",
        "Us: 250 contract + 20 belote = 270",
        "Them: 0",
    ]
    assert render(capot.breakdown, "fr", ("Nous", "Eux"))[-3] == (
        "Une annonce de capot réussie ne compte que le contrat"
    )
    # The official rules add no such line.
    official = score_deal(EXACT, PlayedDeal(0, SPADES, "capot", capot=0)).breakdown
    assert not any(isinstance(line, Note) and line.key == "capot_bid_contract" for line in official)
