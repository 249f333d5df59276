"""The season ranking engine (scorekeeper/engine/season.py): examples worked by hand for each
measure, best N of M and each tie-break, shared places, a team concours ranked by players, the
records, the errors; then properties over random seasons (hypothesis)."""

from datetime import date, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.season import (
    DEFAULT_TABLE,
    Finish,
    Kind,
    Player,
    SeasonConcours,
    SeasonRule,
    placement_points,
    records,
    rule_from_dict,
    rule_to_dict,
    season_ranking,
)
from scorekeeper.engine.tournament import TournamentError

Line = tuple[int, str, int]  # place, key, points


def concours(
    id_: int, day: str, lines: list[Line], kind: Kind = "melee", name: str = ""
) -> SeasonConcours:
    return SeasonConcours(
        id=id_,
        date=date.fromisoformat(day),
        name=name or f"Concours {id_}",
        kind=kind,
        finishes=tuple(Finish(place, key, key.upper(), points) for place, key, points in lines),
    )


def team(place: int, key: str, points: int, *players: str) -> Finish:
    return Finish(place, key, key.upper(), points, tuple(Player(p, p.upper()) for p in players))


# Three mêlée concours, players a to e; e shares 2nd place with a in the second.
SEASON = [
    concours(1, "2026-01-10", [(1, "a", 3000), (2, "b", 2800), (3, "c", 2500), (4, "d", 2000)]),
    concours(2, "2026-02-14", [(1, "b", 3100), (2, "a", 2900), (2, "e", 2900), (4, "c", 2100)]),
    concours(3, "2026-03-14", [(1, "c", 3300), (2, "d", 2600), (3, "b", 2400), (4, "e", 1000)]),
]


def table(rule: SeasonRule, season: list[SeasonConcours] = SEASON) -> list[tuple[Any, ...]]:
    return [
        (row.rank, row.key, row.score, row.counted) for row in season_ranking(season, rule).rows
    ]


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        pytest.param(
            SeasonRule(measure="points"),
            [
                (1, "b", 8300, (1, 2, 3)),  # 2800 + 3100 + 2400
                (2, "c", 7900, (1, 2, 3)),  # 2500 + 2100 + 3300
                (3, "a", 5900, (1, 2)),
                (4, "d", 4600, (1, 3)),
                (5, "e", 3900, (2, 3)),
            ],
            id="total points",
        ),
        pytest.param(
            SeasonRule(measure="placement"),
            [
                (1, "b", 61, (1, 2, 3)),  # 20 + 25 + 16
                (2, "c", 54, (1, 2, 3)),  # 16 + 13 + 25
                (3, "a", 45, (1, 2)),  # 25 + 20
                (4, "d", 33, (1, 3)),  # 13 + 20
                (4, "e", 33, (2, 3)),  # 20 (a shared 2nd gets 2nd's points) + 13: all equal
            ],
            id="placement points, a shared place",
        ),
        pytest.param(
            SeasonRule(measure="placement", best=2),
            [
                (1, "b", 45, (1, 2)),  # 20 + 25: the 16 of concours 3 is dropped
                (2, "a", 45, (1, 2)),  # equal score, won 1, best 1st: b played more
                (3, "c", 41, (1, 3)),  # 16 + 25
                (4, "d", 33, (1, 3)),
                (4, "e", 33, (2, 3)),
            ],
            id="best 2 of 3, placement",
        ),
        pytest.param(
            SeasonRule(measure="points", best=2),
            [
                (1, "b", 5900, (1, 2)),  # 2800 + 3100
                (2, "a", 5900, (1, 2)),  # fewer concours played than b
                (3, "c", 5800, (1, 3)),  # 2500 + 3300
                (4, "d", 4600, (1, 3)),
                (5, "e", 3900, (2, 3)),
            ],
            id="best 2 of 3, points",
        ),
        pytest.param(
            SeasonRule(measure="points", best=5),
            [
                (1, "b", 8300, (1, 2, 3)),
                (2, "c", 7900, (1, 2, 3)),
                (3, "a", 5900, (1, 2)),
                (4, "d", 4600, (1, 3)),
                (5, "e", 3900, (2, 3)),
            ],
            id="best 5 of 3: fewer than N played, everything counts",
        ),
        pytest.param(
            SeasonRule(measure="placement", table=(10, 5), others=2),
            [
                (1, "b", 17, (1, 2, 3)),  # 5 + 10 + 2 (3rd is past the table: others)
                (2, "a", 15, (1, 2)),  # 10 + 5: fewer points than b
                (3, "c", 14, (1, 2, 3)),  # 2 + 2 + 10
                (4, "d", 7, (1, 3)),  # 2 + 5
                (4, "e", 7, (2, 3)),  # 5 + 2
            ],
            id="an edited table, places past its end",
        ),
    ],
)
def test_ranking_methods(rule: SeasonRule, expected: list[tuple[Any, ...]]) -> None:
    assert table(rule) == expected


def filler(n: int) -> list[Line]:
    """Entrants z1, z2... placed 1st, 2nd... (so the entrants under test never win)."""
    return [(i, f"z{i}", 0) for i in range(1, n + 1)]


@pytest.mark.parametrize(
    ("rule", "season", "expected"),
    [
        pytest.param(
            # x: 1st + 3rd = 25 + 15, y: 2nd + 2nd = 20 + 20: x won a concours.
            SeasonRule(measure="placement", table=(25, 20, 15)),
            [
                concours(1, "2026-01-01", [(1, "x", 0), (2, "y", 0), (3, "w", 0)]),
                concours(2, "2026-02-01", [(1, "w", 0), (2, "y", 0), (3, "x", 0)]),
            ],
            [(1, "w", 40), (1, "x", 40), (3, "y", 40)],  # w: 15 + 25, won 1 too, best 1
            id="concours won",
        ),
        pytest.param(
            # Neither won: x 2nd + 4th = 20 + 12, y 3rd + 3rd = 16 + 16: x placed better.
            SeasonRule(measure="placement", table=(25, 20, 16, 12)),
            [
                concours(1, "2026-01-01", [*filler(1), (2, "x", 0), (3, "y", 0)]),
                concours(2, "2026-02-01", [*filler(2), (3, "y", 0), (4, "x", 0)]),
            ],
            [(1, "z1", 50), (2, "x", 32), (3, "y", 32), (4, "z2", 20)],
            id="best placement",
        ),
        pytest.param(
            # x and y: 100 points, no win, best 2nd; x played twice (0 points the second time).
            SeasonRule(measure="points"),
            [
                concours(1, "2026-01-01", [(1, "w", 500), (2, "y", 100), (2, "x", 100)]),
                concours(2, "2026-02-01", [(1, "w", 500), (2, "x", 0)]),
            ],
            [(1, "w", 1000), (2, "x", 100), (3, "y", 100)],
            id="concours played",
        ),
        pytest.param(
            # Equal on everything: one rank, listed by name (case folded): "BOB" after "alice".
            SeasonRule(measure="points"),
            [
                SeasonConcours(
                    1,
                    date(2026, 1, 1),
                    "C",
                    "melee",
                    (Finish(1, "k2", "BOB", 10), Finish(1, "k1", "alice", 10)),
                ),
            ],
            [(1, "k1", 10), (1, "k2", 10)],
            id="all equal: a shared rank, by name",
        ),
    ],
)
def test_tie_breaks(
    rule: SeasonRule, season: list[SeasonConcours], expected: list[tuple[Any, ...]]
) -> None:
    assert [row[:3] for row in table(rule, season)] == expected


def test_every_tie_break_figure_on_a_row() -> None:
    row = season_ranking(SEASON, SeasonRule(measure="placement")).rows[0]
    assert (row.key, row.name, row.score, row.won, row.best_place, row.played) == (
        "b", "B", 61, 1, 1, 3,
    )  # fmt: skip
    assert (row.podiums, row.average_place) == (3, 2.0)
    assert row.key_for_rank() == (-61, -1, 1, -3)


TEAMS = [
    SeasonConcours(
        1,
        date(2026, 1, 10),
        "Teams",
        "teams",
        (team(1, "t1", 3000, "a", "b"), team(2, "t2", 2500, "c", "d")),
    ),
    concours(2, "2026-02-14", [(1, "a", 2000), (2, "c", 1800), (3, "b", 1500), (4, "d", 900)]),
]


def test_team_concours_ranked_by_players() -> None:
    """Each player of a team gets the team's place and points; a mêlée counts as it is."""
    ranking = season_ranking(TEAMS, SeasonRule(measure="points", rank="players"))
    assert ranking.counted == (1, 2)
    assert [(row.rank, row.key, row.score) for row in ranking.rows] == [
        (1, "a", 5000),
        (2, "b", 4500),
        (3, "c", 4300),
        (4, "d", 3400),
    ]
    first = ranking.rows[0].record.results[0]
    assert (first.place, first.points, first.field, first.team) == (1, 3000, 2, "T1")


def test_team_ranking_leaves_out_melee() -> None:
    ranking = season_ranking(TEAMS, SeasonRule(measure="placement", rank="teams"))
    assert ranking.counted == (1,)
    assert [(row.rank, row.key, row.name, row.score) for row in ranking.rows] == [
        (1, "t1", "T1", 25),
        (2, "t2", "T2", 20),
    ]


def test_concours_order_and_the_latest_name() -> None:
    """The concours may come in any order: results are in date order, the name is the latest."""
    late = SeasonConcours(9, date(2026, 5, 1), "May", "melee", (Finish(1, "a", "Alice B.", 10),))
    found = records([late, *SEASON])["a"]
    assert found.name == "Alice B."
    assert [result.concours for result in found.results] == [1, 2, 9]


def test_record() -> None:
    found = records(SEASON)
    a, b, e = found["a"], found["b"], found["e"]
    assert (a.played, a.won, a.podiums, a.average_place) == (2, 1, 2, 1.5)
    assert (b.played, b.won, b.podiums, b.average_place) == (3, 1, 3, 2.0)
    assert (e.played, e.won, e.podiums, e.average_place) == (2, 0, 1, 3.0)
    assert a.best is not None and a.best.concours == 1
    assert e.best is not None and (e.best.concours, e.best.place) == (2, 2)


def test_best_result_among_equal_places() -> None:
    """The lowest place; then the most points; then the most recent."""
    season = [
        concours(1, "2026-01-01", [(1, "x", 100)]),
        concours(2, "2026-02-01", [(1, "x", 300)]),
        concours(3, "2026-03-01", [(1, "x", 300)]),
        concours(4, "2026-04-01", [(1, "w", 900), (2, "x", 900)]),
    ]
    best = records(season)["x"].best
    assert best is not None and best.concours == 3


def test_empty_season() -> None:
    assert season_ranking([], SeasonRule()).rows == ()
    assert records([]) == {}


def test_placement_points_default_table() -> None:
    assert [placement_points(SeasonRule(), place) for place in range(1, 18)] == [
        25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 1,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("season", "rule", "path", "code"),
    [
        (
            [concours(1, "2026-01-01", [(1, "a", 0), (0, "b", 0)])],
            SeasonRule(),
            "concours[0].finishes[1].place",
            "out_of_range",
        ),
        (
            [concours(1, "2026-01-01", [(1, "a", 0), (3, "b", 0)])],
            SeasonRule(),
            "concours[0].finishes[1].place",
            "out_of_range",
        ),
        (
            [concours(1, "2026-01-01", [(1, "a", 0), (2, "a", 0)])],
            SeasonRule(),
            "concours[0].finishes[1].key",
            "duplicate",
        ),
        (
            [concours(1, "2026-01-01", [(1, "a", 0)]), concours(1, "2026-02-01", [(1, "a", 0)])],
            SeasonRule(),
            "concours[1].id",
            "duplicate",
        ),
        (
            [concours(1, "2026-01-01", [(1, "t1", 0)], kind="teams")],
            SeasonRule(rank="players"),
            "concours[0].finishes[0].players",
            "empty",
        ),
        (
            [
                SeasonConcours(
                    1,
                    date(2026, 1, 1),
                    "C",
                    "teams",
                    (team(1, "t1", 0, "a", "b"), team(2, "t2", 0, "c", "a")),
                )
            ],
            SeasonRule(rank="players"),
            "concours[0].finishes[1].players[1]",
            "duplicate",
        ),
    ],
)
def test_season_errors(
    season: list[SeasonConcours], rule: SeasonRule, path: str, code: str
) -> None:
    with pytest.raises(TournamentError) as caught:
        season_ranking(season, rule)
    assert (caught.value.path, caught.value.code) == (path, code)


def test_duplicate_names_the_first() -> None:
    with pytest.raises(TournamentError) as caught:
        season_ranking([concours(1, "2026-01-01", [(1, "a", 0), (2, "a", 0)])], SeasonRule())
    assert caught.value.params == {"value": "a", "first": "concours[0].finishes[0].key"}


@pytest.mark.parametrize(
    ("data", "path", "code"),
    [
        ({"table": [25, 20, 21]}, "table[2]", "points_rise"),
        ({"table": [25, 20], "others": 21}, "others", "points_rise"),
        ({"table": [25, -1]}, "table[1]", "negative"),
        ({"table": []}, "table", "empty"),
        ({"table": [25, "20"]}, "table[1]", "not_integer"),
        ({"table": [True]}, "table[0]", "not_integer"),
        ({"others": 1.5}, "others", "not_integer"),
        ({"best": 0}, "best", "out_of_range"),
        ({"measure": "wins"}, "measure", "choice"),
        ({"rank": "clubs"}, "rank", "choice"),
        ({"colour": "red"}, "colour", "unknown_key"),
        ([], "", "not_object"),
    ],
)
def test_rule_errors(data: object, path: str, code: str) -> None:
    with pytest.raises(TournamentError) as caught:
        rule_from_dict(data)
    assert (caught.value.path, caught.value.code) == (path, code)


def test_rule_rise_names_the_place_before() -> None:
    with pytest.raises(TournamentError) as caught:
        SeasonRule(measure="placement", table=(25, 20, 21))
    assert caught.value.params == {"before": 20}


def test_rule_round_trip() -> None:
    assert rule_from_dict({}) == SeasonRule()
    rule = SeasonRule(measure="placement", table=(10, 8, 8, 5), others=0, best=6, rank="teams")
    assert rule_from_dict(rule_to_dict(rule)) == rule
    assert rule_to_dict(SeasonRule())["table"] == list(DEFAULT_TABLE)


# --- Properties ------------------------------------------------------------------------------

KEYS = tuple(f"p{i}" for i in range(8))
# Each example ranks a whole season (some, several times): CI's 2,000 examples are capped here.
CAPPED = settings(max_examples=min(500, settings().max_examples))


@st.composite
def seasons(
    draw: st.DrawFn, most: int = 6, players: tuple[str, ...] = KEYS, first_id: int = 1
) -> list[SeasonConcours]:
    """Random mêlée seasons: each concours a random subset of players with random points, placed
    like standings (by points, ties sharing a place: 1, 2, 2, 4)."""
    count = draw(st.integers(0, most))
    out = []
    for index in range(count):
        keys = draw(
            st.lists(st.sampled_from(players), min_size=1, max_size=len(players), unique=True)
        )
        points = [draw(st.integers(0, 40)) * 50 for _ in keys]
        ordered = sorted(zip(points, keys, strict=True), key=lambda pair: -pair[0])
        lines: list[Line] = []
        for position, (value, key) in enumerate(ordered):
            tied = position > 0 and value == ordered[position - 1][0]
            lines.append((lines[-1][0] if tied else position + 1, key, value))
        day = (date(2026, 1, 1) + timedelta(days=draw(st.integers(0, 300)))).isoformat()
        out.append(concours(first_id + index, day, lines))
    return out


@st.composite
def rules(draw: st.DrawFn) -> SeasonRule:
    return SeasonRule(
        measure=draw(st.sampled_from(["points", "placement"])),
        best=draw(st.none() | st.integers(1, 7)),
    )


@CAPPED
@given(seasons(), rules())
def test_ranking_is_a_permutation_of_the_entrants(
    season: list[SeasonConcours], rule: SeasonRule
) -> None:
    rows = season_ranking(season, rule).rows
    entrants = {finish.key for item in season for finish in item.finishes}
    assert sorted(row.key for row in rows) == sorted(entrants)
    for index, row in enumerate(rows):
        record = row.record
        assert (row.won, row.best_place, row.played) == (
            record.won, record.best_place, record.played,
        )  # fmt: skip
        if index == 0:
            assert row.rank == 1
            continue
        before = rows[index - 1]
        assert before.key_for_rank() <= row.key_for_rank()
        tied = before.key_for_rank() == row.key_for_rank()
        assert row.rank == (before.rank if tied else index + 1)
        assert len(row.counted) == min(row.played, rule.best or row.played)


@CAPPED
@given(seasons(most=5), st.sampled_from(KEYS), st.data())
def test_a_concours_not_played_never_changes_ones_total(
    season: list[SeasonConcours], key: str, data: st.DataObject
) -> None:
    """Under total points (and placement points) with every result counted: a concours without
    the entrant changes everybody's rank maybe, never its own score or record."""
    others = tuple(k for k in KEYS if k != key)
    extra = data.draw(seasons(most=1, players=others, first_id=99).filter(bool))[0]
    for rule in (SeasonRule(measure="points"), SeasonRule(measure="placement")):
        before = season_ranking(season, rule).row(key)
        after = season_ranking([*season, extra], rule).row(key)
        if before is None:
            assert after is None
        else:
            assert after is not None
            assert (after.score, after.record) == (before.score, before.record)


@given(
    st.lists(st.integers(0, 500), min_size=1, max_size=20).map(lambda t: sorted(t, reverse=True)),
    st.data(),
)
def test_placement_points_never_rise_as_the_place_worsens(
    points: list[int], data: st.DataObject
) -> None:
    others = data.draw(st.integers(0, points[-1]))
    rule = SeasonRule(measure="placement", table=tuple(points), others=others)
    values = [placement_points(rule, place) for place in range(1, len(points) + 5)]
    assert values == sorted(values, reverse=True)


@given(st.lists(st.integers(0, 500), min_size=2, max_size=20, unique=True))
def test_a_table_that_rises_is_refused(points: list[int]) -> None:
    if points == sorted(points, reverse=True):
        return
    with pytest.raises(TournamentError) as caught:
        SeasonRule(measure="placement", table=tuple(points))
    assert caught.value.code == "points_rise"


@CAPPED
@given(seasons(), st.sampled_from(["points", "placement"]))
def test_best_n_counts_at_most_the_total(season: list[SeasonConcours], measure: str) -> None:
    """Best N of M: never more than every result; N at least the most played is every result."""
    full = season_ranking(season, rule_from_dict({"measure": measure}))
    for best in (1, 2, 3):
        part = season_ranking(season, rule_from_dict({"measure": measure, "best": best}))
        for row in part.rows:
            whole = full.row(row.key)
            assert whole is not None and row.score <= whole.score
    most = max((row.played for row in full.rows), default=1)
    every = season_ranking(season, rule_from_dict({"measure": measure, "best": most}))
    assert every.rows == full.rows
