"""Where a tie was broken (issue 42): each standings row names the criterion that put it after
the row above when the two were level on every criterion before it (`Standing.tie_break`), so
the pages can say why ranks 2, 3 and 4 with the same points and wins come in that order.
Hand-computed on the examples of test_criteria.py, then a property over random concours."""

from itertools import pairwise

import pytest
from hypothesis import given

from scorekeeper.engine.tournament import standings

from .builders import Doc, doc, parse, round_, table
from .test_criteria import CYCLE, SIX
from .test_properties import CAPPED, concours


def broken(data: Doc) -> list[tuple[int, int, str | None]]:
    return [(row.id, row.rank, row.tie_break) for row in standings(parse(data))]


def cycle(ranking: list[str]) -> Doc:
    data = doc(4, rounds=CYCLE)
    data["settings"]["ranking"] = ranking
    return data


# Two teams on 1000 points (1 and 4, one win each), two on 900 (2 and 3, no win).
LEVEL = [round_(table(1, 1, 2, (1000, 900)), table(2, 3, 4, (900, 1000)))]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # Wins: 5 has 4; 1, 2, 3 have 2 (head to head 2, 1, 0); 6 and 4 have 1 (6 beat 4).
        (
            doc(6, rounds=SIX, ranking=["wins", "head_to_head", "points"]),
            [(5, 1, None), (1, 2, None), (2, 3, "head_to_head"), (3, 4, "head_to_head"),
             (6, 5, None), (4, 6, "head_to_head")],
        ),
        # Without head to head, points order the three on 2 wins: 3050, 2600, 1410.
        (
            doc(6, rounds=SIX, ranking=["wins", "points"]),
            [(5, 1, None), (3, 2, None), (2, 3, "points"), (1, 4, "points"), (4, 5, None),
             (6, 6, "points")],
        ),
        # The cycle: 2 and 3 share rank 1 (nothing broke their tie), 1 is level with them on
        # wins and head to head, and behind on points.
        (
            cycle(["wins", "head_to_head", "points"]),
            [(2, 1, None), (3, 1, None), (1, 3, "points"), (4, 4, None)],
        ),
        # Level on opponents' points and fine Buchholz: the lots decide, and say so.
        (
            doc(6, rounds=SIX, ranking=["opponents_points", "opponents_opponents_wins", "lots"]),
            [(1, 1, None), (6, 2, "lots"), (4, 3, None), (2, 4, "lots"), (5, 5, None),
             (3, 6, "lots")],
        ),
        # Level on points and wins: the difference cannot part them either; the lots can
        # (seed 7: `random.Random("7-lots").shuffle([1, 2, 3, 4])` gives [1, 3, 4, 2]).
        (
            doc(4, rounds=LEVEL, ranking=["points", "wins", "difference", "lots"]),
            [(1, 1, None), (4, 2, "lots"), (3, 3, None), (2, 4, "lots")],
        ),
        (
            doc(4, rounds=LEVEL, ranking=["points", "wins", "difference"]),
            [(1, 1, None), (4, 1, None), (2, 3, None), (3, 3, None)],
        ),
        # No round played: everyone level on everything, one shared rank.
        (doc(3, rounds=[], ranking=["points", "wins"]), [(1, 1, None), (2, 1, None), (3, 1, None)]),
    ],
    ids=["head-to-head", "points", "cycle", "lots", "lots-after-three", "shared", "no-round"],
)  # fmt: skip
def test_the_criterion_that_broke_each_tie(
    data: Doc, expected: list[tuple[int, int, str | None]]
) -> None:
    assert broken(data) == expected


@CAPPED
@given(concours())
def test_a_tie_break_is_the_first_criterion_that_parts_a_row_from_the_one_above(data: Doc) -> None:
    tournament = parse(data)
    ranking = tournament.settings.ranking
    rows = standings(tournament)
    for above, row in pairwise(rows):
        mine, theirs = row.key(ranking), above.key(ranking)
        if row.rank == above.rank:
            assert mine == theirs and row.tie_break is None
        elif row.tie_break is None:
            assert mine[0] > theirs[0]  # apart on the first criterion: no tie to break
        else:
            at = ranking.index(row.tie_break)
            assert at > 0 and mine[:at] == theirs[:at] and mine[at] > theirs[at]
    assert not rows or rows[0].tie_break is None
