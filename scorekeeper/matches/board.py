"""The scoreboard as the templates need it, read in a constant number of queries (the match with
its seats, and its deals). Every figure is the engine's, cached on the rows by services.rescore in
the same transaction as the change; the page reads them and each deal's breakdown (kept as the
engine's data, in no language) and words it in the page's language (scorekeeper.web.words) instead of
re-running the engine, which keeps a 300-deal scoreboard fast."""

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from scorekeeper.engine.scoring import MatchResult, Rules, score_match
from scorekeeper.engine.scoring.breakdown import STORED_BREAKDOWN
from scorekeeper.web.words import breakdown, deal_summary, stored_breakdown

from .holder import BoardNote as BoardNote  # defined with the holder's protocol, which makes it
from .holder import get_holder
from .models import Deal, Match
from .undo_next import redo_label, undo_and_redo, undo_label

SEATS = 4


@dataclass(frozen=True)
class DealLinks:
    edit: str
    delete: str
    log: str  # the deal's change log


@dataclass(frozen=True)
class BoardDeal:
    row: Deal
    dealt_by: str
    summary: str
    lines: list[str]
    links: DealLinks | None  # None for a read-only viewer


@dataclass
class Board:
    match: Match
    rules: Rules
    deals: list[BoardDeal]  # newest first
    rows: list[Deal] = field(repr=False)
    dealer: str
    speaker: str
    # What the scorer's Undo and Redo buttons would do, in words (None: no button).
    undo_label: str | None = None
    redo_label: str | None = None

    @property
    def totals(self) -> tuple[int, int]:
        return (self.match.total0, self.match.total1)

    @property
    def finished(self) -> bool:
        return self.match.is_finished

    @property
    def winner(self) -> int | None:
        return self.match.winner

    @property
    def winner_name(self) -> str | None:
        winner = self.match.winner
        return self.match.team_names[winner] if winner is not None else None

    @property
    def reserve(self) -> int:
        return self.match.reserve

    @property
    def scored_deals(self) -> int:
        """Deals that count towards a deals limit (passed ones do not)."""
        return sum(1 for row in self.rows if row.kind != Deal.Kind.PASSED)

    @cached_property
    def result(self) -> MatchResult:
        """The engine's full result, for pages that need more than the cache (the review)."""
        return score_match(
            self.rules, [row.to_engine() for row in self.rows], self.match.first_dealer
        )


def _seq_url(name: str, token: str) -> Callable[[int], str]:
    # One reverse() per page rather than three per deal: the URL with seq 0, split around it.
    head, tail = reverse(name, args=[token, 0]).rsplit("/0/", 1)
    return lambda seq: f"{head}/{seq}/{tail}"


def build_board(match: Match, *, scorer_token: str | None = None) -> Board:
    """`scorer_token` gives each deal its edit, delete and change log links."""
    rows = match.deal_rows()
    names = match.team_names
    seat_names = [match.seat_name(seat) for seat in range(SEATS)]
    dealt_by = _("Dealt by %(dealer)s")
    links = None
    if scorer_token is not None:
        edit = _seq_url("matches:deal_edit", scorer_token)
        delete = _seq_url("matches:deal_delete", scorer_token)
        log = _seq_url("matches:deal_log", scorer_token)
    board = Board(
        match=match,
        rules=match.engine_rules,
        deals=[],
        rows=rows,
        dealer=seat_names[(match.first_dealer + len(rows)) % SEATS],
        speaker=seat_names[(match.first_dealer + len(rows) + 1) % SEATS],
    )
    # Each row keeps its breakdown as data (services.store_breakdown), worded here in the page's
    # language; rows written before that are shown from the engine (read-only).
    fresh = None if all(STORED_BREAKDOWN in row.texts for row in rows) else board.result.deals
    for index, row in enumerate(rows):
        summary = deal_summary(row, names)
        if fresh is None:
            lines = stored_breakdown(row.texts[STORED_BREAKDOWN], names)
        else:
            lines = breakdown(fresh[index].breakdown, names)
        dealer = row.dealer if fresh is None else fresh[index].dealer
        if scorer_token is not None:
            links = DealLinks(edit(row.seq), delete(row.seq), log(row.seq))
        board.deals.append(
            BoardDeal(
                row=row,
                dealt_by=dealt_by % {"dealer": seat_names[dealer]},
                summary=summary,
                lines=lines,
                links=links,
            )
        )
    board.deals.reverse()
    if scorer_token is not None:  # one to three queries, whatever the number of deals
        last, undone = undo_and_redo(match)
        board.undo_label = undo_label(last) if last is not None else None
        board.redo_label = redo_label(undone) if undone is not None else None
    return board


def board_note(request: HttpRequest, board: Board) -> BoardNote | None:
    """The holder's word on a held match's scoreboard (holder.py); None, and no query, for any
    other match."""
    if not board.match.in_concours:
        return None
    return get_holder().board_note(request, board)
