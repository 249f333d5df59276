"""Standings (docs/tournaments.md §3): every figure of every entrant over its finished parties of
the qualifying rounds, ranked by the criteria of `ranking` in their order; entrants equal on all of
them share a rank (1, 2, 2, 4) and are listed by id. Withdrawn entrants keep their results and
their place, marked.

`head_to_head` is relative to a group: the entrants still equal on every criterion before it;
each member's figure is its `won + drawn / 2` in finished parties with a member of its group on
the other side (0 when alone in its group), and the criteria after it apply inside the groups it
leaves. `lots` is the position (1 = best) of the entrant's id in the ascending ids of every entrant
shuffled by `random.Random(f"{seed}-lots").shuffle`.

Each row also says where a tie was broken (`tie_break`): the criterion that put it after the row
above, when the two were level on every criterion before it (None for the first row, a shared
rank, or rows apart on the ranking's first criterion). The pages show it beside the figures."""

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .byes import bye_points
from .results import TableResult, table_result
from .settings import Criterion
from .tournament import Tournament


@dataclass(frozen=True, slots=True)
class RoundResult:
    tables: tuple[TableResult, ...]
    bye_points: int  # what each bye of the round is worth (so far, for an average)

    @property
    def finished(self) -> bool:
        return all(result.finished for result in self.tables)


def round_results(tournament: Tournament) -> tuple[RoundResult, ...]:
    """Every table's result, and the bye points, of every round."""
    settings = tournament.settings
    out = []
    for r, round_ in enumerate(tournament.rounds):
        rules = settings.rules_for(round_.stage)
        tables = tuple(
            table_result(rules, table, f"rounds[{r}].tables[{t}]")
            for t, table in enumerate(round_.tables)
        )
        out.append(RoundResult(tables, bye_points(settings.bye, rules, tables)))
    return tuple(out)


def half(value: int) -> int | float:
    """A count kept in halves (wins), as the number it stands for: 5 -> 2.5, 4 -> 2."""
    return value // 2 if value % 2 == 0 else value / 2


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    id: int
    name: str
    played: int
    won: int
    drawn: int
    lost: int
    byes: int
    half_wins: int  # wins counted in halves: a drawn partie is 1
    points: int
    conceded: int
    best_partie: int
    half_opponents_wins: int
    withdrawn: bool
    opponents_points: int = 0
    half_opponents_opponents_wins: int = 0  # fine Buchholz, in halves
    half_head_to_head: int = 0  # within its group of `head_to_head` (0 when not ranked by it)
    lots: int = 0  # its place in the drawing of lots, 1 first (0 when not ranked by it)
    # The criterion that put it after the row above, level on every earlier one (None: the
    # first row, a shared rank, or apart on the first criterion).
    tie_break: Criterion | None = None

    @property
    def wins(self) -> int | float:
        return half(self.half_wins)

    @property
    def difference(self) -> int:
        return self.points - self.conceded

    @property
    def opponents_wins(self) -> int | float:
        return half(self.half_opponents_wins)

    @property
    def opponents_opponents_wins(self) -> int | float:
        return half(self.half_opponents_opponents_wins)

    @property
    def head_to_head(self) -> int | float:
        return half(self.half_head_to_head)

    def key(self, ranking: Sequence[Criterion]) -> tuple[int, ...]:
        """The sort key for `ranking`: smaller is better. Its `head_to_head` is the figure within
        the row's group (standings computes it), so rows of one group compare right."""
        values = {
            "points": -self.points,
            "wins": -self.half_wins,
            "difference": -self.difference,
            "best_partie": -self.best_partie,
            "opponents_wins": -self.half_opponents_wins,
            "conceded": self.conceded,
            "opponents_points": -self.opponents_points,
            "opponents_opponents_wins": -self.half_opponents_opponents_wins,
            "head_to_head": -self.half_head_to_head,
            "lots": self.lots,
        }
        return tuple(values[criterion] for criterion in ranking)


def lots_order(seed: int, ids: Sequence[int]) -> dict[int, int]:
    """§3 `lots`: entrant id -> its position (1 first) in the ascending ids shuffled by
    `random.Random(f"{seed}-lots").shuffle`."""
    order = sorted(ids)
    random.Random(f"{seed}-lots").shuffle(order)
    return {entrant: place for place, entrant in enumerate(order, start=1)}


class _Tally:
    __slots__ = (
        "best", "byes", "conceded", "drawn", "games", "lost", "met", "played", "points", "won",
    )  # fmt: skip

    def __init__(self) -> None:
        self.played = self.won = self.drawn = self.lost = self.byes = 0
        self.points = self.conceded = self.best = 0
        self.met: list[int] = []  # every opponent, once per meeting
        # Every finished partie: the other side, and the result in halves (2 won, 1 drawn).
        self.games: list[tuple[tuple[int, ...], int]] = []


def _head_to_head(
    rows: list[Standing], ranking: Sequence[Criterion], tally: dict[int, _Tally]
) -> list[Standing]:
    """The rows with their `head_to_head` figure: within each group still equal on every
    criterion before it, the wins (in halves) against the other members."""
    before = ranking[: ranking.index("head_to_head")]
    groups: dict[tuple[int, ...], set[int]] = defaultdict(set)
    for row in rows:
        groups[row.key(before)].add(row.id)
    out = []
    for row in rows:
        members = groups[row.key(before)]
        score = sum(
            result
            for others, result in tally[row.id].games
            if any(other in members and other != row.id for other in others)
        )
        out.append(replace(row, half_head_to_head=score))
    return out


def _halves(winner: object, side: int) -> int:
    """A finished partie's result for `side`, in halves: 2 won, 1 drawn, 0 lost."""
    if winner == "draw":
        return 1
    return 2 if winner == side else 0


def standings(
    tournament: Tournament, results: Sequence[RoundResult] | None = None
) -> tuple[Standing, ...]:
    """The ranked standings after every round of the file (`results`: its `round_results`, when
    already computed)."""
    settings = tournament.settings
    if results is None:
        results = round_results(tournament)
    tally = {entrant.id: _Tally() for entrant in tournament.entrants}
    for round_, result in zip(tournament.rounds, results, strict=True):
        if round_.stage is not None:
            continue  # a final bracket's round: the qualifying figures stay as they were
        for table, outcome in zip(round_.tables, result.tables, strict=True):
            if not outcome.finished or outcome.points is None:
                continue
            for side in (0, 1):
                mine, theirs = outcome.points[side], outcome.points[1 - side]
                for entrant in table.sides[side]:
                    t = tally[entrant]
                    t.played += 1
                    if outcome.winner == "draw":
                        t.drawn += 1
                    elif outcome.winner == side:
                        t.won += 1
                    else:
                        t.lost += 1
                    t.points += mine
                    t.conceded += theirs
                    t.best = max(t.best, mine)
                    t.met.extend(table.sides[1 - side])
                    t.games.append((table.sides[1 - side], _halves(outcome.winner, side)))
        for entrant in round_.byes:
            tally[entrant].byes += 1
            tally[entrant].points += result.bye_points
    bye_wins = 2 if settings.bye.win else 0
    half_wins = {i: 2 * t.won + t.drawn + bye_wins * t.byes for i, t in tally.items()}
    gone = tournament.withdrawal_round()
    ranking = settings.ranking
    half_opponents_wins = {i: sum(half_wins[o] for o in t.met) for i, t in tally.items()}
    lots = lots_order(settings.seed, list(tally)) if "lots" in ranking else {}
    rows = [
        Standing(
            rank=0,
            id=entrant.id,
            name=entrant.name,
            played=(t := tally[entrant.id]).played,
            won=t.won,
            drawn=t.drawn,
            lost=t.lost,
            byes=t.byes,
            half_wins=half_wins[entrant.id],
            points=t.points,
            conceded=t.conceded,
            best_partie=t.best,
            half_opponents_wins=half_opponents_wins[entrant.id],
            withdrawn=entrant.id in gone,
            opponents_points=sum(tally[o].points for o in t.met),
            half_opponents_opponents_wins=sum(half_opponents_wins[o] for o in t.met),
            lots=lots.get(entrant.id, 0),
        )
        for entrant in tournament.entrants
    ]
    if "head_to_head" in ranking:
        rows = _head_to_head(rows, ranking, tally)
    rows.sort(key=lambda row: (row.key(ranking), row.id))
    keys = [row.key(ranking) for row in rows]
    ranked: list[Standing] = []
    for index, row in enumerate(rows):
        if index > 0 and keys[index] == keys[index - 1]:
            ranked.append(replace(row, rank=ranked[-1].rank))
            continue
        broken = None
        if index > 0:
            pairs = zip(keys[index], keys[index - 1], strict=True)
            apart = next(i for i, (mine, theirs) in enumerate(pairs) if mine != theirs)
            broken = ranking[apart] if apart > 0 else None
        ranked.append(replace(row, rank=index + 1, tie_break=broken))
    return tuple(ranked)
