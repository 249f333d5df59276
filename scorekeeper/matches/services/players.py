"""The names at the tables: a browser's (and its account's) players, and "this is me"."""

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q, QuerySet
from django.db.models.functions import Lower

from ..models import Match, MatchScorer, Player, Seat


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
