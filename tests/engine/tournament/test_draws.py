"""Drawing a round (docs/tournaments.md §5) and who sits out (§4): the random source, round 1, Swiss,
random pairing, mêlée, table numbers, rematches a draw cannot avoid, and when a round cannot be
drawn."""

import hashlib
from typing import Any

import pytest

from scorekeeper.engine.tournament import (
    DrawRandom,
    TournamentError,
    choose_byes,
    draw_report,
    draw_round,
    min_cost_pairs,
    pairing_cost,
    standings,
)

from .builders import doc, parse, round_, table

# ---------------------------------------------------------------------------------------------
# The random source: documented, so these numbers never change

SHUFFLE_7_1 = [1, 2, 5, 6, 7, 9, 8, 3, 0, 4]


def test_the_random_source_is_the_documented_one() -> None:
    digests = [hashlib.sha256(f"belote-tournament/1 7 1 {b}".encode()).digest() for b in (0, 1)]
    expected = [int.from_bytes(d[i : i + 8], "big") for d in digests for i in (0, 8, 16, 24)]
    source = DrawRandom(7, 1)
    assert [source.number() for _ in range(8)] == expected
    assert expected[0] == 8393893051760191624


def test_the_shuffle_is_pinned() -> None:
    # Fisher-Yates from the last item with below(): these lists are part of the format.
    assert DrawRandom(7, 1).shuffle(range(10)) == SHUFFLE_7_1
    assert DrawRandom(-5, 3).shuffle(list(range(1, 13))) == [8, 10, 7, 4, 6, 12, 3, 5, 2, 1, 9, 11]


def test_below_is_unbiased_and_in_range() -> None:
    rng = DrawRandom(1, 1)
    counts = [0] * 3
    for _ in range(3000):
        counts[rng.below(3)] += 1
    assert all(900 < count < 1100 for count in counts)
    with pytest.raises(ValueError):
        rng.below(0)


# ---------------------------------------------------------------------------------------------
# Round 1 and random pairing


def test_round_one_pairs_the_random_order_and_the_last_sit_out() -> None:
    tournament = parse(doc(7, seed=99))
    draw = draw_round(tournament)
    order = DrawRandom(99, 1).shuffle([1, 2, 3, 4, 5, 6, 7])
    assert draw.byes == (order[6],)
    assert [t.sides for t in draw.tables] == [
        ((order[0],), (order[1],)), ((order[2],), (order[3],)), ((order[4],), (order[5],)),
    ]  # fmt: skip
    assert [t.number for t in draw.tables] == [1, 2, 3]
    assert draw_report(draw, melee=False) == {
        "round": 1,
        "tables": [{"table": i + 1, "sides": [order[2 * i], order[2 * i + 1]]} for i in range(3)],
        "byes": [order[6]],
        "rematches": 0,
    }


def test_the_same_file_always_gives_the_same_draw() -> None:
    data = doc(12, seed=5)
    assert draw_round(parse(data)) == draw_round(parse(data))
    other = draw_round(parse(doc(12, seed=6)))
    assert other.tables != draw_round(parse(data)).tables


def test_random_pairing_avoids_rematches_and_draws_the_bye_at_random() -> None:
    # Five teams, round 1 played: 5 had the bye.
    rounds = [round_(table(1, 1, 2, (900, 800)), table(2, 3, 4, (700, 1000)), byes=[5])]
    draw = draw_round(parse(doc(5, pairing="random", rounds=rounds, seed=3)))
    assert draw.byes[0] != 5
    met = {frozenset((1, 2)), frozenset((3, 4))}
    assert all(frozenset((t.sides[0][0], t.sides[1][0])) not in met for t in draw.tables)
    assert draw.rematches == 0


# ---------------------------------------------------------------------------------------------
# Swiss

# Six teams after round 1 (bye none): 1 1700, 3 1500, 5 1400, 6 1000, 4 900, 2 800.
SIX = [
    round_(table(1, 1, 2, (1700, 800)), table(2, 3, 4, (1500, 900)), table(3, 5, 6, (1400, 1000)))
]


def test_swiss_pairs_neighbours_without_rematch_tables_by_best_placed() -> None:
    tournament = parse(doc(6, rounds=SIX))
    assert [row.id for row in standings(tournament)] == [1, 3, 5, 6, 4, 2]
    draw = draw_round(tournament)
    # Positions 1..6: 1 3 5 6 4 2, and 1-2, 3-4, 5-6 met. (1-3, 5-4, 6-2) costs 1 + 4 + 4 = 9,
    # as does (1-5, 3-6, 4-2): 4 + 4 + 1; the tie goes to the one where the better-placed meet
    # closer opponents (1 meets 3). Numbered by the best-placed, best first.
    assert [(t.number, t.sides) for t in draw.tables] == [
        (1, ((1,), (3,))), (2, ((5,), (4,))), (3, ((6,), (2,))),
    ]  # fmt: skip
    assert (draw.byes, draw.rematches, draw.rematch_tables) == ((), 0, ())


def test_swiss_bye_goes_to_the_lowest_ranked_without_one() -> None:
    # Five teams; after round 1, 5 had the bye (average 1000). Ranks: 1 1700, 3 1500, 5 1000,
    # 4 900, 2 800: the bye goes to 2.
    rounds = [round_(table(1, 1, 2, (1700, 800)), table(2, 3, 4, (1500, 900)), byes=[5])]
    draw = draw_round(parse(doc(5, rounds=rounds, bye={"points": 1000})))
    assert draw.byes == (2,)
    # 5 is last: it had a bye already, so the next one up without one sits out.
    draw = draw_round(parse(doc(5, rounds=rounds, bye={"points": 0})))
    assert draw.byes == (2,)
    rounds[0]["tables"][0]["totals"] = [1700, 0]  # 2 now ranks below 5 anyway
    assert draw_round(parse(doc(5, rounds=rounds, bye={"points": 100}))).byes == (2,)


@pytest.mark.parametrize(
    ("order", "had", "expected"),
    [
        ([1, 2, 3, 4, 5], set(), [5]),  # the lowest-ranked
        ([1, 2, 3, 4, 5], {5}, [4]),  # the lowest-ranked without a bye yet
        ([1, 2, 3, 4, 5], {3, 4, 5}, [2]),
        ([1, 2, 3, 4, 5], {1, 2, 3, 4, 5}, [5]),  # all had one: the lowest-ranked
    ],
)
def test_choose_byes_swiss(order: list[int], had: set[int], expected: list[int]) -> None:
    assert choose_byes(1, order, had) == expected


def test_among_equals_the_highest_id_sits_out() -> None:
    # 1-2 and 3-4 drawn 500-500: all four share rank 1 (listed by id); 5 had the bye (500
    # points, not a win): 5th.
    rounds = [round_(table(1, 1, 2, (500, 500)), table(2, 3, 4, (500, 500)), byes=[5])]
    tournament = parse(doc(5, rounds=rounds, bye={"points": 500}))
    assert [(row.id, row.rank) for row in standings(tournament)] == [
        (1, 1), (2, 1), (3, 1), (4, 1), (5, 5),
    ]  # fmt: skip
    assert draw_round(tournament).byes == (4,)


def test_random_byes_pick_among_those_without_one() -> None:
    rng = DrawRandom(1, 2)
    for _ in range(50):
        assert choose_byes(1, [1, 2, 3, 4, 5], {1, 2, 4}, rng)[0] in {3, 5}
    assert {3, 5} < set(choose_byes(3, [1, 2, 3, 4, 5], {1, 2, 4}, rng))


def test_an_unavoidable_rematch_is_reported() -> None:
    # Four teams, three rounds: everyone met everyone; round 4 must repeat two meetings.
    rounds = [
        round_(table(1, 1, 2, (900, 800)), table(2, 3, 4, (700, 600))),
        round_(table(1, 1, 3, (900, 800)), table(2, 2, 4, (700, 600))),
        round_(table(1, 1, 4, (900, 800)), table(2, 2, 3, (700, 600))),
    ]
    draw = draw_round(parse(doc(4, rounds=rounds)))
    assert (draw.rematches, draw.rematch_tables) == (2, (1, 2))
    # 1 2700, 2 2200, 3 2100, 4 1800 (the order), pairs: 1-2 and 3-4 cost 1 + 1.
    assert [t.sides for t in draw.tables] == [((1,), (2,)), ((3,), (4,))]
    assert draw_report(draw, melee=False)["rematches"] == 2


def test_fewest_rematches_first() -> None:
    # 1-2, 3-4 and 5-6 met; 1-3 and 2-4 too: a pairing with no rematch still exists.
    rounds = [
        round_(table(1, 1, 2, (1000, 900)), table(2, 3, 4, (800, 700)), table(3, 5, 6, (600, 500))),
        round_(table(1, 1, 3, (1000, 900)), table(2, 2, 4, (800, 700)), table(3, 5, 6, (600, 500))),
    ]
    draw = draw_round(parse(doc(6, rounds=rounds)))
    assert draw.rematches == 0


def test_min_cost_pairs_windowed_is_exact() -> None:
    # A long, forced jump: 0 may pair with nobody but 9.
    def penalty(a: int, b: int) -> int:
        return int(0 in (a, b) and 9 not in (a, b))

    pairs = min_cost_pairs(10, penalty)
    assert (0, 9) in pairs
    assert pairing_cost(pairs, penalty)[0] == 0
    assert min_cost_pairs(0, penalty) == []
    with pytest.raises(ValueError):
        min_cost_pairs(3, penalty)


# ---------------------------------------------------------------------------------------------
# Mêlée


def test_melee_round_one() -> None:
    draw = draw_round(parse(doc(10, mode="melee", seed=4)))
    order = DrawRandom(4, 1).shuffle(list(range(1, 11)))
    assert set(draw.byes) == set(order[8:])  # 10 mod 4 = 2 sit out: the last two drawn
    partners = {frozenset(side) for t in draw.tables for side in t.sides}
    assert partners == {frozenset(order[i : i + 2]) for i in range(0, 8, 2)}
    assert [t.number for t in draw.tables] == [1, 2]
    report = draw_report(draw, melee=True)
    assert all(
        isinstance(side, list) and len(side) == 2 for t in report["tables"] for side in t["sides"]
    )


def test_melee_avoids_repeated_partners_and_opponents() -> None:
    rounds = [round_(table(1, [1, 2], [3, 4], (900, 800)), table(2, [5, 6], [7, 8], (700, 600)))]
    draw = draw_round(parse(doc(8, mode="melee", rounds=rounds)))
    partners = {frozenset(side) for t in draw.tables for side in t.sides}
    assert not partners & {
        frozenset((1, 2)),
        frozenset((3, 4)),
        frozenset((5, 6)),
        frozenset((7, 8)),
    }
    assert draw.rematches == 0


def test_melee_repeats_only_when_unavoidable() -> None:
    # Four players, round 2: every partner and opponent was met in round 1.
    rounds = [round_(table(1, [1, 2], [3, 4], (900, 800)))]
    draw = draw_round(parse(doc(4, mode="melee", rounds=rounds)))
    sides = {frozenset(side) for side in draw.tables[0].sides}
    assert sides != {frozenset((1, 2)), frozenset((3, 4))}  # new partners
    # Each player meets again the partner of round 1 as an opponent: 4 players meet again.
    assert draw.rematches == 4


# ---------------------------------------------------------------------------------------------
# Late entries, withdrawals, and rounds that cannot be drawn


def test_a_late_entrant_and_a_withdrawal_at_the_draw() -> None:
    data = doc(6, rounds=SIX)
    data["entrants"].append({"id": 7, "name": "Late", "players": ["L", "M"], "from_round": 2})
    draw = draw_round(parse(data), withdrawn=[3])
    drawn = [e for t in draw.tables for side in t.sides for e in side] + list(draw.byes)
    assert sorted(drawn) == [1, 2, 4, 5, 6, 7]
    assert draw.withdrawn == (3,)
    assert draw.as_round().withdrawn == (3,)


def planned(rounds: int, data: dict[str, Any]) -> dict[str, Any]:
    data["settings"]["rounds"] = rounds
    return data


@pytest.mark.parametrize(
    ("data", "withdrawn", "path", "code"),
    [
        (planned(1, doc(6, rounds=SIX)), [], "rounds", "all_rounds_drawn"),
        (
            doc(4, rounds=[round_(table(1, 1, 2, (1, 0)), table(2, 3, 4))]),
            [],
            "rounds[0].tables[1]",
            "round_not_finished",
        ),
        (doc(1), [], "entrants", "too_few_entrants"),
        (doc(3, mode="melee"), [], "entrants", "too_few_entrants"),
        (doc(3), [2, 3], "entrants", "too_few_entrants"),
        (doc(4), [9], "withdrawn[0]", "unknown_entrant"),
        (doc(4), [2, 2], "withdrawn[1]", "already_withdrawn"),
        (doc(4), [], None, None),  # and it can be drawn once the faults are gone
    ],
)
def test_when_a_round_cannot_be_drawn(
    data: dict[str, Any], withdrawn: list[int], path: str | None, code: str | None
) -> None:
    tournament = parse(data)
    if path is None:
        assert draw_round(tournament, withdrawn=withdrawn).round == 1
        return
    with pytest.raises(TournamentError) as caught:
        draw_round(tournament, withdrawn=withdrawn)
    assert (caught.value.path, caught.value.code) == (path, code)
