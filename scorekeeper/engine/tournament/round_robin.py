"""Round robin (docs/tournaments.md §7, `pairing: "round_robin"`, teams mode): everyone meets
everyone once, by the circle method.

L is the ids of the teams entered for round 1 in ascending order, with `None` appended when
their number is odd (its partner has the bye); n = len(L). Round k pairs `L[i]` with
`L[n − 1 − i]` for i = 0 … n/2 − 1, the lower position on side 0, tables numbered from 1 in that
order skipping the pairs that are not a table; then L keeps `L[0]` and moves its last element to
position 1 for the next round. At most n − 1 rounds. A team withdrawn before a round leaves its
opponent that round on a bye; two withdrawn teams paired leave no one."""

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from .tournament import Tournament

Slot = int | None  # a team id, or None: the bye of an odd number of teams


@dataclass(frozen=True, slots=True)
class Schedule:
    """One round of the schedule: the tables (side 0, side 1) numbered from 1 in this order, and
    the teams on a bye."""

    pairs: tuple[tuple[int, int], ...]
    byes: tuple[int, ...]

    def opponent(self, team: int) -> int | None:
        """The team's opponent this round (None: a bye or not in the round)."""
        for a, b in self.pairs:
            if team in (a, b):
                return b if team == a else a
        return None


def circle(teams: Sequence[int]) -> list[Slot]:
    """L: the teams in ascending order, with None appended when their number is odd."""
    slots: list[Slot] = [*sorted(teams)]
    if len(slots) % 2:
        slots.append(None)
    return slots


def max_rounds(teams: int) -> int:
    """The most rounds a round robin of `teams` teams can have: n − 1 (n: teams, rounded up to
    even)."""
    return teams + teams % 2 - 1


def rotate(slots: Sequence[Slot]) -> list[Slot]:
    """The circle method's move: `L[0]` stays, the last element moves to position 1."""
    if len(slots) < 3:
        return list(slots)
    return [slots[0], slots[-1], *slots[1:-1]]


def pairs_of_round(teams: Sequence[int], number: int) -> list[tuple[Slot, Slot]]:
    """Round `number` (1-based) of the schedule: the pairs `(L[i], L[n − 1 − i])` in order,
    byes included (a pair with None)."""
    slots = circle(teams)
    for _ in range(number - 1):
        slots = rotate(slots)
    n = len(slots)
    return [(slots[i], slots[n - 1 - i]) for i in range(n // 2)]


def schedule_round(teams: Sequence[int], number: int, gone: Collection[int] = ()) -> Schedule:
    """Round `number` (1-based) for `teams` (the teams entered for round 1), `gone` having
    withdrawn before it: the tables and the byes."""
    pairs: list[tuple[int, int]] = []
    byes: list[int] = []
    for a, b in pairs_of_round(teams, number):
        present = [x for x in (a, b) if x is not None and x not in gone]
        if len(present) == 2:
            pairs.append((present[0], present[1]))
        else:
            byes.extend(present)
    return Schedule(tuple(pairs), tuple(byes))


def entered(tournament: Tournament) -> list[int]:
    """The teams of the round robin: every entrant (a round robin takes no late entry), by id."""
    return sorted(entrant.id for entrant in tournament.entrants)


def gone_before(tournament: Tournament, number: int, withdrawn: Collection[int] = ()) -> set[int]:
    """Teams withdrawn before round `number` (1-based), `withdrawn` too (its own withdrawals when
    it is not in the file yet)."""
    rounds = tournament.withdrawal_round()
    return {team for team, at in rounds.items() if at <= number} | set(withdrawn)
