"""The concours's side of the matches app's one extension point (scorekeeper/matches/holder.py),
named in settings.MATCH_HOLDER: a concours holds its tables' matches (`Match.in_concours`). The
matches app asks it before each write to a table's match and tells it after, in the same
transaction, and asks it what a table's scoreboard says; it imports nothing of this app."""

from typing import TYPE_CHECKING

from django.db import OperationalError
from django.http import HttpRequest

from scorekeeper.matches.holder import Author, BoardNote, MatchHolder, ShownBoard, WriteRefused
from scorekeeper.matches.models import Match, MatchBusy, lock_wait_ended

from . import services
from .phones import runs_the_desk, scoreboard_note
from .words import write_refusal


class ConcoursTables:
    def check_write(self, match: Match, *, author: Author, action: str) -> None:
        """WriteRefused, in words, when the table's state forbids the write
        (services.check_table_write)."""
        try:
            services.check_table_write(match=match, owner=author.owner, action=action)
        except WriteRefused as refused:
            raise WriteRefused(refused.reason, write_refusal(refused.reason)) from None

    def after_write(self, match: Match) -> None:
        """The table's result follows the change (services.table_moved): the table's row, then
        the concours's, after the match's (the one order of every write, services/locks.py). A
        wait for them that runs out is the match's being busy: the phone is told to try again
        (the outbox's JSON `busy`), nothing saved."""
        try:
            services.table_moved(match=match)
        except OperationalError as error:
            if lock_wait_ended(error):
                raise MatchBusy from error
            raise

    def board_note(self, request: HttpRequest, board: ShownBoard) -> BoardNote | None:
        return scoreboard_note(request, board)

    def organiser(self, request: HttpRequest, match: Match) -> bool:
        """The concours's owner or a co-organiser (its desk's people)."""
        return runs_the_desk(request, match)


if TYPE_CHECKING:  # mypy holds the class to the protocol it is loaded as (settings.MATCH_HOLDER)
    _implements: MatchHolder = ConcoursTables()
