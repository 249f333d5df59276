"""The final bracket (docs/tournaments.md §7, setting `final`): seeding, its rounds, their checks,
the next round to draw and every entrant's `final_place`.

After the `rounds` qualifying rounds are all finished, the `size` best active entrants of the
standings (by rank, then id) are seeded 1 … size. Bracket round 1 pairs the seeds in the standard
order (`standard_order`: for 8, 1–8, 4–5, 2–7, 3–6), the better seed on side 0; each later round
pairs the winners of neighbouring tables, the upper (lower-numbered) table's winner on side 0. A
bracket table always has a winner: on equal totals the better seed goes through. With
`third_place`, the semi-final losers play table 2 of the round holding the final (the upper
semi-final's loser on side 0). With `consolation` (8 or 16), the losers of bracket round 1 play
their own bracket, seeded in their seed order and paired the same way (no third-place table).

The bracket's rounds are drawn one at a time, in the order of `sequence`: depth by depth, the
main bracket's round before the consolation's of the same depth (8 with consolation: quarter
finals, consolation semi-finals, semi-finals, consolation final, final). Each is a round of the
file, `{"stage": "final" | "consolation", "tables": [...]}`, after the qualifying rounds, its
tables played with `final.partie`.

Places: the main bracket's winner 1, its final's loser 2, the semi-final losers 3 and 4 by the
third-place table (both 3 without one); the losers of a round of k ≥ 4 tables share place k + 1.
With `consolation`, the losers of round 1 are placed by their bracket the same way from place
size/2 + 1 (for 8: 5, 6, then 7 shared). Everyone outside the bracket follows in qualifying order
from place size + 1 (equal ranks share a place). A place not settled yet is None.

The data for a desk page is `bracket_state`: every round of the bracket (drawn or not), its tables
with their seeds, sides, points and winner, the next round to draw, the seeds and the places."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .errors import TournamentError
from .results import TableResult
from .settings import Final, Settings, Stage
from .standings import RoundResult, Standing, round_results, standings
from .tournament import Tournament

TableStatus = Literal["waiting", "pending", "finished"]
Slot = int | None  # an entrant id, or None: not known yet


def standard_order(size: int) -> list[int]:
    """The seeds of a bracket of `size` (a power of two) in table order, two by two: 1 and 2 meet
    only in the final. 4: [1, 4, 2, 3]; 8: [1, 8, 4, 5, 2, 7, 3, 6]."""
    order = [1]
    while len(order) < size:
        count = 2 * len(order)
        order = [seed for top in order for seed in (top, count + 1 - top)]
    return order


def depths(size: int) -> int:
    """How many rounds a bracket of `size` entrants has (4: 2, 8: 3, 16: 4)."""
    return size.bit_length() - 1


@dataclass(frozen=True, slots=True)
class Step:
    """One round of the bracket in draw order: its stage, its depth in its own bracket (1 first)
    and how many tables it has (the third-place table included)."""

    stage: Stage
    depth: int
    tables: int


def sequence(final: Final) -> tuple[Step, ...]:
    """Every bracket round in the order they are drawn: depth by depth, the main bracket's round
    before the consolation's of the same depth."""
    main = depths(final.size)
    consolation = depths(final.size // 2) if final.consolation else 0
    steps: list[Step] = []
    for depth in range(1, main + 1):
        tables = final.size >> depth
        if depth == main and final.third_place:
            tables += 1
        steps.append(Step("final", depth, tables))
        if depth <= consolation:
            steps.append(Step("consolation", depth, (final.size // 2) >> depth))
    return tuple(steps)


@dataclass(frozen=True, slots=True)
class BracketTable:
    """A table of the bracket. `seeds`: the main-bracket seed (1 … size) of each side's entrant,
    `sides`: their ids (None: not known yet, e.g. "winner of table 1"); `points` and `winner`
    (the side that goes through, 0 or 1, never a draw) once played; `status` "waiting" (its
    round not drawn yet), "pending" or "finished"; `third_place`: the third-place table."""

    number: int
    seeds: tuple[int | None, int | None]
    sides: tuple[Slot, Slot]
    points: tuple[int, int] | None = None
    winner: int | None = None
    status: TableStatus = "waiting"
    third_place: bool = False

    @property
    def through(self) -> Slot:
        """The entrant who goes through (None until the table is finished)."""
        return None if self.winner is None else self.sides[self.winner]

    @property
    def out(self) -> Slot:
        """The entrant who loses (None until the table is finished)."""
        return None if self.winner is None else self.sides[1 - self.winner]


@dataclass(frozen=True, slots=True)
class BracketRound:
    """A round of the bracket: its stage and depth (1 first, in its own bracket), `entrants` at
    its start (2: a final, 4: semi-finals, 8: quarter-finals, 16), `round`: the 1-based number of
    the file's round holding it (None: not drawn yet), its tables."""

    stage: Stage
    depth: int
    entrants: int
    round: int | None
    tables: tuple[BracketTable, ...]

    @property
    def finished(self) -> bool:
        return all(table.status == "finished" for table in self.tables)


@dataclass(frozen=True, slots=True)
class Bracket:
    """The whole bracket for a desk page or a projector.

    `seeds`: the entrant ids of seeds 1 … size (empty until every qualifying round is finished);
    `rounds`: every round of `sequence`, drawn or not; `next`: the index in `rounds` of the round
    `pair_round` draws next (None: nothing to draw now, or the bracket is complete);
    `places`: entrant id -> final place (None while not settled), for every entrant;
    `short`: active entrants after qualifying, when fewer than `size` (the bracket cannot be
    seeded), else None."""

    size: int
    consolation: bool
    third_place: bool
    seeds: tuple[int, ...]
    rounds: tuple[BracketRound, ...]
    next: int | None
    places: dict[int, int | None]
    short: int | None = None

    @property
    def complete(self) -> bool:
        return all(round_.finished and round_.round is not None for round_ in self.rounds)


def qualifying_finished(tournament: Tournament, results: Sequence[RoundResult]) -> bool:
    """Every qualifying round is in the file and finished."""
    settings = tournament.settings
    done = [
        result
        for round_, result in zip(tournament.rounds, results, strict=True)
        if round_.stage is None
    ]
    return len(done) == settings.rounds and all(result.finished for result in done)


def seeding(tournament: Tournament, rows: Sequence[Standing]) -> tuple[list[int], int]:
    """The active entrants after qualifying in standing order (rank, then id), and how many
    they are; the first `size` of them are the seeds."""
    active = set(tournament.active(tournament.settings.rounds))
    order = [row.id for row in rows if row.id in active]
    return order, len(order)


def _winner(result: TableResult, seeds: tuple[int | None, int | None]) -> int | None:
    """The side that goes through: the table's winner; on equal totals the better seed."""
    if not result.finished:
        return None
    if result.winner == "draw":
        a, b = seeds
        return 0 if a is None or b is None or a < b else 1
    return result.winner if isinstance(result.winner, int) else None


def _pairs(slots: Sequence[Slot]) -> list[tuple[Slot, Slot]]:
    return [(slots[i], slots[i + 1]) for i in range(0, len(slots), 2)]


class _Walk:
    """Walks the bracket rounds in draw order, comparing the file's rounds with what the bracket
    expects (`strict`: a TournamentError at the first difference, with its path)."""

    def __init__(
        self, tournament: Tournament, results: Sequence[RoundResult], rows: Sequence[Standing]
    ) -> None:
        settings: Settings = tournament.settings
        assert settings.final is not None
        self.tournament, self.results, self.final = tournament, results, settings.final
        self.first = settings.rounds  # index of the first bracket round in the file
        self.ready = qualifying_finished(tournament, results)
        order, active = seeding(tournament, rows) if self.ready else ([], 0)
        self.short = active if self.ready and active < self.final.size else None
        self.seeds: tuple[int, ...] = (
            tuple(order[: self.final.size]) if self.ready and self.short is None else ()
        )
        self.seed_of = {entrant: i for i, entrant in enumerate(self.seeds, start=1)}

    def slots(self, seeds: Sequence[int]) -> list[Slot]:
        """A bracket's first-round slots from its entrants in seed order."""
        return [seeds[s - 1] for s in standard_order(len(seeds))]

    def run(self) -> tuple[BracketRound, ...]:
        size = self.final.size
        main: list[Slot] = self.slots(self.seeds) if self.seeds else [None] * size
        consolation: list[Slot] = [None] * (size // 2)
        semis: list[BracketTable] = []
        out: list[BracketRound] = []
        for index, step in enumerate(sequence(self.final)):
            slots = main if step.stage == "final" else consolation
            pairs = _pairs(slots)
            if step.stage == "final" and step.depth == depths(size) and self.final.third_place:
                pairs.append((semis[0].out, semis[1].out) if semis else (None, None))
            round_ = self._round(index, step, pairs, len(slots))
            out.append(round_)
            winners = [table.through for table in round_.tables if not table.third_place]
            if step.stage == "final":
                main = winners
                if step.depth == depths(size) - 1:
                    semis = list(round_.tables)
                if step.depth == 1 and round_.finished and round_.round is not None:
                    losers = sorted((t.out for t in round_.tables), key=self._seed_key)
                    consolation = self.slots([x for x in losers if x is not None])
            else:
                consolation = winners
        return tuple(out)

    def _seed_key(self, entrant: Slot) -> int:
        return self.seed_of.get(entrant, 0) if entrant is not None else 0

    def _round(
        self, index: int, step: Step, pairs: list[tuple[Slot, Slot]], entrants: int
    ) -> BracketRound:
        at = self.first + index
        file_round = self.tournament.rounds[at] if at < len(self.tournament.rounds) else None
        tables: list[BracketTable] = []
        by_number: dict[int, int] = {}
        if file_round is not None:
            by_number = {table.number: t for t, table in enumerate(file_round.tables)}
        for number, (a, b) in enumerate(pairs, start=1):
            seeds = (self.seed_of.get(a) if a else None, self.seed_of.get(b) if b else None)
            third = step.stage == "final" and step.depth == depths(self.final.size) and number == 2
            if file_round is None or number not in by_number:
                tables.append(BracketTable(number, seeds, (a, b), third_place=third))
                continue
            t = by_number[number]
            result = self.results[at].tables[t]
            winner = _winner(result, seeds)
            tables.append(
                BracketTable(
                    number,
                    seeds,
                    (a, b),
                    result.points,
                    winner,
                    "finished" if winner is not None else "pending",
                    third,
                )
            )
        return BracketRound(
            step.stage,
            step.depth,
            entrants,
            at + 1 if file_round is not None else None,
            tuple(tables),
        )


def _expected(walked: BracketRound) -> dict[int, tuple[Slot, Slot]]:
    return {table.number: table.sides for table in walked.tables}


def check_bracket(tournament: Tournament, results: Sequence[RoundResult]) -> None:
    """The file's bracket rounds against the bracket: each in its place in `sequence`, after
    every qualifying round is finished, enough active entrants to seed it, and exactly the
    expected tables (numbers and sides). TournamentError at the first difference."""
    final = tournament.settings.final
    if final is None:
        return
    walk = _Walk(tournament, results, standings(tournament, results))
    steps = sequence(final)
    first = walk.first
    bracket_rounds = tournament.rounds[first:]
    if not bracket_rounds:
        return
    if walk.short is not None:
        raise TournamentError(
            f"rounds[{first}]", "too_few_for_final", size=final.size, active=walk.short
        )
    walked = walk.run()
    for j, round_ in enumerate(bracket_rounds):
        path = f"rounds[{first + j}]"
        if round_.stage != steps[j].stage:
            raise TournamentError(
                f"{path}.stage", "bracket_stage", expected=steps[j].stage, depth=steps[j].depth
            )
        expected = _expected(walked[j])
        for t, table in enumerate(round_.tables):
            table_path = f"{path}.tables[{t}]"
            if table.number not in expected:
                raise TournamentError(f"{table_path}.table", "bracket_table", max=len(expected))
            for side in (0, 1):
                want = expected[table.number][side]
                if table.sides[side] != (want,):
                    raise TournamentError(
                        f"{table_path}.sides[{side}]", "bracket_side",
                        expected=want, table=table.number,
                    )  # fmt: skip
        numbers = {table.number for table in round_.tables}
        for number in expected:
            if number not in numbers:
                raise TournamentError(f"{path}.tables", "bracket_table_missing", table=number)


def _bracket_places(
    rounds: Sequence[BracketRound], stage: Stage, offset: int, places: dict[int, int | None]
) -> None:
    """The places a bracket settles, from `offset` + 1 (main: 0)."""
    for round_ in rounds:
        if round_.stage != stage:
            continue
        count = round_.entrants // 2  # its tables, the third-place one aside
        for table in round_.tables:
            if table.winner is None:
                continue
            through, out = table.through, table.out
            assert through is not None and out is not None
            if table.third_place:
                places[through], places[out] = offset + 3, offset + 4
            elif count == 1:
                places[through], places[out] = offset + 1, offset + 2
            elif count == 2 and any(t.third_place for t in rounds[-1].tables):
                continue  # placed by the third-place table
            else:
                places[out] = offset + count + 1


def final_places(
    tournament: Tournament,
    walked: Sequence[BracketRound],
    seeds: Sequence[int],
    rows: Sequence[Standing],
) -> dict[int, int | None]:
    """Every entrant's final place (None while not settled), from the bracket's rounds as
    `bracket_state` walks them, the seeds and the qualifying standings (`Bracket.places` is
    this)."""
    final = tournament.settings.final
    assert final is not None
    places: dict[int, int | None] = {entrant.id: None for entrant in tournament.entrants}
    if not seeds:
        return places
    main = [round_ for round_ in walked if round_.stage == "final"]
    _bracket_places(main, "final", 0, places)
    if final.consolation:
        for table in main[0].tables:  # round 1 losers: placed by the consolation bracket
            if table.out is not None:
                places[table.out] = None
        rest = [round_ for round_ in walked if round_.stage == "consolation"]
        _bracket_places(rest, "consolation", final.size // 2, places)
    inside = set(seeds)
    outside = [row for row in rows if row.id not in inside]
    for index, row in enumerate(outside):
        tied = index > 0 and row.rank == outside[index - 1].rank
        previous = places[outside[index - 1].id] if tied else None
        places[row.id] = previous if previous is not None else final.size + 1 + index
    return places


def bracket_state(
    tournament: Tournament, results: Sequence[RoundResult] | None = None
) -> Bracket | None:
    """The final bracket as data for a desk page (None when the concours has no `final`): see
    `Bracket`. A tournament read by `parse_tournament` is consistent; for one built otherwise
    (from a database), run `check_tournament` first: a bracket round whose tables are not the
    bracket's would lend its results to the bracket's expected sides."""
    final = tournament.settings.final
    if final is None:
        return None
    if results is None:
        results = round_results(tournament)
    rows = standings(tournament, results)
    walk = _Walk(tournament, results, rows)
    walked = walk.run()
    drawn = len(tournament.rounds) - walk.first
    last_finished = not results or results[-1].finished
    following = drawn if 0 <= drawn < len(walked) else None
    can_draw = walk.ready and walk.short is None and last_finished
    return Bracket(
        size=final.size,
        consolation=final.consolation,
        third_place=final.third_place,
        seeds=walk.seeds,
        rounds=walked,
        next=following if can_draw else None,
        places=final_places(tournament, walked, walk.seeds, rows),
        short=walk.short,
    )
