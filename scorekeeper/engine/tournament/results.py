"""A table's result (docs/tournaments.md §2): from the totals of a paper sheet, or from its deals scored
by the scoring engine with the `partie` rules; finished or pending."""

from dataclasses import dataclass
from typing import Literal

from ..scoring import InvalidInput, Rules, score_match
from .errors import from_scoring
from .tournament import Table

Winner = int | Literal["draw"] | None
Status = Literal["finished", "pending"]


@dataclass(frozen=True, slots=True)
class TableResult:
    """`points`: each side's total (the running totals of a partie under way, None before its
    first deal); `winner`: side 0 or 1, "draw", or None while pending. A finished table counts
    in the standings, a pending one counts for nothing yet."""

    status: Status
    points: tuple[int, int] | None
    winner: Winner
    reserve_lost: int = 0  # a litige reserve still held when the partie ended: nobody's

    @property
    def finished(self) -> bool:
        return self.status == "finished"


def _higher(points: tuple[int, int]) -> Winner:
    if points[0] == points[1]:
        return "draw"
    return 0 if points[0] > points[1] else 1


def table_result(rules: Rules, table: Table, path: str = "") -> TableResult:
    """The result of one table. A bad deal raises TournamentError (the scoring code) at
    `<path>.deals[i]...`."""
    if table.totals is not None:
        return TableResult("finished", table.totals, _higher(table.totals))
    if table.deals is None:
        return TableResult("pending", None, None)
    try:
        match = score_match(rules, table.deals, table.first_dealer)
    except InvalidInput as error:
        raise from_scoring(error, path) from None
    if match.finished:
        # The engine's winner; a reserve still held is lost (it is in nobody's total).
        return TableResult("finished", match.totals, match.winner, match.reserve)
    if table.ended:  # time called: the higher total wins, the reserve is lost
        return TableResult("finished", match.totals, _higher(match.totals), match.reserve)
    return TableResult("pending", match.totals, None)
