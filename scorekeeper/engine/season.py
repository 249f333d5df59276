"""A season's ranking across its concours (issue 16), and each entrant's record: pure functions of
the concours' final rankings, no Django. The club app picks the season's concours and their final
standings; this module ranks.

The input: each concours (`SeasonConcours`: id, date, name, kind "teams" or "melee") with its
final ranking (`Finish`: place, identity key, name, points, and for a team its players). Places
are the concours standings' own: entrants tied there share a place (1, 2, 2, 4). The identity
`key` recognises one team or player across concours (the merge tool maps spellings to one key).

The rule (`SeasonRule`):

- **Who is ranked** (`rank`): "players" ranks players: a mêlée concours ranks its players, a team
  concours gives each of a team's players the team's result (place, points, field). "teams" ranks
  the teams of the team concours; a mêlée concours has no teams, so it is left out of a team
  ranking (`SeasonRanking.counted` lists the concours that count).
- **Measure** (`measure`): "points", the points each scored in the concours (a team's, for its
  players); or "placement", points for each place from an editable `table` (1st, 2nd, ...), any
  place past the table's end getting `others`. The default table is 25, 20, 16, 13, 11, 10, then
  down by one to 1 at 15th; `others` is 1 (a point for playing). The table never rises from one
  place to the next and `others` is not above its last value, so a worse place never earns more.
  **Shared places**: entrants sharing a place each get that place's points (two 2nd get 20 each;
  the next is 4th, 13).
- **Best N of M** (`best`): only each entrant's N best results by the measure count (all of them
  when it played N or fewer); among equal results the earlier concours is the one marked counted
  (the score is the same either way). None: every result counts.
- **Ties**, in this order: the higher score; more concours won (place 1, shared or not, over the
  whole season, counted or not); the best placement (the lowest place reached); more concours
  played. Entrants equal on all four share a rank (1, 2, 2, 4) and are listed by name (case
  folded), then key. A name is no merit, so it orders the listing but never splits a rank.
- **Names**: an entrant's name is the one of its latest concours (the latest spelling).

A record (`Record`, for the player record page) holds every result in date order (then concours
id): concours played, won, podiums (places 1 to 3), average place, best result (the lowest place;
among equal places the most points, then the most recent).

Errors are TournamentError with a path and a code, as in the rest of the engine:
`concours[2].finishes[0].place` `out_of_range`, a key twice in one concours `duplicate`, a team
without players in a ranking of players `empty`, a table that rises `points_rise`. A path's
`concours[i]` counts the concours in date order (then id), the order the ranking reads them."""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from .tournament.errors import TournamentError
from .tournament.readers import read_choice, read_int, read_list, read_object
from .tournament.tfile import MAX_ENTRANTS

Kind = Literal["teams", "melee"]
Measure = Literal["points", "placement"]
RankBy = Literal["teams", "players"]

KINDS: tuple[Kind, ...] = ("teams", "melee")
MEASURES: tuple[Measure, ...] = ("points", "placement")
RANK_BY: tuple[RankBy, ...] = ("players", "teams")
DEFAULT_TABLE: tuple[int, ...] = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
DEFAULT_OTHERS = 1
MAX_TABLE = 1000  # places in a placement table
MAX_TABLE_POINTS = 100_000
MAX_BEST = 1000  # concours counted at most
MAX_PLACE = MAX_ENTRANTS  # a place is at most a concours's size
RULE_KEYS = ("measure", "table", "others", "best", "rank")


@dataclass(frozen=True, slots=True)
class Player:
    key: str
    name: str


@dataclass(frozen=True, slots=True)
class Finish:
    """One entrant's line of a concours' final ranking. `players`: a team's players (their own
    keys), for a season that ranks players; empty for a mêlée player."""

    place: int
    key: str
    name: str
    points: int
    players: tuple[Player, ...] = ()


@dataclass(frozen=True, slots=True)
class SeasonConcours:
    id: int
    date: date
    name: str
    kind: Kind
    finishes: tuple[Finish, ...]


@dataclass(frozen=True, slots=True)
class SeasonRule:
    """How a season ranks (see the module's docstring). Checked when made: TournamentError at
    `table[3]`, `others`, `best`, `measure` or `rank`."""

    measure: Measure = "points"
    table: tuple[int, ...] = DEFAULT_TABLE
    others: int = DEFAULT_OTHERS
    best: int | None = None
    rank: RankBy = "players"

    def __post_init__(self) -> None:
        read_choice(self.measure, "measure", MEASURES)
        read_choice(self.rank, "rank", RANK_BY)
        if not self.table:
            raise TournamentError("table", "empty")
        if len(self.table) > MAX_TABLE:
            raise TournamentError("table", "too_many", max=MAX_TABLE)
        before: int | None = None
        for index, value in enumerate(self.table):
            _rule_points(value, f"table[{index}]", before)
            before = value
        _rule_points(self.others, "others", before)
        if self.best is not None:
            read_int(self.best, "best", 1, MAX_BEST)


def _rule_points(value: object, path: str, before: int | None) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        raise TournamentError(path, "negative")
    points = read_int(value, path, 0, MAX_TABLE_POINTS)
    if before is not None and points > before:
        raise TournamentError(path, "points_rise", before=before)
    return points


def rule_from_dict(value: object) -> SeasonRule:
    """A rule from its JSON object (every key optional: the defaults above); TournamentError at
    the key's path on anything wrong."""
    data = read_object(value, "", RULE_KEYS)
    table: tuple[int, ...] = DEFAULT_TABLE
    if "table" in data:
        items = read_list(data["table"], "table", most=MAX_TABLE)
        table = tuple(_whole(item, f"table[{i}]") for i, item in enumerate(items))
    best = data.get("best")
    return SeasonRule(
        measure=_measure(data.get("measure", "points")),
        table=table,
        others=_whole(data.get("others", DEFAULT_OTHERS), "others"),
        best=None if best is None else read_int(best, "best", 1, MAX_BEST),
        rank=_rank(data.get("rank", "players")),
    )


def _whole(value: object, path: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TournamentError(path, "not_integer")
    return value


def _measure(value: object) -> Measure:
    return "placement" if read_choice(value, "measure", MEASURES) == "placement" else "points"


def _rank(value: object) -> RankBy:
    return "teams" if read_choice(value, "rank", RANK_BY) == "teams" else "players"


def rule_to_dict(rule: SeasonRule) -> dict[str, object]:
    """Every key, written in full (a default changing one day cannot change a season)."""
    return {
        "measure": rule.measure,
        "table": list(rule.table),
        "others": rule.others,
        "best": rule.best,
        "rank": rule.rank,
    }


def placement_points(rule: SeasonRule, place: int) -> int:
    """The points of `place` (1 is first) under the rule's table; `others` past its end."""
    read_int(place, "place", 1, MAX_PLACE)
    return rule.table[place - 1] if place <= len(rule.table) else rule.others


@dataclass(frozen=True, slots=True)
class ConcoursResult:
    """One entrant's result in one concours. `field`: how many were ranked there (teams, for a
    player who played in a team: `team` is its name then)."""

    concours: int
    date: date
    concours_name: str
    place: int
    points: int
    field: int
    team: str | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """Every result of one entrant, in date order (then concours id)."""

    key: str
    name: str
    results: tuple[ConcoursResult, ...]

    @property
    def played(self) -> int:
        return len(self.results)

    @property
    def won(self) -> int:
        return sum(1 for result in self.results if result.place == 1)

    @property
    def podiums(self) -> int:
        return sum(1 for result in self.results if result.place <= 3)

    @property
    def place_total(self) -> int:
        return sum(result.place for result in self.results)

    @property
    def average_place(self) -> float | None:
        return self.place_total / self.played if self.results else None

    @property
    def best_place(self) -> int | None:
        return min((result.place for result in self.results), default=None)

    @property
    def best(self) -> ConcoursResult | None:
        """The lowest place; among equal places the most points, then the most recent."""
        return min(
            self.results,
            key=lambda r: (r.place, -r.points, -r.date.toordinal(), -r.concours),
            default=None,
        )


def _where(c: int, f: int, p: int | None) -> str:
    at = f"concours[{c}].finishes[{f}]"
    return f"{at}.key" if p is None else f"{at}.players[{p}]"


def _entries(
    concours: Sequence[SeasonConcours], rank: RankBy
) -> Iterator[tuple[str, str, ConcoursResult]]:
    """(key, name, result) of everyone ranked, concours by concours in date order; a mêlée
    concours has none in a team ranking. (Paths are written only for an error.)"""
    seen_ids: dict[int, int] = {}
    for c, item in enumerate(concours):
        read_choice(item.kind, f"concours[{c}].kind", KINDS)
        if item.id in seen_ids:
            first = f"concours[{seen_ids[item.id]}].id"
            raise TournamentError(f"concours[{c}].id", "duplicate", value=item.id, first=first)
        seen_ids[item.id] = c
        if rank == "teams" and item.kind == "melee":
            continue
        by_players = rank == "players" and item.kind == "teams"
        field_size = len(item.finishes)
        seen: dict[str, tuple[int, int | None]] = {}  # key -> (finish, player or None)

        for f, finish in enumerate(item.finishes):
            if not 1 <= finish.place <= field_size:
                read_int(finish.place, f"concours[{c}].finishes[{f}].place", 1, field_size)
            if by_players and not finish.players:
                raise TournamentError(f"concours[{c}].finishes[{f}].players", "empty")
            result = ConcoursResult(
                concours=item.id,
                date=item.date,
                concours_name=item.name,
                place=finish.place,
                points=finish.points,
                field=field_size,
                team=finish.name if by_players else None,
            )
            people: list[tuple[str, str, int | None]] = (
                [(player.key, player.name, p) for p, player in enumerate(finish.players)]
                if by_players
                else [(finish.key, finish.name, None)]
            )
            for key, name, p in people:
                if key in seen:
                    first = _where(c, *seen[key])
                    raise TournamentError(_where(c, f, p), "duplicate", value=key, first=first)
                seen[key] = (f, p)
                yield key, name, result


def _in_order(concours: Sequence[SeasonConcours]) -> list[SeasonConcours]:
    return sorted(concours, key=lambda item: (item.date, item.id))


def records(concours: Sequence[SeasonConcours], rank: RankBy = "players") -> dict[str, Record]:
    """Every entrant's record over `concours` (a season, or every concours of a club), by key.
    Paths in errors index `concours` in date order."""
    found: dict[str, tuple[str, list[ConcoursResult]]] = {}
    for key, name, result in _entries(_in_order(concours), rank):
        results = found.setdefault(key, (name, []))[1]
        results.append(result)
        found[key] = (name, results)  # the latest spelling
    return {key: Record(key, name, tuple(results)) for key, (name, results) in found.items()}


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """One line of the season ranking, with every figure that placed it: `score`, then `won`
    (concours won), `best_place`, `played`. `counted`: the ids of the concours whose results make
    the score (all of them, or the best N)."""

    rank: int
    record: Record
    score: int
    counted: tuple[int, ...]
    won: int
    best_place: int
    played: int

    @property
    def key(self) -> str:
        return self.record.key

    @property
    def name(self) -> str:
        return self.record.name

    @property
    def podiums(self) -> int:
        return self.record.podiums

    @property
    def average_place(self) -> float:
        return self.record.place_total / self.played

    def key_for_rank(self) -> tuple[int, int, int, int]:
        """The sort key of the ranking: smaller is better; equal keys share a rank."""
        return (-self.score, -self.won, self.best_place, -self.played)


@dataclass(frozen=True, slots=True)
class SeasonRanking:
    rows: tuple[SeasonRow, ...]
    counted: tuple[int, ...]  # the ids of the concours that count (M of them), in date order

    def row(self, key: str) -> SeasonRow | None:
        return next((row for row in self.rows if row.key == key), None)


def result_value(rule: SeasonRule, result: ConcoursResult) -> int:
    """What one result is worth under the rule's measure."""
    return placement_points(rule, result.place) if rule.measure == "placement" else result.points


def _score(rule: SeasonRule, record: Record) -> tuple[int, tuple[int, ...]]:
    # Best first; among equal values the earlier concours (results are in date order).
    order = sorted(range(record.played), key=lambda i: (-result_value(rule, record.results[i]), i))
    kept = sorted(order if rule.best is None else order[: rule.best])
    values = [result_value(rule, record.results[i]) for i in kept]
    return sum(values), tuple(record.results[i].concours for i in kept)


def season_ranking(concours: Sequence[SeasonConcours], rule: SeasonRule) -> SeasonRanking:
    """The season's ranking of `concours` (the season's, any order) under `rule`."""
    ordered = _in_order(concours)
    found = records(ordered, rule.rank)
    rows = []
    for record in found.values():
        score, counted = _score(rule, record)
        places = [result.place for result in record.results]
        won = places.count(1)
        rows.append(SeasonRow(0, record, score, counted, won, min(places), len(places)))
    rows.sort(key=lambda row: (row.key_for_rank(), row.name.casefold(), row.name, row.key))
    ranked: list[SeasonRow] = []
    for index, row in enumerate(rows):
        tied = index > 0 and row.key_for_rank() == rows[index - 1].key_for_rank()
        rank = ranked[-1].rank if tied else index + 1
        figures = (row.score, row.counted, row.won, row.best_place, row.played)
        ranked.append(SeasonRow(rank, row.record, *figures))
    ids = tuple(item.id for item in ordered if rule.rank == "players" or item.kind == "teams")
    return SeasonRanking(tuple(ranked), ids)
