"""What every write of a match's deals checks first (`open_for_change`: lock the match, replay a
double tap, refuse a frozen match, a withdrawn scorer or what the match's holder refuses, then a
stale version) and writes last (`log_change`), and the refusals they raise."""

from collections.abc import Callable
from typing import Any

from .. import holder
from ..holder import Author, WriteRefused
from ..models import DealChange, Match, MatchScorer


class MatchChanged(Exception):
    """The match changed since the caller loaded it (another phone saved first)."""

    def __init__(self, match: Match) -> None:
        super().__init__("The match changed since you loaded it.")
        self.match = match


class MatchOver(Exception):
    """No deal can be added to a finished match."""


class MatchAbandoned(MatchOver):
    """Nor to an abandoned one (until its owner resumes it)."""


class MatchFrozen(Exception):
    """A concours table's match whose round is closed: its deals change no more here (the
    concours desk corrects its result)."""


class SubmissionGone(Exception):
    """This form was saved before, and the deal it saved has since been undone or deleted: it is
    not saved a second time (a page brought back with the browser's back button)."""


def unfrozen(match: Match) -> Match:
    if match.frozen_at is not None:
        raise MatchFrozen
    return match


def check_write(*, match: Match, author: Author, action: str) -> None:
    """Whether `author` may make this change now (WriteRefused if not), without making it: a
    page asks before showing a form that could only be refused. Reads only."""
    _may_write(match, author, action)


def _may_write(match: Match, author: Author, action: str) -> None:
    """Refuse (WriteRefused) an account whose scorer right was withdrawn (`link_renewed`: it
    reached the match through a scorer link renewed since, see revoke_scorer_links), and
    whatever the match's holder refuses (MatchHolder.check_write). Nothing is written before."""
    if author.account_id is not None and not author.owner:
        revoked = MatchScorer.objects.filter(
            match_id=match.pk, user_id=author.account_id, revoked_at__isnull=False
        )
        if revoked.exists():
            raise WriteRefused("link_renewed")
    if match.in_concours:
        holder.get_holder().check_write(match, author=author, action=action)


def log_change(match: Match, author: Author, **change: Any) -> DealChange:
    """Write a change of the match's deals (DealChange) made by `author`, and record a
    signed-in scorer's account as a scorer of the match."""
    if author.account_id is not None:
        MatchScorer.objects.get_or_create(match=match, user_id=author.account_id)
    return DealChange.objects.create(
        match=match, author_key=author.key, author=author.label, **change
    )


def open_for_change[T](
    match_id: int,
    *,
    author: Author,
    action: str,
    expected_version: int | None,
    replayed: Callable[[Match], T | None] | None = None,
) -> tuple[Match, T | None]:
    """The preamble of every write of a match's deals, inside its transaction: lock the match
    row; `replayed(match)`, if given, returns what this submission already did (a double tap):
    then `(match, that)`, and nothing is checked nor written; else refuse a frozen match
    (MatchFrozen), what `author` may not do now (`action`: holder.ADD...; WriteRefused), and a
    match that changed since the caller loaded it (MatchChanged), and return `(match, None)`."""
    match = Match.objects.locked(match_id)
    if replayed is not None:
        replay = replayed(match)
        if replay is not None:
            return match, replay
    unfrozen(match)
    _may_write(match, author, action)
    if expected_version is not None and match.version != expected_version:
        raise MatchChanged(match)
    return match, None
