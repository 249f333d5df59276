"""Undo and redo: the latest change reversed, and brought back (which change: ../undo.py)."""

from django.db import transaction
from django.db.models import Q

from scorekeeper.engine.scoring import parse_deal

from .. import holder
from ..holder import Author
from ..models import Deal, DealChange, Match
from ..undo_next import next_redo, next_undo
from .scores import rescore
from .writes import log_change, open_for_change


class NothingToUndo(Exception):
    pass


class NothingToRedo(Exception):
    """No undo to reverse, or a change was made since (it ends what can be redone)."""


def _replayed_change(match: Match, submission: str | None) -> DealChange | None:
    """The undo or redo this form already made (a double tap), if any."""
    if not submission:
        return None
    return (
        DealChange.objects.filter(match=match, submission=submission)
        .filter(Q(action=DealChange.Action.UNDO) | Q(undoes__isnull=False))
        .select_related("undoes")
        .first()
    )


def _put_back(match: Match, seq: int, deal: dict[str, object] | None) -> None:
    """Set the deal at `seq` to these match-file inputs (inserted in its place if it was
    deleted), or remove it (None), and re-score the match."""
    deals = match.deal_rows()
    by_seq = {d.seq: d for d in deals}
    if deal is None:
        row = by_seq[seq]
        deals.remove(row)
        row.delete()
    else:
        restored = by_seq.get(seq) or Deal(match=match, seq=seq)
        restored.set_from_engine(parse_deal(deal))
        if restored.pk is None:
            deals.append(restored)
            deals.sort(key=lambda d: d.seq)
        else:
            restored.save()
    rescore(match, deals)


class ConfirmUndo(Exception):
    """The match is finished: undoing may change its result, so the scorer confirms first."""

    def __init__(self, change: DealChange) -> None:
        super().__init__("The match is over: confirm the undo.")
        self.change = change  # what the undo would reverse


@transaction.atomic
def undo_last_change(
    *,
    match_id: int,
    expected_version: int | None,
    author: Author,
    submission: str | None = None,
    confirmed: bool = True,
) -> DealChange:
    """Reverse the latest change not yet undone (a redo included); repeated undos walk further
    back. On a finished match, `confirmed=False` changes nothing and raises ConfirmUndo. The
    same `submission` twice (a double tap) undoes once and returns that undo."""
    match, replay = open_for_change(
        match_id,
        author=author,
        action=holder.UNDO,
        expected_version=expected_version,
        replayed=lambda match: _replayed_change(match, submission),
    )
    if replay is not None:
        return replay
    last = next_undo(match)
    if last is None:
        raise NothingToUndo
    if match.is_finished and not confirmed:
        raise ConfirmUndo(last)
    return _reverse(match, last, DealChange.Action.UNDO, author, submission)


def _reverse(
    match: Match, change: DealChange, action: str, author: Author, submission: str | None
) -> DealChange:
    """Put the deal back as it was before `change`, mark `change` undone and record the row
    that reversed it (an undo, or a redo written as the action it brings back)."""
    _put_back(match, change.seq, change.before)
    change.undone = True
    change.save(update_fields=["undone"])
    return log_change(
        match,
        author,
        seq=change.seq,
        number=change.number,
        action=action,
        before=change.after,
        after=change.before,
        undoes=change,
        submission=submission or None,
    )


@transaction.atomic
def redo_last_undo(
    *,
    match_id: int,
    expected_version: int | None,
    author: Author,
    submission: str | None = None,
) -> DealChange:
    """Bring back what the latest undo reversed, until a scorer makes a new change (then
    NothingToRedo). Recorded as the change it brings back (add, edit or delete) undoing that
    undo, so Undo reverses it again (see undo.py). A double tap redoes once."""
    match, replay = open_for_change(
        match_id,
        author=author,
        action=holder.REDO,
        expected_version=expected_version,
        replayed=lambda match: _replayed_change(match, submission),
    )
    if replay is not None:
        return replay
    undo = next_redo(match)
    if undo is None or undo.undoes is None:
        raise NothingToRedo
    return _reverse(match, undo, undo.undoes.action, author, submission)
