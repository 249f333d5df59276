"""A concours as data (docs/tournaments.md §6): entrants, rounds and their tables, and who is active in
which round (§4). Frozen dataclasses; the file module reads and writes them."""

from collections.abc import Iterator
from dataclasses import dataclass

from ..scoring import Deal
from .settings import Settings, Stage

Side = tuple[int, ...]  # one team id (mode teams) or two player ids (mêlée)


@dataclass(frozen=True, slots=True)
class Entrant:
    """A team (mode teams, with its two players' names) or a player (mêlée)."""

    id: int
    name: str
    players: tuple[str, str] | None = None
    from_round: int = 1  # the first round it may be drawn in
    written: tuple[str, ...] = ()  # the keys the file wrote, in its order


@dataclass(frozen=True, slots=True)
class Table:
    """A table of a round: its number, its two sides, and its result so far: the totals of a paper
    sheet, or the deals played (scored with the `partie` rules), or neither (not started)."""

    number: int
    sides: tuple[Side, Side]
    totals: tuple[int, int] | None = None
    deals: tuple[Deal, ...] | None = None
    first_dealer: int = 0
    ended: bool = False  # time called: the partie ends with the deals played
    written: tuple[str, ...] = ()
    deals_source: str | None = None  # the deals as the file wrote them (JSON text)

    def entrants(self) -> Iterator[tuple[int, int, int]]:
        """(side, place in the side, id) of everyone at the table, in file order."""
        for side_index, side in enumerate(self.sides):
            for place, entrant in enumerate(side):
                yield side_index, place, entrant


@dataclass(frozen=True, slots=True)
class Round:
    """A qualifying round (`stage` None), or a round of the final bracket (§7): `"final"` (the
    main bracket) or `"consolation"`; a bracket round has tables only."""

    tables: tuple[Table, ...]
    byes: tuple[int, ...] = ()
    withdrawn: tuple[int, ...] = ()  # withdrawn before this round (active no more)
    written: tuple[str, ...] = ()
    stage: Stage | None = None

    def drawn(self) -> Iterator[int]:
        """Every entrant with a table or a bye this round."""
        for table in self.tables:
            for _, _, entrant in table.entrants():
                yield entrant
        yield from self.byes


@dataclass(frozen=True, slots=True)
class Prize:
    """A prize of the final ranking (§6): the place it goes to (1 and up) and what it is."""

    place: int
    prize: str
    written: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Tournament:
    settings: Settings
    entrants: tuple[Entrant, ...] = ()
    rounds: tuple[Round, ...] = ()
    name: str | None = None
    date: str | None = None
    written: tuple[str, ...] = ()
    # The hall and the prizes (§6, optional): carried by the file, read by no rule.
    place: str | None = None
    prizes: tuple[Prize, ...] | None = None

    @property
    def qualifying(self) -> tuple[Round, ...]:
        """The qualifying rounds (every round but the final bracket's)."""
        return tuple(round_ for round_ in self.rounds if round_.stage is None)

    def entrant(self, entrant_id: int) -> Entrant:
        for entrant in self.entrants:
            if entrant.id == entrant_id:
                return entrant
        raise KeyError(entrant_id)

    def withdrawal_round(self) -> dict[int, int]:
        """Entrant id -> the (1-based) round it withdrew before."""
        out: dict[int, int] = {}
        for number, round_ in enumerate(self.rounds, start=1):
            for entrant_id in round_.withdrawn:
                out.setdefault(entrant_id, number)
        return out

    def active(self, round_number: int, withdrawn: tuple[int, ...] = ()) -> list[int]:
        """Ids of the entrants active in round `round_number` (1-based), in id order: joined at
        or before it, not withdrawn before it (in its own `withdrawn`, or `withdrawn` given for a
        round not in the file yet)."""
        gone = self.withdrawal_round()
        return sorted(
            entrant.id
            for entrant in self.entrants
            if entrant.from_round <= round_number
            and gone.get(entrant.id, round_number + 1) > round_number
            and entrant.id not in withdrawn
        )
