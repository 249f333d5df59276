"""Every write to matches and deals. Each function is keyword-only and atomic: it locks the match
row, checks the version the caller saw, applies the change, re-scores the whole match through the
engine and rewrites the cached scores, all in one transaction. A failure changes nothing.

A match held by another app (`in_concours`: a concours's table) is also checked by that app
before each deal is written, and told of the change after the re-score, in the same transaction
(hooks.py): `WriteRefused` says why it refused."""

import random
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max, Q, QuerySet
from django.db.models.functions import Lower
from django.utils import timezone

from scorekeeper.engine.scoring import Deal as EngineDeal
from scorekeeper.engine.scoring import (
    InvalidInput,
    MatchDeal,
    MatchFile,
    MatchResult,
    Rules,
    Team,
    check_deal,
    decode_json,
    parse_deal,
    score_match,
)
from scorekeeper.engine.scoring.breakdown import STORED_BREAKDOWN, Line, line_to_data

from . import hooks as holder
from .hooks import Author as Author  # who writes: defined with the hooks that are told
from .hooks import WriteRefused
from .models import Deal, DealChange, Match, MatchScorer, Player, Seat, new_token
from .models import MatchBusy as MatchBusy  # raised by Match.objects.locked: the views word it
from .undo import next_redo, next_undo

__all__ = ["WriteRefused"]  # raised here, defined with the hooks that raise it too

# The match's own cache (set by _set_result), beside each deal's CACHE_FIELDS.
MATCH_CACHE_FIELDS = ("total0", "total1", "reserve", "deal_count", "status", "winner")
CACHE_FIELDS = [
    "number", "outcome", "score0", "score1", "total0", "total1", "reserve_after", "dealer", "texts"
]  # fmt: skip


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


class MatchHeld(Exception):
    """A concours table's match: deleted, restored or abandoned only with its concours."""


def _unfrozen(match: Match) -> Match:
    if match.frozen_at is not None:
        raise MatchFrozen
    return match


class NothingToUndo(Exception):
    pass


class NothingToRedo(Exception):
    """No undo to reverse, or a change was made since (it ends what can be redone)."""


class SubmissionGone(Exception):
    """This form was saved before, and the deal it saved has since been undone or deleted: it is
    not saved a second time (a page brought back with the browser's back button)."""


def check_write(*, match: Match, author: Author, action: str) -> None:
    """Whether `author` may make this change now (WriteRefused if not), without making it: a
    page asks before showing a form that could only be refused. Reads only."""
    _may_write(match, author, action)


def _may_write(match: Match, author: Author, action: str) -> None:
    """Refuse (WriteRefused) an account whose scorer right was withdrawn (`link_renewed`: it
    reached the match through a scorer link renewed since, see revoke_scorer_links), and
    whatever the match's holder refuses (hooks.check_write). Nothing is written before."""
    if author.account_id is not None and not author.owner:
        revoked = MatchScorer.objects.filter(
            match_id=match.pk, user_id=author.account_id, revoked_at__isnull=False
        )
        if revoked.exists():
            raise WriteRefused("link_renewed")
    if match.in_concours:
        holder.hooks().check_write(match, author=author, action=action)


def _log_change(match: Match, author: Author, **change: Any) -> DealChange:
    """Write a change of the match's deals (DealChange) made by `author`, and record a
    signed-in scorer's account as a scorer of the match."""
    if author.account_id is not None:
        MatchScorer.objects.get_or_create(match=match, user_id=author.account_id)
    return DealChange.objects.create(
        match=match, author_key=author.key, author=author.label, **change
    )


def _named_by(owner_key: str, owner: User | None) -> QuerySet[Player]:
    """The names this browser gave, and those of its account on any device."""
    condition = Q(owner_key=owner_key)
    if owner is not None:
        condition |= Q(owner=owner)
    return Player.objects.filter(condition)


def get_or_create_player(*, owner_key: str, name: str, owner: User | None = None) -> Player:
    """The player of that name this browser (or its account) already knows, else a new one: the
    same name at an account's tables on two phones is one player, so statistics gather."""
    name = " ".join(name.split())
    known = _named_by(owner_key, owner).filter(name__iexact=name)
    # This browser's own name first (the one the unique constraint is about), then the account's.
    player = known.filter(owner_key=owner_key).first() or known.order_by("pk").first()
    return player or Player.objects.create(owner_key=owner_key, owner=owner, name=name)


def known_player_names(owner_key: str, owner: User | None = None, limit: int = 50) -> list[str]:
    names = _named_by(owner_key, owner).order_by(Lower("name")).values_list("name", flat=True)
    seen: dict[str, str] = {}  # one name however many browsers gave it
    for name in names[: limit * 2]:
        seen.setdefault(name.casefold(), name)
    return list(seen.values())[:limit]


@transaction.atomic
def create_match(
    *,
    owner_key: str,
    owner: User | None = None,
    rules: Rules,
    team_names: tuple[str, str],
    players: Sequence[str | None] = (None, None, None, None),
    first_dealer: int | None = 0,
    rematch_of: Match | None = None,
    in_concours: bool = False,
) -> Match:
    """A new match of this browser (and of its account when signed in). `players` are the four
    seats in playing order; `first_dealer` None draws one; `in_concours`: a concours's table."""
    seats = [
        get_or_create_player(owner_key=owner_key, owner=owner, name=name) if name else None
        for name in players
    ]
    if first_dealer is None:
        first_dealer = random.SystemRandom().randrange(4)
    match = Match.objects.create(
        owner_key=owner_key,
        owner=owner,
        rules=rules.to_dict(),
        preset=rules.preset,
        game=rules.game,
        team0_name=team_names[0],
        team1_name=team_names[1],
        first_dealer=first_dealer,
        rematch_of=rematch_of,
        in_concours=in_concours,
    )
    _seat([match], [seats])
    return match


def _seat(matches: Sequence[Match], players: Sequence[Sequence[Player | None]]) -> None:
    """Write the Seat rows of these saved matches (a blank seat has none), and keep the players
    on each match (Match.seats), in one INSERT per IMPORT_BATCH seats."""
    rows = []
    for match, seated in zip(matches, players, strict=True):
        match.set_seats({n: player for n, player in enumerate(seated) if player is not None})
        rows += [
            Seat(match=match, player=player, position=n)
            for n, player in enumerate(seated)
            if player is not None
        ]
    Seat.objects.bulk_create(rows, batch_size=IMPORT_BATCH)


def rematch(*, match: Match, owner_key: str, owner: User | None = None) -> Match:
    """Same teams, players and rules; the first deal passes to the next seat."""
    return create_match(
        owner_key=owner_key,
        owner=owner,
        rules=match.engine_rules,
        team_names=match.team_names,
        players=[p.name if p else None for p in match.seats],
        first_dealer=(match.first_dealer + 1) % 4,
        rematch_of=match,
    )


@transaction.atomic
def regenerate_links(*, match_id: int) -> Match:
    """New read-only and scorer links: the old ones stop working at once, and the accounts that
    scored through the old scorer link lose the match from their history, and the names they
    claimed through it."""
    match = Match.objects.locked(match_id)
    MatchScorer.objects.filter(match=match).delete()
    # Names claimed through the old scorer link ("I am Anna") go with it; the owner's own claims
    # and those of the names' owners stay.
    Player.objects.filter(claimed_through=match).update(user=None, claimed_through=None)
    match.view_token, match.scorer_token = new_token(), new_token()
    match.version += 1
    match.save(update_fields=["view_token", "scorer_token", "version", "updated_at"])
    return match


@transaction.atomic
def revoke_scorer_links(*, match_ids: Sequence[int], accounts: bool = False) -> list[Match]:
    """New scorer links for these matches, their read-only links kept: whoever holds an old
    scorer link may score no more (a concours's table once its round is closed, its partie
    over, or its phone link renewed). Scorers' accounts and the names claimed keep the match
    (they played it). `accounts`: the link was renewed because it may be in the wrong hands
    (a lost phone): the accounts that scored through it lose the right to write too
    (MatchScorer.revoked_at; they keep the match, read-only), even with the new link. Each
    version moves: pages polling it render again."""
    matches = list(Match.objects.select_for_update().filter(pk__in=list(match_ids)).order_by("pk"))
    for match in matches:
        match.scorer_token = new_token()
        match.version += 1
    Match.objects.bulk_update(matches, ["scorer_token", "version"])
    if accounts:
        MatchScorer.objects.filter(match__in=matches, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    return matches


def _higher(totals: tuple[int, int]) -> int | None:
    """The team with more points; None when equal (a draw)."""
    return None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)


@transaction.atomic
def type_result(*, match_id: int, totals: tuple[int, int]) -> Match:
    """The match's result typed by hand, not scored from its deals (a concours table's paper
    sheet, or the organiser's correction): finished with these totals, won by the higher (equal:
    a draw); its deals stay as they were scored, and the pages say the result was typed
    (`Match.typed_at`). Not a deal change (its holder decides; its holder is not told): allowed
    on a frozen match (a closed round's correction)."""
    match = Match.objects.locked(match_id)
    match.typed_at = timezone.now()
    match.total0, match.total1 = totals
    match.reserve = 0
    match.status = Match.Status.FINISHED
    match.winner = _higher(totals)
    match.finished_at = match.finished_at or match.typed_at
    match.version += 1
    match.save(
        update_fields=[*MATCH_CACHE_FIELDS, "typed_at", "finished_at", "version", "updated_at"]
    )
    return match


@transaction.atomic
def end_match(*, match_id: int) -> Match:
    """End the match now with the deals played, before its rules end it (a concours table's
    time called): finished, won by the higher total (equal: a draw), a reserve still held not
    awarded; its deals may still be corrected (the result follows), none is added. Its holder
    is told, as after a deal. A match already ended stays as it is."""
    match = _unfrozen(Match.objects.locked(match_id))
    if match.ended_at is None:
        match.ended_at = timezone.now()
        match.save(update_fields=["ended_at"])
        rescore(match, match.deal_rows())
    return match


class ClaimRefused(Exception):
    """A name cannot be linked to this account: `reason` is "taken" (linked to another account)
    or "same_table" (it sat in a match with a name already linked to this account)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _shares_a_table(player: Player, user_id: int) -> bool:
    """Whether `player` sat in a match with a name already linked to this account."""
    return Seat.objects.filter(
        player__user_id=user_id, match__seat_rows__player_id=player.pk
    ).exists()


@transaction.atomic
def claim_player(*, player_id: int, user: User, through: Match | None) -> Player:
    """Say "this is me": link the name to `user`. `through` is the match whose scorer link allowed
    the claim (revoking its links drops the claim); None when the name's owner, the player
    already linked or the owner of one of its matches claims it. Two names of one table cannot
    be one person (the statistics would count it twice)."""
    player = Player.objects.select_for_update().get(pk=player_id)
    if player.user_id == user.pk:
        return player
    if player.user_id is not None:
        raise ClaimRefused("taken")
    if _shares_a_table(player, user.pk):
        raise ClaimRefused("same_table")
    player.user, player.claimed_through = user, through
    player.save(update_fields=["user", "claimed_through"])
    return player


@transaction.atomic
def this_is_me(*, player_id: int, user: User, through: Match | None, undo: bool = False) -> bool:
    """A player's "this is me" (or, `undo`, "this is not me"): link the name to `user` (see
    claim_player; ClaimRefused when it cannot be) or let it go. A claim allowed by a scorer link
    (`through`) also records the account as a scorer of that match, as its first change there
    would. False: an undo found the name not linked to this account (nothing changed)."""
    if undo:
        return release_player(player_id=player_id, user=user)
    claim_player(player_id=player_id, user=user, through=through)
    if through is not None:
        MatchScorer.objects.get_or_create(match=through, user=user)
    return True


@transaction.atomic
def release_player(*, player_id: int, user: User) -> bool:
    """Say "this is not me": the account lets go of the name. False if it was not linked to it."""
    released = Player.objects.filter(pk=player_id, user=user).update(
        user=None, claimed_through=None
    )
    return released > 0


@transaction.atomic
def unlink_player(*, match_id: int, player_id: int) -> tuple[Player, User] | None:
    """The match's owner takes a name of its table back from the account that claimed it, so the
    right player can claim it. Returns the name and the account it was linked to; None (nothing
    changed) if the name does not sit at this table or is linked to nobody."""
    match = Match.objects.locked(match_id)
    if not Seat.objects.filter(match_id=match.pk, player_id=player_id).exists():
        return None
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    if player is None or player.user is None:
        return None
    former = player.user
    player.user, player.claimed_through = None, None
    player.save(update_fields=["user", "claimed_through"])
    return player, former


def _lock(match_id: int, expected_version: int | None, author: Author, action: str) -> Match:
    match = _unfrozen(Match.objects.locked(match_id))
    _may_write(match, author, action)
    if expected_version is not None and match.version != expected_version:
        raise MatchChanged(match)
    return match


def _cache(row: Deal, scored: MatchDeal, names: tuple[str, str], *, settled: bool = False) -> bool:
    """Write the engine's result for this deal onto its row; whether anything changed. A
    `settled` row (its inputs and every deal before it unchanged since its breakdown was written
    by this engine) keeps its breakdown unless one of its figures moved or it has none."""
    values = {
        "number": scored.number,
        "outcome": scored.outcome,
        "score0": scored.scores[0],
        "score1": scored.scores[1],
        "total0": scored.totals[0],
        "total1": scored.totals[1],
        "reserve_after": scored.reserve,
        "dealer": scored.dealer,
    }
    dirty = any(getattr(row, k) != v for k, v in values.items())
    for key, value in values.items():
        setattr(row, key, value)
    if settled and not dirty and STORED_BREAKDOWN in row.texts:
        return False
    return store_breakdown(row, scored.breakdown) or dirty


def store_breakdown(row: Deal, lines: Sequence[Line]) -> bool:
    """Keep the deal's breakdown on its row as the engine's data, in no language (`Deal.texts`):
    the page words it when drawn (`scorekeeper.web.words`), so a corrected translation shows at once,
    without re-scoring, and the scoreboard still does not run the engine. Whether it changed."""
    texts = {STORED_BREAKDOWN: [line_to_data(line) for line in lines]}
    changed: bool = row.texts != texts
    row.texts = texts
    return changed


def _set_result(match: Match, result: MatchResult) -> None:
    """The match's own cache: totals, reserve, deal count, status, winner, end time (a typed
    result, see type_result, keeps its totals: only the deal count follows the deals; a match
    its holder ended, see end_match, is finished whatever its rules say)."""
    if match.typed_at is not None:
        match.deal_count = len(result.deals)
        return
    was_finished = match.is_finished
    match.total0, match.total1 = result.totals
    match.reserve = result.reserve
    match.deal_count = len(result.deals)
    # Ended by its holder (end_match): finished with the deals played, the higher total winning.
    finished = result.finished or match.ended_at is not None
    match.status = Match.Status.FINISHED if finished else Match.Status.PLAYING
    if result.finished:
        match.winner = result.winner if isinstance(result.winner, int) else None
    else:
        match.winner = _higher(result.totals) if finished else None
    if finished and not was_finished:
        match.finished_at = timezone.now()
    elif not finished:
        match.finished_at = None


def _write_caches(match: Match, deals: list[Deal], *, settled: int = 0) -> tuple[MatchResult, bool]:
    """Score `deals` (in order) with the match's rules and write every cache: new rows inserted
    in one query, changed ones updated in one, the match's own fields set (not saved). Returns
    the result and whether any cached value changed. The first `settled` deals are known to be
    as they were (a deal added at the end changes nothing before it: the engine scores in order),
    so their texts are not written again unless a figure of theirs moved."""
    result = score_match(match.engine_rules, [d.to_engine() for d in deals], match.first_dealer)
    changed: list[Deal] = []
    new: list[Deal] = []
    for index, (row, scored) in enumerate(zip(deals, result.deals, strict=True)):
        dirty = _cache(row, scored, match.team_names, settled=index < settled)
        if row.pk is None:
            new.append(row)
        elif dirty:
            changed.append(row)
    if new:
        Deal.objects.bulk_create(new)
    if changed:
        Deal.objects.bulk_update(changed, CACHE_FIELDS)
    before = [getattr(match, name) for name in MATCH_CACHE_FIELDS]
    _set_result(match, result)
    after = [getattr(match, name) for name in MATCH_CACHE_FIELDS]
    return result, bool(new or changed) or after != before


def rescore(match: Match, deals: list[Deal], *, settled: int = 0) -> MatchResult:
    """Score `deals` (in order), write every cache and move the match to its next version; its
    holder, if any, is told (hooks.after_write)."""
    result, _ = _write_caches(match, deals, settled=settled)
    match.version += 1
    match.save(update_fields=[*MATCH_CACHE_FIELDS, "finished_at", "version", "updated_at"])
    _tell_holder(match)
    return result


def _tell_holder(match: Match) -> None:
    if match.in_concours:
        holder.hooks().after_write(match)


@transaction.atomic
def refresh_scores(*, match_id: int) -> bool:
    """Score a stored match again with this version of the engine (after an upgrade that changed
    how a rule is read) and rewrite its cached scores; whether anything changed. Its deals and
    their history are untouched, and the version only moves when a score did."""
    match = Match.objects.locked(match_id)
    _, changed = _write_caches(match, match.deal_rows())
    if changed:
        match.version += 1
        match.save()
        _tell_holder(match)
    return changed


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
    match = Match.objects.locked(match_id)
    deals = match.deal_rows()
    # One query tells both whether this submission was saved already and the next seq.
    seen = match.changes.aggregate(
        top=Max("seq"), replayed=Max("seq", filter=Q(submission=submission or None))
    )
    if submission and seen["replayed"] is not None:
        replay = next((d for d in deals if d.seq == seen["replayed"]), None)
        if replay is None:
            raise SubmissionGone
        return replay
    _unfrozen(match)
    _may_write(match, author, holder.ADD)
    if expected_version is not None and match.version != expected_version:
        raise MatchChanged(match)
    if match.is_abandoned:
        raise MatchAbandoned
    if match.is_finished:
        raise MatchOver
    _check(match, deal)
    # After every deal the match ever had: a deleted last deal's number is not reused, so a new
    # deal's history never shows the changes of the deleted one.
    row = Deal(match=match, seq=max(seen["top"] or 0, deals[-1].seq if deals else 0) + 1)
    row.set_from_engine(deal)
    deals.append(row)
    rescore(match, deals, settled=len(deals) - 1)
    _log_change(
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
    match = Match.objects.locked(match_id)
    replay = _replayed(match, submission)
    if replay is not None:
        return replay
    _unfrozen(match)
    _may_write(match, author, holder.EDIT)
    if expected_version is not None and match.version != expected_version:
        raise MatchChanged(match)
    _check(match, deal)
    deals = match.deal_rows()
    row = next(d for d in deals if d.seq == seq)
    before = row.as_match_dict()
    row.set_from_engine(deal)
    rescore(match, deals)
    row.save()
    _log_change(
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
    match = _lock(match_id, expected_version, author, holder.DELETE)
    deals = match.deal_rows()
    row = next(d for d in deals if d.seq == seq)
    deals.remove(row)
    before, number = row.as_match_dict(), row.number
    row.delete()
    rescore(match, deals)
    _log_change(
        match,
        author,
        seq=seq,
        number=number,
        action=DealChange.Action.DELETE,
        before=before,
    )


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
    match = Match.objects.locked(match_id)
    replay = _replayed_change(match, submission)
    if replay is not None:
        return replay
    _unfrozen(match)
    _may_write(match, author, holder.UNDO)
    if expected_version is not None and match.version != expected_version:
        raise MatchChanged(match)
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
    return _log_change(
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
    match = Match.objects.locked(match_id)
    replay = _replayed_change(match, submission)
    if replay is not None:
        return replay
    _unfrozen(match)
    _may_write(match, author, holder.REDO)
    if expected_version is not None and match.version != expected_version:
        raise MatchChanged(match)
    undo = next_redo(match)
    if undo is None or undo.undoes is None:
        raise NothingToRedo
    return _reverse(match, undo, undo.undoes.action, author, submission)


MAX_DEALS = 1000  # a match file with more is no real match (and its scoreboard would be huge)


def check_importable(match_file: MatchFile) -> MatchFile:
    """What the app asks of a match file beyond the format: four different players and a
    believable number of deals. InvalidInput names the place, as the engine's checks do."""
    if len(match_file.deals) > MAX_DEALS:
        raise InvalidInput("deals", "too_many_deals", max=MAX_DEALS)
    seen: set[str] = set()
    for index, team in enumerate(match_file.teams):
        for name in team.players or ():
            key = " ".join(name.split()).casefold()
            if key and key in seen:
                raise InvalidInput(f"teams[{index}].players", "sits_twice", name=name)
            seen.add(key)
    return match_file


def deals_in(data: bytes) -> int:
    """The deals a match file holds, read quickly (JSON only, no checks); InvalidInput if it is
    not JSON."""
    document = decode_json(data)
    if isinstance(document, dict) and isinstance(document.get("deals"), list):
        return len(document["deals"])
    return 0


def import_match(*, match_file: MatchFile, owner_key: str, owner: User | None = None) -> Match:
    """Create a match from a parsed match file (already fully checked by the engine)."""
    return import_matches(match_files=[match_file], owner_key=owner_key, owner=owner)[0]


IMPORT_BATCH = 500  # rows per INSERT


def import_matches(
    *,
    match_files: Sequence[MatchFile],
    owner_key: str,
    owner: User | None = None,
    results: Sequence[MatchResult] | None = None,
) -> list[Match]:
    """Create these matches, in order, with their deals scored by the engine (`results`: their
    scores when the caller already has them). Everything is scored and built first, with no
    transaction open; then one transaction writes it all, a few queries per batch whatever the
    number of matches (seed_demo --bulk). A backup is restored one match per call
    (history/exports.py), so that no write holds the database for long."""
    if results is None:
        results = [match_file.score() for match_file in match_files]
    built: list[tuple[Match, list[Deal], tuple[str | None, ...]]] = []
    for match_file, result in zip(match_files, results, strict=True):
        first, second = match_file.teams
        match = Match(
            owner_key=owner_key,
            owner=owner,
            rules=match_file.rules.to_dict(),
            preset=match_file.rules.preset,
            game=match_file.rules.game,
            team0_name=first.name,
            team1_name=second.name,
            first_dealer=match_file.first_dealer,
            version=1,
        )
        _set_result(match, result)
        rows = new_deal_rows(match, match_file.deals)
        for row, scored in zip(rows, result.deals, strict=True):
            _cache(row, scored, match.team_names)
        # Seats in playing order: team 0 player 1, team 1 player 1, team 0 player 2, ...
        names = [*(first.players or (None, None)), *(second.players or (None, None))]
        built.append((match, rows, (names[0], names[2], names[1], names[3])))
    return _write_imported(built, owner_key=owner_key, owner=owner)


@transaction.atomic
def _write_imported(
    built: list[tuple[Match, list[Deal], tuple[str | None, ...]]],
    *,
    owner_key: str,
    owner: User | None,
) -> list[Match]:
    players: dict[str, Player] = {}

    def seat(name: str | None) -> Player | None:
        if not name:
            return None
        key = " ".join(name.split()).casefold()
        if key not in players:
            players[key] = get_or_create_player(owner_key=owner_key, owner=owner, name=name)
        return players[key]

    seats = [[seat(name) for name in seated] for _match, _rows, seated in built]
    matches = [match for match, _rows, _seated in built]
    Match.objects.bulk_create(matches, batch_size=IMPORT_BATCH)
    _seat(matches, seats)
    Deal.objects.bulk_create(
        [row for _m, rows, _s in built for row in rows], batch_size=IMPORT_BATCH
    )
    return matches


def new_deal_rows(match: Match, deals: Sequence[EngineDeal]) -> list[Deal]:
    """Unsaved rows for these deals, in order (`rescore` saves them with their scores)."""
    rows = []
    for seq, deal in enumerate(deals, start=1):
        row = Deal(match=match, seq=seq)
        row.set_from_engine(deal)
        rows.append(row)
    return rows


def match_file_for(match: Match, rows: list[Deal] | None = None) -> MatchFile:
    """The match as a match file: its frozen rules, teams, players and every deal's inputs
    (`rows`, its deals in order, when the caller already has them)."""
    if rows is None:
        rows = match.deal_rows()
    teams = []
    for team in (0, 1):
        first, second = match.seats[team], match.seats[team + 2]
        players = (first.name, second.name) if first and second else None
        teams.append(Team(match.team_names[team], players))
    return MatchFile(
        rules=match.engine_rules,
        teams=(teams[0], teams[1]),
        first_dealer=match.first_dealer,
        deals=tuple(d.to_engine() for d in rows),
    )


# Deleting, restoring, abandoning a match (its owner's decisions; access.is_owner checks it) ------


class NotRestorable(Exception):
    """The match is not deleted, or was deleted too long ago (DELETED_KEPT_DAYS)."""


def _set(match: Match, **values: object) -> Match:
    """Write these fields and move the match to its next version, so that every phone polling
    its board sees the change at once (and a deleted match's board stops answering)."""
    for name, value in values.items():
        setattr(match, name, value)
    match.version += 1
    match.save(update_fields=[*values, "version", "updated_at"])
    return match


def _not_held(match: Match) -> Match:
    if match.in_concours:
        raise MatchHeld
    return match


@transaction.atomic
def delete_match(*, match_id: int) -> Match:
    """Soft delete: the match leaves every page, list, statistic and file, and its links answer
    404; its owner may restore it for DELETED_KEPT_DAYS, then `purge_deleted` drops it."""
    match = _not_held(Match.objects.locked(match_id))
    if match.deleted_at is not None:
        return match
    return _set(match, deleted_at=timezone.now())


@transaction.atomic
def restore_match(*, match_id: int) -> Match:
    match = _not_held(Match.objects.locked(match_id))
    if not Match.objects.restorable().filter(pk=match.pk).exists():
        raise NotRestorable
    return _set(match, deleted_at=None)


@transaction.atomic
def abandon_match(*, match_id: int, abandoned: bool = True) -> Match:
    """Abandon a match in play (kept and shown, marked, no more deals, out of win rates), or
    resume it (`abandoned=False`). A finished match has nothing to abandon: MatchOver."""
    match = _not_held(Match.objects.locked(match_id))
    if match.is_abandoned == abandoned:
        return match
    if abandoned and match.is_finished:
        raise MatchOver
    return _set(match, abandoned_at=timezone.now() if abandoned else None)


def purge_deleted(*, now: datetime | None = None) -> int:
    """Delete for good the matches deleted DELETED_KEPT_DAYS ago or more (their deals, changes
    and scorers with them); how many matches went."""
    ids = list(Match.objects.expired(now).values_list("pk", flat=True))
    purged = 0
    for start in range(0, len(ids), PURGE_BATCH):
        batch = Match.objects.filter(pk__in=ids[start : start + PURGE_BATCH]).expired(now)
        with transaction.atomic():  # a match restored meanwhile is no longer expired: kept
            _, counts = batch.delete()
        purged += counts.get(Match._meta.label, 0)
    return purged


PURGE_BATCH = 200  # matches per transaction: a long purge never holds the write lock for long
