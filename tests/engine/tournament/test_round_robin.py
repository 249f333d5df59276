"""Round robin (docs/tournaments.md §7, `pairing: "round_robin"`): the circle-method schedule written
out by hand, byes, withdrawals, what the file and the draw refuse, and `pair_round`."""

import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.engine.tournament import (
    TournamentError,
    append_round,
    draw_round,
    dump_tournament,
    max_rounds,
    parse_tournament,
    schedule_round,
)

from .builders import Doc, doc, parse, round_, table
from .test_commands import call, write

# Six teams: L = [1, 2, 3, 4, 5, 6]; each round pairs L[0]–L[5], L[1]–L[4], L[2]–L[3], then L
# keeps 1 and moves its last element to position 1:
# round 1 [1, 2, 3, 4, 5, 6]: 1–6, 2–5, 3–4
# round 2 [1, 6, 2, 3, 4, 5]: 1–5, 6–4, 2–3
# round 3 [1, 5, 6, 2, 3, 4]: 1–4, 5–3, 6–2
# round 4 [1, 4, 5, 6, 2, 3]: 1–3, 4–2, 5–6
# round 5 [1, 3, 4, 5, 6, 2]: 1–2, 3–6, 4–5
SIX = [
    [(1, 6), (2, 5), (3, 4)],
    [(1, 5), (6, 4), (2, 3)],
    [(1, 4), (5, 3), (6, 2)],
    [(1, 3), (4, 2), (5, 6)],
    [(1, 2), (3, 6), (4, 5)],
]

# Five teams: L = [1, 2, 3, 4, 5, None]; the partner of None has the bye, the tables are
# renumbered from 1 skipping it:
# round 1 [1, 2, 3, 4, 5, -]: 1 bye, 2–5, 3–4
# round 2 [1, -, 2, 3, 4, 5]: 1–5, 4 bye, 2–3
# round 3 [1, 5, -, 2, 3, 4]: 1–4, 5–3, 2 bye
# round 4 [1, 4, 5, -, 2, 3]: 1–3, 4–2, 5 bye
# round 5 [1, 3, 4, 5, -, 2]: 1–2, 3 bye, 4–5
FIVE = [
    ([(2, 5), (3, 4)], [1]),
    ([(1, 5), (2, 3)], [4]),
    ([(1, 4), (5, 3)], [2]),
    ([(1, 3), (4, 2)], [5]),
    ([(1, 2), (4, 5)], [3]),
]


def robin(teams: int, rounds: int, played: list[Doc] | None = None, **extra: Any) -> Doc:
    data = doc(teams, rounds=played or [], pairing="round_robin", **extra)
    data["settings"]["rounds"] = rounds
    return data


def finish(data: Doc) -> Doc:
    """Every table of the last round finished: side 0 wins 1000 to 900."""
    for item in data["rounds"][-1]["tables"]:
        item.setdefault("totals", [1000, 900])
    return data


def play_all(data: Doc) -> list[tuple[list[tuple[int, int]], list[int]]]:
    """Draw and finish every planned round; each round's pairs and byes."""
    out = []
    for _ in range(data["settings"]["rounds"]):
        tournament = parse(data)
        drawn = draw_round(tournament)
        data = finish(dump_tournament(append_round(tournament, drawn)))
        pairs = [(t.sides[0][0], t.sides[1][0]) for t in drawn.tables]
        assert [t.number for t in drawn.tables] == list(range(1, len(pairs) + 1))
        out.append((pairs, list(drawn.byes)))
    return out


def test_six_teams_schedule() -> None:
    assert play_all(robin(6, 5)) == [(pairs, []) for pairs in SIX]
    assert [schedule_round([1, 2, 3, 4, 5, 6], k).pairs for k in range(1, 6)] == [
        tuple(pairs) for pairs in SIX
    ]


def test_five_teams_schedule_with_byes() -> None:
    assert play_all(robin(5, 5)) == FIVE


def test_fewer_rounds_play_the_first_of_the_schedule() -> None:
    assert play_all(robin(6, 3)) == [(pairs, []) for pairs in SIX[:3]]


def test_ids_are_taken_in_ascending_order() -> None:
    entrants = [{"id": i, "name": f"T{i}", "players": ["a", "b"]} for i in (40, 7, 12, 3)]
    data = robin(4, 3, entrants=entrants)
    # L = [3, 7, 12, 40]: 3–40, 7–12; [3, 40, 7, 12]: 3–12, 40–7; [3, 12, 40, 7]: 3–7, 12–40.
    assert [pairs for pairs, _ in play_all(data)] == [
        [(3, 40), (7, 12)], [(3, 12), (40, 7)], [(3, 7), (12, 40)],
    ]  # fmt: skip


def test_a_withdrawn_team_leaves_its_opponent_on_a_bye() -> None:
    """Six teams; 5 withdraws before round 2, where it would have met 1: 1 has the bye (the
    round's average, §4), the other tables keep the schedule, renumbered from 1."""
    data = finish(robin(6, 5, [round_(*(table(i + 1, a, b) for i, (a, b) in enumerate(SIX[0])))]))
    drawn = draw_round(parse(data), withdrawn=[5])
    assert [(t.number, t.sides) for t in drawn.tables] == [(1, ((6,), (4,))), (2, ((2,), (3,)))]
    assert drawn.byes == (1,) and drawn.withdrawn == (5,)
    # Written and read back, the round is valid, and so is round 3 (1–4, 3 bye, 6–2).
    data = finish(dump_tournament(append_round(parse(data), drawn)))
    third = draw_round(parse(data))
    assert [(t.number, t.sides) for t in third.tables] == [(1, ((1,), (4,))), (2, ((6,), (2,)))]
    assert third.byes == (3,)


def test_two_withdrawn_teams_paired_leave_nobody() -> None:
    data = finish(robin(6, 5, [round_(*(table(i + 1, a, b) for i, (a, b) in enumerate(SIX[0])))]))
    drawn = draw_round(parse(data), withdrawn=[1, 5])
    assert [(t.sides[0][0], t.sides[1][0]) for t in drawn.tables] == [(6, 4), (2, 3)]
    assert drawn.byes == ()


def test_max_rounds() -> None:
    """n − 1, n counting the bye of an odd number of teams: 3 teams play 3 rounds (one bye
    each)."""
    assert [max_rounds(n) for n in (2, 3, 4, 5, 6, 9, 10)] == [1, 3, 3, 5, 5, 9, 9]


def round_of(pairs: list[tuple[int, int]], byes: list[int] | None = None) -> Doc:
    return round_(*(table(i + 1, a, b, (1000, 900)) for i, (a, b) in enumerate(pairs)), byes=byes)


def refused(data: Doc) -> TournamentError:
    with pytest.raises(TournamentError) as caught:
        parse_tournament(json.loads(json.dumps(data)))
    return caught.value


@pytest.mark.parametrize(
    ("data", "path", "code"),
    [
        (doc(8, mode="melee", pairing="round_robin"), "settings.pairing", "round_robin_teams_only"),
        # Four teams play at most 3 rounds: refused once the file holds a round.
        (robin(4, 4, [round_of([(1, 4), (2, 3)])]), "settings.rounds", "round_robin_rounds"),
        (robin(5, 6, [round_of(FIVE[0][0], [1])]), "settings.rounds", "round_robin_rounds"),
        # A late entry.
        (
            robin(
                4,
                3,
                entrants=[
                    *doc(3)["entrants"],
                    {"id": 4, "name": "L", "players": ["a", "b"], "from_round": 2},
                ],
            ),
            "entrants[3].from_round",
            "round_robin_late_entry",
        ),
        # Round 1 of six teams is 1–6, 2–5, 3–4.
        (
            robin(6, 5, [round_of([(1, 6), (2, 4), (3, 5)])]),
            "rounds[0].tables[1].sides[1]",
            "round_robin_opponent",
        ),
        # Round 2 after the right round 1: 1–5, 6–4, 2–3.
        (
            robin(6, 5, [round_of(SIX[0]), round_of([(1, 5), (6, 3), (2, 4)])]),
            "rounds[1].tables[1].sides[1]",
            "round_robin_opponent",
        ),
        # Five teams, round 1: 1 has the bye, not 2.
        (
            robin(5, 4, [round_of([(1, 5), (3, 4)], [2])]),
            "rounds[0].tables[0].sides[0]",
            "round_robin_bye",
        ),
        # Five teams, 5 withdrawn before round 1: its opponent 2 has a bye too, not a table.
        (
            robin(5, 4, [{**round_of([(2, 4)], [1, 3]), "withdrawn": [5]}]),
            "rounds[0].tables[0].sides[0]",
            "round_robin_bye",
        ),
        (
            robin(5, 4, [{**round_of([(3, 4)], [1, 2, 5]), "withdrawn": []}]),
            "rounds[0].byes[1]",
            "round_robin_not_bye",
        ),
    ],
)
def test_what_the_file_refuses(data: Doc, path: str, code: str) -> None:
    error = refused(data)
    assert (error.path, error.code) == (path, code)


def test_tables_may_be_renumbered_and_sides_swapped() -> None:
    """The schedule fixes who meets whom and who sits out, not table numbers or seats."""
    data = robin(6, 5, [round_(table(3, 6, 1, (900, 1000)), table(1, 4, 3, (1, 0)),
                               table(2, 5, 2, (1, 0)))])  # fmt: skip
    assert len(parse(data).rounds) == 1


def test_withdrawn_opponents_in_a_file() -> None:
    data = robin(5, 4, [{**round_of([(3, 4)], [1, 2]), "withdrawn": [5]}])
    assert parse(data).rounds[0].byes == (1, 2)


def test_the_draw_refuses_too_many_rounds_before_round_one() -> None:
    """A file without a round is valid (registration may not be over); the draw refuses."""
    data = robin(4, 4)
    tournament = parse(data)
    with pytest.raises(TournamentError) as caught:
        draw_round(tournament)
    assert (caught.value.path, caught.value.code) == ("settings.rounds", "round_robin_rounds")
    assert caught.value.params == {"max": 3, "teams": 4}


def test_pair_round_draws_round_robin_rounds(tmp_path: Path) -> None:
    data = robin(5, 5, [round_of(FIVE[0][0], [1])])
    code, out = call("pair_round", str(write(tmp_path, data)))
    assert code == 0
    assert out == {
        "round": 2,
        "tables": [{"table": 1, "sides": [1, 5]}, {"table": 2, "sides": [2, 3]}],
        "byes": [4],
        "rematches": 0,
    }
    code, whole = call("pair_round", str(write(tmp_path, data)), "--append", "--withdraw", "5")
    assert code == 0
    assert whole["rounds"][-1] == {
        "tables": [{"table": 1, "sides": [2, 3]}],
        "byes": [1, 4],
        "withdrawn": [5],
    }
    code, error = call("pair_round", str(write(tmp_path, robin(3, 4))))
    assert code == 2
    assert error == {"error": "a round robin of 3 teams has at most 3 rounds",
                     "path": "settings.rounds"}  # fmt: skip
