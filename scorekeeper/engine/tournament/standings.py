"""Standings (docs/tournaments.md §3): every figure of every entrant over its finished parties, ranked
by the criteria of `ranking` in their order; entrants equal on all of them share a rank (1, 2, 2, 4)
and are listed by id. Withdrawn entrants keep their results and their place, marked."""

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
        tables = tuple(
            table_result(settings.partie, table, f"rounds[{r}].tables[{t}]")
            for t, table in enumerate(round_.tables)
        )
        out.append(RoundResult(tables, bye_points(settings.bye, settings.partie, tables)))
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

    @property
    def wins(self) -> int | float:
        return half(self.half_wins)

    @property
    def difference(self) -> int:
        return self.points - self.conceded

    @property
    def opponents_wins(self) -> int | float:
        return half(self.half_opponents_wins)

    def key(self, ranking: Sequence[Criterion]) -> tuple[int, ...]:
        """The sort key for `ranking`: smaller is better."""
        values = {
            "points": -self.points,
            "wins": -self.half_wins,
            "difference": -self.difference,
            "best_partie": -self.best_partie,
            "opponents_wins": -self.half_opponents_wins,
            "conceded": self.conceded,
        }
        return tuple(values[criterion] for criterion in ranking)


class _Tally:
    __slots__ = ("best", "byes", "conceded", "drawn", "lost", "met", "played", "points", "won")

    def __init__(self) -> None:
        self.played = self.won = self.drawn = self.lost = self.byes = 0
        self.points = self.conceded = self.best = 0
        self.met: list[int] = []  # every opponent, once per meeting


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
        for entrant in round_.byes:
            tally[entrant].byes += 1
            tally[entrant].points += result.bye_points
    bye_wins = 2 if settings.bye.win else 0
    half_wins = {i: 2 * t.won + t.drawn + bye_wins * t.byes for i, t in tally.items()}
    gone = tournament.withdrawal_round()
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
            half_opponents_wins=sum(half_wins[o] for o in t.met),
            withdrawn=entrant.id in gone,
        )
        for entrant in tournament.entrants
    ]
    ranking = settings.ranking
    rows.sort(key=lambda row: (row.key(ranking), row.id))
    ranked: list[Standing] = []
    for index, row in enumerate(rows):
        tied = index > 0 and row.key(ranking) == rows[index - 1].key(ranking)
        ranked.append(replace(row, rank=ranked[-1].rank if tied else index + 1))
    return tuple(ranked)
