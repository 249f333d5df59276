"""The four ranking criteria added by issue 26 (docs/tournaments.md §3): `opponents_points`,
`opponents_opponents_wins` (fine Buchholz), `head_to_head` and `lots`, hand-computed; the
standings output adds each of these figures that `ranking` uses, and only those."""

import random
from typing import Any

import pytest

from scorekeeper.engine.tournament import lots_order, standing_to_dict, standings, standings_report

from .builders import Doc, doc, parse, round_, table

# Six teams, four rounds, no rematch (docs/tournaments.md §3, the head-to-head example).
# Wins: 5 has 4; 1, 2 and 3 have 2 each; 4 and 6 have 1 each.
# Among 1, 2, 3: 1 beat 2 (round 1) and 3 (round 3), 2 beat 3 (round 2): head to head 2, 1, 0.
# Points: 1: 600+100+610+100 = 1410; 2: 500+700+900+500 = 2600; 3: 900+650+600+900 = 3050;
# 4: 800+800+800+900 = 3300; 5: 700+900+900+900 = 3400; 6: 100+810+100+100 = 1110.
# 6 beat 4 (round 2): between them head to head 1, 0.
SIX = [
    round_(table(1, 1, 2, (600, 500)), table(2, 3, 4, (900, 800)), table(3, 5, 6, (700, 100))),
    round_(table(1, 2, 3, (700, 650)), table(2, 1, 5, (100, 900)), table(3, 4, 6, (800, 810))),
    round_(table(1, 1, 3, (610, 600)), table(2, 2, 6, (900, 100)), table(3, 4, 5, (800, 900))),
    round_(table(1, 3, 6, (900, 100)), table(2, 1, 4, (100, 900)), table(3, 2, 5, (500, 900))),
]

# Four teams, everyone met everyone: a cycle 1 > 2 > 3 > 1 and each beat 4. Points: 1: 1750,
# 2: 2200, 3: 2200, 4: 1300.
CYCLE = [
    round_(table(1, 1, 2, (600, 500)), table(2, 3, 4, (700, 100))),
    round_(table(1, 2, 3, (900, 800)), table(2, 1, 4, (550, 500))),
    round_(table(1, 3, 1, (700, 600)), table(2, 2, 4, (800, 700))),
]


def ranked(data: Doc) -> list[tuple[int, int]]:
    return [(row.id, row.rank) for row in standings(parse(data))]


def figures(data: Doc, name: str) -> dict[int, Any]:
    return {row["id"]: row[name] for row in standings_report(parse(data))["standings"]}


def test_the_six_teams_without_head_to_head() -> None:
    data = doc(6, rounds=SIX, ranking=["wins", "points"])
    assert ranked(data) == [(5, 1), (3, 2), (2, 3), (1, 4), (4, 5), (6, 6)]


def test_head_to_head_in_a_group_of_three() -> None:
    """1, 2 and 3 are equal on wins: head to head orders them 1, 2, 3 although points would
    order them 3, 2, 1; 4 and 6 are equal on wins too, and 6 beat 4."""
    data = doc(6, rounds=SIX, ranking=["wins", "head_to_head", "points"])
    assert ranked(data) == [(5, 1), (1, 2), (2, 3), (3, 4), (6, 5), (4, 6)]
    # The figure is each member's wins against its own group (5 is alone: 0).
    assert figures(data, "head_to_head") == {5: 0, 1: 2, 2: 1, 3: 0, 6: 1, 4: 0}


def test_criteria_after_head_to_head_apply_inside_the_groups_it_leaves() -> None:
    """A cycle: 1, 2 and 3 each have 1 win against the others, still equal; points then order
    them: 2 and 3 (2200 each) share rank 1 (head to head is applied once: 2 beat 3, but it is not
    applied again inside {2, 3}), 1 is third."""
    data = doc(4, rounds=CYCLE)
    data["settings"]["ranking"] = ["wins", "head_to_head", "points"]
    assert ranked(data) == [(2, 1), (3, 1), (1, 3), (4, 4)]
    assert figures(data, "head_to_head") == {2: 1, 3: 1, 1: 1, 4: 0}


def test_a_group_whose_members_never_met_stays_equal() -> None:
    # 1 and 3 won, 2 and 4 lost: neither pair met; points (1000, 950 / 900, 850) decide.
    data = doc(4, rounds=[round_(table(1, 1, 2, (1000, 900)), table(2, 3, 4, (950, 850)))])
    data["settings"]["ranking"] = ["wins", "head_to_head", "points"]
    assert ranked(data) == [(1, 1), (3, 2), (2, 3), (4, 4)]
    assert figures(data, "head_to_head") == {1: 0, 3: 0, 2: 0, 4: 0}
    data["settings"]["ranking"] = ["wins", "head_to_head"]
    assert ranked(data) == [(1, 1), (3, 1), (2, 3), (4, 3)]


def test_head_to_head_first_counts_every_partie() -> None:
    """With nothing before it, everyone is one group: each entrant's wins (byes aside)."""
    data = doc(6, rounds=SIX, ranking=["head_to_head"])
    assert figures(data, "head_to_head") == {1: 2, 2: 2, 3: 2, 4: 1, 5: 4, 6: 1}


def test_lots_with_seed_7() -> None:
    """`random.Random("7-lots").shuffle([1, 2, 3, 4, 5, 6])`: Python's shuffle swaps item i with
    item `_randbelow(i + 1)` for i = 5 … 1, here j = 1, 2, 2, 1, 0:
    [1, 2, 3, 4, 5, 6] → [1, 6, 3, 4, 5, 2] → [1, 6, 5, 4, 3, 2] → [1, 6, 4, 5, 3, 2]
    → [1, 4, 6, 5, 3, 2] → [4, 1, 6, 5, 3, 2]: positions 4: 1, 1: 2, 6: 3, 5: 4, 3: 5, 2: 6."""
    expected = {4: 1, 1: 2, 6: 3, 5: 4, 3: 5, 2: 6}
    assert lots_order(7, [1, 2, 3, 4, 5, 6]) == expected
    shuffled = [1, 2, 3, 4, 5, 6]
    random.Random("7-lots").shuffle(shuffled)
    assert shuffled == [4, 1, 6, 5, 3, 2]
    # 2, 3 and 6 won with equal totals, 1, 4 and 5 lost: lots orders each group, never shared.
    data = doc(6, rounds=[round_(table(1, 1, 2, (900, 1000)), table(2, 3, 4, (1000, 900)),
                                 table(3, 5, 6, (900, 1000)))])  # fmt: skip
    data["settings"]["ranking"] = ["wins", "lots"]
    assert ranked(data) == [(6, 1), (3, 2), (2, 3), (4, 4), (1, 5), (5, 6)]
    assert figures(data, "lots") == expected
    data["settings"]["ranking"] = ["lots"]
    assert ranked(data) == [(4, 1), (1, 2), (6, 3), (5, 4), (3, 5), (2, 6)]


def test_lots_counts_every_entrant_of_the_file() -> None:
    """Ids need not be 1 … n: the ascending list of all ids (a late entrant too) is shuffled."""
    order = [3, 10, 42, 7]
    shuffled = sorted(order)
    random.Random("-5-lots").shuffle(shuffled)
    assert lots_order(-5, order) == {entrant: i for i, entrant in enumerate(shuffled, start=1)}


def test_opponents_points_and_fine_buchholz() -> None:
    """Six teams of SIX. Opponents met: 1: 2, 5, 3, 4; 2: 1, 3, 6, 5; 3: 4, 2, 1, 6;
    4: 3, 6, 5, 1; 5: 6, 1, 4, 2; 6: 5, 4, 2, 3.
    opponents_points: 1: 2600+3400+3050+3300 = 12350; 2: 1410+3050+1110+3400 = 8970;
    3: 3300+2600+1410+1110 = 8420; 4: 3050+1110+3400+1410 = 8970; 5: 1110+1410+3300+2600 = 8420;
    6: 3400+3300+2600+3050 = 12350.
    opponents_wins (wins 1: 2, 2: 2, 3: 2, 4: 1, 5: 4, 6: 1): 1: 2+4+2+1 = 9; 2: 2+2+1+4 = 9;
    3: 1+2+2+1 = 6; 4: 2+1+4+2 = 9; 5: 1+2+1+2 = 6; 6: 4+1+2+2 = 9.
    opponents_opponents_wins: 1: 9+6+6+9 = 30; 2: 9+6+9+6 = 30; 3: 9+9+9+9 = 36;
    4: 6+9+6+9 = 30; 5: 9+9+9+9 = 36; 6: 6+9+9+6 = 30."""
    data = doc(6, rounds=SIX, ranking=["opponents_points", "opponents_opponents_wins", "lots"])
    assert figures(data, "opponents_points") == {
        1: 12350, 2: 8970, 3: 8420, 4: 8970, 5: 8420, 6: 12350,
    }  # fmt: skip
    assert figures(data, "opponents_wins") == {1: 9, 2: 9, 3: 6, 4: 9, 5: 6, 6: 9}
    assert figures(data, "opponents_opponents_wins") == {1: 30, 2: 30, 3: 36, 4: 30, 5: 36, 6: 30}
    # 1 and 6 tie on both (12350, 30): lots (seed 7) puts 1 (2nd) before 6 (3rd); then 4 (1st)
    # before 2 (6th) at 8970/30; then 3 and 5 at 8420/36: 5 (4th) before 3 (5th).
    assert ranked(data) == [(1, 1), (6, 2), (4, 3), (2, 4), (5, 5), (3, 6)]


def test_fine_buchholz_counts_halves_and_melee_sides() -> None:
    """Mêlée: both players of the other side count. Round 1: [1, 2] drew [3, 4]; each has 0.5
    win, so opponents_wins 1 each, and opponents_opponents_wins 2 each; opponents_points 2000."""
    data = doc(4, mode="melee", rounds=[round_(table(1, [1, 2], [3, 4], (1000, 1000)))])
    data["settings"]["ranking"] = ["opponents_opponents_wins", "opponents_points"]
    assert figures(data, "opponents_wins") == {1: 1, 2: 1, 3: 1, 4: 1}
    assert figures(data, "opponents_opponents_wins") == {1: 2, 2: 2, 3: 2, 4: 2}
    assert figures(data, "opponents_points") == {1: 2000, 2: 2000, 3: 2000, 4: 2000}
    data["rounds"].append(round_(table(1, [1, 3], [2, 4], (1000, 500))))
    # Round 2: 1 and 3 won. Wins: 1: 1.5, 2: 0.5, 3: 1.5, 4: 0.5. 1 met 3, 4, 2, 4:
    # opponents_wins 1.5 + 0.5 + 0.5 + 0.5 = 3.
    assert figures(data, "opponents_wins")[1] == 3
    assert figures(data, "opponents_opponents_wins")[1] != 0


@pytest.mark.parametrize(
    ("ranking", "extra"),
    [
        (["points"], []),
        (["lots", "points"], ["lots"]),
        (["head_to_head", "opponents_points"], ["opponents_points", "head_to_head"]),
        (
            ["lots", "head_to_head", "opponents_opponents_wins", "opponents_points"],
            ["opponents_points", "opponents_opponents_wins", "head_to_head", "lots"],
        ),
    ],
)
def test_the_output_adds_the_figures_ranking_uses(ranking: list[str], extra: list[str]) -> None:
    data = doc(6, rounds=SIX, ranking=ranking)
    row = standing_to_dict(standings(parse(data))[0])  # without the ranking: the §3 figures
    assert "lots" not in row and "head_to_head" not in row
    keys = list(standings_report(parse(data))["standings"][0])
    base = ["rank", "id", "name", "played", "won", "drawn", "lost", "byes", "wins", "points",
            "conceded", "difference", "best_partie", "opponents_wins"]  # fmt: skip
    assert keys == [*base, *extra, "withdrawn"]
