"""A match as a whole: creating one (and its rematch), its links, its result typed or its end
called by its holder, and its owner's decisions (delete, restore, abandon; access.is_owner checks
it)."""

import random
from collections.abc import Sequence
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from scorekeeper.engine.scoring import Rules

from ..models import Match, MatchScorer, Player, Seat, new_token
from .players import get_or_create_player
from .scores import MATCH_CACHE_FIELDS, higher_total, rescore
from .writes import MatchOver, unfrozen

IMPORT_BATCH = 500  # rows per INSERT


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
    seat_players([match], [seats])
    return match


def seat_players(matches: Sequence[Match], players: Sequence[Sequence[Player | None]]) -> None:
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
    matches = Match.objects.locked_many(match_ids)
    for match in matches:
        match.scorer_token = new_token()
        match.version += 1
    Match.objects.bulk_update(matches, ["scorer_token", "version"])
    if accounts:
        MatchScorer.objects.filter(match__in=matches, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    return matches


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
    match.winner = higher_total(totals)
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
    match = unfrozen(Match.objects.locked(match_id))
    if match.ended_at is None:
        match.ended_at = timezone.now()
        match.save(update_fields=["ended_at"])
        rescore(match, match.deal_rows())
    return match


class NotRestorable(Exception):
    """The match is not deleted, or was deleted too long ago (DELETED_KEPT_DAYS)."""


class MatchHeld(Exception):
    """A concours table's match: deleted, restored or abandoned only with its concours."""


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
