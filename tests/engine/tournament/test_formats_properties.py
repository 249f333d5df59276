"""Properties of the formats of issue 26 (docs/tournaments.md §3, §7), with hypothesis: a round
robin meets every pair once, a bracket has its tables and places, `head_to_head` reorders only
entrants it ties. Examples are kept few (a bracket is played round by round): CI stays quick."""

import json
import random
from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.tournament import (
    CRITERIA,
    append_round,
    bracket_state,
    draw_round,
    dump_tournament,
    parse_tournament,
    schedule_round,
    standings,
    standings_report,
)

from .builders import Doc, doc
from .test_properties import concours

PROFILE_EXAMPLES = settings().max_examples
FEW = settings(max_examples=min(60, PROFILE_EXAMPLES))
SOME = settings(max_examples=min(200, PROFILE_EXAMPLES))


def parse(data: Doc) -> Any:
    return parse_tournament(json.loads(json.dumps(data)))


# ---------------------------------------------------------------------------------------------
# Round robin


@SOME
@given(st.lists(st.integers(1, 10_000), min_size=2, max_size=30, unique=True))
def test_round_robin_schedule_meets_every_pair_once(teams: list[int]) -> None:
    n = len(teams) + len(teams) % 2
    met: list[frozenset[int]] = []
    byes: list[int] = []
    for number in range(1, n):
        schedule = schedule_round(teams, number)
        seated = [team for pair in schedule.pairs for team in pair] + list(schedule.byes)
        assert sorted(seated) == sorted(teams)  # everyone once a round
        met += [frozenset(pair) for pair in schedule.pairs]
        byes += schedule.byes
        # The lower position of L on side 0: L[0] (the lowest id) is always on side 0.
        assert all(pair[1] != min(teams) for pair in schedule.pairs)
    assert sorted(met, key=sorted) == sorted(
        (frozenset(pair) for pair in combinations(teams, 2)), key=sorted
    )
    if len(teams) % 2:
        assert sorted(byes) == sorted(teams)  # every team one bye
    else:
        assert byes == []


@FEW
@given(st.integers(2, 9), st.integers(0, 2**32 - 1))
def test_round_robin_through_the_file(count: int, seed: int) -> None:
    """Drawn, played (random totals, draws too) and written round by round, a full round robin
    meets every pair once; the file of every round is valid."""
    rnd = random.Random(seed)
    n = count + count % 2
    data = doc(count, pairing="round_robin", seed=seed)
    data["settings"]["rounds"] = n - 1
    met: set[frozenset[int]] = set()
    for _ in range(n - 1):
        tournament = parse(data)
        drawn = draw_round(tournament)
        assert drawn.rematches == 0
        data = dump_tournament(append_round(tournament, drawn))
        for item in data["rounds"][-1]["tables"]:
            total = rnd.randint(0, 2000)
            item["totals"] = [total, rnd.choice([total, rnd.randint(0, 2000)])]
            pair = frozenset(item["sides"])
            assert pair not in met
            met.add(pair)
    assert len(met) == count * (count - 1) // 2
    parse(data)


# ---------------------------------------------------------------------------------------------
# Final bracket


def pattern(size: int, third: bool, consolation: bool) -> list[int]:
    """The places of the bracket's entrants, as docs/tournaments.md §7 lays them out."""

    def bracket(entrants: int, offset: int, third_place: bool, stop: int) -> list[int]:
        places = [offset + 1, offset + 2]
        if entrants >= 4:
            places += [offset + 3, offset + 4] if third_place else [offset + 3, offset + 3]
        k = 4
        while k <= stop:
            places += [offset + k + 1] * k
            k *= 2
        return places

    if not consolation:
        return bracket(size, 0, third, size // 2)
    main = bracket(size, 0, third, size // 4)
    return main + bracket(size // 2, size // 2, False, size // 4)


@FEW
@given(
    st.sampled_from([4, 8, 16]),
    st.booleans(),
    st.booleans(),
    st.integers(0, 4),
    st.integers(0, 2**32 - 1),
)
def test_a_bracket_played_to_the_end(
    size: int, third: bool, consolation: bool, extra: int, seed: int
) -> None:
    consolation = consolation and size >= 8
    rnd = random.Random(seed)
    count = size + extra
    final = {"size": size, "third_place": third, "consolation": consolation}
    data = doc(count, seed=seed, final=final)
    data["settings"]["rounds"] = 1
    tables_played: dict[str, int] = {"final": 0, "consolation": 0}
    losses: dict[str, list[int]] = {"final": [], "consolation": []}
    while True:
        tournament = parse(data)
        state = bracket_state(tournament)
        if state is not None and state.complete:
            break
        drawn = draw_round(tournament)
        data = dump_tournament(append_round(tournament, drawn))
        for item in data["rounds"][-1]["tables"]:
            total = rnd.randint(0, 2000)
            item["totals"] = [total, rnd.choice([total, rnd.randint(0, 2000)])]
        if drawn.stage is None:
            continue
        tables_played[drawn.stage] += len(drawn.tables)
        state = bracket_state(parse(data))
        assert state is not None
        for table in state.rounds[_index(state, drawn.round)].tables:
            if not table.third_place:
                assert table.out is not None
                losses[drawn.stage].append(table.out)
    assert tables_played["final"] == size - 1 + (1 if third else 0)
    assert tables_played["consolation"] == (size // 2 - 1 if consolation else 0)
    # Every entrant loses at most once in each bracket.
    for lost in losses.values():
        assert len(lost) == len(set(lost))
    state = bracket_state(parse(data))
    assert state is not None and state.next is None
    places = state.places
    assert None not in places.values()
    inside = sorted(places[entrant] or 0 for entrant in state.seeds)
    assert inside == pattern(size, third, consolation)
    outside = [row for row in standings(parse(data)) if row.id not in state.seeds]
    assert [places[row.id] for row in outside] == [
        size + 1 + next(i for i, other in enumerate(outside) if other.rank == row.rank)
        for row in outside
    ]
    # The report carries the same places for every entrant.
    rows = standings_report(parse(data))["standings"]
    assert {row["id"]: row["final_place"] for row in rows} == places


def _index(state: Any, file_round: int) -> int:
    return next(i for i, round_ in enumerate(state.rounds) if round_.round == file_round)


def test_the_pattern_is_the_documented_one() -> None:
    assert pattern(8, True, True) == [1, 2, 3, 4, 5, 6, 7, 7]
    assert pattern(8, False, False) == [1, 2, 3, 3, 5, 5, 5, 5]
    assert pattern(4, True, False) == [1, 2, 3, 4]
    assert pattern(16, False, True) == [1, 2, 3, 3, 5, 5, 5, 5, 9, 10, 11, 11, 13, 13, 13, 13]


# ---------------------------------------------------------------------------------------------
# head_to_head


@SOME
@given(concours(), st.data())
def test_head_to_head_never_reorders_entrants_it_does_not_tie(data: Doc, pick: Any) -> None:
    others = [c for c in CRITERIA if c != "head_to_head"]
    before = pick.draw(st.lists(st.sampled_from(others), unique=True, max_size=3))
    after = pick.draw(
        st.lists(st.sampled_from([c for c in others if c not in before]), unique=True, max_size=2)
    )
    data["settings"]["ranking"] = [*before, "head_to_head", *after]
    rows = standings(parse(data))
    # The rows are in the order of the criteria before it; within each of its groups, in the
    # order of (head to head, the criteria after it, id).
    keys = [row.key(before) for row in rows]
    assert keys == sorted(keys)
    data["settings"]["ranking"] = before or ["points"]
    without = standings(parse(data))
    if before:
        ranks = {row.id: row.rank for row in without}
        assert [ranks[row.id] for row in rows] == sorted(ranks[row.id] for row in rows)
    for index in range(1, len(rows)):
        a, b = rows[index - 1], rows[index]
        if a.key(before) == b.key(before):
            full = [*before, "head_to_head", *after]
            assert (a.key(full), a.id) < (b.key(full), b.id)
            assert (a.rank == b.rank) == (a.key(full) == b.key(full))
