"""The final bracket (docs/tournaments.md §7, setting `final`): seeding, the standard order, winners
of neighbouring tables, the better seed through on equal totals, the third-place table, the
consolation bracket, `final_place` for everyone (null while unsettled), the bracket rounds of the
file and their refusals with paths, `pair_round` and the data of `bracket_state`."""

import copy
import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.engine.scoring import rules_from_dict
from scorekeeper.engine.tournament import (
    Final,
    Settings,
    TournamentError,
    append_round,
    bracket_state,
    draw_round,
    dump_tournament,
    parse_tournament,
    sequence,
    settings_from_dict,
    standard_order,
    standings_report,
)
from scorekeeper.engine.tournament.settings import settings_to_dict

from .builders import Doc, doc, parse, round_, table
from .test_commands import call, write

# Ten teams, one qualifying round. Points: 6: 2000, 2: 1900, 10: 1800, 4: 1700, 8: 1600,
# 1: 1500, 5: 1300, 9: 1200, 3: 1100, 7: 1000: seeds 1 … 8 are 6, 2, 10, 4, 8, 1, 5, 9; 3 and 7
# are outside the bracket (places 9 and 10).
QUALIFYING = round_(
    table(1, 1, 2, (1500, 1900)), table(2, 3, 4, (1100, 1700)), table(3, 5, 6, (1300, 2000)),
    table(4, 7, 8, (1000, 1600)), table(5, 9, 10, (1200, 1800)),
)  # fmt: skip
SEEDS = (6, 2, 10, 4, 8, 1, 5, 9)

# The bracket of 8 with consolation and third place, round by round (file rounds 2 to 6).
# Main round 1, seeds 1–8, 4–5, 2–7, 3–6: 6–9, 4–8, 2–5, 10–1. 4 and 8 tie: 4 (seed 4) goes
# through; 5 and 1 beat 2 and 10.
MAIN_1 = [(6, 9, (1000, 900)), (4, 8, (1000, 1000)), (2, 5, (900, 1000)), (10, 1, (800, 900))]
# Losers 9 (seed 8), 8 (5), 2 (2), 10 (3): the consolation seeds them 2, 10, 8, 9 and pairs
# 1–4, 2–3: 2–9, 10–8. 9 and 10 win.
CONSOLATION_1 = [(2, 9, (700, 800)), (10, 8, (900, 800))]
# Semi-finals, winners of tables 1–2 and 3–4: 6–4, 5–1. 4 wins; 5 (seed 7) and 1 (seed 6) tie:
# 1 goes through from side 1.
MAIN_2 = [(6, 4, (800, 900)), (5, 1, (1000, 1000))]
# The consolation's final: 9–10; 10 wins (place 5), 9 is 6th, 2 and 8 share 7th.
CONSOLATION_2 = [(9, 10, (500, 600))]
# The final 4–1 (4 wins), and table 2 for third place, the semi-final losers 6–5 (5 wins).
MAIN_3 = [(4, 1, (1200, 1100)), (6, 5, (900, 1000))]
PLAN = [
    ("final", MAIN_1), ("consolation", CONSOLATION_1), ("final", MAIN_2),
    ("consolation", CONSOLATION_2), ("final", MAIN_3),
]  # fmt: skip
PLACES = {4: 1, 1: 2, 5: 3, 6: 4, 10: 5, 9: 6, 2: 7, 8: 7, 3: 9, 7: 10}
FINAL8 = {"size": 8, "consolation": True, "third_place": True}


def bracket_round(stage: str, tables: Sequence[tuple[int, int, tuple[int, int] | None]]) -> Doc:
    out = []
    for number, (a, b, totals) in enumerate(tables, start=1):
        item: Doc = {"table": number, "sides": [a, b]}
        if totals is not None:
            item["totals"] = list(totals)
        out.append(item)
    return {"stage": stage, "tables": out}


def eight(played: int = 5, final: Doc | None = None) -> Doc:
    data = doc(10, rounds=[copy.deepcopy(QUALIFYING)], final=copy.deepcopy(final or FINAL8))
    data["settings"]["rounds"] = 1
    data["rounds"] += [bracket_round(stage, tables) for stage, tables in PLAN[:played]]
    return data


def places(data: Doc) -> dict[int, int | None]:
    return {row["id"]: row["final_place"] for row in standings_report(parse(data))["standings"]}


def test_standard_order() -> None:
    assert standard_order(4) == [1, 4, 2, 3]
    assert standard_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert standard_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


def test_the_order_of_the_bracket_rounds() -> None:
    def steps(final: Doc) -> list[tuple[str, int, int]]:
        settings = settings_from_dict({"seed": 1, "final": final})
        assert settings.final is not None
        return [(s.stage, s.depth, s.tables) for s in sequence(settings.final)]

    assert steps({"size": 4}) == [("final", 1, 2), ("final", 2, 1)]
    assert steps({"size": 4, "third_place": True}) == [("final", 1, 2), ("final", 2, 2)]
    assert steps(FINAL8) == [
        ("final", 1, 4), ("consolation", 1, 2), ("final", 2, 2), ("consolation", 2, 1),
        ("final", 3, 2),
    ]  # fmt: skip
    assert steps({"size": 16, "consolation": True}) == [
        ("final", 1, 8), ("consolation", 1, 4), ("final", 2, 4), ("consolation", 2, 2),
        ("final", 3, 2), ("consolation", 3, 1), ("final", 4, 1),
    ]  # fmt: skip


def test_eight_with_consolation_and_third_place_drawn_round_by_round() -> None:
    """`draw_round` draws each bracket round as PLAN writes it; results typed in between."""
    data = eight(played=0)
    for number, (stage, tables) in enumerate(PLAN, start=2):
        tournament = parse(data)
        drawn = draw_round(tournament)
        assert (drawn.round, drawn.stage, drawn.byes) == (number, stage, ())
        assert [(t.number, t.sides) for t in drawn.tables] == [
            (i, ((a,), (b,))) for i, (a, b, _) in enumerate(tables, start=1)
        ]
        data = dump_tournament(append_round(tournament, drawn))
        assert data["rounds"][-1] == bracket_round(stage, [(a, b, None) for a, b, _ in tables])
        data["rounds"][-1] = bracket_round(stage, tables)
    assert data == eight()
    assert places(data) == PLACES
    with pytest.raises(TournamentError) as caught:
        draw_round(parse(data))
    assert (caught.value.path, caught.value.code) == ("rounds", "bracket_complete")


@pytest.mark.parametrize(
    ("played", "settled"),
    [
        # Qualifying finished: only the teams outside the bracket are placed.
        (0, {3: 9, 7: 10}),
        # Main round 1: its losers go to the consolation bracket, still unplaced.
        (1, {3: 9, 7: 10}),
        # Consolation round 1: its losers share 7th.
        (2, {3: 9, 7: 10, 2: 7, 8: 7}),
        # Semi-finals: the losers wait for the third-place table.
        (3, {3: 9, 7: 10, 2: 7, 8: 7}),
        (4, {3: 9, 7: 10, 2: 7, 8: 7, 10: 5, 9: 6}),
        (5, PLACES),
    ],
)
def test_final_places_are_null_until_settled(played: int, settled: dict[int, int]) -> None:
    assert places(eight(played)) == {i: settled.get(i) for i in range(1, 11)}


def test_places_before_qualifying_is_finished() -> None:
    data = eight(played=0)
    data["rounds"][0]["tables"][0].pop("totals")
    assert set(places(data).values()) == {None}
    state = bracket_state(parse(data))
    assert state is not None and state.seeds == () and state.next is None


def test_without_consolation_the_quarter_final_losers_share_fifth() -> None:
    final = {"size": 8, "third_place": True}
    data = eight(played=0, final=final)
    data["rounds"] += [bracket_round("final", MAIN_1), bracket_round("final", MAIN_2),
                       bracket_round("final", MAIN_3)]  # fmt: skip
    assert places(data) == {4: 1, 1: 2, 5: 3, 6: 4, 9: 5, 8: 5, 2: 5, 10: 5, 3: 9, 7: 10}
    # Without a third-place table the semi-final losers share 3rd.
    data["settings"]["final"] = {"size": 8}
    data["rounds"][-1] = bracket_round("final", MAIN_3[:1])
    assert places(data) == {4: 1, 1: 2, 5: 3, 6: 3, 9: 5, 8: 5, 2: 5, 10: 5, 3: 9, 7: 10}


def test_the_standings_report_of_a_bracket() -> None:
    report = standings_report(parse(eight()))
    # Rows keep their qualifying order and rank; the figures are the qualifying ones.
    assert [(row["id"], row["rank"], row["points"]) for row in report["standings"]][:3] == [
        (6, 1, 2000), (2, 2, 1900), (10, 3, 1800),
    ]  # fmt: skip
    assert list(report["standings"][0])[-2:] == ["withdrawn", "final_place"]
    third = report["rounds"][3]
    assert third["stage"] == "final" and "byes" not in third
    # 5 and 1 tied 1000–1000: the better seed (1, seed 6) went through on side 1.
    assert third["tables"][1] == {"table": 2, "sides": [5, 1], "points": [1000, 1000],
                                  "winner": 1, "status": "finished"}  # fmt: skip
    # Qualifying rounds are reported as before (draws stay draws there).
    assert list(report["rounds"][0]) == ["round", "tables", "byes"]


def test_bracket_state_for_a_desk_page() -> None:
    state = bracket_state(parse(eight(played=2)))
    assert state is not None
    assert (state.size, state.consolation, state.third_place) == (8, True, True)
    assert state.seeds == SEEDS
    assert [(r.stage, r.depth, r.entrants, r.round) for r in state.rounds] == [
        ("final", 1, 8, 2), ("consolation", 1, 4, 3), ("final", 2, 4, None),
        ("consolation", 2, 2, None), ("final", 3, 2, None),
    ]  # fmt: skip
    first = state.rounds[0].tables
    assert [(t.number, t.seeds, t.sides, t.winner, t.status) for t in first] == [
        (1, (1, 8), (6, 9), 0, "finished"),
        (2, (4, 5), (4, 8), 0, "finished"),
        (3, (2, 7), (2, 5), 1, "finished"),
        (4, (3, 6), (10, 1), 1, "finished"),
    ]
    # Who plays next: the semi-finals are known, the final's sides are not yet.
    semis = state.rounds[2].tables
    assert [(t.seeds, t.sides, t.status) for t in semis] == [
        ((1, 4), (6, 4), "waiting"), ((7, 6), (5, 1), "waiting"),
    ]  # fmt: skip
    final, third = state.rounds[4].tables
    assert (final.sides, final.third_place, third.sides, third.third_place) == (
        (None, None), False, (None, None), True,
    )  # fmt: skip
    assert state.next == 2 and not state.complete
    assert state.places[3] == 9 and state.places[4] is None
    # A bracket table under way: pending, no winner yet.
    data = eight(played=2)
    data["rounds"].append(bracket_round("final", [(6, 4, None), (5, 1, (1, 0))]))
    state = bracket_state(parse(data))
    assert state is not None and state.next is None
    assert [(t.status, t.winner) for t in state.rounds[2].tables] == [
        ("pending", None), ("finished", 0),
    ]  # fmt: skip
    done = bracket_state(parse(eight()))
    assert done is not None and done.complete and done.next is None
    assert bracket_state(parse(doc(4))) is None


def test_a_size_four_bracket() -> None:
    """Five teams, one qualifying round, 5 on a bye worth the average, (1300 + 700 + 1100 +
    900) / 4 = 1000."""
    data = doc(5, rounds=[round_(table(1, 1, 2, (1300, 700)), table(2, 3, 4, (1100, 900)),
                                 byes=[5])], final={"size": 4})  # fmt: skip
    data["settings"]["rounds"] = 1
    # Standings: 1 1300, 3 1100, 5 1000 (the average), 4 900, 2 700: seeds 1, 3, 5, 4.
    drawn = draw_round(parse(data))
    assert [(t.number, t.sides) for t in drawn.tables] == [(1, ((1,), (4,))), (2, ((3,), (5,)))]
    data["rounds"].append(bracket_round("final", [(1, 4, (500, 600)), (3, 5, (800, 700))]))
    drawn = draw_round(parse(data))
    assert [(t.number, t.sides) for t in drawn.tables] == [(1, ((4,), (3,)))]
    data["rounds"].append(bracket_round("final", [(4, 3, (900, 900))]))
    # 4 (seed 4) and 3 (seed 2) tie: 3 wins; 1 and 5 share 3rd; 2 is 5th.
    assert places(data) == {3: 1, 4: 2, 1: 3, 5: 3, 2: 5}


def test_a_size_sixteen_bracket_with_consolation() -> None:
    """Sixteen teams; in the qualifying round i beats 17 − i with 2000 − 10 × i points, so the
    seeds are the ids. Every bracket table is won by side 0 (the better seed in round 1)."""
    data = doc(16, rounds=[round_(*(table(i, i, 17 - i, (2000 - 10 * i, 100 + i))
                                    for i in range(1, 9)))],
               final={"size": 16, "consolation": True, "third_place": True})  # fmt: skip
    data["settings"]["rounds"] = 1
    rounds = []
    for _ in range(7):
        tournament = parse(data)
        drawn = draw_round(tournament)
        rounds.append((drawn.stage, [(t.sides[0][0], t.sides[1][0]) for t in drawn.tables]))
        data = dump_tournament(append_round(tournament, drawn))
        for item in data["rounds"][-1]["tables"]:
            item["totals"] = [1000, 900]
    assert rounds == [
        ("final", [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)]),
        # Losers 16, 9, 13, 12, 15, 10, 14, 11 in seed order: 9, 10, 11, 12, 13, 14, 15, 16.
        ("consolation", [(9, 16), (12, 13), (10, 15), (11, 14)]),
        ("final", [(1, 8), (4, 5), (2, 7), (3, 6)]),
        ("consolation", [(9, 12), (10, 11)]),
        ("final", [(1, 4), (2, 3)]),
        ("consolation", [(9, 10)]),
        ("final", [(1, 2), (4, 3)]),
    ]
    assert places(data) == {
        1: 1, 2: 2, 4: 3, 3: 4, 8: 5, 5: 5, 7: 5, 6: 5,
        9: 9, 10: 10, 12: 11, 11: 11, 16: 13, 13: 13, 15: 13, 14: 13,
    }  # fmt: skip


def test_bracket_tables_use_the_final_partie() -> None:
    """The final plays one deal per partie: a bracket table with one deal is finished (it would
    be pending under the concours partie of 12 deals)."""
    final = {"size": 4, "partie": {"preset": "belote", "deals_limit": 1, "target": None}}
    data = doc(4, rounds=[round_(table(1, 1, 2, (900, 800)), table(2, 3, 4, (700, 600)))],
               final=final)  # fmt: skip
    data["settings"]["rounds"] = 1
    deal = {"taker": 0, "trump": "hearts", "taker_points": 100}
    data["rounds"].append({"stage": "final", "tables": [
        {"table": 1, "sides": [1, 4], "deals": [deal]},
        {"table": 2, "sides": [2, 3], "deals": [deal]},
    ]})  # fmt: skip
    report = standings_report(parse(data))
    assert [t["status"] for t in report["rounds"][1]["tables"]] == ["finished", "finished"]
    assert draw_round(parse(data)).tables[0].sides == ((1,), (2,))
    # Written back unchanged, the final's partie included.
    assert dump_tournament(parse(data)) == data


def test_a_file_with_a_final_round_trips() -> None:
    data = eight()
    data["settings"]["minutes"] = 45
    data["settings"]["final"] = {"third_place": True, "size": 8, "consolation": True}
    assert dump_tournament(parse(data)) == data
    assert json.dumps(dump_tournament(parse(data))) == json.dumps(data)


def refused(data: Any) -> TournamentError:
    with pytest.raises(TournamentError) as caught:
        parse_tournament(copy.deepcopy(data))
    return caught.value


def _edit(played: int, change: Any) -> Doc:
    data = eight(played)
    change(data)
    return data


def _set(path: str, value: Any) -> Any:
    def change(data: Doc) -> None:
        *parents, last = path.split(".")
        node: Any = data
        for key in parents:
            node = node[int(key)] if key.isdigit() else node[key]
        node[int(last) if last.isdigit() else last] = value

    return change


@pytest.mark.parametrize(
    ("data", "path", "code"),
    [
        # Settings.
        (_edit(0, _set("settings.final", {"size": 6})), "settings.final.size", "final_size"),
        (_edit(0, _set("settings.final", {"size": True})), "settings.final.size", "not_integer"),
        (_edit(0, _set("settings.final", {})), "settings.final.size", "required"),
        (
            _edit(0, _set("settings.final", {"size": 4, "consolation": True})),
            "settings.final.consolation",
            "consolation_size",
        ),
        (
            _edit(0, _set("settings.final", {"size": 8, "third": True})),
            "settings.final.third",
            "unknown_key",
        ),
        (
            _edit(0, _set("settings.final", {"size": 8, "partie": {"preset": "tarot"}})),
            "settings.final.partie.preset",
            "unknown_preset",
        ),
        (_edit(0, _set("settings.final", [8])), "settings.final", "not_object"),
        (doc(8, mode="melee", final={"size": 4}), "settings.final", "final_teams_only"),
        (_edit(0, _set("settings.minutes", 0)), "settings.minutes", "out_of_range"),
        (_edit(0, _set("settings.minutes", 601)), "settings.minutes", "out_of_range"),
        (_edit(0, _set("settings.minutes", "45")), "settings.minutes", "not_integer"),
        # A bracket round in place of a qualifying round.
        (_edit(1, _set("rounds.0.stage", "final")), "rounds[0].stage", "bracket_before_qualifying"),
        # A round after the qualifying ones without a stage.
        (_edit(1, lambda d: d["rounds"][1].pop("stage")), "rounds[1].stage", "required"),
        (_edit(1, _set("rounds.1.stage", "semi")), "rounds[1].stage", "choice"),
        (_edit(1, _set("rounds.1.byes", [])), "rounds[1].byes", "not_in_bracket"),
        (_edit(1, _set("rounds.1.withdrawn", [3])), "rounds[1].withdrawn", "not_in_bracket"),
        # The consolation before the main bracket's round 1.
        (_edit(1, _set("rounds.1.stage", "consolation")), "rounds[1].stage", "bracket_stage"),
        # Wrong sides: seed 1 (6) meets seed 8 (9), better seed on side 0.
        (
            _edit(1, _set("rounds.1.tables.0.sides", [9, 6])),
            "rounds[1].tables[0].sides[0]",
            "bracket_side",
        ),
        (
            _edit(1, _set("rounds.1.tables.0.sides", [6, 3])),
            "rounds[1].tables[0].sides[1]",
            "bracket_side",
        ),
        # Semi-finals: the winner of the upper table on side 0.
        (
            _edit(3, _set("rounds.3.tables.1.sides", [1, 5])),
            "rounds[3].tables[1].sides[0]",
            "bracket_side",
        ),
        (
            _edit(1, _set("rounds.1.tables.3.table", 5)),
            "rounds[1].tables[3].table",
            "bracket_table",
        ),
        (
            _edit(1, lambda d: d["rounds"][1]["tables"].pop()),
            "rounds[1].tables",
            "bracket_table_missing",
        ),
        (_edit(1, _set("rounds.1.tables.3.table", 1)), "rounds[1].tables[3].table", "duplicate"),
        # A bracket round while qualifying is not finished.
        (
            _edit(1, lambda d: d["rounds"][0]["tables"][4].pop("totals")),
            "rounds[1]",
            "round_after_pending",
        ),
        # A bracket round while the previous one is not finished.
        (
            _edit(2, lambda d: d["rounds"][1]["tables"][0].pop("totals")),
            "rounds[2]",
            "round_after_pending",
        ),
        # A round more than the bracket has.
        (
            _edit(5, lambda d: d["rounds"].append(bracket_round("final", []))),
            "rounds[6]",
            "bracket_complete",
        ),
        # A stage without a final.
        (_edit(1, lambda d: d["settings"].pop("final")), "rounds[1]", "too_many_rounds"),
        (doc(4, rounds=[{"stage": "final", "tables": []}]), "rounds[0].stage", "no_final"),
    ],
)
def test_what_the_file_refuses(data: Doc, path: str, code: str) -> None:
    error = refused(data)
    assert (error.path, error.code) == (path, code)


def test_too_few_active_teams_for_the_final() -> None:
    data = doc(6, rounds=[round_(table(1, 1, 2, (1, 0)), table(2, 3, 4, (1, 0)),
                                 table(3, 5, 6, (1, 0)))], final={"size": 8})  # fmt: skip
    data["settings"]["rounds"] = 1
    with pytest.raises(TournamentError) as caught:
        draw_round(parse(data))
    error = caught.value
    assert (error.path, error.code, error.params) == (
        "settings.final.size", "too_few_for_final", {"size": 8, "active": 6},
    )  # fmt: skip
    data["rounds"].append(bracket_round("final", [(1, 2, None)]))
    error = refused(data)
    assert (error.path, error.code) == ("rounds[1]", "too_few_for_final")
    state = bracket_state(parse(data | {"rounds": data["rounds"][:1]}))
    assert state is not None and state.short == 6 and state.next is None


def test_withdrawn_teams_are_not_seeded() -> None:
    """6 (first of the standings) withdrew before the (only) qualifying round... it has no
    result; here 6 withdraws before round 2, the last qualifying round: seeds skip it."""
    data = doc(10, rounds=[copy.deepcopy(QUALIFYING)], final={"size": 8})
    second = round_(table(1, 2, 10, (1, 0)), table(2, 4, 8, (1, 0)), table(3, 1, 5, (1, 0)),
                    table(4, 9, 3, (1, 0)), byes=[7], withdrawn=[6])  # fmt: skip
    data["rounds"].append(second)
    data["settings"]["rounds"] = 2
    state = bracket_state(parse(data))
    assert state is not None
    assert 6 not in state.seeds and len(state.seeds) == 8
    # 6 is outside the bracket: placed after it, in qualifying order (it keeps its points).
    assert state.places[6] == 9


def test_no_withdrawal_in_the_bracket() -> None:
    with pytest.raises(TournamentError) as caught:
        draw_round(parse(eight(1)), withdrawn=[3])
    assert (caught.value.path, caught.value.code) == ("withdrawn[0]", "not_in_bracket")


def test_pair_round_draws_the_next_bracket_round(tmp_path: Path) -> None:
    code, out = call("pair_round", str(write(tmp_path, eight(played=1))))
    assert code == 0
    assert out == {
        "round": 3,
        "stage": "consolation",
        "tables": [{"table": 1, "sides": [2, 9]}, {"table": 2, "sides": [10, 8]}],
        "byes": [],
        "rematches": 0,
    }
    code, whole = call("pair_round", str(write(tmp_path, eight(played=1))), "--append")
    assert code == 0
    assert whole["rounds"][-1] == bracket_round("consolation", [(2, 9, None), (10, 8, None)])
    code, out = call("tournament_standings", str(write(tmp_path, eight())))
    assert code == 0
    assert {row["id"]: row["final_place"] for row in out["standings"]} == PLACES
    code, error = call("pair_round", str(write(tmp_path, eight())))
    assert (code, error) == (
        2, {"error": "the final bracket is complete (6 rounds in all)", "path": "rounds"},
    )  # fmt: skip


def test_settings_built_by_the_app_are_written_with_final_and_minutes() -> None:
    """Settings made in code (the app's, no file behind them) write `final` with its size and
    what differs from the defaults, and `minutes`; without them, neither key appears."""
    plain = Settings(seed=1)
    assert "final" not in settings_to_dict(plain) and "minutes" not in settings_to_dict(plain)
    rules = rules_from_dict({"preset": "belote", "deals_limit": 6, "target": None})
    settings = replace(plain, final=Final(8, rules, consolation=True), minutes=30)
    out = settings_to_dict(settings)
    assert out["final"] == {"size": 8, "partie": {"preset": "belote", "target": None, "deals_limit": 6},
                            "consolation": True}  # fmt: skip
    assert out["minutes"] == 30
    again = settings_from_dict(out)
    assert (again.final, again.minutes) == (
        Final(8, rules, True, False, again.final.partie_source if again.final else None,
              ("size", "partie", "consolation")),
        30,
    )  # fmt: skip
    assert again.rules_for("final") == rules and again.rules_for(None) == plain.partie
