"""The belote-tournament/1 file (docs/tournaments.md §6): the example, every refusal with its exact path
and code, the later place named when something appears twice, and writing a file back unchanged."""

import copy
import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from scorekeeper.engine.scoring import InvalidInput, rules_from_dict
from scorekeeper.engine.tournament import (
    FORMAT,
    Settings,
    Table,
    Tournament,
    TournamentError,
    dump_tournament,
    load_tournament,
    parse_tournament,
)

from .builders import EXAMPLE_TEXT, Doc, doc, example, parse, round_, table

Mutation = Callable[[Doc], None]


def base() -> Doc:
    """Five teams, two rounds played (a bye each round), four planned."""
    return doc(
        5,
        rounds=[
            round_(table(1, 1, 2, (900, 800)), table(2, 3, 4, (700, 1000)), byes=[5]),
            round_(table(1, 4, 1, (1000, 900)), table(2, 5, 2, (800, 600)), byes=[3]),
        ],
    )


def melee_base() -> Doc:
    return doc(
        9,
        mode="melee",
        rounds=[round_(table(1, [1, 2], [3, 4], (900, 800)), table(2, [5, 6], [7, 8]), byes=[9])],
    )


def refused(data: Any) -> TournamentError:
    with pytest.raises(TournamentError) as caught:
        parse_tournament(data)
    return caught.value


def test_the_example_parses() -> None:
    tournament = load_tournament(EXAMPLE_TEXT)
    assert tournament.name == "Concours de la Saint-Martin"
    assert tournament.date == "2026-11-11"
    settings = tournament.settings
    assert (settings.mode, settings.rounds, settings.pairing, settings.seed) == (
        "teams", 4, "swiss", 20261111,
    )  # fmt: skip
    assert settings.ranking == ("points", "wins", "difference")
    assert (settings.bye.points, settings.bye.win) == ("average", False)
    assert settings.partie == rules_from_dict(
        {"preset": "belote", "deals_limit": 12, "target": None}
    )
    assert [e.id for e in tournament.entrants] == [1, 2, 3, 4, 5, 6]
    assert tournament.entrants[1].from_round == 2
    assert tournament.entrants[0].players == ("Alice", "Bruno")
    first = tournament.rounds[0]
    assert first.tables[0] == Table(
        1, ((1,), (3,)), totals=(1712, 1520), written=("table", "sides", "totals")
    )
    assert first.tables[1].deals is not None and len(first.tables[1].deals) == 1
    assert first.byes == (6,) and first.withdrawn == ()


def test_the_example_is_written_back_unchanged() -> None:
    data = example()
    out = dump_tournament(load_tournament(EXAMPLE_TEXT))
    assert out == data
    # The same keys in the same order, all the way down: the same JSON text.
    assert json.dumps(out, ensure_ascii=False) == json.dumps(data, ensure_ascii=False)


def test_defaults_written_or_left_out_come_back_as_they_were() -> None:
    data = doc(4, rounds=[round_(table(1, 1, 2, (900, 800)), table(2, 3, 4, (0, 0)))])
    data["settings"] = {"seed": 1}  # every other setting left to its default
    data["entrants"][0]["from_round"] = 1  # a default written out
    data["rounds"][0] = {"tables": data["rounds"][0]["tables"]}  # no byes, no withdrawn
    data["rounds"][0]["tables"][1] = {
        "sides": [3, 4], "table": 2, "deals": [{"taker": 1, "trump": "spades",
        "taker_points": 100, "coinche": "none", "belote": [0, 0]}], "first_dealer": 0,
        "ended": True,
    }  # fmt: skip
    tournament = parse(data)
    assert tournament.settings == Settings(seed=1, written=("seed",))
    assert json.dumps(dump_tournament(tournament)) == json.dumps(data)


def test_a_tournament_built_in_code_is_written_in_the_format_order() -> None:
    tournament = Tournament(Settings(seed=3), name="Built")
    out = dump_tournament(tournament)
    assert out == {
        "format": FORMAT,
        "name": "Built",
        # Settings made in code are written in full: the file keeps meaning the same even if a
        # default changes one day.
        "settings": {
            "mode": "teams",
            "rounds": 4,
            "partie": {"preset": "belote", "target": None, "deals_limit": 12},
            "pairing": "swiss",
            "ranking": ["points", "wins", "difference", "best_partie"],
            "bye": {"points": "average", "win": False},
            "seed": 3,
        },
        "entrants": [],
        "rounds": [],
    }
    assert list(out) == ["format", "name", "settings", "entrants", "rounds"]
    assert parse_tournament(dump_tournament(tournament)) == parse_tournament(
        json.loads(json.dumps(dump_tournament(tournament)))
    )


def test_errors_are_the_scoring_engines_type() -> None:
    error = refused({"format": "belote-match/1"})
    assert isinstance(error, InvalidInput)
    assert (error.path, error.code, error.params) == (
        "format", "unsupported_format", {"expected": FORMAT},
    )  # fmt: skip


def _set(path: str, value: Any) -> Mutation:
    """A mutation setting `a.b[2].c` (creating nothing: the parents exist)."""

    def change(data: Doc) -> None:
        target: Any = data
        parts = path.replace("[", ".[").split(".")
        for part in parts[:-1]:
            target = target[int(part[1:-1])] if part.startswith("[") else target[part]
        last = parts[-1]
        if last.startswith("["):
            target[int(last[1:-1])] = value
        else:
            target[last] = value

    return change


def _delete(path: str, key: str) -> Mutation:
    def change(data: Doc) -> None:
        target: Any = data
        for part in path.replace("[", ".[").split(".") if path else []:
            target = target[int(part[1:-1])] if part.startswith("[") else target[part]
        del target[key]

    return change


def _both(*changes: Mutation) -> Mutation:
    def change(data: Doc) -> None:
        for one in changes:
            one(data)

    return change


NO_END = {"preset": "belote", "target": None}
BAD_DEAL = [{"taker": 0, "trump": "hearts", "taker_points": 200}]
TWELVE = [{"taker": 0, "trump": "hearts", "taker_points": 100}] * 12

# (mutation of base(), path, code): every refusal of §6 and of the issue.
REFUSALS: list[tuple[Mutation, str, str]] = [
    # The document and its settings.
    (_set("extra", 1), "extra", "unknown_key"),
    (_delete("", "format"), "format", "required"),
    (_set("format", "belote-match/1"), "format", "unsupported_format"),
    (_delete("", "name"), "name", "required"),
    (_set("name", "  "), "name", "empty"),
    (_set("date", "11/11/2026"), "date", "bad_date"),
    (_set("date", "2026-02-30"), "date", "bad_date"),
    (_delete("", "settings"), "settings", "required"),
    (_delete("", "entrants"), "entrants", "required"),
    (_delete("", "rounds"), "rounds", "required"),
    (_set("settings", []), "settings", "not_object"),
    (_set("settings.colour", "red"), "settings.colour", "unknown_key"),
    (_delete("settings", "seed"), "settings.seed", "required"),
    (_set("settings.seed", "7"), "settings.seed", "not_integer"),
    (_set("settings.seed", True), "settings.seed", "not_integer"),
    (_set("settings.mode", "pairs"), "settings.mode", "choice"),
    (_set("settings.rounds", 0), "settings.rounds", "out_of_range"),
    (_set("settings.rounds", 21), "settings.rounds", "out_of_range"),
    (_set("settings.rounds", 1), "rounds[1]", "too_many_rounds"),
    (_set("settings.partie", "belote"), "settings.partie", "not_object"),
    (_set("settings.partie", NO_END), "settings.partie.target", "no_end"),
    (
        _set("settings.partie", {"preset": "belote", "luck": 1}),
        "settings.partie.luck",
        "unknown_setting",
    ),
    (_set("settings.partie", {"preset": "tarot"}), "settings.partie.preset", "unknown_preset"),
    (_set("settings.pairing", "dutch"), "settings.pairing", "choice"),
    (_set("settings.ranking", []), "settings.ranking", "empty"),
    (_set("settings.ranking", "points"), "settings.ranking", "not_list"),
    (_set("settings.ranking", ["luck"]), "settings.ranking[0]", "choice"),
    (_set("settings.ranking", ["points", "wins", "points"]), "settings.ranking[2]", "duplicate"),
    (_set("settings.bye", {"points": "half"}), "settings.bye.points", "bye_points"),
    (_set("settings.bye", {"points": -1}), "settings.bye.points", "out_of_range"),
    (_set("settings.bye", {"win": 1}), "settings.bye.win", "not_boolean"),
    (_set("settings.bye", {"points": 0, "lose": True}), "settings.bye.lose", "unknown_key"),
    # Entrants.
    (_set("entrants", {}), "entrants", "not_list"),
    (_set("entrants[3].id", 2), "entrants[3].id", "duplicate"),
    (_set("entrants[0].id", 0), "entrants[0].id", "out_of_range"),
    (_set("entrants[0].id", 1.0), "entrants[0].id", "not_integer"),
    (_set("entrants[0].team", "x"), "entrants[0].team", "unknown_key"),
    (_delete("entrants[1]", "name"), "entrants[1].name", "required"),
    (_delete("entrants[1]", "players"), "entrants[1].players", "required"),
    (_set("entrants[1].players", ["Solo"]), "entrants[1].players", "length"),
    (_set("entrants[1].players[1]", "A\x00"), "entrants[1].players[1]", "control_character"),
    (_set("entrants[2].name", "x" * 61), "entrants[2].name", "too_long"),
    (_set("entrants[2].from_round", 0), "entrants[2].from_round", "out_of_range"),
    (_set("entrants[2].from_round", 5), "entrants[2].from_round", "out_of_range"),
    # Rounds and tables: shape.
    (_set("rounds[0].pause", True), "rounds[0].pause", "unknown_key"),
    (_delete("rounds[0]", "tables"), "rounds[0].tables", "required"),
    (_set("rounds[0].byes", 5), "rounds[0].byes", "not_list"),
    (_set("rounds[0].tables[1].colour", 1), "rounds[0].tables[1].colour", "unknown_key"),
    (_delete("rounds[0].tables[1]", "table"), "rounds[0].tables[1].table", "required"),
    (_set("rounds[0].tables[1].sides", [3]), "rounds[0].tables[1].sides", "length"),
    (_set("rounds[0].tables[1].sides", [3, [4]]), "rounds[0].tables[1].sides[1]", "not_integer"),
    (_set("rounds[0].tables[1].totals", [700]), "rounds[0].tables[1].totals", "length"),
    (
        _set("rounds[0].tables[1].totals", [700, 100_001]),
        "rounds[0].tables[1].totals[1]",
        "out_of_range",
    ),
    (_set("rounds[0].tables[1].deals", TWELVE), "rounds[0].tables[1].deals", "totals_and_deals"),
    (_set("rounds[0].tables[1].ended", True), "rounds[0].tables[1].ended", "needs_deals"),
    (
        _set("rounds[0].tables[1].first_dealer", 1),
        "rounds[0].tables[1].first_dealer",
        "needs_deals",
    ),
    (
        _both(
            _delete("rounds[0].tables[1]", "totals"), _set("rounds[0].tables[1].deals", BAD_DEAL)
        ),
        "rounds[0].tables[1].deals[0].taker_points",
        "out_of_range",
    ),
    (
        _both(
            _delete("rounds[0].tables[1]", "totals"),
            _set("rounds[0].tables[1].deals", [{"taker": 0, "trump": "hearts", "cut": 1}]),
        ),
        "rounds[0].tables[1].deals[0].cut",
        "unknown_key",
    ),
    (
        _both(
            _delete("rounds[0].tables[1]", "totals"), _set("rounds[0].tables[1].deals", TWELVE * 2)
        ),
        "rounds[0].tables[1].deals[12]",
        "after_match_end",
    ),
    (_set("rounds[0].tables[1].table", 1), "rounds[0].tables[1].table", "duplicate"),
    # Rounds and tables: who plays.
    (_set("rounds[0].tables[1].sides[1]", 9), "rounds[0].tables[1].sides[1]", "unknown_entrant"),
    (_set("rounds[0].tables[1].sides[0]", 1), "rounds[0].tables[1].sides[0]", "twice_in_round"),
    (_set("rounds[0].tables[0].sides[1]", 1), "rounds[0].tables[0].sides[1]", "twice_in_round"),
    (_set("rounds[0].byes", [5, 1]), "rounds[0].byes[1]", "playing_and_bye"),
    (_set("rounds[0].byes", [5, 5]), "rounds[0].byes[1]", "twice_in_round"),
    (_set("rounds[0].byes", [5, 6]), "rounds[0].byes[1]", "unknown_entrant"),
    (_set("rounds[0].byes", []), "rounds[0]", "not_drawn"),
    (_set("entrants[4].from_round", 2), "rounds[0].byes[0]", "not_joined"),
    (_set("entrants[0].from_round", 2), "rounds[0].tables[0].sides[0]", "not_joined"),
    (_set("rounds[1].withdrawn", [3]), "rounds[1].byes[0]", "withdrawn_entrant"),
    (_set("rounds[1].withdrawn", [1]), "rounds[1].tables[0].sides[1]", "withdrawn_entrant"),
    (_set("rounds[1].withdrawn", [8]), "rounds[1].withdrawn[0]", "unknown_entrant"),
    (
        _both(_set("rounds[0].withdrawn", []), _set("rounds[1].withdrawn", [3, 3])),
        "rounds[1].withdrawn[1]",
        "already_withdrawn",
    ),
    (_delete("rounds[0].tables[1]", "totals"), "rounds[1]", "round_after_pending"),
    (
        _both(
            _delete("rounds[0].tables[1]", "totals"),
            _set("rounds[0].tables[1].deals", TWELVE[:3]),
        ),
        "rounds[1]",
        "round_after_pending",
    ),
]


@pytest.mark.parametrize(("change", "path", "code"), REFUSALS)
def test_refusals_name_the_path(change: Mutation, path: str, code: str) -> None:
    data = base()
    parse(data)  # valid before the change
    change(data)
    error = refused(data)
    assert (error.path, error.code) == (path, code), error.params
    assert all(isinstance(v, str | int | float | bool | type(None)) for v in error.params.values())


MELEE_REFUSALS: list[tuple[Mutation, str, str]] = [
    (_set("entrants[0].players", ["A", "B"]), "entrants[0].players", "unknown_key"),
    (_set("rounds[0].tables[0].sides[0]", 1), "rounds[0].tables[0].sides[0]", "not_list"),
    (_set("rounds[0].tables[0].sides[0]", [1]), "rounds[0].tables[0].sides[0]", "length"),
    (
        _set("rounds[0].tables[0].sides[0]", [1, 1]),
        "rounds[0].tables[0].sides[0][1]",
        "twice_in_round",
    ),
    (
        _set("rounds[0].tables[1].sides[1]", [7, 2]),
        "rounds[0].tables[1].sides[1][1]",
        "twice_in_round",
    ),
    (
        _set("rounds[0].tables[1].sides[1]", [7, 10]),
        "rounds[0].tables[1].sides[1][1]",
        "unknown_entrant",
    ),
    (_set("rounds[0].byes", [9, 4]), "rounds[0].byes[1]", "playing_and_bye"),
]


@pytest.mark.parametrize(("change", "path", "code"), MELEE_REFUSALS)
def test_melee_refusals_name_the_path(change: Mutation, path: str, code: str) -> None:
    data = melee_base()
    parse(data)
    change(data)
    error = refused(data)
    assert (error.path, error.code) == (path, code), error.params


def test_the_later_place_is_named_and_the_first_given() -> None:
    data = base()
    data["rounds"][0]["byes"] = [5, 3]
    error = refused(data)
    assert error.path == "rounds[0].byes[1]"
    assert error.params == {"id": 3, "first": "rounds[0].tables[1].sides[0]"}
    data = base()
    data["entrants"][4]["id"] = 1
    error = refused(data)
    assert (error.path, error.params["first"]) == ("entrants[4].id", "entrants[0].id")


def test_a_table_with_both_results_is_refused_at_the_later_key() -> None:
    data = base()
    data["rounds"][0]["tables"][0] = {
        "table": 1,
        "deals": TWELVE,
        "sides": [1, 2],
        "totals": [1, 2],
    }
    assert refused(data).path == "rounds[0].tables[0].totals"


def test_a_scoring_error_keeps_the_engines_code_and_params() -> None:
    data = base()
    del data["rounds"][1]
    data["rounds"][0]["tables"][1] = table(2, 3, 4, deals=BAD_DEAL)
    error = refused(data)
    assert error.code == "out_of_range"
    assert error.params == {"min": 0, "max": 162}


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ('{"format": 1, "format": 2}', "duplicate_key", {"key": "format"}),
        ("{\n  nope", "json_invalid", {"line": 2, "column": 3}),
        (b'{"name": "caf\xe9"}', "json_not_utf8", {}),
        ("[" * 100_000, "json_too_deep", {}),
        ("1" * 5000, "json_unreadable", {}),
        ("[]", "not_object", {}),
    ],
)
def test_bad_json(text: str | bytes, code: str, params: dict[str, Any]) -> None:
    with pytest.raises(TournamentError) as caught:
        load_tournament(text)
    assert (caught.value.path, caught.value.code, caught.value.params) == ("", code, params)


def test_an_empty_concours_and_a_late_entrant_withdrawn_before_joining() -> None:
    assert parse(doc(0)).entrants == ()
    data = base()
    data["entrants"].append({"id": 6, "name": "Late", "players": ["L", "M"], "from_round": 3})
    data["rounds"][1]["withdrawn"] = [6]  # called to say they will not come after all
    tournament = parse(data)
    assert tournament.active(3) == [1, 2, 3, 4, 5]


def test_the_deals_written_back_are_the_files_own() -> None:
    data = base()
    deal = {"note": "x", "trump": "hearts", "taker_points": 100, "taker": 0, "coinche": "none"}
    data["rounds"][1]["tables"][0] = table(1, 4, 1, deals=[deal] * 12, first_dealer=2)
    tournament = parse(data)
    out = dump_tournament(tournament)
    assert out["rounds"][1]["tables"][0]["deals"][0] == deal
    assert list(out["rounds"][1]["tables"][0]["deals"][0]) == list(deal)
    # A table whose deals changed in code is written from the deals.
    first = tournament.rounds[1].tables[0]
    assert first.deals is not None
    changed = replace(first, deals=first.deals[:11])
    rounds = (tournament.rounds[0], replace(tournament.rounds[1], tables=(changed,)))
    written = dump_tournament(replace(tournament, rounds=rounds))["rounds"][1]["tables"][0]
    assert written["deals"][0] == {"taker": 0, "trump": "hearts", "taker_points": 100, "note": "x"}
    assert len(written["deals"]) == 11


def test_the_partie_written_back_is_the_files_own() -> None:
    data = base()
    data["settings"]["partie"] = {
        "target": None,
        "preset": "belote",
        "deals_limit": 12,
        "litige": "reserve",
    }
    out = dump_tournament(parse(data))
    assert list(out["settings"]["partie"]) == ["target", "preset", "deals_limit", "litige"]
    data = copy.deepcopy(out)
    assert dump_tournament(parse(data)) == out
