"""The `belote-match/1` match file of docs/file-formats.md §1: the example, every kind of bad input with the
exact path of the error, and round trips (parse -> dump -> parse) that keep the match and its scores."""

import copy
import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Literal, cast

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.engine.scoring import (
    Announcement,
    Deal,
    InvalidInput,
    Kind,
    ManualDeal,
    MatchFile,
    PassedDeal,
    PlayedDeal,
    Rank,
    Rules,
    Team,
    Trump,
    check_deal,
    deal_to_dict,
    dump_match,
    load_match,
    parse_deal,
    parse_match,
    result_to_dict,
    rules_from_dict,
)
from scorekeeper.engine.scoring import rules as rules_module
from scorekeeper.engine.scoring.announcements import Override
from scorekeeper.engine.scoring.breakdown import Line
from scorekeeper.engine.scoring.deals import Coinche, Contract
from scorekeeper.engine.scoring.free_text import DIRECTION_CONTROLS, REPLACEMENT
from scorekeeper.engine.scoring.free_text import is_invisible as invisible
from scorekeeper.web import words

Doc = dict[str, Any]


def english(teams: Sequence[str] | None = None) -> Callable[[Sequence[Line]], list[str]]:
    """A deal's breakdown in English words, as `score_match` gives it."""

    def render(lines: Sequence[Line]) -> list[str]:
        with translation.override("en"):
            return words.breakdown(lines, teams)

    return render


def in_english(error: InvalidInput) -> str:
    """What the error says in English (the engine holds only its code and params)."""
    with translation.override("en"):
        return words.describe(error)


Mutation = Callable[[Doc], None]

FORMAT = "belote-match/1"

# The example document of docs/file-formats.md §1, word for word.
EXAMPLE_TEXT = """
{
  "format": "belote-match/1",
  "rules": {"preset": "coinche", "target": 1000},
  "teams": [
    {"name": "Nous", "players": ["Alice", "Bruno"]},
    {"name": "Eux", "players": ["Chloé", "David"]}
  ],
  "first_dealer": 0,
  "deals": [
    {"taker": 0, "contract": 110, "trump": "hearts", "coinche": "coinche", "taker_points": 120, "belote": [1, 0]},
    {"taker": 1, "contract": 90, "trump": "no_trump", "taker_points": 95,
     "announcements": [[], [{"kind": "tierce", "high": "K"}]]},
    {"passed": true},
    {"taker": 0, "contract": "capot", "trump": "spades", "capot": 0}
  ]
}
"""  # noqa: E501  (the example, verbatim)
EXAMPLE: Doc = json.loads(EXAMPLE_TEXT)

# A classic belote match (preset `belote`: no bids, no SA/TA, no générale bid).
CLASSIC: Doc = {
    "format": FORMAT,
    "rules": {"preset": "belote"},
    "deals": [
        {"taker": 0, "trump": "hearts", "taker_points": 90, "belote": [1, 0]},
        {"taker": 1, "trump": "clubs", "taker_points": 81},
    ],
}

# Every setting of each game (docs/rules.md §§2-7), as `dump_match` and `score_match` must write them.
COMMON_SETTINGS = {
    "target", "deals_limit", "rounding", "announcements", "announcements_resolution", "sa_ta",
    "capot_cards", "belote_points", "generale_bid", "generale_cards", "end_tie",
    "belote_cannot_clinch",
}  # fmt: skip
COINCHE_SETTINGS = COMMON_SETTINGS | {
    "success", "made_scores", "multipliers", "multiplier_scope", "coinched_scores",
    "capot_bid_scores", "failure_base", "coinched_base", "min_bid", "max_bid", "capot_bid",
}  # fmt: skip
CLASSIC_SETTINGS = COMMON_SETTINGS | {"failure_points", "litige"}

# The resolved rules of the example (preset `coinche` of docs/rules.md §7, target 1000).
EXAMPLE_RULES = {
    "preset": "coinche", "game": "coinche", "target": 1000, "deals_limit": None,
    "rounding": "half_up", "announcements": True, "announcements_resolution": "best_team",
    "sa_ta": True, "capot_cards": 252, "belote_points": 20, "generale_bid": 500,
    "generale_cards": None, "end_tie": "extra_deal", "belote_cannot_clinch": True,
    "success": "bid_and_beat", "made_scores": "points_and_contract", "multipliers": [2, 4],
    "multiplier_scope": "deal", "coinched_scores": "base",
    "capot_bid_scores": "total_and_contract", "failure_base": 160, "coinched_base": 160, "min_bid": 80,
    "max_bid": None, "capot_bid": 250,
}  # fmt: skip


def example() -> Doc:
    return copy.deepcopy(EXAMPLE)


def error_of(document: object) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        parse_match(document)
    return caught.value


# ---------------------------------------------------------------------------------------------
# The example document


def test_example_parses_to_what_it_says() -> None:
    match = parse_match(example())

    assert match.rules == rules_from_dict({"preset": "coinche", "target": 1000})
    assert match.rules.target == 1000
    assert match.teams == (Team("Nous", ("Alice", "Bruno")), Team("Eux", ("Chloé", "David")))
    assert match.first_dealer == 0
    assert match.deals == (
        PlayedDeal(taker=0, contract=110, trump=Trump.HEARTS, coinche="coinche",
                   taker_points=120, belote=(1, 0)),
        PlayedDeal(taker=1, contract=90, trump=Trump.NO_TRUMP, taker_points=95,
                   announcements=((), (Announcement(Kind.TIERCE, Rank.KING),))),
        PassedDeal(),
        PlayedDeal(taker=0, contract="capot", trump=Trump.SPADES, capot=0),
    )  # fmt: skip
    assert load_match(EXAMPLE_TEXT) == match
    assert load_match(EXAMPLE_TEXT.encode()) == match


def test_example_scores_as_described() -> None:
    result = parse_match(example()).score()
    rows = [(d.number, d.dealer, d.outcome, d.scores, d.totals) for d in result.deals]

    assert rows == [
        # 110 ♥ coinché, 120 + belote: 2 × (160 + 110 + 20) = 580 (docs/rules.md §8 example 5).
        (1, 0, "made", (580, 0), (580, 0)),
        # 90 SA by team 1: 95 + tierce 20 = 115 > 67; 115 + 90 = 205 -> 210, defence 67 -> 70.
        (2, 1, "made", (70, 210), (650, 210)),
        (3, 2, "passed", (0, 0), (650, 210)),
        # Capot bid made: 252 + 250 = 502 -> 500; 1150 passes the target of 1000.
        (4, 3, "made", (500, 0), (1150, 210)),
    ]
    assert result.totals == (1150, 210)
    assert result.reserve == 0
    assert result.finished is True
    assert result.winner == 0


def test_example_output_has_the_shape_of_the_spec() -> None:
    out = result_to_dict(parse_match(example()).score(), english(["Nous", "Eux"]))

    assert list(out) == ["rules", "deals", "totals", "reserve", "finished", "winner"]
    assert out["rules"] == EXAMPLE_RULES
    first = out["deals"][0]
    assert set(first) == {"number", "dealer", "outcome", "scores", "totals", "breakdown"}
    assert {k: first[k] for k in ("number", "dealer", "outcome", "scores", "totals")} == {
        "number": 1, "dealer": 0, "outcome": "made", "scores": [580, 0], "totals": [580, 0],
    }  # fmt: skip
    assert out["deals"][2]["outcome"] == "passed"
    assert out["deals"][2]["dealer"] == 2
    assert out["deals"][2]["scores"] == [0, 0]
    for deal in out["deals"]:
        assert deal["breakdown"] and all(isinstance(line, str) for line in deal["breakdown"])
    assert (out["totals"], out["reserve"], out["finished"], out["winner"]) == (
        [1150, 210], 0, True, 0,
    )  # fmt: skip
    assert json.loads(json.dumps(out)) == out


def test_defaults() -> None:
    match = parse_match({"format": FORMAT, "rules": {"preset": "coinche"}, "deals": []})
    assert match.teams == (Team("Team 1"), Team("Team 2"))
    assert match.first_dealer == 0
    assert match.deals == ()
    assert match.rules == rules_from_dict({"preset": "coinche"})
    result = match.score()
    assert (result.totals, result.reserve, result.finished, result.winner) == (
        (0, 0),
        0,
        False,
        None,
    )

    deal = parse_deal({"taker": 1, "contract": 80, "trump": "clubs", "taker_points": 100})
    assert deal == PlayedDeal(
        taker=1, trump=Trump.CLUBS, contract=80, coinche="none", taker_points=100, capot=None,
        generale=False, belote=(0, 0), announcements=((), ()), announcements_to=None, note=None,
        taker_player=None, coinche_player=None,
    )  # fmt: skip


def test_defaults_may_be_written_out() -> None:
    doc = example()
    doc["deals"][0].update({"passed": False, "generale": False, "announcements": [[], []]})
    doc["deals"][1]["announcements"][1][0]["trump"] = False
    doc["deals"][1]["coinche"] = "none"
    doc["deals"][1]["belote"] = [0, 0]
    assert parse_match(doc) == parse_match(example())


def test_dealer_moves_on_after_every_deal_passed_ones_included() -> None:
    doc = {
        "format": FORMAT,
        "rules": {"preset": "coinche"},
        "first_dealer": 3,
        "deals": [{"passed": True}, {"passed": True, "note": "misdeal"}, {"manual_scores": [0, 0]}],
    }
    result = parse_match(doc).score()
    assert [d.dealer for d in result.deals] == [3, 0, 1]
    assert result.next_dealer == 2


def test_manual_scores_are_taken_as_written_and_count_as_a_scored_deal() -> None:
    doc = {
        "format": FORMAT,
        "rules": {"preset": "coinche", "deals_limit": 2},
        "deals": [
            {"passed": True},
            {"manual_scores": [15, 7], "note": "penalty"},
            {"passed": True},
            {"manual_scores": [0, 3]},
        ],
    }
    result = parse_match(doc).score()
    assert [d.outcome for d in result.deals] == ["passed", "manual", "passed", "manual"]
    assert result.deals[1].scores == (15, 7)  # no rounding, even under half_up
    assert result.totals == (15, 10)
    assert result.scored_deals == 2  # passed deals count in no limit
    assert (result.finished, result.winner) == (True, 0)
    assert parse_match(doc).deals[1] == ManualDeal((15, 7), "penalty")


def test_a_draw_at_the_deals_limit() -> None:
    doc = {
        "format": FORMAT,
        "rules": {"preset": "belote", "target": None, "deals_limit": 1},
        "deals": [{"manual_scores": [50, 50]}],
    }
    result = parse_match(doc).score()
    assert (result.finished, result.winner) == (True, "draw")
    assert result_to_dict(result, english())["winner"] == "draw"


def test_classic_litige_keeps_a_reserve() -> None:
    result = parse_match(CLASSIC).score()
    assert [d.outcome for d in result.deals] == ["made", "litige"]
    assert result.deals[1].scores == (81, 0)  # the defence (team 0) scores its 81 now
    assert result.reserve == 81


def test_the_reserve_goes_to_the_next_deals_winners() -> None:
    doc = copy.deepcopy(CLASSIC)
    doc["deals"].append({"taker": 1, "trump": "spades", "taker_points": 100})
    result = parse_match(doc).score()
    # Team 1 took and made (100 vs 62): it scores 100 + the 81 held from deal 2.
    assert result.deals[2].outcome == "made"
    assert result.deals[2].scores == (62, 181)
    assert result.reserve == 0
    assert result_to_dict(result, english())["deals"][2]["scores"] == [62, 181]


# ---------------------------------------------------------------------------------------------
# Bad input: every kind docs/file-formats.md §1 lists, with the exact path of the error


def put(*path: str | int, value: object) -> Mutation:
    """Set the value at `path` (keys and list indexes), e.g. put("deals", 0, "taker", value=2)."""

    def mutate(doc: Doc) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return mutate


def drop(*path: str | int) -> Mutation:
    def mutate(doc: Doc) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return mutate


def add_deal(deal: object) -> Mutation:
    def mutate(doc: Doc) -> None:
        doc["deals"].append(deal)

    return mutate


def start_from(document: Doc) -> Mutation:
    """Replace the example by another base document (then chain more mutations)."""

    def mutate(doc: Doc) -> None:
        doc.clear()
        doc.update(copy.deepcopy(document))

    return mutate


def chain(*mutations: Mutation) -> Mutation:
    def mutate(doc: Doc) -> None:
        for mutation in mutations:
            mutation(doc)

    return mutate


def rules(**settings: object) -> Mutation:
    return put("rules", value=settings)


def announce(team: int, *items: object) -> Mutation:
    """Deal 1 (team 1 took 90 sans atout) with these announcements for `team`."""
    lists: list[list[object]] = [[], []]
    lists[team] = list(items)
    return put("deals", 1, "announcements", value=lists)


def tierce(high: str, **extra: object) -> dict[str, object]:
    return {"kind": "tierce", "high": high, **extra}


def carre(high: str, **extra: object) -> dict[str, object]:
    return {"kind": "carre", "high": high, **extra}


def classic_deal(**deal: object) -> Mutation:
    return chain(start_from(CLASSIC), put("deals", 0, value=deal))


GENERALE_CAPOT = {
    "taker": 0,
    "contract": "generale",
    "trump": "spades",
    "capot": 0,
    "generale": True,
}

BAD_INPUT = [
    # Unknown keys, at every level.
    pytest.param(put("formats", value=FORMAT), "formats", "unknown", id="unknown-top-key"),
    pytest.param(put("rules", "targte", value=1000), "rules.targte", "unknown", id="unknown-rule"),
    pytest.param(put("rules", "litige", value="none"), "rules.litige", "setting",
                 id="rule-of-the-other-game"),
    pytest.param(put("teams", 0, "nickname", value="N"), "teams[0].nickname", "unknown",
                 id="unknown-team-key"),
    pytest.param(put("deals", 3, "bid", value=110), "deals[3].bid", "unknown",
                 id="unknown-deal-key"),
    pytest.param(put("deals", 1, "announcements", 1, 0, "suit", value="hearts"),
                 "deals[1].announcements[1][0].suit", "unknown", id="unknown-announcement-key"),
    # Wrong types: a string for an int.
    pytest.param(put("deals", 0, "taker_points", value="120"), "deals[0].taker_points", "whole",
                 id="string-points"),
    pytest.param(put("deals", 0, "taker", value="0"), "deals[0].taker", "whole",
                 id="string-taker"),
    pytest.param(put("rules", "target", value="1000"), "rules.target", "whole",
                 id="string-target"),
    pytest.param(put("first_dealer", value="0"), "first_dealer", "whole", id="string-dealer"),
    pytest.param(put("deals", 0, "contract", value="110"), "deals[0].contract", "bid",
                 id="string-contract"),
    pytest.param(put("deals", 3, "capot", value="0"), "deals[3].capot", "whole",
                 id="string-capot"),
    pytest.param(put("deals", 1, "announcements", 1, 0, "high", value=13),
                 "deals[1].announcements[1][0].high", "one of", id="int-rank"),
    # ... a bool for an int.
    pytest.param(put("deals", 0, "taker", value=True), "deals[0].taker", "whole", id="bool-taker"),
    pytest.param(put("deals", 0, "taker_points", value=False), "deals[0].taker_points", "whole",
                 id="bool-points"),
    pytest.param(put("deals", 0, "contract", value=True), "deals[0].contract", "bid",
                 id="bool-contract"),
    pytest.param(put("first_dealer", value=True), "first_dealer", "whole", id="bool-dealer"),
    pytest.param(put("rules", "target", value=True), "rules.target", "whole", id="bool-target"),
    pytest.param(put("deals", 1, "announcements_to", value=True), "deals[1].announcements_to",
                 "none", id="bool-announcements-to"),
    pytest.param(put("deals", 0, "belote", value=[True, 0]), "deals[0].belote[0]", "whole",
                 id="bool-belote"),
    pytest.param(put("deals", 0, "generale", value=1), "deals[0].generale", "true or false",
                 id="int-for-bool"),
    # ... a float.
    pytest.param(put("deals", 0, "taker_points", value=120.5), "deals[0].taker_points", "whole",
                 id="float-points"),
    pytest.param(put("deals", 0, "taker_points", value=120.0), "deals[0].taker_points", "whole",
                 id="whole-float-points"),
    pytest.param(put("deals", 0, "contract", value=110.0), "deals[0].contract", "bid",
                 id="float-contract"),
    pytest.param(put("deals", 1, "announcements_to", value=1.0), "deals[1].announcements_to",
                 "none", id="float-announcements-to"),
    pytest.param(put("deals", 2, value={"manual_scores": [10.5, 0]}), "deals[2].manual_scores[0]",
                 "whole", id="float-manual"),
    pytest.param(put("rules", "target", value=1000.0), "rules.target", "whole",
                 id="float-target"),
    pytest.param(put("rules", "multipliers", value=[2.0, 4]), "rules.multipliers", "whole",
                 id="float-multiplier"),
    # ... null where it is not allowed.
    pytest.param(put("format", value=None), "format", "format", id="null-format"),
    pytest.param(put("rules", value=None), "rules", "object", id="null-rules"),
    pytest.param(put("rules", "preset", value=None), "rules.preset", "required",
                 id="null-preset"),
    pytest.param(put("rules", "rounding", value=None), "rules.rounding", "set",
                 id="null-rounding"),
    pytest.param(put("teams", value=None), "teams", "list", id="null-teams"),
    pytest.param(put("teams", 1, "name", value=None), "teams[1].name", "string",
                 id="null-team-name"),
    pytest.param(put("first_dealer", value=None), "first_dealer", "whole", id="null-dealer"),
    pytest.param(put("deals", value=None), "deals", "list", id="null-deals"),
    pytest.param(put("deals", 0, "taker", value=None), "deals[0].taker", "whole",
                 id="null-taker"),
    pytest.param(put("deals", 0, "trump", value=None), "deals[0].trump", "one of",
                 id="null-trump"),
    pytest.param(put("deals", 0, "contract", value=None), "deals[0].contract", "bid",
                 id="null-contract"),
    pytest.param(put("deals", 0, "coinche", value=None), "deals[0].coinche", "one of",
                 id="null-coinche"),
    pytest.param(put("deals", 0, "taker_points", value=None), "deals[0].taker_points", "whole",
                 id="null-points"),
    pytest.param(put("deals", 3, "capot", value=None), "deals[3].capot", "whole",
                 id="null-capot"),
    pytest.param(put("deals", 0, "belote", value=None), "deals[0].belote", "list",
                 id="null-belote"),
    pytest.param(put("deals", 2, "note", value=None), "deals[2].note", "string", id="null-note"),
    pytest.param(put("deals", 2, "passed", value=None), "deals[2].passed", "true or false",
                 id="null-passed"),
    pytest.param(put("deals", 1, "announcements_to", value=None), "deals[1].announcements_to",
                 "none", id="null-announcements-to"),
    # ... an object instead of a list (and the reverse).
    pytest.param(put("deals", value={"0": {"passed": True}}), "deals", "list", id="object-deals"),
    pytest.param(put("teams", value={"0": {"name": "A"}, "1": {"name": "B"}}), "teams", "list",
                 id="object-teams"),
    pytest.param(put("teams", 0, "players", value={"1": "Alice", "2": "Bruno"}),
                 "teams[0].players", "list", id="object-players"),
    pytest.param(put("deals", 0, "belote", value={"0": 1}), "deals[0].belote", "list",
                 id="object-belote"),
    pytest.param(put("deals", 1, "announcements", value={"1": [tierce("K")]}),
                 "deals[1].announcements", "list", id="object-announcements"),
    pytest.param(put("deals", 1, "announcements", 1, value=tierce("K")),
                 "deals[1].announcements[1]", "list", id="object-team-announcements"),
    pytest.param(put("deals", 2, value={"manual_scores": {"0": 10}}), "deals[2].manual_scores",
                 "list", id="object-manual"),
    pytest.param(put("rules", "multipliers", value={"coinche": 2}), "rules.multipliers", "two",
                 id="object-multipliers"),
    pytest.param(put("rules", value=["coinche"]), "rules", "object", id="list-rules"),
    pytest.param(put("teams", 0, value=["Nous"]), "teams[0]", "object", id="list-team"),
    pytest.param(put("deals", 2, value=["passed"]), "deals[2]", "object", id="list-deal"),
    pytest.param(put("deals", 1, "announcements", 1, 0, value=["tierce", "K"]),
                 "deals[1].announcements[1][0]", "object", id="list-announcement"),
    # Missing required keys.
    pytest.param(drop("format"), "format", "required", id="no-format"),
    pytest.param(drop("rules"), "rules", "required", id="no-rules"),
    pytest.param(drop("rules", "preset"), "rules.preset", "required", id="no-preset"),
    pytest.param(drop("deals"), "deals", "required", id="no-deals"),
    pytest.param(drop("deals", 0, "taker"), "deals[0].taker", "required", id="no-taker"),
    pytest.param(drop("deals", 0, "trump"), "deals[0].trump", "required", id="no-trump"),
    pytest.param(drop("deals", 0, "contract"), "deals[0].contract", "contract",
                 id="no-contract-in-coinche"),
    pytest.param(drop("deals", 0, "taker_points"), "deals[0].taker_points", "points",
                 id="no-points-without-capot"),
    pytest.param(drop("teams", 1, "name"), "teams[1].name", "required", id="no-team-name"),
    pytest.param(drop("deals", 1, "announcements", 1, 0, "high"),
                 "deals[1].announcements[1][0].high", "required", id="no-announcement-high"),
    pytest.param(drop("deals", 1, "announcements", 1, 0, "kind"),
                 "deals[1].announcements[1][0].kind", "required", id="no-announcement-kind"),
    # Wrong format or preset.
    pytest.param(put("format", value="belote-match/2"), "format", "format", id="format-2"),
    pytest.param(put("format", value="belote-match"), "format", "format", id="format-no-version"),
    pytest.param(put("rules", "preset", value="tarot"), "rules.preset", "preset",
                 id="unknown-preset"),
    pytest.param(put("rules", "game", value="belote"), "rules.game", "preset",
                 id="game-not-the-presets"),
    # Points and numbers out of range.
    pytest.param(put("deals", 0, "taker_points", value=-1), "deals[0].taker_points", "162",
                 id="points-minus-1"),
    pytest.param(put("deals", 0, "taker_points", value=163), "deals[0].taker_points", "162",
                 id="points-163"),
    pytest.param(put("deals", 3, "taker_points", value=162), "deals[3].taker_points", "capot",
                 id="points-on-a-capot"),
    pytest.param(put("deals", 0, "taker", value=2), "deals[0].taker", "1", id="taker-2"),
    pytest.param(put("deals", 3, "capot", value=2), "deals[3].capot", "1", id="capot-2"),
    pytest.param(put("deals", 0, "belote", value=[-1, 0]), "deals[0].belote[0]", "0",
                 id="belote-negative"),
    pytest.param(put("deals", 0, "belote", value=[1]), "deals[0].belote", "2",
                 id="belote-one-item"),
    pytest.param(put("rules", "target", value=0), "rules.target", "between", id="target-0"),
    pytest.param(put("rules", "target", value=None), "rules.target", "deals limit",
                 id="no-target-no-limit"),
    pytest.param(put("rules", "min_bid", value=85), "rules.min_bid", "multiple",
                 id="min-bid-85"),
    pytest.param(put("rules", "max_bid", value=70), "rules.max_bid", "lowest bid",
                 id="max-below-min"),
    pytest.param(put("rules", "rounding", value="up"), "rules.rounding", "half_up",
                 id="unknown-rounding"),
    # Contracts.
    pytest.param(put("deals", 0, "contract", value=70), "deals[0].contract", "80",
                 id="bid-below-minimum"),
    pytest.param(chain(put("rules", "min_bid", value=100), put("deals", 0, "contract", value=90)),
                 "deals[0].contract", "100", id="bid-below-raised-minimum"),
    pytest.param(put("deals", 0, "contract", value=115), "deals[0].contract", "multiple",
                 id="bid-not-a-multiple-of-10"),
    pytest.param(chain(rules(preset="coinche-x3"), put("deals", 0, "contract", value=170)),
                 "deals[0].contract", "160", id="bid-above-max-bid"),
    pytest.param(put("deals", 0, "contract", value="passe"), "deals[0].contract", "bid",
                 id="bid-word"),
    pytest.param(put("rules", "capot_bid", value=None), "deals[3].contract", "capot",
                 id="capot-bid-forbidden"),
    pytest.param(chain(put("rules", "preset", value="coinche-funbelote"),
                       put("deals", 3, value=GENERALE_CAPOT)),
                 "deals[3].contract", "générale", id="generale-bid-forbidden-funbelote"),
    pytest.param(chain(put("rules", "preset", value="coinche-x3"),
                       put("deals", 1, "trump", value="hearts"),
                       put("deals", 3, value=GENERALE_CAPOT)),
                 "deals[3].contract", "générale", id="generale-bid-forbidden-x3"),
    pytest.param(classic_deal(taker=0, contract="generale", trump="hearts", capot=0),
                 "deals[0].contract", "générale", id="generale-bid-forbidden-belote"),
    pytest.param(classic_deal(taker=0, contract=100, trump="hearts", taker_points=100),
                 "deals[0].contract", "classic", id="contract-in-classic"),
    pytest.param(classic_deal(taker=0, contract="capot", trump="hearts", capot=0),
                 "deals[0].contract", "classic", id="capot-bid-in-classic"),
    pytest.param(classic_deal(taker=0, trump="hearts", taker_points=100, coinche="coinche"),
                 "deals[0].coinche", "classic", id="coinche-in-classic"),
    pytest.param(put("deals", 0, "coinche", value="double"), "deals[0].coinche", "surcoinche",
                 id="coinche-double"),
    # Belotes.
    pytest.param(put("deals", 1, "belote", value=[0, 1]), "deals[1].belote", "sans atout",
                 id="belote-in-sans-atout"),
    pytest.param(put("deals", 0, "belote", value=[1, 1]), "deals[0].belote", "one",
                 id="two-belotes-in-a-suit"),
    pytest.param(put("deals", 0, "belote", value=[2, 0]), "deals[0].belote", "one",
                 id="double-belote-in-a-suit"),
    pytest.param(chain(put("deals", 0, "trump", value="all_trump"),
                       put("deals", 0, "belote", value=[3, 2])),
                 "deals[0].belote", "four", id="five-belotes-in-tout-atout"),
    pytest.param(put("deals", 0, "belote", value=[5, 0]), "deals[0].belote[0]", "4",
                 id="belote-5"),
    # SA / TA when the rules forbid it.
    pytest.param(put("rules", "preset", value="coinche-x3"), "deals[1].trump", "sans atout",
                 id="sans-atout-in-coinche-x3"),
    pytest.param(chain(put("rules", "sa_ta", value=False), put("deals", 1, "trump", value="hearts"),
                       put("deals", 3, "trump", value="all_trump")),
                 "deals[3].trump", "tout atout", id="tout-atout-without-sa-ta"),
    pytest.param(classic_deal(taker=0, trump="no_trump", taker_points=100),
                 "deals[0].trump", "sans atout", id="sans-atout-in-belote"),
    pytest.param(classic_deal(taker=0, trump="all_trump", taker_points=100),
                 "deals[0].trump", "tout atout", id="tout-atout-in-belote"),
    pytest.param(put("deals", 0, "trump", value="trefle"), "deals[0].trump", "one of",
                 id="unknown-trump"),
    # Capot and générale.
    pytest.param(put("deals", 0, "generale", value=True), "deals[0].generale", "capot",
                 id="generale-without-capot"),
    pytest.param(put("deals", 3, "generale", value="yes"), "deals[3].generale", "true or false",
                 id="generale-not-a-bool"),
    # Announcements.
    pytest.param(announce(1, carre("8")), "deals[1].announcements[1][0].high", "8s",
                 id="carre-of-8s"),
    pytest.param(announce(0, carre("7")), "deals[1].announcements[0][0].high", "7s",
                 id="carre-of-7s"),
    pytest.param(announce(1, tierce("K"), tierce("8")), "deals[1].announcements[1][1].high",
                 "tierce", id="tierce-ending-at-8"),
    pytest.param(announce(1, tierce("7")), "deals[1].announcements[1][0].high", "tierce",
                 id="tierce-ending-at-7"),
    pytest.param(announce(1, {"kind": "quarte", "high": "9"}),
                 "deals[1].announcements[1][0].high", "quarte", id="quarte-ending-at-9"),
    pytest.param(announce(1, {"kind": "quinte", "high": "10"}),
                 "deals[1].announcements[1][0].high", "quinte", id="quinte-ending-at-10"),
    pytest.param(announce(1, {"kind": "cinquante", "high": "K"}),
                 "deals[1].announcements[1][0].kind", "quarte", id="unknown-kind"),
    pytest.param(announce(1, {"kind": "carré", "high": "K"}),
                 "deals[1].announcements[1][0].kind", "carre", id="accented-kind"),
    pytest.param(announce(1, tierce("R")), "deals[1].announcements[1][0].high", "one of",
                 id="french-rank-letter"),
    pytest.param(announce(1, tierce("K", trump="yes")), "deals[1].announcements[1][0].trump",
                 "true or false", id="trump-flag-not-a-bool"),
    pytest.param(announce(1, tierce("K", trump=True)), "deals[1].announcements[1][0].trump",
                 "trump", id="trump-sequence-in-sans-atout"),
    pytest.param(chain(put("deals", 1, "trump", value="hearts"), announce(0, carre("A", trump=True))),
                 "deals[1].announcements[0][0].trump", "sequence", id="carre-in-trump"),
    pytest.param(announce(0, carre("J"), carre("J")), "deals[1].announcements[0][1].high",
                 "one carré", id="same-carre-twice"),
    pytest.param(put("deals", 1, "announcements", value=[[], [], []]), "deals[1].announcements",
                 "2", id="three-announcement-lists"),
    pytest.param(put("rules", "announcements", value=False), "deals[1].announcements",
                 "announcements", id="announcements-when-off"),
    pytest.param(put("deals", 1, "announcements_to", value="both"), "deals[1].announcements_to",
                 "none", id="announcements-to-both"),
    pytest.param(put("deals", 1, "announcements_to", value=2), "deals[1].announcements_to",
                 "none", id="announcements-to-2"),
    pytest.param(put("deals", 1, "announcements_to", value="0"), "deals[1].announcements_to",
                 "none", id="announcements-to-string-0"),
    # Teams.
    pytest.param(put("teams", value=[{"name": "Nous"}]), "teams", "2", id="one-team"),
    pytest.param(put("teams", value=[{"name": "A"}, {"name": "B"}, {"name": "C"}]), "teams", "2",
                 id="three-teams"),
    pytest.param(put("teams", value=[]), "teams", "2", id="no-team"),
    pytest.param(put("teams", 1, "players", value=["Chloé"]), "teams[1].players", "2",
                 id="one-player"),
    pytest.param(put("teams", 1, "players", value=["Chloé", "David", "Eve"]), "teams[1].players",
                 "2", id="three-players"),
    pytest.param(put("teams", 0, "players", 1, value=7), "teams[0].players[1]", "string",
                 id="player-not-a-string"),
    pytest.param(put("teams", 0, "players", 0, value=None), "teams[0].players[0]", "string",
                 id="null-player"),
    pytest.param(put("teams", 0, "name", value=""), "teams[0].name", "empty", id="empty-name"),
    pytest.param(put("teams", 1, "name", value="   "), "teams[1].name", "empty",
                 id="blank-name"),
    pytest.param(put("teams", 0, "players", 1, value=""), "teams[0].players[1]", "empty",
                 id="empty-player"),
    pytest.param(put("teams", 0, "name", value=42), "teams[0].name", "string",
                 id="name-not-a-string"),
    # First dealer.
    pytest.param(put("first_dealer", value=4), "first_dealer", "3", id="first-dealer-4"),
    pytest.param(put("first_dealer", value=-1), "first_dealer", "3", id="first-dealer-minus-1"),
    # Passed and manual deals.
    pytest.param(put("deals", 2, "taker", value=0), "deals[2].taker", "passed",
                 id="passed-with-taker"),
    pytest.param(put("deals", 2, value={"passed": True, "taker_points": 0}),
                 "deals[2].taker_points", "passed", id="passed-with-points"),
    pytest.param(put("deals", 2, value={"passed": True, "manual_scores": [0, 0]}),
                 "deals[2].manual_scores", "passed", id="passed-with-manual"),
    pytest.param(put("deals", 2, value={"passed": "true"}), "deals[2].passed", "true or false",
                 id="passed-string"),
    pytest.param(put("deals", 2, value={"manual_scores": [10, 0], "taker": 0}), "deals[2].taker",
                 "manual", id="manual-with-taker"),
    pytest.param(put("deals", 2, value={"manual_scores": [10, 0], "trump": "hearts"}),
                 "deals[2].trump", "manual", id="manual-with-trump"),
    pytest.param(put("deals", 2, value={"manual_scores": [10, 0], "passed": False}),
                 "deals[2].passed", "manual", id="manual-with-passed-false"),
    pytest.param(put("deals", 2, value={"manual_scores": [-10, 0]}), "deals[2].manual_scores[0]",
                 "0", id="manual-negative"),
    pytest.param(put("deals", 2, value={"manual_scores": [10, "5"]}), "deals[2].manual_scores[1]",
                 "whole", id="manual-string"),
    pytest.param(put("deals", 2, value={"manual_scores": [10, None]}),
                 "deals[2].manual_scores[1]", "whole", id="manual-null"),
    pytest.param(put("deals", 2, value={"manual_scores": [10]}), "deals[2].manual_scores", "2",
                 id="manual-one-score"),
    pytest.param(put("deals", 2, value={"manual_scores": [10, 0, 0]}), "deals[2].manual_scores",
                 "2", id="manual-three-scores"),
    pytest.param(put("deals", 2, value={"note": "lost the sheet"}), "deals[2].taker", "required",
                 id="note-alone-is-not-a-deal"),
    pytest.param(put("deals", 2, value={}), "deals[2].taker", "required", id="empty-deal"),
    pytest.param(put("deals", 2, "note", value=7), "deals[2].note", "string",
                 id="note-not-a-string"),
    # Who took and who coinched (issue 11): seats 0-3, in the right team, with a coinche.
    pytest.param(put("deals", 0, "taker_player", value=4), "deals[0].taker_player", "0 to 3",
                 id="taker-player-not-a-seat"),
    pytest.param(put("deals", 0, "taker_player", value="Alice"), "deals[0].taker_player",
                 "whole number", id="taker-player-a-name"),
    pytest.param(put("deals", 0, "taker_player", value=True), "deals[0].taker_player",
                 "whole number", id="taker-player-a-boolean"),
    pytest.param(put("deals", 0, "taker_player", value=1), "deals[0].taker_player",
                 "one of the takers", id="taker-player-of-the-defence"),
    pytest.param(put("deals", 1, "taker_player", value=2), "deals[1].taker_player",
                 "one of the takers", id="taker-player-of-team-0-for-team-1"),
    pytest.param(put("deals", 1, "coinche_player", value=0), "deals[1].coinche_player",
                 "no coinche", id="coinche-player-without-a-coinche"),
    pytest.param(put("deals", 0, "coinche_player", value=0), "deals[0].coinche_player",
                 "defence", id="coinche-player-of-the-takers"),
    pytest.param(chain(put("deals", 0, "coinche", value="surcoinche"),
                       put("deals", 0, "coinche_player", value=1)),
                 "deals[0].coinche_player", "one of the takers", id="surcoinche-player-of-the-defence"),
    pytest.param(put("deals", 0, "coinche_player", value=-1), "deals[0].coinche_player",
                 "0 to 3", id="coinche-player-not-a-seat"),
    pytest.param(put("deals", 2, "taker_player", value=0), "deals[2].taker_player",
                 "no other key", id="taker-player-on-a-passed-deal"),
    pytest.param(chain(start_from(CLASSIC), put("deals", 0, "coinche_player", value=1)),
                 "deals[0].coinche_player", "no coinche", id="coinche-player-in-classic-belote"),
    # Deals after the one that finished the match.
    pytest.param(add_deal({"passed": True}), "deals[4]", "over", id="passed-deal-after-the-end"),
    pytest.param(add_deal({"manual_scores": [0, 0]}), "deals[4]", "over",
                 id="manual-deal-after-the-end"),
    pytest.param(chain(add_deal({"passed": True}), add_deal({"passed": True})), "deals[4]",
                 "over", id="two-deals-after-the-end"),
    pytest.param(chain(start_from(CLASSIC), put("rules", "deals_limit", value=1)), "deals[1]",
                 "over", id="deal-after-the-deals-limit"),
    # Errors in a later deal are still found, and named by their own index.
    pytest.param(add_deal({"taker": 0, "contract": 80, "trump": "hearts", "taker_points": 170}),
                 "deals[4].taker_points", "162", id="bad-deal-after-the-end"),
]  # fmt: skip


@pytest.mark.parametrize(("mutation", "path", "word"), BAD_INPUT)
def test_bad_input_is_refused_with_its_path(mutation: Mutation, path: str, word: str) -> None:
    doc = example()
    mutation(doc)
    error = error_of(doc)
    assert error.path == path, error
    # `word` is in its code (`required`, `not_string`) or in its English words.
    assert word.lower() in f"{error.code} {in_english(error)}".lower(), error
    # The same error through the JSON text, as `score_match` and import see it.
    with pytest.raises(InvalidInput) as caught:
        load_match(json.dumps(doc))
    assert (caught.value.path, caught.value.code, caught.value.params) == (
        error.path, error.code, error.params,
    )  # fmt: skip


def test_every_bad_input_case_is_different() -> None:
    ids = [case.id for case in BAD_INPUT]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        '{"format": "belote-match/1",}',
        "{'format': 'belote-match/1'}",
        '{"format": "belote-match/1"} {}',
        "NaN-ish",
        b"\xff\xfe\xfa",
        b'{"format": "belote-match/1", "deals": [\xe9]}',
        "[" * 100_000,
        '{"format": "belote-match/1", "first_dealer": 1' + "0" * 5000 + "}",
    ],
    ids=["empty", "unclosed", "trailing-comma", "single-quotes", "two-documents", "garbage",
         "bad-bytes", "latin-1-bytes", "nested-too-deeply", "huge-number"],
)  # fmt: skip
def test_invalid_json_text_has_the_empty_path(text: str | bytes) -> None:
    with pytest.raises(InvalidInput) as caught:
        load_match(text)
    assert caught.value.path == ""
    assert caught.value.code.startswith("json_")
    assert "JSON" in in_english(caught.value)


@pytest.mark.parametrize("document", [[], "belote-match/1", 1, None, [EXAMPLE]])
def test_a_document_that_is_not_an_object(document: object) -> None:
    error = error_of(document)
    assert error.path == ""
    assert error.code == "not_object"
    with pytest.raises(InvalidInput) as caught:
        load_match(json.dumps(document))
    assert caught.value.path == ""


def test_not_a_number_is_not_a_number() -> None:
    with pytest.raises(InvalidInput) as caught:
        load_match(EXAMPLE_TEXT.replace('"taker_points": 95', '"taker_points": NaN'))
    assert caught.value.path == "deals[1].taker_points"


def test_the_error_str_names_the_path() -> None:
    doc = example()
    doc["deals"][3]["taker_points"] = 12
    error = error_of(doc)
    assert error.path == "deals[3].taker_points"
    assert str(error).startswith("deals[3].taker_points: ")


def test_error_paths_of_deals_count_passed_and_manual_deals() -> None:
    doc = {
        "format": FORMAT,
        "rules": {"preset": "coinche"},
        "deals": [
            {"passed": True},
            {"manual_scores": [0, 0]},
            {"passed": True},
            {"taker": 1, "contract": 80, "trump": "clubs", "taker_points": 100,
             "announcements": [[], [tierce("K"), carre("8")]]},
        ],
    }  # fmt: skip
    assert error_of(doc).path == "deals[3].announcements[1][1].high"


def test_a_match_may_end_on_its_last_deal() -> None:
    """The end of the match is not an error; only a deal after it is."""
    doc = example()
    assert parse_match(doc).score().finished
    doc["deals"][3]["note"] = "won"
    assert parse_match(doc).deals[3] == PlayedDeal(
        taker=0, contract="capot", trump=Trump.SPADES, capot=0, note="won"
    )


# ---------------------------------------------------------------------------------------------
# Round trips: parse -> dump_match -> parse

ROUND_TRIP_COINCHE: Doc = {
    "format": FORMAT,
    "rules": {"preset": "coinche", "target": 5000, "rounding": "half_down"},
    "teams": [{"name": "Les Bleus", "players": ["Élodie", "Marc"]}, {"name": "Rouges"}],
    "first_dealer": 2,
    "deals": [
        {"passed": True, "note": "four passes"},
        {"manual_scores": [35, 0], "note": "renounce by team 2: 35 as ruled"},
        {"taker": 0, "contract": "capot", "trump": "spades", "coinche": "coinche", "capot": 0,
         "belote": [1, 0]},
        {"taker": 1, "contract": "generale", "trump": "diamonds", "capot": 1, "generale": True},
        {"taker": 0, "contract": 130, "trump": "all_trump", "taker_points": 140, "belote": [2, 1],
         "taker_player": 2},
        {"taker": 1, "contract": 100, "trump": "hearts", "coinche": "surcoinche", "taker_points": 100,
         "taker_player": 1, "coinche_player": 3,
         "announcements": [[tierce("10")],
                           [{"kind": "quarte", "high": "A", "trump": True}, carre("J")]],
         "announcements_to": 0},
        {"taker": 0, "contract": 90, "trump": "clubs", "taker_points": 50, "announcements_to": "none",
         "announcements": [[{"kind": "quinte", "high": "K", "trump": True}], []],
         "note": "argued, table ruled no announcements"},
        {"taker": 1, "contract": 80, "trump": "no_trump", "taker_points": 81,
         "announcements": [[carre("10")], [tierce("A")]], "announcements_to": 1},
        {"taker": 0, "contract": 80, "trump": "clubs", "capot": 1, "belote": [0, 1]},
        {"taker": 1, "contract": 120, "trump": "spades", "taker_points": 85, "coinche": "coinche",
         "coinche_player": 0},
        {"taker": 0, "contract": 100, "trump": "all_trump", "capot": 0, "generale": True,
         "belote": [1, 1]},
    ],
}  # fmt: skip

ROUND_TRIP_FUNBELOTE: Doc = {
    "format": FORMAT,
    "rules": {"preset": "coinche-funbelote", "multipliers": [3, 6], "made_scores": "contract_only"},
    "deals": [
        {"taker": 0, "contract": 90, "trump": "hearts", "capot": 0, "generale": True},
        {"taker": 1, "contract": 80, "trump": "spades", "taker_points": 100, "coinche": "surcoinche"},
    ],
}  # fmt: skip

ROUND_TRIP_X3: Doc = {
    "format": FORMAT,
    "rules": {"preset": "coinche-x3", "target": 3000},
    "first_dealer": 1,
    "deals": [
        {"taker": 0, "contract": 160, "trump": "hearts", "taker_points": 162, "coinche": "coinche"},
        {"taker": 1, "contract": "capot", "trump": "clubs", "capot": 1, "coinche": "surcoinche"},
        {"taker": 0, "contract": 100, "trump": "diamonds", "taker_points": 60, "coinche": "coinche",
         "announcements": [[carre("9")], [{"kind": "tierce", "high": "J", "trump": True}]]},
    ],
}  # fmt: skip

ROUND_TRIP_CLASSIC: Doc = {
    "format": FORMAT,
    "rules": {"preset": "belote", "generale_bid": 500, "sa_ta": True, "deals_limit": 12,
              "target": None, "litige": "reserve"},
    "teams": [{"name": "A", "players": ["a1", "a2"]}, {"name": "B", "players": ["b1", "b2"]}],
    "first_dealer": 3,
    "deals": [
        {"taker": 0, "trump": "hearts", "taker_points": 81},
        {"taker": 1, "trump": "clubs", "taker_points": 90, "belote": [0, 1]},
        {"passed": True},
        {"taker": 1, "contract": "generale", "trump": "spades", "capot": 1, "generale": True,
         "belote": [1, 0]},
        {"taker": 0, "trump": "all_trump", "taker_points": 100, "belote": [1, 2],
         "announcements": [[carre("J")], [carre("9")]]},
        {"taker": 0, "trump": "no_trump", "taker_points": 60,
         "announcements": [[], [{"kind": "quarte", "high": "A"}]], "announcements_to": 1},
        {"taker": 1, "trump": "diamonds", "capot": 0, "note": "defence capot"},
        {"manual_scores": [0, 100], "note": "misdeal penalty"},
        {"taker": 1, "trump": "hearts", "taker_points": 81},
    ],
}  # fmt: skip

ROUND_TRIP_BELOTE_501: Doc = {
    "format": FORMAT,
    "rules": {"preset": "belote-501", "litige": "none", "rounding": "half_up"},
    "deals": [
        {"taker": 0, "trump": "hearts", "taker_points": 81},
        {"taker": 1, "trump": "spades", "taker_points": 110,
         "announcements": [[tierce("Q", trump=False)], [carre("K"), {"kind": "quinte", "high": "A"}]]},
    ],
}  # fmt: skip

# docs/rules.md §4's score-app variants travel in the file like any setting.
ROUND_TRIP_SCORE_APPS: Doc = {
    "format": FORMAT,
    "rules": {"preset": "coinche", "coinched_scores": "points", "capot_bid_scores": "contract"},
    "teams": [{"name": "Nous"}, {"name": "Eux"}],
    "deals": [
        {"taker": 0, "contract": 100, "trump": "hearts", "coinche": "coinche", "taker_points": 120},
        {"taker": 1, "contract": "capot", "trump": "spades", "capot": 1, "belote": [0, 1]},
    ],
}

ROUND_TRIPS = [
    pytest.param(EXAMPLE, id="example"),
    pytest.param(ROUND_TRIP_SCORE_APPS, id="coinche-score-app-variants"),
    pytest.param(ROUND_TRIP_COINCHE, id="coinche-every-key"),
    pytest.param(ROUND_TRIP_FUNBELOTE, id="funbelote-unbid-generale"),
    pytest.param(ROUND_TRIP_X3, id="coinche-x3"),
    pytest.param(ROUND_TRIP_CLASSIC, id="belote-every-key"),
    pytest.param(ROUND_TRIP_BELOTE_501, id="belote-501"),
]


def test_the_round_trip_documents_use_every_deal_key() -> None:
    used = {
        key for param in ROUND_TRIPS for deal in cast(Doc, param.values[0])["deals"] for key in deal
    }
    assert used == {
        "passed", "note", "taker", "contract", "trump", "coinche", "taker_points", "capot",
        "generale", "belote", "announcements", "announcements_to", "manual_scores",
        "taker_player", "coinche_player",
    }  # fmt: skip
    outcomes = {
        deal.outcome
        for param in ROUND_TRIPS
        for deal in parse_match(copy.deepcopy(param.values[0])).score().deals
    }
    assert outcomes == {"made", "failed", "litige", "passed", "manual"}


@pytest.mark.parametrize("document", ROUND_TRIPS)
def test_round_trip_keeps_the_match_and_its_scores(document: Doc) -> None:
    match = parse_match(copy.deepcopy(document))
    dumped = dump_match(match)
    text = json.dumps(dumped, ensure_ascii=False)
    again = load_match(text)

    assert again == match
    assert again.score() == match.score()
    for lang in ("en", "fr"):
        with translation.override(lang):
            assert result_to_dict(again.score(), words.breakdown) == result_to_dict(
                match.score(), words.breakdown
            )
    assert dump_match(again) == dumped  # a fixed point
    assert json.loads(text) == dumped  # only JSON types
    assert dumped["format"] == FORMAT
    assert len(dumped["deals"]) == len(document["deals"])


@pytest.mark.parametrize("document", ROUND_TRIPS)
def test_round_trip_matches_keep_going_to_their_last_deal(document: Doc) -> None:
    """Guard for the round-trip documents: they really score every deal."""
    result = parse_match(copy.deepcopy(document)).score()
    assert len(result.deals) == len(document["deals"])


def test_dump_writes_the_deals_as_given_when_no_default_is_spelled_out() -> None:
    dumped = dump_match(parse_match(example()))
    assert dumped["deals"] == EXAMPLE["deals"]
    assert dumped["teams"] == EXAMPLE["teams"]
    assert dumped["first_dealer"] == 0
    default_teams = dump_match(parse_match({"format": FORMAT, "rules": {"preset": "belote"},
                                            "deals": []}))["teams"]  # fmt: skip
    assert default_teams == [{"name": "Team 1"}, {"name": "Team 2"}]


@pytest.mark.parametrize(
    ("rules_doc", "settings"),
    [
        ({"preset": "coinche"}, COINCHE_SETTINGS),
        ({"preset": "coinche-funbelote"}, COINCHE_SETTINGS),
        ({"preset": "coinche-x3", "max_bid": None}, COINCHE_SETTINGS),
        ({"preset": "belote"}, CLASSIC_SETTINGS),
        ({"preset": "belote-501", "deals_limit": 12}, CLASSIC_SETTINGS),
    ],
)
def test_dump_writes_every_rule_setting(rules_doc: Doc, settings: set[str]) -> None:
    match = parse_match({"format": FORMAT, "rules": rules_doc, "deals": []})
    written = dump_match(match)["rules"]
    assert set(written) == {"preset", "game"} | settings
    assert written["preset"] == rules_doc["preset"]
    for name in settings:
        value = getattr(match.rules, name)
        assert written[name] == (list(value) if isinstance(value, tuple) else value), name
    for name, value in rules_doc.items():
        assert written[name] == value


def test_dump_writes_the_example_rules_resolved() -> None:
    assert dump_match(parse_match(example()))["rules"] == EXAMPLE_RULES


@pytest.mark.parametrize("document", ROUND_TRIPS)
def test_a_preset_change_does_not_change_a_dumped_match(
    document: Doc, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = parse_match(copy.deepcopy(document))
    dumped = json.dumps(dump_match(match))
    before = match.score()

    preset = match.rules.preset
    changed: Rules = replace(
        rules_module.PRESETS[preset],
        target=1500,
        deals_limit=3,
        rounding="half_down" if match.rules.rounding != "half_down" else "none",
        announcements_resolution="by_kind"
        if match.rules.announcements_resolution == "best_team"
        else "best_team",
        capot_cards=260,
        belote_points=30,
        generale_bid=700,
        generale_cards=400,
        end_tie="last_deal_winner",
        belote_cannot_clinch=False,
        multipliers=(5, 7),
        multiplier_scope="contract",
        failure_base=100,
        coinched_base=200,
        max_bid=400,
        capot_bid=300,
        failure_points=150,
        litige="none",
    )
    monkeypatch.setitem(rules_module.PRESETS, preset, changed)

    again = load_match(dumped)
    # The settings of the match's game are all written, so they all come back; the other game's
    # settings, which the match never reads, may follow the preset.
    assert again.rules.to_dict() == match.rules.to_dict()
    assert (again.teams, again.first_dealer, again.deals) == (
        match.teams, match.first_dealer, match.deals,
    )  # fmt: skip
    after = again.score()
    assert [(d.outcome, d.scores, d.totals) for d in after.deals] == [
        (d.outcome, d.scores, d.totals) for d in before.deals
    ]
    assert (after.reserve, after.finished, after.winner) == (
        before.reserve, before.finished, before.winner,
    )  # fmt: skip
    assert result_to_dict(after, english()) == result_to_dict(before, english())
    # The preset change took effect: the bare preset now gives other rules.
    assert rules_from_dict({"preset": preset}) == changed != match.rules


# ---------------------------------------------------------------------------------------------
# Property: random valid deals survive deal_to_dict -> JSON -> parse_deal

RULES_FOR = {
    "coinche": rules_from_dict({"preset": "coinche"}),
    "belote": rules_from_dict({"preset": "belote", "sa_ta": True, "generale_bid": 500}),
}
CARRE_RANKS = [rank for rank in Rank if rank not in (Rank.SEVEN, Rank.EIGHT)]
SEQUENCE_LENGTH = {Kind.TIERCE: 3, Kind.QUARTE: 4, Kind.QUINTE: 5}
RANK_ORDER = list(Rank)  # 7 8 9 10 J Q K A

# Any text a file may hold: no control character (but tabs and line breaks in notes), no lone
# surrogate, no direction control or replacement character, and names and notes that show
# something (see BAD_TEXT below for what is refused).
_REFUSED = "".join(DIRECTION_CONTROLS) + REPLACEMENT
_NAME_CHARS = st.characters(exclude_categories=("Cc", "Cs"), exclude_characters=_REFUSED)
_NOTE_CHARS = st.characters(
    exclude_categories=("Cc", "Cs"), exclude_characters=_REFUSED, include_characters="\t\n"
)
notes = st.none() | st.text(_NOTE_CHARS, min_size=1, max_size=80).map(str.strip).filter(
    lambda s: not invisible(s)
)
names = (
    st.text(_NAME_CHARS, min_size=1, max_size=60).map(str.strip).filter(lambda s: not invisible(s))
)


# The strategies are built once, here, rather than inside the composites at each draw: Hypothesis
# checks every new strategy it is given, which cost more than the round trips under test.
CARRE_CHOICES = st.lists(st.sampled_from(tuple(CARRE_RANKS)), unique=True, max_size=2)
SEQUENCE_KINDS = st.sampled_from(tuple(SEQUENCE_LENGTH))
SEQUENCE_HIGHS = {
    kind: st.sampled_from(tuple(RANK_ORDER[n - 1 :])) for kind, n in SEQUENCE_LENGTH.items()
}


@st.composite
def team_announcements(
    draw: st.DrawFn, trump: Trump
) -> tuple[tuple[Announcement, ...], tuple[Announcement, ...]]:
    teams: list[list[Announcement]] = [[], []]
    for rank in draw(CARRE_CHOICES):
        teams[draw(st.integers(0, 1))].append(Announcement(Kind.CARRE, rank))
    for _ in range(draw(st.integers(0, 3))):
        kind = draw(SEQUENCE_KINDS)
        high = draw(SEQUENCE_HIGHS[kind])
        in_trump = draw(st.booleans()) if trump.is_suit else False
        teams[draw(st.integers(0, 1))].append(Announcement(kind, high, in_trump))
    for items in teams:
        draw(st.randoms()).shuffle(items)
    return tuple(teams[0]), tuple(teams[1])


ANNOUNCEMENTS = {trump: team_announcements(trump) for trump in Trump}
TRUMPS = st.sampled_from(tuple(Trump))
COINCHE_CONTRACTS: st.SearchStrategy[Contract] = st.integers(8, 25).map(
    lambda n: n * 10
) | st.sampled_from(("capot", "generale"))
COINCHES: st.SearchStrategy[Coinche] = st.sampled_from(("none", "coinche", "surcoinche"))
BELOTE_CONTRACTS: st.SearchStrategy[Contract] = st.sampled_from((None, "generale"))
CAPOTS = st.sampled_from((None, 0, 1))
SUIT_BELOTES = st.sampled_from(((0, 0), (1, 0), (0, 1)))
ANNOUNCEMENTS_TO: st.SearchStrategy[Override | None] = st.sampled_from((None, 0, 1, "none"))


@st.composite
def played_deals(draw: st.DrawFn, game: Literal["coinche", "belote"]) -> PlayedDeal:
    trump = draw(TRUMPS)
    contract: Contract
    coinche: Coinche = "none"
    if game == "coinche":
        contract = draw(COINCHE_CONTRACTS)
        coinche = draw(COINCHES)
    else:
        contract = draw(BELOTE_CONTRACTS)
    capot = draw(CAPOTS)
    if trump is Trump.NO_TRUMP:
        belote = (0, 0)
    elif trump is Trump.ALL_TRUMP:
        b0 = draw(st.integers(0, 4))
        belote = (b0, draw(st.integers(0, 4 - b0)))
    else:
        belote = draw(SUIT_BELOTES)
    taker = draw(st.integers(0, 1))
    # Who took: a player of the takers; who (sur)coinched: the defence's or the takers' player.
    taker_player = draw(st.sampled_from([None, taker, taker + 2]))
    caller = {"none": None, "coinche": 1 - taker, "surcoinche": taker}[coinche]
    coinche_player = None if caller is None else draw(st.sampled_from([None, caller, caller + 2]))
    return PlayedDeal(
        taker=taker,
        trump=trump,
        contract=contract,
        coinche=coinche,
        taker_points=draw(st.integers(0, 162)) if capot is None else None,
        capot=capot,
        generale=draw(st.booleans()) if capot is not None else False,
        belote=belote,
        announcements=draw(ANNOUNCEMENTS[trump]),
        announcements_to=draw(ANNOUNCEMENTS_TO),
        note=draw(notes),
        taker_player=taker_player,
        coinche_player=coinche_player,
    )


def deals(game: Literal["coinche", "belote"], max_manual: int = 100_000) -> st.SearchStrategy[Deal]:
    manual = st.builds(
        ManualDeal,
        st.tuples(st.integers(0, max_manual), st.integers(0, max_manual)),
        notes,
    )
    return st.one_of(st.builds(PassedDeal, notes), manual, played_deals(game))


GAMES: tuple[Literal["coinche", "belote"], ...] = ("coinche", "belote")
ANY_DEAL = {game: deals(game) for game in GAMES}
MATCH_DEALS = {game: st.lists(deals(game, max_manual=5_000), max_size=8) for game in GAMES}


@given(game=st.sampled_from(["coinche", "belote"]), data=st.data())
def test_random_valid_deals_round_trip(
    game: Literal["coinche", "belote"], data: st.DataObject
) -> None:
    deal = data.draw(ANY_DEAL[game])
    check_deal(RULES_FOR[game], deal)  # the deal is valid under its game's rules
    written = deal_to_dict(deal)
    parsed = parse_deal(json.loads(json.dumps(written)))
    assert parsed == deal
    assert deal_to_dict(parsed) == written


@given(
    game=st.sampled_from(["coinche", "belote"]),
    first_dealer=st.integers(0, 3),
    team_names=st.tuples(names, names),
    players=st.none() | st.tuples(names, names),
    data=st.data(),
)
def test_random_valid_matches_round_trip(
    game: Literal["coinche", "belote"],
    first_dealer: int,
    team_names: tuple[str, str],
    players: tuple[str, str] | None,
    data: st.DataObject,
) -> None:
    # A target high enough that no match of at most 8 deals ends early.
    match_rules = replace(RULES_FOR[game], target=100_000)
    match_deals = data.draw(MATCH_DEALS[game])
    teams = (Team(team_names[0], players), Team(team_names[1]))
    match = MatchFile(match_rules, teams, first_dealer, tuple(match_deals))
    text = json.dumps(dump_match(match))
    again = load_match(text)
    assert again == match
    assert again.score() == match.score()


def test_a_key_written_twice_is_refused() -> None:
    text = (
        '{"format": "belote-match/1", "deals": [],'
        ' "rules": {"preset": "coinche", "target": 500, "target": 900}}'
    )
    with pytest.raises(InvalidInput) as caught:
        load_match(text)
    assert (caught.value.code, caught.value.params) == ("duplicate_key", {"key": "target"})


def test_the_score_app_variants_are_read_written_and_scored() -> None:
    match = parse_match(copy.deepcopy(ROUND_TRIP_SCORE_APPS))
    written = dump_match(match)["rules"]
    assert (written["coinched_scores"], written["capot_bid_scores"]) == ("points", "contract")
    # 2 × (120 + 100) = 440, defence 42 -> 40; then the capot bid alone: 250 + belote 20.
    assert [d.scores for d in match.score().deals] == [(440, 40), (0, 270)]


# ---------------------------------------------------------------------------------------------
# Bad characters in texts: NUL, other control characters and lone surrogates are refused in every
# text of a match file (PostgreSQL cannot store NUL, a lone surrogate cannot be encoded), and a
# name made only of invisible characters is refused like an empty one.

BAD_TEXT: list[Any] = [
    pytest.param(put("teams", 0, "name", value="\u0000"), "teams[0].name", "control",
                 id="nul-team-name"),
    pytest.param(put("teams", 1, "name", value="Eux\u0000"), "teams[1].name", "U+0000",
                 id="nul-after-a-team-name"),
    pytest.param(put("teams", 0, "players", 1, value="\ud800"), "teams[0].players[1]",
                 "surrogate", id="lone-high-surrogate-player"),
    pytest.param(put("teams", 1, "players", 0, value="Chlo\udc00"), "teams[1].players[0]",
                 "U+DC00", id="lone-low-surrogate-player"),
    pytest.param(put("teams", 0, "players", 0, value="A\x1b[31mlice"), "teams[0].players[0]",
                 "U+001B", id="escape-in-a-player"),
    pytest.param(put("teams", 0, "players", 0, value="Al\x85ice"), "teams[0].players[0]",
                 "U+0085", id="c1-control-in-a-player"),
    pytest.param(put("teams", 0, "players", 0, value="Al\x7fice"), "teams[0].players[0]",
                 "U+007F", id="delete-in-a-player"),
    pytest.param(put("teams", 0, "name", value="No\tus"), "teams[0].name", "U+0009",
                 id="tab-in-a-team-name"),
    pytest.param(put("teams", 0, "name", value="No\nus"), "teams[0].name", "U+000A",
                 id="newline-in-a-team-name"),
    pytest.param(put("teams", 0, "name", value="\u200b"), "teams[0].name", "invisible",
                 id="zero-width-space-team-name"),
    pytest.param(put("teams", 1, "players", 1, value=" \u200b\u200c\u200d\u2060\ufeff "),
                 "teams[1].players[1]", "invisible", id="invisible-player"),
    pytest.param(put("teams", 1, "players", 1, value="\u00ad\u034f\ufe0f"),
                 "teams[1].players[1]", "invisible", id="soft-hyphen-and-joiners-player"),
    pytest.param(put("teams", 1, "name", value="\u3164\u2800"), "teams[1].name", "invisible",
                 id="blank-looking-letters-team-name"),
    pytest.param(put("teams", 1, "name", value="\u00a0\u3000\u2028"), "teams[1].name", "empty",
                 id="unicode-spaces-team-name"),
    pytest.param(put("deals", 3, "note", value="\u0000"), "deals[3].note", "control",
                 id="nul-note"),
    pytest.param(put("deals", 2, "note", value="\ud83d"), "deals[2].note", "surrogate",
                 id="surrogate-note-of-a-passed-deal"),
    pytest.param(put("deals", 2, value={"manual_scores": [10, 0], "note": "ding\x07"}),
                 "deals[2].note", "U+0007", id="bell-in-a-manual-note"),
    pytest.param(put("deals", 0, "note", value="a\rb"), "deals[0].note", "U+000D",
                 id="carriage-return-in-a-note"),
]  # fmt: skip


@pytest.mark.parametrize(("mutation", "path", "word"), BAD_TEXT)
def test_bad_characters_are_refused_with_their_path(
    mutation: Mutation, path: str, word: str
) -> None:
    doc = example()
    mutation(doc)
    error = error_of(doc)
    assert (error.path, word.lower() in in_english(error).lower()) == (path, True), error
    in_english(error).encode()  # the words can be shown (no surrogate in them)
    str(error).encode()
    # The same through the JSON text: "\u0000" and "\ud800" escapes, as a file carries them.
    with pytest.raises(InvalidInput) as caught:
        load_match(json.dumps(doc))
    assert (caught.value.path, caught.value.code, caught.value.params) == (
        error.path, error.code, error.params,
    )  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        '{"format": "belote-match/1", "rules": {"preset": "coinche"}, "deals": [], "\\ud800": 1}',
        '{"format": "belote-match/1", "rules": {"preset": "coinche", "\\u0000": 1}, "deals": []}',
        '{"format": "belote-match/1", "rules": {"preset": "coinche"}, "deals": [{"\\udfff": 0}]}',
    ],
    ids=["surrogate-key", "nul-setting", "surrogate-deal-key"],
)
def test_a_bad_key_is_named_in_a_path_that_can_be_shown(text: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        load_match(text)
    caught.value.path.encode()  # no lone surrogate: the page and the JSON output can carry it
    assert "\x00" not in caught.value.path and "\\u" in caught.value.path


def test_harmless_texts_are_kept_as_written() -> None:
    doc = example()
    doc["teams"][0]["name"] = "Nous \U0001f44d"  # written "\ud83d\udc4d": a pair, one character
    doc["teams"][1]["players"] = ["Zoë", "Anna\u200bB"]  # a visible name may hold a joiner
    doc["deals"][0]["note"] = "line 1\nline 2\twith a tab"
    match = load_match(json.dumps(doc))
    assert match.teams[0].name == "Nous \U0001f44d"
    assert match.teams[1].players == ("Zoë", "Anna\u200bB")
    assert match.deals[0].note == "line 1\nline 2\twith a tab"


# ---------------------------------------------------------------------------------------------
# Who took and who coinched (issue 11): optional, never a score


def test_the_taking_and_coinching_players_are_read_and_written_and_change_no_score() -> None:
    doc = example()
    doc["deals"][0].update({"taker_player": 2, "coinche_player": 3})
    doc["deals"][1]["taker_player"] = 1
    match = parse_match(doc)
    first, second = match.deals[0], match.deals[1]
    assert isinstance(first, PlayedDeal) and isinstance(second, PlayedDeal)
    assert (first.taker_player, first.coinche_player) == (2, 3)
    assert (second.taker_player, second.coinche_player) == (1, None)
    assert dump_match(match)["deals"][0] == {
        "taker": 0, "contract": 110, "trump": "hearts", "coinche": "coinche",
        "taker_points": 120, "belote": [1, 0], "taker_player": 2, "coinche_player": 3,
    }  # fmt: skip
    assert match.score() == parse_match(example()).score()  # the same scores, deal by deal
    # An older file (no such key) reads as before: nobody recorded.
    older = parse_match(example()).deals[0]
    assert isinstance(older, PlayedDeal)
    assert (older.taker_player, older.coinche_player) == (None, None)
    assert "taker_player" not in deal_to_dict(older)


@pytest.mark.parametrize(
    ("coinche", "taker", "allowed"),
    [("coinche", 0, {1, 3}), ("coinche", 1, {0, 2}),
     ("surcoinche", 0, {0, 2}), ("surcoinche", 1, {1, 3})],
)  # fmt: skip
def test_the_coinching_player_sits_on_the_side_that_called(
    coinche: Coinche, taker: int, allowed: set[int]
) -> None:
    rules = rules_from_dict({"preset": "coinche"})
    for seat in range(4):
        deal = PlayedDeal(
            taker=taker, trump=Trump.SPADES, contract=80, coinche=coinche, taker_points=100,
            coinche_player=seat,
        )  # fmt: skip
        if seat in allowed:
            check_deal(rules, deal)
        else:
            with pytest.raises(InvalidInput) as caught:
                check_deal(rules, deal)
            assert caught.value.path == "coinche_player"
