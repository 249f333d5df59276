"""docs/rules.md §1 (card values), §7 (presets), and what the engine refuses: bad rule settings and deals
the rules do not allow, each error naming the offending setting or field in its path."""

from dataclasses import replace
from typing import Any

import pytest

from scorekeeper.engine.scoring import (
    CARD_VALUES,
    DECK,
    PRESETS,
    Announcement,
    Card,
    Deal,
    InvalidInput,
    Kind,
    ManualDeal,
    PlayedDeal,
    Rank,
    Rules,
    Suit,
    Trump,
    card_value,
    check_deal,
    count_points,
    rules_from_dict,
    score_deal,
)
from scorekeeper.engine.scoring.cards import CardTable

# §1, as printed: J 9 A 10 K Q 8 7.
ORDER = (Rank.JACK, Rank.NINE, Rank.ACE, Rank.TEN, Rank.KING, Rank.QUEEN, Rank.EIGHT, Rank.SEVEN)
TABLE: dict[CardTable, tuple[int, ...]] = {
    "trump": (20, 14, 11, 10, 4, 3, 0, 0),
    "plain": (2, 0, 11, 10, 4, 3, 0, 0),
    "no_trump": (2, 0, 19, 10, 4, 3, 0, 0),
    "all_trump": (13, 9, 6, 5, 3, 2, 0, 0),
}


@pytest.mark.parametrize("row", list(TABLE))
def test_card_values_table(row: CardTable) -> None:
    assert tuple(CARD_VALUES[row][rank] for rank in ORDER) == TABLE[row]


@pytest.mark.parametrize(
    "row, suit, trump",
    [
        pytest.param("trump", Suit.HEARTS, Trump.HEARTS, id="trump suit"),
        pytest.param("plain", Suit.SPADES, Trump.HEARTS, id="other suit"),
        pytest.param("no_trump", Suit.CLUBS, Trump.NO_TRUMP, id="sans atout"),
        pytest.param("all_trump", Suit.DIAMONDS, Trump.ALL_TRUMP, id="tout atout"),
    ],
)
@pytest.mark.parametrize("index", range(8), ids=[str(rank) for rank in ORDER])
def test_card_value(row: CardTable, suit: Suit, trump: Trump, index: int) -> None:
    assert card_value(Card(ORDER[index], suit), trump) == TABLE[row][index]


def test_the_deck_has_32_different_cards() -> None:
    assert len(DECK) == len(set(DECK)) == 32
    assert {card.suit for card in DECK} == set(Suit)
    assert all(sum(card.suit is suit for card in DECK) == 8 for suit in Suit)


@pytest.mark.parametrize("trump", list(Trump))
def test_every_contract_counts_152_in_the_cards_and_162_with_the_dix_de_der(trump: Trump) -> None:
    assert sum(card_value(card, trump) for card in DECK) == 152
    assert count_points(DECK, trump, last_trick=False) == 152
    assert count_points(DECK, trump, last_trick=True) == 162


@pytest.mark.parametrize(
    "cards, trump, last_trick, points",
    [
        pytest.param(
            [
                Card(Rank.JACK, Suit.HEARTS),
                Card(Rank.NINE, Suit.HEARTS),
                Card(Rank.ACE, Suit.SPADES),
            ],
            Trump.HEARTS,
            True,
            55,
            id="J♥ 20 + 9♥ 14 + A♠ 11 + der 10 = 55",
        ),
        pytest.param(
            [
                Card(Rank.JACK, Suit.SPADES),
                Card(Rank.NINE, Suit.SPADES),
                Card(Rank.ACE, Suit.SPADES),
            ],
            Trump.HEARTS,
            False,
            13,
            id="J♠ 2 + 9♠ 0 + A♠ 11 = 13 with hearts trump",
        ),
        pytest.param(
            [Card(Rank.ACE, Suit.CLUBS), Card(Rank.TEN, Suit.CLUBS), Card(Rank.SEVEN, Suit.CLUBS)],
            Trump.NO_TRUMP,
            False,
            29,
            id="SA: A 19 + 10 10 + 7 0 = 29",
        ),
        pytest.param(
            [
                Card(Rank.JACK, Suit.CLUBS),
                Card(Rank.JACK, Suit.HEARTS),
                Card(Rank.QUEEN, Suit.SPADES),
            ],
            Trump.ALL_TRUMP,
            True,
            38,
            id="TA: J 13 + J 13 + Q 2 + der 10 = 38",
        ),
        pytest.param([], Trump.SPADES, True, 10, id="no cards, last trick: 10"),
        pytest.param([], Trump.SPADES, False, 0, id="nothing: 0"),
    ],
)
def test_count_points(cards: list[Card], trump: Trump, last_trick: bool, points: int) -> None:
    assert count_points(cards, trump, last_trick=last_trick) == points


@pytest.mark.parametrize("trump", list(Trump))
def test_both_halves_of_the_deck_add_up_to_162(trump: Trump) -> None:
    first, second = DECK[:13], DECK[13:]
    total = count_points(first, trump, last_trick=True) + count_points(
        second, trump, last_trick=False
    )
    assert total == 162


# §7: every cell of the preset table.
PRESET_TABLE: dict[str, dict[str, Any]] = {
    "coinche": {
        "game": "coinche",
        "target": 2000,
        "rounding": "half_up",
        "announcements": True,
        "announcements_resolution": "best_team",
        "sa_ta": True,
        "capot_cards": 252,
        "success": "bid_and_beat",
        "made_scores": "points_and_contract",
        "multipliers": (2, 4),
        "multiplier_scope": "deal",
        "failure_base": 160,
        "coinched_base": 160,
        "min_bid": 80,
        "max_bid": None,
        "capot_bid": 250,
        "generale_bid": 500,
        "generale_cards": None,
        "end_tie": "extra_deal",
        "belote_cannot_clinch": True,
        "belote_points": 20,
    },
    "coinche-funbelote": {
        "game": "coinche",
        "target": 1501,
        "rounding": "half_up",
        "announcements": True,
        "announcements_resolution": "best_team",
        "sa_ta": True,
        "capot_cards": 250,
        "success": "bid_and_beat",
        "made_scores": "points_and_contract",
        "multipliers": (2, 4),
        "multiplier_scope": "deal",
        "failure_base": 160,
        "coinched_base": 160,
        "min_bid": 80,
        "max_bid": None,
        "capot_bid": 250,
        "generale_bid": None,
        "generale_cards": 350,
        "end_tie": "extra_deal",
        "belote_cannot_clinch": True,
        "belote_points": 20,
    },
    "coinche-x3": {
        "game": "coinche",
        "target": 1000,
        "rounding": "half_up",
        "announcements": True,
        "announcements_resolution": "best_team",
        "sa_ta": False,
        "capot_cards": 252,
        "success": "bid_and_beat",
        "made_scores": "points_and_contract",
        "multipliers": (2, 3),
        "multiplier_scope": "contract",
        "failure_base": 162,
        "coinched_base": 162,
        "min_bid": 80,
        "max_bid": 160,
        "capot_bid": 250,
        "generale_bid": None,
        "generale_cards": None,
        "end_tie": "last_deal_winner",
        "belote_cannot_clinch": True,
        "belote_points": 20,
    },
    "belote": {
        "game": "belote",
        "target": 1000,
        "rounding": "none",
        "announcements": True,
        "announcements_resolution": "best_team",
        "sa_ta": False,
        "capot_cards": 252,
        "failure_points": 162,
        "generale_bid": None,
        "generale_cards": None,
        "litige": "reserve",
        "end_tie": "extra_deal",
        "belote_cannot_clinch": True,
        "belote_points": 20,
    },
    "belote-501": {
        "game": "belote",
        "target": 501,
        "rounding": "none",
        "announcements": True,
        "announcements_resolution": "by_kind",
        "sa_ta": False,
        "capot_cards": 252,
        "failure_points": 162,
        "generale_bid": None,
        "generale_cards": None,
        "litige": "reserve",
        "end_tie": "extra_deal",
        "belote_cannot_clinch": True,
        "belote_points": 20,
    },
}
COINCHE_ONLY = (
    "success",
    "made_scores",
    "multipliers",
    "multiplier_scope",
    "failure_base",
    "coinched_base",
    "min_bid",
    "max_bid",
    "capot_bid",
)
BELOTE_ONLY = ("failure_points", "litige")


def test_the_five_presets() -> None:
    assert set(PRESETS) == set(PRESET_TABLE)


@pytest.mark.parametrize(
    "preset, setting, value",
    [
        pytest.param(preset, setting, value, id=f"{preset}: {setting}={value}")
        for preset, cells in PRESET_TABLE.items()
        for setting, value in cells.items()
    ],
)
def test_preset_cell(preset: str, setting: str, value: object) -> None:
    assert getattr(PRESETS[preset], setting) == value
    assert getattr(rules_from_dict({"preset": preset}), setting) == value


@pytest.mark.parametrize("preset", list(PRESET_TABLE))
def test_a_preset_has_no_deals_limit_and_the_other_game_settings_are_not_its_own(
    preset: str,
) -> None:
    rules = PRESETS[preset]
    assert rules.deals_limit is None
    others = BELOTE_ONLY if rules.is_coinche else COINCHE_ONLY
    assert not set(others) & set(rules.setting_names())
    assert not set(others) & set(rules.to_dict())


def test_a_preset_with_overrides() -> None:
    rules = rules_from_dict({"preset": "coinche", "target": 1000, "multipliers": [2, 3]})
    assert rules == replace(PRESETS["coinche"], target=1000, multipliers=(2, 3))
    assert rules.overrides() == {"target": 1000, "multipliers": [2, 3]}


def test_belote_tournament_settings() -> None:
    rules = rules_from_dict(
        {"preset": "belote", "deals_limit": 12, "rounding": "half_up", "target": None}
    )
    assert (rules.deals_limit, rules.rounding, rules.target) == (12, "half_up", None)


# Rules validation: the path is the setting's name.
BAD_RULES = [
    pytest.param({"preset": "tarot"}, "preset", id="unknown preset"),
    pytest.param({"target": 1000}, "preset", id="no preset"),
    pytest.param({"preset": 1}, "preset", id="preset not a name"),
    pytest.param({"preset": "coinche", "colour": "red"}, "colour", id="unknown setting"),
    pytest.param({"preset": "coinche", "Target": 1000}, "Target", id="setting names are exact"),
    pytest.param(
        {"preset": "belote", "multipliers": [2, 4]}, "multipliers", id="belote: multipliers"
    ),
    pytest.param({"preset": "belote", "min_bid": 80}, "min_bid", id="belote: min_bid"),
    pytest.param(
        {"preset": "belote-501", "capot_bid": 250}, "capot_bid", id="belote-501: capot_bid"
    ),
    pytest.param({"preset": "belote", "success": "bid_only"}, "success", id="belote: success"),
    pytest.param(
        {"preset": "belote", "multiplier_scope": "deal"}, "multiplier_scope", id="belote: scope"
    ),
    pytest.param(
        {"preset": "belote", "coinched_base": 160}, "coinched_base", id="belote: coinched_base"
    ),
    pytest.param({"preset": "coinche", "litige": "none"}, "litige", id="coinche: litige"),
    pytest.param(
        {"preset": "coinche", "failure_points": 162}, "failure_points", id="coinche: failure_points"
    ),
    pytest.param({"preset": "coinche", "game": "belote"}, "game", id="game of another preset"),
    pytest.param({"preset": "coinche", "target": "2000"}, "target", id="target as text"),
    pytest.param({"preset": "coinche", "target": 0}, "target", id="target 0"),
    pytest.param({"preset": "coinche", "target": 1500.0}, "target", id="target a float"),
    pytest.param({"preset": "coinche", "target": True}, "target", id="target a bool"),
    pytest.param(
        {"preset": "coinche", "target": None}, "target", id="neither target nor deals limit"
    ),
    pytest.param({"preset": "belote", "deals_limit": 0}, "deals_limit", id="deals_limit 0"),
    pytest.param({"preset": "coinche", "rounding": "up"}, "rounding", id="rounding unknown"),
    pytest.param({"preset": "coinche", "announcements": 1}, "announcements", id="announcements 1"),
    pytest.param(
        {"preset": "coinche", "announcements_resolution": "best"},
        "announcements_resolution",
        id="resolution unknown",
    ),
    pytest.param({"preset": "coinche", "sa_ta": "yes"}, "sa_ta", id="sa_ta text"),
    pytest.param({"preset": "coinche", "capot_cards": None}, "capot_cards", id="capot_cards null"),
    pytest.param(
        {"preset": "coinche", "belote_points": -20}, "belote_points", id="belote_points negative"
    ),
    pytest.param({"preset": "coinche", "end_tie": "draw"}, "end_tie", id="end_tie unknown"),
    pytest.param(
        {"preset": "coinche", "belote_cannot_clinch": None},
        "belote_cannot_clinch",
        id="clinch null",
    ),
    pytest.param({"preset": "coinche", "success": "beat"}, "success", id="success unknown"),
    pytest.param(
        {"preset": "coinche", "made_scores": "all"}, "made_scores", id="made_scores unknown"
    ),
    pytest.param(
        {"preset": "coinche", "multipliers": [4, 2]}, "multipliers", id="multipliers decreasing"
    ),
    pytest.param({"preset": "coinche", "multipliers": [2]}, "multipliers", id="one multiplier"),
    pytest.param({"preset": "coinche", "multipliers": [1, 2]}, "multipliers", id="multiplier 1"),
    pytest.param({"preset": "coinche", "multipliers": "2,4"}, "multipliers", id="multipliers text"),
    pytest.param(
        {"preset": "coinche", "multiplier_scope": "all"}, "multiplier_scope", id="scope unknown"
    ),
    pytest.param(
        {"preset": "coinche", "failure_base": "160"}, "failure_base", id="failure_base text"
    ),
    pytest.param({"preset": "coinche", "min_bid": 85}, "min_bid", id="min_bid 85"),
    pytest.param({"preset": "coinche", "max_bid": 155}, "max_bid", id="max_bid 155"),
    pytest.param({"preset": "coinche", "max_bid": 70}, "max_bid", id="max_bid below min_bid"),
    pytest.param({"preset": "coinche", "capot_bid": 0}, "capot_bid", id="capot_bid 0"),
    pytest.param(
        {"preset": "coinche", "generale_bid": "500"}, "generale_bid", id="generale_bid text"
    ),
    pytest.param({"preset": "belote", "litige": "split"}, "litige", id="litige unknown"),
    pytest.param(
        {"preset": "belote", "failure_points": None}, "failure_points", id="failure_points null"
    ),
]


@pytest.mark.parametrize("data, path", BAD_RULES)
def test_bad_rules_are_refused(data: dict[str, object], path: str) -> None:
    with pytest.raises(InvalidInput) as error:
        rules_from_dict(data)
    assert error.value.path == path
    assert error.value.code


# Deal validation: the path names the field of the deal.
COINCHE = PRESETS["coinche"]
BELOTE = PRESETS["belote"]
X3 = PRESETS["coinche-x3"]
FUNBELOTE = PRESETS["coinche-funbelote"]
NO_CAPOT_BID = replace(COINCHE, capot_bid=None)
NO_ANNOUNCEMENTS = replace(COINCHE, announcements=False)
HEARTS = Trump.HEARTS


def ann(kind: Kind, high: Rank, trump: bool = False) -> Announcement:
    return Announcement(kind, high, trump)


BAD_DEALS = [
    pytest.param(COINCHE, PlayedDeal(2, HEARTS, 80, taker_points=100), "taker", id="taker 2"),
    pytest.param(COINCHE, PlayedDeal(-1, HEARTS, 80, taker_points=100), "taker", id="taker -1"),
    pytest.param(
        COINCHE, PlayedDeal(0, HEARTS, 80, taker_points=163), "taker_points", id="points 163"
    ),
    pytest.param(
        COINCHE, PlayedDeal(0, HEARTS, 80, taker_points=-1), "taker_points", id="points -1"
    ),
    pytest.param(COINCHE, PlayedDeal(0, HEARTS, 80), "taker_points", id="no points and no capot"),
    pytest.param(
        BELOTE, PlayedDeal(0, HEARTS, taker_points=200), "taker_points", id="classic: points 200"
    ),
    pytest.param(
        COINCHE, PlayedDeal(0, HEARTS, 85, taker_points=100), "contract", id="contract 85"
    ),
    pytest.param(
        COINCHE, PlayedDeal(0, HEARTS, 70, taker_points=100), "contract", id="contract 70"
    ),
    pytest.param(
        X3,
        PlayedDeal(0, HEARTS, 170, taker_points=100),
        "contract",
        id="contract 170 > max_bid 160",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(0, HEARTS, taker_points=100),
        "contract",
        id="coinche without a contract",
    ),
    pytest.param(
        NO_CAPOT_BID,
        PlayedDeal(0, HEARTS, "capot", capot=0),
        "contract",
        id="capot bid when capot_bid is None",
    ),
    pytest.param(
        FUNBELOTE,
        PlayedDeal(0, HEARTS, "generale", capot=0, generale=True),
        "contract",
        id="générale bid when generale_bid is None (coinche)",
    ),
    pytest.param(
        BELOTE,
        PlayedDeal(0, HEARTS, "generale", capot=0),
        "contract",
        id="générale announced when generale_bid is None (classic)",
    ),
    pytest.param(
        BELOTE, PlayedDeal(0, HEARTS, 100, taker_points=100), "contract", id="classic with a bid"
    ),
    pytest.param(
        BELOTE, PlayedDeal(0, HEARTS, "capot", capot=0), "contract", id="classic with a capot bid"
    ),
    pytest.param(
        X3, PlayedDeal(0, Trump.NO_TRUMP, 80, taker_points=100), "trump", id="SA when sa_ta is off"
    ),
    pytest.param(
        BELOTE, PlayedDeal(0, Trump.ALL_TRUMP, taker_points=100), "trump", id="TA when sa_ta is off"
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(0, Trump.NO_TRUMP, 80, taker_points=100, belote=(1, 0)),
        "belote",
        id="belote in SA",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(0, HEARTS, 80, taker_points=100, belote=(1, 1)),
        "belote",
        id="two belotes in a suit",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(0, HEARTS, 80, taker_points=100, belote=(2, 0)),
        "belote",
        id="two belotes, one team",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(0, Trump.ALL_TRUMP, 80, taker_points=100, belote=(3, 2)),
        "belote",
        id="five belotes in TA",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(0, Trump.ALL_TRUMP, 80, taker_points=100, belote=(5, 0)),
        "belote",
        id="five belotes, one team",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(0, HEARTS, 80, taker_points=100, belote=(-1, 0)),
        "belote",
        id="negative belote",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(0, HEARTS, 80, taker_points=162, generale=True),
        "generale",
        id="générale without capot",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(0, HEARTS, 80, taker_points=162, capot=0),
        "taker_points",
        id="taker_points with capot",
    ),
    pytest.param(COINCHE, PlayedDeal(0, HEARTS, 80, capot=2), "capot", id="capot 2"),
    pytest.param(
        COINCHE,
        PlayedDeal(
            0, HEARTS, 80, taker_points=100, announcements=((ann(Kind.CARRE, Rank.EIGHT),), ())
        ),
        "announcements[0][0].high",
        id="carré of 8s",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(
            0, HEARTS, 80, taker_points=100, announcements=((), (ann(Kind.CARRE, Rank.SEVEN),))
        ),
        "announcements[1][0].high",
        id="carré of 7s",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(
            0,
            HEARTS,
            80,
            taker_points=100,
            announcements=((), (ann(Kind.TIERCE, Rank.KING), ann(Kind.TIERCE, Rank.EIGHT))),
        ),
        "announcements[1][1].high",
        id="tierce ending at 8",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(
            0, HEARTS, 80, taker_points=100, announcements=((ann(Kind.QUARTE, Rank.NINE),), ())
        ),
        "announcements[0][0].high",
        id="quarte ending at 9",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(
            0, HEARTS, 80, taker_points=100, announcements=((ann(Kind.QUINTE, Rank.TEN),), ())
        ),
        "announcements[0][0].high",
        id="quinte ending at 10",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(
            0,
            HEARTS,
            80,
            taker_points=100,
            announcements=((ann(Kind.CARRE, Rank.KING),), (ann(Kind.CARRE, Rank.KING),)),
        ),
        "announcements[1][0].high",
        id="two carrés of kings",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(
            0, HEARTS, 80, taker_points=100, announcements=((ann(Kind.CARRE, Rank.ACE, True),), ())
        ),
        "announcements[0][0].trump",
        id="a carré in trump",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(
            0,
            Trump.NO_TRUMP,
            80,
            taker_points=100,
            announcements=((ann(Kind.TIERCE, Rank.KING, True),), ()),
        ),
        "announcements[0][0].trump",
        id="a trump sequence in SA",
    ),
    pytest.param(
        BELOTE,
        PlayedDeal(0, HEARTS, coinche="coinche", taker_points=100),
        "coinche",
        id="coinche in classic",
    ),
    pytest.param(
        BELOTE,
        PlayedDeal(0, HEARTS, coinche="surcoinche", taker_points=100),
        "coinche",
        id="surcoinche in classic",
    ),
    pytest.param(
        NO_ANNOUNCEMENTS,
        PlayedDeal(
            0, HEARTS, 80, taker_points=100, announcements=((ann(Kind.TIERCE, Rank.KING),), ())
        ),
        "announcements",
        id="announcements when announcements are off",
    ),
    pytest.param(
        NO_ANNOUNCEMENTS,
        PlayedDeal(0, HEARTS, 80, taker_points=100, announcements_to=0),
        "announcements_to",
        id="a ruling on announcements when they are off",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(0, HEARTS, 80, taker_points=100, announcements_to=2),  # type: ignore[arg-type]
        "announcements_to",
        id="announcements_to 2",
    ),
    pytest.param(COINCHE, ManualDeal((-10, 0)), "manual_scores[0]", id="manual score negative"),
]


@pytest.mark.parametrize("rules, deal, path", BAD_DEALS)
def test_bad_deals_are_refused(rules: Rules, deal: Deal, path: str) -> None:
    with pytest.raises(InvalidInput) as error:
        check_deal(rules, deal)
    assert error.value.path == path
    with pytest.raises(InvalidInput) as error:
        score_deal(rules, deal)
    assert error.value.path == path


GOOD_DEALS = [
    pytest.param(COINCHE, PlayedDeal(0, HEARTS, 80, taker_points=0), id="points 0"),
    pytest.param(COINCHE, PlayedDeal(0, HEARTS, 80, taker_points=162), id="points 162"),
    pytest.param(X3, PlayedDeal(0, HEARTS, 160, taker_points=100), id="contract at max_bid 160"),
    pytest.param(
        COINCHE, PlayedDeal(0, HEARTS, 250, taker_points=100), id="contract 250 (no max_bid)"
    ),
    pytest.param(
        COINCHE, PlayedDeal(0, HEARTS, "generale", capot=0, generale=True), id="générale bid"
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(0, Trump.ALL_TRUMP, 80, taker_points=100, belote=(2, 2)),
        id="four belotes in TA",
    ),
    pytest.param(
        COINCHE, PlayedDeal(0, HEARTS, 80, capot=1, generale=True), id="générale by the defence"
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(
            0, HEARTS, 80, taker_points=100, announcements=((ann(Kind.TIERCE, Rank.NINE),), ())
        ),
        id="tierce ending at 9",
    ),
    pytest.param(
        COINCHE,
        PlayedDeal(
            0,
            HEARTS,
            80,
            taker_points=100,
            announcements=((ann(Kind.QUINTE, Rank.JACK, True),), ()),
        ),
        id="quinte ending at J in trump",
    ),
    pytest.param(
        replace(BELOTE, generale_bid=500),
        PlayedDeal(0, HEARTS, "generale", taker_points=100),
        id="classic générale",
    ),
]


@pytest.mark.parametrize("rules, deal", GOOD_DEALS)
def test_edge_deals_are_accepted(rules: Rules, deal: Deal) -> None:
    check_deal(rules, deal)
    score_deal(rules, deal)
