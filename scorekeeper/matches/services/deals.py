"""A deal recorded, edited or deleted by a scorer (`Author`), each through `open_for_change`."""

from django.db import transaction
from django.db.models import Max, Q

from scorekeeper.engine.scoring import Deal as EngineDeal
from scorekeeper.engine.scoring import check_deal

from .. import holder
from ..holder import Author
from ..models import Deal, DealChange, Match
from .scores import rescore
from .writes import MatchAbandoned, MatchOver, SubmissionGone, log_change, open_for_change


def _check(match: Match, deal: EngineDeal) -> None:
    """Check the deal against the match's rules; InvalidInput's path is the deal's field."""
    check_deal(match.engine_rules, deal)


def _replayed(match: Match, submission: str | None) -> Deal | None:
    """The deal this submission already saved (a double tap), if any."""
    if not submission:
        return None
    change = DealChange.objects.filter(match=match, submission=submission).first()
    if change is None:
        return None
    row = match.deals.filter(seq=change.seq).first()
    if row is None:
        raise SubmissionGone
    return row


class _Seen:
    """What an add reads of the match before its checks, in as few queries as before there was a
    helper: its deals, and in one query both the top seq of its changes and whether this
    submission was saved already (`replayed`, for open_for_change)."""

    def __init__(self, submission: str | None) -> None:
        self.submission = submission
        self.deals: list[Deal] = []
        self.top = 0

    def replayed(self, match: Match) -> Deal | None:
        self.deals = match.deal_rows()
        seen = match.changes.aggregate(
            top=Max("seq"), replayed=Max("seq", filter=Q(submission=self.submission or None))
        )
        self.top = seen["top"] or 0
        if self.submission and seen["replayed"] is not None:
            replay = next((d for d in self.deals if d.seq == seen["replayed"]), None)
            if replay is None:
                raise SubmissionGone
            return replay
        return None


@transaction.atomic
def record_deal(
    *,
    match_id: int,
    expected_version: int | None,
    deal: EngineDeal,
    author: Author,
    submission: str | None = None,
) -> Deal:
    """Add a deal at the end. The same `submission` twice (a double tap) records it once."""
    seen = _Seen(submission)
    match, replay = open_for_change(
        match_id,
        author=author,
        action=holder.ADD,
        expected_version=expected_version,
        replayed=seen.replayed,
    )
    if replay is not None:
        return replay
    if match.is_abandoned:
        raise MatchAbandoned
    if match.is_finished:
        raise MatchOver
    _check(match, deal)
    # After every deal the match ever had: a deleted last deal's number is not reused, so a new
    # deal's history never shows the changes of the deleted one.
    deals = seen.deals
    row = Deal(match=match, seq=max(seen.top, deals[-1].seq if deals else 0) + 1)
    row.set_from_engine(deal)
    deals.append(row)
    rescore(match, deals, settled=len(deals) - 1)
    log_change(
        match,
        author,
        seq=row.seq,
        number=row.number,
        action=DealChange.Action.ADD,
        after=row.as_match_dict(),
        submission=submission or None,
    )
    return row


@transaction.atomic
def edit_deal(
    *,
    match_id: int,
    seq: int,
    expected_version: int | None,
    deal: EngineDeal,
    author: Author,
    submission: str | None = None,
) -> Deal:
    """Replace a deal's inputs. Refused (InvalidInput at `deals[i]`) if a later deal would then
    come after the end of the match."""
    match, replay = open_for_change(
        match_id,
        author=author,
        action=holder.EDIT,
        expected_version=expected_version,
        replayed=lambda match: _replayed(match, submission),
    )
    if replay is not None:
        return replay
    _check(match, deal)
    deals = match.deal_rows()
    row = next(d for d in deals if d.seq == seq)
    before = row.as_match_dict()
    row.set_from_engine(deal)
    rescore(match, deals)
    row.save()
    log_change(
        match,
        author,
        seq=seq,
        number=row.number,
        action=DealChange.Action.EDIT,
        before=before,
        after=row.as_match_dict(),
        submission=submission or None,
    )
    return row


@transaction.atomic
def delete_deal(*, match_id: int, seq: int, expected_version: int | None, author: Author) -> None:
    match, _ = open_for_change(
        match_id, author=author, action=holder.DELETE, expected_version=expected_version
    )
    deals = match.deal_rows()
    row = next(d for d in deals if d.seq == seq)
    deals.remove(row)
    before, number = row.as_match_dict(), row.number
    row.delete()
    rescore(match, deals)
    log_change(
        match,
        author,
        seq=seq,
        number=number,
        action=DealChange.Action.DELETE,
        before=before,
    )
