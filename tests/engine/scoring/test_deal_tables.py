"""Every row of the scoring tables of docs/rules.md §3 (classic) and §4 (coinche), the announcement values
and resolution of §2, and the rounding of §5, one deal per test row.

Team 0 takes unless a row says otherwise, so scores read (takers, defence). Every expected figure
is computed here from docs/rules.md, with the arithmetic in the row's id. Most coinche rows use the
`coinche` preset without rounding so the table's formula shows as is; the §5 rows round.
"""

from dataclasses import dataclass, replace
from typing import Any

import pytest

from scorekeeper.engine.scoring import (
    PRESETS,
    Announcement,
    Kind,
    PlayedDeal,
    Rank,
    Rules,
    Trump,
    score_deal,
)

J, Q, K, A, TEN, NINE = Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE, Rank.TEN, Rank.NINE
SPADES, HEARTS, CLUBS, DIAMONDS = Trump.SPADES, Trump.HEARTS, Trump.CLUBS, Trump.DIAMONDS
SA, TA = Trump.NO_TRUMP, Trump.ALL_TRUMP


def tierce(high: Rank = K, trump: bool = False) -> Announcement:
    return Announcement(Kind.TIERCE, high, trump)


def quarte(high: Rank = A, trump: bool = False) -> Announcement:
    return Announcement(Kind.QUARTE, high, trump)


def quinte(high: Rank = A, trump: bool = False) -> Announcement:
    return Announcement(Kind.QUINTE, high, trump)


def carre(rank: Rank) -> Announcement:
    return Announcement(Kind.CARRE, rank)


def anns(
    team0: tuple[Announcement, ...] = (), team1: tuple[Announcement, ...] = ()
) -> tuple[tuple[Announcement, ...], tuple[Announcement, ...]]:
    return (team0, team1)


# Classic belote: the preset (exact points), its by_kind sibling, and the two variants of §3.
BELOTE = PRESETS["belote"]
BELOTE_BY_KIND = PRESETS["belote-501"]
LITIGE_NONE = replace(BELOTE, litige="none")
GENERALE_BID = replace(BELOTE, generale_bid=500)
# Coinche: the preset without rounding, so each row shows the table's exact formula.
EXACT = replace(PRESETS["coinche"], rounding="none")
EXACT_BY_KIND = replace(EXACT, announcements_resolution="by_kind")
CONTRACT_ONLY = replace(EXACT, made_scores="contract_only")
SCOPE_CONTRACT = replace(EXACT, multiplier_scope="contract")
BID_ONLY = replace(EXACT, success="bid_only")
FUNBELOTE = PRESETS["coinche-funbelote"]
FUN_EXACT = replace(FUNBELOTE, rounding="none")
COINCHE = PRESETS["coinche"]


@dataclass(frozen=True)
class Row:
    rules: Rules
    deal: PlayedDeal
    outcome: str
    scores: tuple[int, int]
    held: int = 0


def row(
    id: str, rules: Rules, deal: PlayedDeal, outcome: str, scores: tuple[int, int], held: int = 0
) -> Any:
    return pytest.param(Row(rules, deal, outcome, scores, held), id=id)


def check(r: Row) -> None:
    result = score_deal(r.rules, r.deal)
    assert (result.outcome, result.scores, result.held) == (r.outcome, r.scores, r.held)


# §3: classic belote.
CLASSIC = [
    row(
        "made: 100 > 62 → 100, 62",
        BELOTE,
        PlayedDeal(0, HEARTS, taker_points=100),
        "made",
        (100, 62),
    ),
    row(
        "made: 90+tierce 20=110 > 72+belote 20=92 → 110, 92",
        BELOTE,
        PlayedDeal(0, HEARTS, taker_points=90, belote=(0, 1), announcements=anns((tierce(),))),
        "made",
        (110, 92),
    ),
    row(
        "made on belote and announcements: 80+20+quarte 50=150 > 82 → 150, 82",
        BELOTE,
        PlayedDeal(0, SPADES, taker_points=80, belote=(1, 0), announcements=anns((quarte(),))),
        "made",
        (150, 82),
    ),
    row(
        "made, team 1 takes: 97 > 65 → 65, 97 (exact, no rounding)",
        BELOTE,
        PlayedDeal(1, CLUBS, taker_points=97),
        "made",
        (65, 97),
    ),
    row(
        "takers capot: 252+belote 20+quarte 50=322, defence 0",
        BELOTE,
        PlayedDeal(0, SPADES, capot=0, belote=(1, 0), announcements=anns((quarte(),))),
        "made",
        (322, 0),
    ),
    row(
        "takers capot, by_kind both count: 252+tierce 20+carré K 100=372, defence belote 20",
        BELOTE_BY_KIND,
        PlayedDeal(
            0, SPADES, capot=0, belote=(0, 1), announcements=anns((tierce(Q),), (carre(K),))
        ),
        "made",
        (372, 20),
    ),
    row(
        "dedans: 60+belote 20=80 < 102 → takers belote 20, defence 162",
        BELOTE,
        PlayedDeal(0, HEARTS, taker_points=60, belote=(1, 0)),
        "failed",
        (20, 162),
    ),
    row(
        "dedans: 70 < 92+belote 20 → 0, 162+20=182",
        BELOTE,
        PlayedDeal(0, HEARTS, taker_points=70, belote=(0, 1)),
        "failed",
        (0, 182),
    ),
    row(
        "dedans: takers' tierce goes to the defence: 60+20=80 < 102 → 0, 162+20=182",
        BELOTE,
        PlayedDeal(0, HEARTS, taker_points=60, announcements=anns((tierce(),))),
        "failed",
        (0, 182),
    ),
    row(
        "dedans by_kind: 50+tierce 20 < 112+carré Q 100+belote 20 → 0, 162+20+100+20=302",
        BELOTE_BY_KIND,
        PlayedDeal(
            0, HEARTS, taker_points=50, belote=(0, 1), announcements=anns((tierce(),), (carre(Q),))
        ),
        "failed",
        (0, 302),
    ),
    row(
        "defence capot: takers belote 20; defence 252+quarte 50=302",
        BELOTE,
        PlayedDeal(0, SPADES, capot=1, belote=(1, 0), announcements=anns((), (quarte(),))),
        "failed",
        (20, 302),
    ),
    row(
        "defence capot: takers 0; defence 252+takers' tierce 20+belote 20=292",
        BELOTE,
        PlayedDeal(0, SPADES, capot=1, belote=(0, 1), announcements=anns((tierce(),))),
        "failed",
        (0, 292),
    ),
    row(
        "litige 81-81: takers 0, 81 held; defence 81",
        BELOTE,
        PlayedDeal(0, DIAMONDS, taker_points=81),
        "litige",
        (0, 81),
        held=81,
    ),
    row(
        "litige 71+tierce 20=91 vs 91: takers 0, 91 held; defence 91",
        BELOTE,
        PlayedDeal(0, DIAMONDS, taker_points=71, announcements=anns((tierce(),))),
        "litige",
        (0, 91),
        held=91,
    ),
    row(
        "litige 71+belote 20=91 vs 91: takers nothing now, their whole total 91 held; defence 91",
        BELOTE,
        PlayedDeal(0, DIAMONDS, taker_points=71, belote=(1, 0)),
        "litige",
        (0, 91),
        held=91,
    ),
    row(
        "litige, team 1 takes, 81-81: defence (team 0) 81, takers 0, 81 held",
        BELOTE,
        PlayedDeal(1, DIAMONDS, taker_points=81),
        "litige",
        (81, 0),
        held=81,
    ),
    row(
        'litige "none": 81-81 counts as failed → 0, 162',
        LITIGE_NONE,
        PlayedDeal(0, DIAMONDS, taker_points=81),
        "failed",
        (0, 162),
    ),
    row(
        'litige "none": 71+tierce 20=91 vs 91 failed → 0, 162+20=182',
        LITIGE_NONE,
        PlayedDeal(0, DIAMONDS, taker_points=71, announcements=anns((tierce(),))),
        "failed",
        (0, 182),
    ),
    row(
        "announced générale made with belote: 500+20=520, defence 0",
        GENERALE_BID,
        PlayedDeal(0, HEARTS, "generale", capot=0, belote=(1, 0)),
        "made",
        (520, 0),
    ),
    row(
        "announced générale made, defence belote: 500, 20",
        GENERALE_BID,
        PlayedDeal(0, HEARTS, "generale", capot=0, belote=(0, 1)),
        "made",
        (500, 20),
    ),
    row(
        "announced générale made: only belote is added, not the quarte: 500, 0",
        GENERALE_BID,
        PlayedDeal(0, HEARTS, "generale", capot=0, announcements=anns((quarte(),))),
        "made",
        (500, 0),
    ),
    row(
        "announced générale made, generale_bid 300: 300, 0",
        replace(BELOTE, generale_bid=300),
        PlayedDeal(0, HEARTS, "generale", capot=0),
        "made",
        (300, 0),
    ),
    row(
        "announced générale failed (150 points), defence belote: 0, 500+20=520",
        GENERALE_BID,
        PlayedDeal(0, HEARTS, "generale", taker_points=150, belote=(0, 1)),
        "failed",
        (0, 520),
    ),
    row(
        "announced générale failed (defence capot), takers belote: 20, 500",
        GENERALE_BID,
        PlayedDeal(0, HEARTS, "generale", capot=1, belote=(1, 0)),
        "failed",
        (20, 500),
    ),
]


@pytest.mark.parametrize("r", CLASSIC)
def test_classic_table(r: Row) -> None:
    check(r)


# §4: coinche, multiplier_scope "deal", made_scores "points_and_contract", success "bid_and_beat".
COINCHE_ROWS = [
    row(
        "made m=1: 110+100=210, 52",
        EXACT,
        PlayedDeal(0, SPADES, 100, taker_points=110),
        "made",
        (210, 52),
    ),
    row(
        "made m=1: 95+tierce 20=115 vs 67+belote 20: 115+90=205, 87",
        EXACT,
        PlayedDeal(0, SPADES, 90, taker_points=95, belote=(0, 1), announcements=anns((tierce(),))),
        "made",
        (205, 87),
    ),
    row(
        "made m=1, 82 ≥ 80 and > 80: 82+80=162, 80",
        EXACT,
        PlayedDeal(0, SPADES, 80, taker_points=82),
        "made",
        (162, 80),
    ),
    row(
        "made m=1, team 1 takes: 120+110=230, 42",
        EXACT,
        PlayedDeal(1, CLUBS, 110, taker_points=120),
        "made",
        (42, 230),
    ),
    row(
        "made m=1 unbid capot with belote: 252+20+80=352, 0",
        EXACT,
        PlayedDeal(0, SPADES, 80, capot=0, belote=(1, 0)),
        "made",
        (352, 0),
    ),
    row(
        "made m=1 unbid capot, by_kind: 252+20+quarte 50+defence's carré Q 100+80=502, 0",
        EXACT_BY_KIND,
        PlayedDeal(
            0, SPADES, 80, capot=0, belote=(1, 0), announcements=anns((quarte(),), (carre(Q),))
        ),
        "made",
        (502, 0),
    ),
    row(
        "made m=1 unbid capot, table rules the defence's quinte counts: 252+100+80=432, 0",
        EXACT,
        PlayedDeal(
            0, SPADES, 80, capot=0, announcements=anns((tierce(),), (quinte(),)), announcements_to=1
        ),
        "made",
        (432, 0),
    ),
    row(
        "made m=1 capot bid, defence belote: 252+250=502, 20",
        EXACT,
        PlayedDeal(0, SPADES, "capot", capot=0, belote=(0, 1)),
        "made",
        (502, 20),
    ),
    row(
        "made m=1 capot bid with quinte: 252+100+250=602, 0",
        EXACT,
        PlayedDeal(0, SPADES, "capot", capot=0, announcements=anns((quinte(),))),
        "made",
        (602, 0),
    ),
    row(
        "made coinché, defence belote: 120+tierce: 2×(160+100+20)=560, 20",
        EXACT,
        PlayedDeal(
            0,
            HEARTS,
            100,
            "coinche",
            taker_points=120,
            belote=(0, 1),
            announcements=anns((tierce(),)),
        ),
        "made",
        (560, 20),
    ),
    row(
        "made surcoinché, defence belote: 4×(160+100+20)=1120, 20",
        EXACT,
        PlayedDeal(
            0,
            HEARTS,
            100,
            "surcoinche",
            taker_points=120,
            belote=(0, 1),
            announcements=anns((tierce(),)),
        ),
        "made",
        (1120, 20),
    ),
    row(
        "made coinché by_kind: 130+tierce+belote vs 32+carré K: 2×(160+100+20+100+20)=800, 0",
        EXACT_BY_KIND,
        PlayedDeal(
            0,
            HEARTS,
            100,
            "coinche",
            taker_points=130,
            belote=(1, 0),
            announcements=anns((tierce(),), (carre(K),)),
        ),
        "made",
        (800, 0),
    ),
    row(
        "made coinché with capot: 2×(250+100+20)=740, 0",
        EXACT,
        PlayedDeal(0, HEARTS, 100, "coinche", capot=0, belote=(1, 0)),
        "made",
        (740, 0),
    ),
    row(
        "made surcoinché capot bid: 4×(250+250)=2000, defence belote 20",
        EXACT,
        PlayedDeal(0, HEARTS, "capot", "surcoinche", capot=0, belote=(0, 1)),
        "made",
        (2000, 20),
    ),
    row(
        "failed m=1: 100 < 120 → 0, 160+120=280",
        EXACT,
        PlayedDeal(0, SPADES, 120, taker_points=100),
        "failed",
        (0, 280),
    ),
    row(
        "failed m=1: 80+tierce+belote=120 < 130 → belote 20, 160+130+20=310",
        EXACT,
        PlayedDeal(0, SPADES, 130, taker_points=80, belote=(1, 0), announcements=anns((tierce(),))),
        "failed",
        (20, 310),
    ),
    row(
        "failed m=1 by_kind: 0, 160+120+tierce 20+carré Q 100=400",
        EXACT_BY_KIND,
        PlayedDeal(0, SPADES, 120, taker_points=100, announcements=anns((tierce(),), (carre(Q),))),
        "failed",
        (0, 400),
    ),
    row(
        "failed coinché, defence belote: 0, 2×(160+120+20)=600",
        EXACT,
        PlayedDeal(0, SPADES, 120, "coinche", taker_points=100, belote=(0, 1)),
        "failed",
        (0, 600),
    ),
    row(
        "failed surcoinché: 0, 4×(160+120)=1120",
        EXACT,
        PlayedDeal(0, SPADES, 120, "surcoinche", taker_points=100),
        "failed",
        (0, 1120),
    ),
    row(
        "failed: defence capot, takers belote: 20, 160+80=240",
        EXACT,
        PlayedDeal(0, SPADES, 80, capot=1, belote=(1, 0)),
        "failed",
        (20, 240),
    ),
    row(
        "failed capot bid, 7 tricks: 0, 160+250=410",
        EXACT,
        PlayedDeal(0, SPADES, "capot", taker_points=152),
        "failed",
        (0, 410),
    ),
]


@pytest.mark.parametrize("r", COINCHE_ROWS)
def test_coinche_table(r: Row) -> None:
    check(r)


VARIANTS = [
    row(
        "contract_only made m=1: 100+belote 20+tierce 20=140, 0",
        CONTRACT_ONLY,
        PlayedDeal(
            0, SPADES, 100, taker_points=110, belote=(1, 0), announcements=anns((tierce(),))
        ),
        "made",
        (140, 0),
    ),
    row(
        "contract_only made m=1, defence belote: 100+tierce 20=120, belote 20",
        CONTRACT_ONLY,
        PlayedDeal(
            0, SPADES, 100, taker_points=110, belote=(0, 1), announcements=anns((tierce(),))
        ),
        "made",
        (120, 20),
    ),
    row(
        "contract_only, coinché made unchanged: 2×(160+100)=520, 0",
        CONTRACT_ONLY,
        PlayedDeal(0, SPADES, 100, "coinche", taker_points=110),
        "made",
        (520, 0),
    ),
    row(
        "contract_only, failed unchanged: 0, 160+90=250",
        CONTRACT_ONLY,
        PlayedDeal(0, SPADES, 90, taker_points=89),
        "failed",
        (0, 250),
    ),
    row(
        "scope contract, made coinché: 160+2×110+belote 20=400, 0",
        SCOPE_CONTRACT,
        PlayedDeal(0, HEARTS, 110, "coinche", taker_points=120, belote=(1, 0)),
        "made",
        (400, 0),
    ),
    row(
        "scope contract, made surcoinché: 160+4×110+belote 20=620, 0",
        SCOPE_CONTRACT,
        PlayedDeal(0, HEARTS, 110, "surcoinche", taker_points=120, belote=(1, 0)),
        "made",
        (620, 0),
    ),
    row(
        "scope contract, made coinché by_kind: 160+2×100+20+tierce 20+carré K 100=500, 0",
        replace(SCOPE_CONTRACT, announcements_resolution="by_kind"),
        PlayedDeal(
            0,
            HEARTS,
            100,
            "coinche",
            taker_points=130,
            belote=(1, 0),
            announcements=anns((tierce(),), (carre(K),)),
        ),
        "made",
        (500, 0),
    ),
    row(
        "scope contract, made m=1 unchanged: 110+100=210, 52",
        SCOPE_CONTRACT,
        PlayedDeal(0, SPADES, 100, taker_points=110),
        "made",
        (210, 52),
    ),
    row(
        "scope contract, failed m=1: 0, 160+120=280",
        SCOPE_CONTRACT,
        PlayedDeal(0, SPADES, 120, taker_points=100),
        "failed",
        (0, 280),
    ),
    row(
        "scope contract, failed coinché, defence belote: 0, 160+2×120+20=420",
        SCOPE_CONTRACT,
        PlayedDeal(0, SPADES, 120, "coinche", taker_points=100, belote=(0, 1)),
        "failed",
        (0, 420),
    ),
    row(
        "scope contract, failed surcoinché, takers' tierce: 0, 160+4×120+20=660",
        SCOPE_CONTRACT,
        PlayedDeal(0, SPADES, 120, "surcoinche", taker_points=80, announcements=anns((tierce(),))),
        "failed",
        (0, 660),
    ),
    row(
        "scope contract, coinche-x3 surcoinché ×3 failed: 0, 162+3×110=492→490",
        PRESETS["coinche-x3"],
        PlayedDeal(1, SPADES, 110, "surcoinche", taker_points=100),
        "failed",
        (490, 0),
    ),
    row(
        "bid_only: 80♣ 81-81 made (81 ≥ 80): 81+80=161, 81",
        BID_ONLY,
        PlayedDeal(0, CLUBS, 80, taker_points=81),
        "made",
        (161, 81),
    ),
    row(
        "bid_only: 100 ≥ 100 though < 62+carré Q 100=162: made 200, 162",
        BID_ONLY,
        PlayedDeal(0, CLUBS, 100, taker_points=100, announcements=anns((), (carre(Q),))),
        "made",
        (200, 162),
    ),
    row(
        "bid_and_beat, same deal: 100 not > 162 failed: 0, 160+100+100=360",
        EXACT,
        PlayedDeal(0, CLUBS, 100, taker_points=100, announcements=anns((), (carre(Q),))),
        "failed",
        (0, 360),
    ),
    row(
        "bid_only: 89 < 90 still fails: 0, 250",
        BID_ONLY,
        PlayedDeal(0, CLUBS, 90, taker_points=89),
        "failed",
        (0, 250),
    ),
    row(
        "generale_cards: unbid générale: 350+80=430, 0",
        FUNBELOTE,
        PlayedDeal(0, SPADES, 80, capot=0, generale=True),
        "made",
        (430, 0),
    ),
    row(
        "generale_cards, capot by two players: 250+80=330, 0",
        FUNBELOTE,
        PlayedDeal(0, SPADES, 80, capot=0),
        "made",
        (330, 0),
    ),
    row(
        "generale_cards with belote and tierce: 350+20+20+90=480, 0",
        FUN_EXACT,
        PlayedDeal(
            0, SPADES, 90, capot=0, generale=True, belote=(1, 0), announcements=anns((tierce(),))
        ),
        "made",
        (480, 0),
    ),
    row(
        "generale_cards, générale by the defence: failed 0, 160+80=240",
        FUNBELOTE,
        PlayedDeal(0, SPADES, 80, capot=1, generale=True),
        "failed",
        (0, 240),
    ),
    row(
        "generale_cards, coinché générale made: 2×(250+80)=660, 0",
        FUNBELOTE,
        PlayedDeal(0, SPADES, 80, "coinche", capot=0, generale=True),
        "made",
        (660, 0),
    ),
    row(
        "générale bid made: 252+500=752→750, 0",
        COINCHE,
        PlayedDeal(0, HEARTS, "generale", capot=0, generale=True),
        "made",
        (750, 0),
    ),
    row(
        "générale bid made with belote, no rounding: 252+20+500=772, 0",
        EXACT,
        PlayedDeal(0, HEARTS, "generale", capot=0, generale=True, belote=(1, 0)),
        "made",
        (772, 0),
    ),
    row(
        "générale bid made, generale_cards 350: 350+500=850, 0",
        replace(EXACT, generale_cards=350),
        PlayedDeal(0, HEARTS, "generale", capot=0, generale=True),
        "made",
        (850, 0),
    ),
    row(
        "générale bid, capot by both takers: failed 0, 160+500=660",
        EXACT,
        PlayedDeal(0, HEARTS, "generale", capot=0),
        "failed",
        (0, 660),
    ),
    row(
        "générale bid, 7 tricks: failed 0, 160+500=660",
        EXACT,
        PlayedDeal(0, HEARTS, "generale", taker_points=152),
        "failed",
        (0, 660),
    ),
    row(
        "générale bid coinché made: 2×(250+500)=1500, 0",
        EXACT,
        PlayedDeal(0, HEARTS, "generale", "coinche", capot=0, generale=True),
        "made",
        (1500, 0),
    ),
    row(
        "générale bid coinché failed: 0, 2×(160+500)=1320",
        EXACT,
        PlayedDeal(0, HEARTS, "generale", "coinche", capot=0),
        "failed",
        (0, 1320),
    ),
    row(
        "générale bid of 400 (custom): failed 0, 160+400=560",
        replace(EXACT, generale_bid=400),
        PlayedDeal(0, HEARTS, "generale", taker_points=130),
        "failed",
        (0, 560),
    ),
    row(
        "coinche-funbelote capot_cards 250: capot bid 250+250=500, 0",
        FUNBELOTE,
        PlayedDeal(0, HEARTS, "capot", capot=0),
        "made",
        (500, 0),
    ),
    row(
        "failure_base 162, coinched_base 162, multipliers [2, 3] (scope deal): 3×(162+100)=786",
        replace(EXACT, failure_base=162, coinched_base=162, multipliers=(2, 3)),
        PlayedDeal(0, HEARTS, 100, "surcoinche", taker_points=120),
        "made",
        (786, 0),
    ),
    row(
        "failure_base 162 (scope deal) failed coinché: 0, 2×(162+100)=524",
        replace(EXACT, failure_base=162),
        PlayedDeal(0, HEARTS, 100, "coinche", taker_points=90),
        "failed",
        (0, 524),
    ),
]


@pytest.mark.parametrize("r", VARIANTS)
def test_coinche_variant(r: Row) -> None:
    check(r)


# §2: announcement values. Team 0 takes 80 with 100 card points; its one announcement counts.
VALUES = [
    pytest.param(SPADES, tierce(NINE), 20, id="tierce 7-8-9 = 20"),
    pytest.param(SPADES, tierce(A), 20, id="tierce Q-K-A = 20"),
    pytest.param(SPADES, tierce(K, trump=True), 20, id="tierce in trump = 20"),
    pytest.param(SPADES, quarte(TEN), 50, id="quarte to the 10 = 50"),
    pytest.param(SPADES, quarte(A), 50, id="quarte to the ace = 50"),
    pytest.param(SPADES, quinte(J), 100, id="quinte 7-J = 100"),
    pytest.param(SPADES, quinte(A), 100, id="quinte to the ace (5 or more) = 100"),
    pytest.param(SPADES, carre(J), 200, id="suit: carré J = 200"),
    pytest.param(SPADES, carre(NINE), 150, id="suit: carré 9 = 150"),
    pytest.param(SPADES, carre(A), 100, id="suit: carré A = 100"),
    pytest.param(SPADES, carre(TEN), 100, id="suit: carré 10 = 100"),
    pytest.param(SPADES, carre(K), 100, id="suit: carré K = 100"),
    pytest.param(SPADES, carre(Q), 100, id="suit: carré Q = 100"),
    pytest.param(SA, carre(A), 200, id="SA: carré A = 200"),
    pytest.param(SA, carre(TEN), 150, id="SA: carré 10 = 150"),
    pytest.param(SA, carre(K), 100, id="SA: carré K = 100"),
    pytest.param(SA, carre(Q), 100, id="SA: carré Q = 100"),
    pytest.param(SA, carre(J), 100, id="SA: carré J = 100"),
    pytest.param(SA, carre(NINE), 100, id="SA: carré 9 = 100"),
    pytest.param(SA, tierce(), 20, id="SA: tierce = 20"),
    pytest.param(SA, quarte(), 50, id="SA: quarte = 50"),
    pytest.param(SA, quinte(), 100, id="SA: quinte = 100"),
    pytest.param(TA, carre(J), 200, id="TA: carré J = 200"),
    pytest.param(TA, carre(NINE), 150, id="TA: carré 9 = 150"),
    pytest.param(TA, carre(A), 100, id="TA: carré A = 100"),
    pytest.param(TA, tierce(), 20, id="TA: tierce = 20"),
]


@pytest.mark.parametrize("trump, announcement, value", VALUES)
def test_announcement_value(trump: Trump, announcement: Announcement, value: int) -> None:
    result = score_deal(
        EXACT, PlayedDeal(0, trump, 80, taker_points=100, announcements=anns((announcement,)))
    )
    assert result.announcement_points == (value, 0)
    assert result.totals == (100 + value, 62)
    assert result.scores == (100 + value + 80, 62)


@pytest.mark.parametrize(
    "items, value",
    [
        pytest.param((tierce(), carre(K)), 120, id="tierce 20 + carré K 100 = 120"),
        pytest.param((tierce(), tierce(TEN)), 40, id="two tierces = 40"),
        pytest.param(
            (carre(J), carre(NINE), quinte()),
            450,
            id="carré J 200 + carré 9 150 + quinte 100 = 450",
        ),
    ],
)
def test_all_announcements_of_a_team_add_up(items: tuple[Announcement, ...], value: int) -> None:
    result = score_deal(
        EXACT, PlayedDeal(0, SPADES, 80, taker_points=100, announcements=anns(items))
    )
    assert result.announcement_points == (value, 0)


# §2 resolution: which team's announcements count, as (team 0, team 1) announcement points.
def resolution(
    id: str,
    team0: tuple[Announcement, ...],
    team1: tuple[Announcement, ...],
    points: tuple[int, int],
    trump: Trump = SPADES,
    rules: Rules = EXACT,
    to: Any = None,
) -> Any:
    return pytest.param(rules, trump, anns(team0, team1), to, points, id=id)


RESOLUTIONS = [
    resolution("nobody announces", (), (), (0, 0)),
    resolution("only team 1 announces: it counts", (), (tierce(),), (0, 20)),
    resolution("value: quarte 50 beats tierce A 20", (tierce(A),), (quarte(TEN),), (0, 50)),
    resolution("value: carré J 200 beats carré 9 150", (carre(NINE),), (carre(J),), (0, 200)),
    resolution("value: carré 9 150 beats carré A 100", (carre(NINE),), (carre(A),), (150, 0)),
    resolution("value: quinte 100 beats quarte A 50", (quarte(),), (quinte(J),), (0, 100)),
    resolution(
        "value in SA: carré A 200 beats carré J 100", (carre(J),), (carre(A),), (0, 200), SA
    ),
    resolution(
        "value in SA: carré 10 150 beats carré 9 100", (carre(NINE),), (carre(TEN),), (0, 150), SA
    ),
    resolution(
        "the best team's all count: quinte 100+tierce 20=120 vs quarte A 50",
        (quinte(K), tierce(NINE)),
        (quarte(A),),
        (120, 0),
    ),
    resolution(
        "the other team's all lost: carré J beats quinte+quarte+tierce",
        (quinte(), quarte(TEN), tierce(K)),
        (carre(J),),
        (0, 200),
    ),
    resolution("equal value 100: carré Q beats quinte A", (quinte(A),), (carre(Q),), (0, 100)),
    resolution(
        "equal value 100 in SA: carré 9 beats quinte A", (quinte(A),), (carre(NINE),), (0, 100), SA
    ),
    resolution("top card: tierce K beats tierce Q", (tierce(K),), (tierce(Q),), (20, 0)),
    resolution("top card: quarte A beats quarte K", (quarte(K),), (quarte(A),), (0, 50)),
    resolution("top card: quinte A beats quinte K", (quinte(A),), (quinte(K),), (100, 0)),
    resolution(
        "top card before trump: tierce K beats trump tierce Q",
        (tierce(K),),
        (tierce(Q, trump=True),),
        (20, 0),
    ),
    resolution("carré order: A beats 10", (carre(TEN),), (carre(A),), (0, 100)),
    resolution("carré order: 10 beats K", (carre(TEN),), (carre(K),), (100, 0)),
    resolution("carré order: K beats Q", (carre(Q),), (carre(K),), (0, 100)),
    resolution("carré order: A beats Q", (carre(A),), (carre(Q),), (100, 0)),
    resolution("carré order in SA: K beats Q", (carre(Q),), (carre(K),), (0, 100), SA),
    resolution("carré order in SA: Q beats J", (carre(Q),), (carre(J),), (100, 0), SA),
    resolution("carré order in SA: J beats 9", (carre(NINE),), (carre(J),), (0, 100), SA),
    resolution("carré order in TA: 10 beats K", (carre(K),), (carre(TEN),), (0, 100), TA),
    resolution(
        "trump sequence: trump tierce K beats tierce K",
        (tierce(K),),
        (tierce(K, trump=True),),
        (0, 20),
    ),
    resolution(
        "trump sequence: trump quinte A beats quinte A",
        (quinte(A, trump=True),),
        (quinte(A),),
        (100, 0),
    ),
    resolution("full tie: tierce K = tierce K, nobody", (tierce(K),), (tierce(K),), (0, 0)),
    resolution("full tie: quarte A = quarte A, nobody", (quarte(),), (quarte(),), (0, 0)),
    resolution(
        "full tie on the best one: nobody, even with more behind it",
        (quinte(), tierce(NINE)),
        (quinte(),),
        (0, 0),
    ),
    resolution(
        "full tie in SA: tierce K = tierce K, nobody", (tierce(K),), (tierce(K),), (0, 0), SA
    ),
    # by_kind: carrés and sequences are two separate contests.
    resolution(
        "by_kind: carré K to team 0, quarte beats tierce for team 1: 100, 50",
        (carre(K), tierce(Q)),
        (quarte(TEN),),
        (100, 50),
        rules=EXACT_BY_KIND,
    ),
    resolution(
        "by_kind: team 0 best in both kinds: carré K 100 + quarte 50",
        (carre(K), quarte(A)),
        (tierce(),),
        (150, 0),
        rules=EXACT_BY_KIND,
    ),
    resolution(
        "by_kind: sequences tie (nobody), carré Q to team 1",
        (tierce(K),),
        (tierce(K), carre(Q)),
        (0, 100),
        rules=EXACT_BY_KIND,
    ),
    resolution(
        "by_kind: carré J beats carré 9; team 1's tierce alone counts too",
        (carre(NINE),),
        (carre(J), tierce()),
        (0, 220),
        rules=EXACT_BY_KIND,
    ),
    resolution(
        "by_kind: quinte does not compete with a carré: both count",
        (quinte(),),
        (carre(A),),
        (100, 100),
        rules=EXACT_BY_KIND,
    ),
    # The table's override.
    resolution(
        "override to team 0: its tierce counts, team 1's quinte not",
        (tierce(),),
        (quinte(),),
        (20, 0),
        to=0,
    ),
    resolution("override to team 1", (quinte(),), (tierce(),), (0, 20), to=1),
    resolution('override "none": nobody', (tierce(),), (quinte(),), (0, 0), to="none"),
    resolution("override settles a full tie for team 1", (tierce(K),), (tierce(K),), (0, 20), to=1),
    resolution(
        "override under by_kind: team 0's carré and tierce, nothing for team 1",
        (carre(K), tierce()),
        (quarte(),),
        (120, 0),
        rules=EXACT_BY_KIND,
        to=0,
    ),
]


@pytest.mark.parametrize("rules, trump, announcements, to, points", RESOLUTIONS)
def test_announcement_resolution(
    rules: Rules,
    trump: Trump,
    announcements: tuple[tuple[Announcement, ...], tuple[Announcement, ...]],
    to: Any,
    points: tuple[int, int],
) -> None:
    deal = PlayedDeal(
        0, trump, 80, taker_points=100, announcements=announcements, announcements_to=to
    )
    result = score_deal(rules, deal)
    assert result.announcement_points == points
    assert result.totals == (100 + points[0], 62 + points[1])


# §2: belote is never taken away, and tout atout has up to four.
BELOTES = [
    row(
        "coinche failed coinché, takers keep belote: 20, 2×(160+120)=560",
        EXACT,
        PlayedDeal(0, HEARTS, 120, "coinche", taker_points=80, belote=(1, 0)),
        "failed",
        (20, 560),
    ),
    row(
        "coinche failed, scope contract, takers keep belote: 20, 160+2×120=400",
        SCOPE_CONTRACT,
        PlayedDeal(0, HEARTS, 120, "coinche", taker_points=80, belote=(1, 0)),
        "failed",
        (20, 400),
    ),
    row(
        "coinche capot bid coinché, capot defence keeps belote: 2×(250+250)=1000, 20",
        EXACT,
        PlayedDeal(0, HEARTS, "capot", "coinche", capot=0, belote=(0, 1)),
        "made",
        (1000, 20),
    ),
    row(
        "coinche, contract_only: defence keeps belote: 80, 20",
        CONTRACT_ONLY,
        PlayedDeal(0, HEARTS, 80, taker_points=100, belote=(0, 1)),
        "made",
        (80, 20),
    ),
    row(
        "classic defence capot, takers keep belote: 20, 252",
        BELOTE,
        PlayedDeal(0, HEARTS, capot=1, belote=(1, 0)),
        "failed",
        (20, 252),
    ),
    row(
        "classic takers capot, capot defence keeps belote: 252, 20",
        BELOTE,
        PlayedDeal(0, HEARTS, capot=0, belote=(0, 1)),
        "made",
        (252, 20),
    ),
    row(
        "TA: four belotes to the takers: 100+80=180 vs 62: 180+130=310, 62",
        EXACT,
        PlayedDeal(0, TA, 130, taker_points=100, belote=(4, 0)),
        "made",
        (310, 62),
    ),
    row(
        "TA: two belotes each: 100+40=140 vs 62+40=102: 270, 102",
        EXACT,
        PlayedDeal(0, TA, 130, taker_points=100, belote=(2, 2)),
        "made",
        (270, 102),
    ),
    row(
        "TA: 1 and 3 belotes: 100+20=120 < 130 → 20, 160+130+60=350",
        EXACT,
        PlayedDeal(0, TA, 130, taker_points=100, belote=(1, 3)),
        "failed",
        (20, 350),
    ),
    row(
        "TA: two belotes kept on failing: 50+40=90 < 112 → 40, 160+130=290",
        EXACT,
        PlayedDeal(0, TA, 130, taker_points=50, belote=(2, 0)),
        "failed",
        (40, 290),
    ),
    row(
        "TA coinché, three belotes: 120+60=180 vs 42: 2×(160+130+60)=700, 0",
        EXACT,
        PlayedDeal(0, TA, 130, "coinche", taker_points=120, belote=(3, 0)),
        "made",
        (700, 0),
    ),
    row(
        "TA classic (sa_ta on): four belotes to the defence: 100 < 142 → 0, 162+80=242",
        replace(BELOTE, sa_ta=True),
        PlayedDeal(0, TA, taker_points=100, belote=(0, 4)),
        "failed",
        (0, 242),
    ),
    row(
        "belote_points 30 (custom): 70+30=100 > 92 made: 100, 92",
        replace(BELOTE, belote_points=30),
        PlayedDeal(0, HEARTS, taker_points=70, belote=(1, 0)),
        "made",
        (100, 92),
    ),
]


@pytest.mark.parametrize("r", BELOTES)
def test_belote(r: Row) -> None:
    check(r)


# §5 rounding: each team's deal score, after made/failed is decided on the exact totals.
HALF_UP = COINCHE
HALF_DOWN = replace(COINCHE, rounding="half_down")
DEAL_85 = PlayedDeal(0, SPADES, 80, taker_points=77, announcements=anns((tierce(),)))  # 97 vs 85
DEAL_84 = PlayedDeal(0, SPADES, 80, taker_points=78, announcements=anns((tierce(),)))  # 98 vs 84
DEAL_205 = PlayedDeal(0, SPADES, 90, taker_points=95, announcements=anns((tierce(),)))  # 115 vs 67

ROUNDING = [
    row("half_up: 97+80=177→180, 85→90", HALF_UP, DEAL_85, "made", (180, 90)),
    row("half_up: 98+80=178→180, 84→80", HALF_UP, DEAL_84, "made", (180, 80)),
    row("half_up: 115+90=205→210, 67→70", HALF_UP, DEAL_205, "made", (210, 70)),
    row(
        "half_up: 83+20+100=203→200, 79→80",
        HALF_UP,
        PlayedDeal(0, SPADES, 100, taker_points=83, announcements=anns((tierce(),))),
        "made",
        (200, 80),
    ),
    row("half_down: 177→180, 85→80", HALF_DOWN, DEAL_85, "made", (180, 80)),
    row("half_down: 178→180, 84→80", HALF_DOWN, DEAL_84, "made", (180, 80)),
    row("half_down: 205→200, 67→70", HALF_DOWN, DEAL_205, "made", (200, 70)),
    row(
        "half_down: 86+80=166→170, 76→80",
        HALF_DOWN,
        PlayedDeal(0, SPADES, 80, taker_points=86),
        "made",
        (170, 80),
    ),
    row("none: 177, 85 exact", EXACT, DEAL_85, "made", (177, 85)),
    row("none: 205, 67 exact", EXACT, DEAL_205, "made", (205, 67)),
    row(
        "half_up: 89 for a 90 fails: 0, 160+90=250",
        HALF_UP,
        PlayedDeal(0, HEARTS, 90, taker_points=89),
        "failed",
        (0, 250),
    ),
    row(
        "half_up: 85 (→90 rounded) for a 90 fails: 0, 250",
        HALF_UP,
        PlayedDeal(0, HEARTS, 90, taker_points=85),
        "failed",
        (0, 250),
    ),
    row(
        "half_up: 75+tierce=95 vs 87 for a 90: made on exact totals: 185→190, 87→90",
        HALF_UP,
        PlayedDeal(0, HEARTS, 90, taker_points=75, announcements=anns((tierce(),))),
        "made",
        (190, 90),
    ),
    row(
        "classic half_up: 86 > 76 made: 86→90, 76→80",
        replace(BELOTE, rounding="half_up"),
        PlayedDeal(0, HEARTS, taker_points=86),
        "made",
        (90, 80),
    ),
    row(
        "classic half_up: 80 < 82 fails though both round to 80: 0, 162→160",
        replace(BELOTE, rounding="half_up"),
        PlayedDeal(0, HEARTS, taker_points=80),
        "failed",
        (0, 160),
    ),
    row(
        "classic half_down: 85 > 77 made: 85→80, 77→80",
        replace(BELOTE, rounding="half_down"),
        PlayedDeal(0, HEARTS, taker_points=85),
        "made",
        (80, 80),
    ),
    row(
        "coinche-x3: coinché made: 162+2×90=342→340, 0",
        PRESETS["coinche-x3"],
        PlayedDeal(0, HEARTS, 90, "coinche", taker_points=100),
        "made",
        (340, 0),
    ),
]


@pytest.mark.parametrize("r", ROUNDING)
def test_rounding(r: Row) -> None:
    check(r)
