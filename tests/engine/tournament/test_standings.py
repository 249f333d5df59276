"""Table results (docs/tournaments.md §2), standings and tie-breaks (§3), byes, late entries and
withdrawals (§4), each rule as a table of cases."""

from fractions import Fraction
from typing import Any

import pytest

from scorekeeper.engine.scoring import parse_deal, rules_from_dict
from scorekeeper.engine.tournament import (
    Table,
    TableResult,
    bye_points,
    round_like_a_deal,
    round_results,
    standing_to_dict,
    standings,
    table_result,
)
from scorekeeper.engine.tournament.settings import ByeRule

from .builders import Doc, doc, parse, round_, table

BELOTE_12 = rules_from_dict({"preset": "belote", "deals_limit": 12, "target": None})
BELOTE_2 = rules_from_dict({"preset": "belote", "deals_limit": 2, "target": None})
BELOTE_1000 = rules_from_dict({"preset": "belote"})
DEAL_90 = {"taker": 0, "trump": "hearts", "taker_points": 90, "belote": [1, 0]}
LITIGE = {"taker": 1, "trump": "clubs", "taker_points": 81}


def deals(*items: dict[str, Any]) -> tuple[Any, ...]:
    return tuple(parse_deal(item) for item in items)


# ---------------------------------------------------------------------------------------------
# §2: a table's result

RESULTS = [
    # (rules, table, expected result)
    ("totals", BELOTE_12, Table(1, ((1,), (2,)), totals=(1712, 1520)),
     TableResult("finished", (1712, 1520), 0)),
    ("totals, side 1 wins", BELOTE_12, Table(1, ((1,), (2,)), totals=(0, 1)),
     TableResult("finished", (0, 1), 1)),
    ("equal totals: a draw", BELOTE_12, Table(1, ((1,), (2,)), totals=(1000, 1000)),
     TableResult("finished", (1000, 1000), "draw")),
    ("not started", BELOTE_12, Table(1, ((1,), (2,))), TableResult("pending", None, None)),
    ("no deal yet", BELOTE_12, Table(1, ((1,), (2,)), deals=()),
     TableResult("pending", (0, 0), None)),
    ("under way", BELOTE_12, Table(1, ((1,), (2,)), deals=deals(DEAL_90)),
     TableResult("pending", (110, 72), None)),
    ("deals limit reached: the engine's winner", BELOTE_2,
     Table(1, ((1,), (2,)), deals=deals(DEAL_90, DEAL_90)),
     TableResult("finished", (220, 144), 0)),
    # 90 + 20 belote and 72; then a litige: the defence's 81 scored, the takers' 81 held; the
    # partie ends with the reserve still held: it is lost.
    ("a litige reserve lost at the end", BELOTE_2,
     Table(1, ((1,), (2,)), deals=deals(DEAL_90, LITIGE)),
     TableResult("finished", (191, 72), 0, reserve_lost=81)),
    ("time called on a partie to a target", BELOTE_1000,
     Table(1, ((1,), (2,)), deals=deals(DEAL_90, LITIGE), ended=True),
     TableResult("finished", (191, 72), 0, reserve_lost=81)),
    ("time called, side 1 ahead", BELOTE_1000,
     Table(1, ((1,), (2,)), deals=deals({"taker": 1, "trump": "spades", "taker_points": 100}),
           ended=True),
     TableResult("finished", (62, 100), 1)),
    ("time called on equal totals: a draw", BELOTE_1000,
     Table(1, ((1,), (2,)), deals=deals(), ended=True),
     TableResult("finished", (0, 0), "draw")),
    ("not ended: a partie to a target goes on", BELOTE_1000,
     Table(1, ((1,), (2,)), deals=deals(DEAL_90, LITIGE), ended=False),
     TableResult("pending", (191, 72), None)),
]  # fmt: skip


@pytest.mark.parametrize(("rules", "table_", "expected"), [r[1:] for r in RESULTS],
                         ids=[r[0] for r in RESULTS])  # fmt: skip
def test_table_result(rules: Any, table_: Table, expected: TableResult) -> None:
    assert table_result(rules, table_) == expected


def test_a_finished_partie_with_deals_uses_the_engines_winner() -> None:
    # Coinche to 1000 (target reached on the first deal): the engine decides, not the time.
    rules = rules_from_dict({"preset": "coinche", "target": 1000})
    capot = {"taker": 0, "contract": 160, "trump": "spades", "coinche": "surcoinche", "capot": 0}
    result = table_result(rules, Table(1, ((1,), (2,)), deals=deals(capot)))
    assert (result.status, result.winner) == ("finished", 0)


# ---------------------------------------------------------------------------------------------
# §3: standings and each criterion

# Four teams, two rounds:   team  won  points  conceded  diff  best  opp_wins
#  R1: 1-2 1000:500            1    1    1600      1200    400  1000   3 (2 and 3)
#      3-4  800:790            2    1    1700      1400    300  1200   1 (1 and 4)
#  R2: 1-3  600:700            3    2    1500      1390    110   800   1 (4 and 1)
#      2-4 1200:400            4    0    1190      2000   -810   790   3 (3 and 2)
FOUR = [
    round_(table(1, 1, 2, (1000, 500)), table(2, 3, 4, (800, 790))),
    round_(table(1, 1, 3, (600, 700)), table(2, 2, 4, (1200, 400))),
]


def four(**settings: Any) -> Doc:
    return doc(4, rounds=FOUR, **settings)


def test_every_figure() -> None:
    rows = {row.id: standing_to_dict(row) for row in standings(parse(four()))}
    figures = ["played", "won", "drawn", "lost", "byes", "wins", "points", "conceded",
               "difference", "best_partie", "opponents_wins", "withdrawn"]  # fmt: skip
    assert {i: [row[f] for f in figures] for i, row in rows.items()} == {
        1: [2, 1, 0, 1, 0, 1, 1600, 1200, 400, 1000, 3, False],
        2: [2, 1, 0, 1, 0, 1, 1700, 1400, 300, 1200, 1, False],
        3: [2, 2, 0, 0, 0, 2, 1500, 1390, 110, 800, 1, False],
        4: [2, 0, 0, 2, 0, 0, 1190, 2000, -810, 790, 3, False],
    }
    assert list(rows[1]) == ["rank", "id", "name", *figures[:-1], "withdrawn"]


CRITERIA = [
    # (ranking, ids in order, their ranks)
    (["points"], [2, 1, 3, 4], [1, 2, 3, 4]),
    (["wins"], [3, 1, 2, 4], [1, 2, 2, 4]),
    (["difference"], [1, 2, 3, 4], [1, 2, 3, 4]),
    (["best_partie"], [2, 1, 3, 4], [1, 2, 3, 4]),
    (["opponents_wins"], [1, 4, 2, 3], [1, 1, 3, 3]),
    (["conceded"], [1, 3, 2, 4], [1, 2, 3, 4]),
    (["wins", "points"], [3, 2, 1, 4], [1, 2, 3, 4]),
    (["wins", "conceded"], [3, 1, 2, 4], [1, 2, 3, 4]),
    (["opponents_wins", "conceded"], [1, 4, 3, 2], [1, 2, 3, 4]),
    (["opponents_wins", "wins", "difference"], [1, 4, 3, 2], [1, 2, 3, 4]),
    (["points", "wins", "difference", "best_partie"], [2, 1, 3, 4], [1, 2, 3, 4]),
]


@pytest.mark.parametrize(("ranking", "ids", "ranks"), CRITERIA)
def test_each_criterion_in_any_order(ranking: list[str], ids: list[int], ranks: list[int]) -> None:
    rows = standings(parse(four(ranking=ranking)))
    assert [(row.id, row.rank) for row in rows] == list(zip(ids, ranks, strict=True))


def test_entrants_equal_on_every_criterion_share_a_rank_listed_by_id() -> None:
    data = doc(6, rounds=[round_(table(1, 5, 2, (900, 900)), table(2, 6, 3, (1000, 800)),
                                 table(3, 1, 4, (900, 900)))])  # fmt: skip
    rows = standings(parse(data))
    # 6 first; 1, 2, 4, 5 all 900 points, a draw (0.5 win), 900 conceded: shared 2nd, by id.
    assert [(row.id, row.rank) for row in rows] == [(6, 1), (1, 2), (2, 2), (4, 2), (5, 2), (3, 6)]
    assert standing_to_dict(rows[1])["wins"] == 0.5
    assert (rows[1].drawn, rows[1].won, rows[1].lost) == (1, 0, 0)


def test_half_wins_and_opponents_wins() -> None:
    data = doc(4, rounds=[round_(table(1, 1, 2, (500, 500)), table(2, 3, 4, (900, 100))),
                          round_(table(1, 3, 1, (500, 600)), table(2, 4, 2, (300, 300)))])  # fmt: skip
    rows = {row.id: standing_to_dict(row) for row in standings(parse(data))}
    assert [rows[i]["wins"] for i in (1, 2, 3, 4)] == [1.5, 1, 1, 0.5]
    # 1 met 2 (1) and 3 (1): 2; 2 met 1 (1.5) and 4 (0.5): 2; 4 met 3 and 2: 2; 3 met 4, 1: 2.
    assert [rows[i]["opponents_wins"] for i in (1, 2, 3, 4)] == [2, 2, 2, 2]
    assert isinstance(rows[2]["wins"], int)


def test_a_pending_table_counts_for_nothing_yet() -> None:
    data = doc(4, rounds=[round_(table(1, 1, 2, (900, 800)), table(2, 3, 4, deals=[DEAL_90]))])
    rows = {row.id: row for row in standings(parse(data))}
    assert (rows[3].played, rows[3].points, rows[3].conceded) == (0, 0, 0)
    assert rows[1].played == 1


def test_withdrawn_entrants_keep_their_results_and_place() -> None:
    rounds = [FOUR[0], round_(table(1, 1, 3, (600, 700)), byes=[2], withdrawn=[4])]
    rows = standings(parse(doc(4, rounds=rounds, bye={"points": 0})))
    assert [(row.id, row.withdrawn) for row in rows] == [
        (1, False),
        (3, False),
        (4, True),
        (2, False),
    ]
    four_ = rows[2]
    assert (four_.played, four_.points, four_.lost) == (1, 790, 1)


def test_a_late_entrant_starts_from_zero() -> None:
    data = doc(5, rounds=FOUR[:1], bye={"points": 0})
    data["entrants"][4]["from_round"] = 2
    tournament = parse(data)
    rows = {row.id: row for row in standings(tournament)}
    assert (rows[5].played, rows[5].points, rows[5].byes, rows[5].rank) == (0, 0, 0, 5)
    assert tournament.active(1) == [1, 2, 3, 4] and tournament.active(2) == [1, 2, 3, 4, 5]


def test_melee_players_get_their_sides_result() -> None:
    data = doc(8, mode="melee", rounds=[
        round_(table(1, [1, 2], [3, 4], (900, 700)), table(2, [5, 6], [7, 8], (800, 800))),
        round_(table(1, [1, 3], [5, 7], (600, 500)), table(2, [2, 4], [6, 8], (100, 1000))),
    ])  # fmt: skip
    rows = {row.id: standing_to_dict(row) for row in standings(parse(data))}
    assert (rows[1]["points"], rows[1]["won"], rows[1]["conceded"]) == (1500, 2, 1200)
    assert (rows[2]["points"], rows[2]["won"], rows[2]["lost"]) == (1000, 1, 1)
    # 1 met 3, 4 (round 1) and 5, 7 (round 2): wins 3: 1 (won r2), 4: 0, 5: 0.5, 7: 0.5.
    assert rows[3]["wins"] == 1 and rows[5]["wins"] == 0.5
    assert rows[1]["opponents_wins"] == 1 + 0 + 0.5 + 0.5


# ---------------------------------------------------------------------------------------------
# §4: byes


@pytest.mark.parametrize(
    ("rounding", "value", "expected"),
    [
        ("none", Fraction(3394, 4), 849),  # 848.5: halves up
        ("none", Fraction(8483, 10), 848),
        ("none", Fraction(1000), 1000),
        ("half_up", Fraction(1235), 1240),
        ("half_up", Fraction(2469, 2), 1230),  # 1234.5 is nearer 1230
        ("half_up", Fraction(1234), 1230),
        ("half_down", Fraction(1235), 1230),
        ("half_down", Fraction(2471, 2), 1240),  # 1235.5
    ],
)
def test_average_bye_points_are_rounded_like_a_deal(
    rounding: str, value: Fraction, expected: int
) -> None:
    rules = rules_from_dict({"preset": "coinche" if rounding != "none" else "belote",
                             **({"rounding": rounding} if rounding != "none" else {})})  # fmt: skip
    assert round_like_a_deal(value, rules) == expected


BYE_CASES = [
    # (bye setting, expected (points, wins, won) of the bye team 5)
    ({"points": "average", "win": False}, (849, 0, 0)),  # (1712 + 1520 + 92 + 70) / 4 = 848.5
    ({"points": "average", "win": True}, (849, 1, 0)),
    ({"points": 1500, "win": False}, (1500, 0, 0)),
    ({"points": 0, "win": True}, (0, 1, 0)),
    ({}, (849, 0, 0)),  # the defaults: average, not a win
]


@pytest.mark.parametrize(("bye", "expected"), BYE_CASES)
def test_each_bye_setting(bye: dict[str, Any], expected: tuple[int, int, int]) -> None:
    data = doc(5, bye=bye, rounds=[
        round_(table(1, 1, 2, (1712, 1520)), table(2, 3, 4, (92, 70)), byes=[5])
    ])  # fmt: skip
    row = next(row for row in standings(parse(data)) if row.id == 5)
    assert (row.points, row.wins, row.won) == expected
    assert (row.byes, row.played, row.lost, row.drawn, row.conceded) == (1, 0, 0, 0, 0)


def test_average_bye_counts_finished_tables_only_and_is_zero_before() -> None:
    rules = BELOTE_12
    pending = TableResult("pending", (500, 100), None)
    assert bye_points(ByeRule(), rules, [pending]) == 0
    assert bye_points(ByeRule(), rules, []) == 0
    finished = TableResult("finished", (1000, 600), 0)
    assert bye_points(ByeRule(), rules, [pending, finished]) == 800
    data = doc(5, rounds=[round_(table(1, 1, 2, (1000, 600)), table(2, 3, 4, deals=[DEAL_90]),
                                 byes=[5])])  # fmt: skip
    tournament = parse(data)
    assert round_results(tournament)[0].bye_points == 800
