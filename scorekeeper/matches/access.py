"""Who may see and change a match. No account is needed: the browser that creates a match gets a
random device key in its session and may score its matches; anyone holding the scorer link may
score; anyone holding the read-only link may look. Ids are never in URLs, only unguessable tokens.

Player pages and "this is me" are decided here too: a player page counts only the matches its
viewer may see (`Viewer.matches`), and a name claimed through a scorer link is tied to that match."""

import secrets
from dataclasses import dataclass
from typing import Literal

from django.contrib.auth.models import User
from django.db.models import Q
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from .holder import Author, get_holder
from .models import Match, MatchQuerySet, MatchScorer, Player

DEVICE_KEY = "device"
REMEMBERED = "scored"  # scorer tokens this browser opened: new links (revoking) forget them
VIEWED = "viewed"  # read-only tokens this browser opened: the same, for its player pages
REMEMBER_AT_MOST = 100


def device_key(request: HttpRequest) -> str:
    """This browser's key, made (and so its session saved) on first need: call it only when
    something is saved for the browser. Pages that only read use existing_device_key."""
    key = request.session.get(DEVICE_KEY)
    if not isinstance(key, str):
        key = secrets.token_urlsafe(24)
        request.session[DEVICE_KEY] = key
    return key


def existing_device_key(request: HttpRequest) -> str | None:
    """This browser's key if it has one, without making one: looking at a page creates no
    session."""
    key = request.session.get(DEVICE_KEY)
    return key if isinstance(key, str) else None


def _with_seats(
    token_field: Literal["scorer_token", "view_token"], token: str, *, seats: bool = True
) -> Match:
    """The alive match of this link (a 404 otherwise), its players read with it (Match.seats)."""
    # A deleted match's links answer like unknown ones, for everyone (its owner included).
    match = get_object_or_404(Match.objects.alive(), **{token_field: token})
    if seats:
        match.seats  # noqa: B018 (the Seat rows and their players, one query, kept on the match)
    return match


def is_owner(request: HttpRequest, match: Match) -> bool:
    """The creating browser, or the account that browser signed in to."""
    if request.user.is_authenticated and match.owner_id == request.user.pk:
        return True
    return match.owner_key == request.session.get(DEVICE_KEY)


def writes_as_owner(request: HttpRequest, match: Match) -> bool:
    """The match's owner, or, for a held match, whoever runs its holder (a concours's desk,
    co-organisers included: MatchHolder.organiser). The services allow them what they allow the
    owner (Author.owner)."""
    if is_owner(request, match):
        return True
    return match.in_concours and get_holder().organiser(request, match)


def owned(request: HttpRequest) -> MatchQuerySet:
    """The matches this browser or its account owns, deleted ones included (Recently deleted)."""
    return Match.objects.of_owner(user=account(request), device_key=existing_device_key(request))


def match_for_scorer(request: HttpRequest, token: str, *, seats: bool = True) -> Match:
    """The match whose scorer link this is (404 otherwise); remembered in this browser's session
    (its list, history and player pages read it). No row is written here, even for a signed-in
    scorer: the account becomes a scorer of the match (MatchScorer, its history on every
    device) with its first change there (see services.Author), a "this is me" through the
    link, or when this browser signs in (accounts.services.claim_device). `seats=False`: a
    page that shows no player's name (the deal form) skips joining them."""
    match = _with_seats("scorer_token", token, seats=seats)
    if is_owner(request, match):
        return match
    remembered = remembered_tokens(request)
    if token not in remembered:
        request.session[REMEMBERED] = [token, *remembered][:REMEMBER_AT_MOST]
    return match


def can_score(request: HttpRequest, match: Match) -> bool:
    """Whether this browser or account may score the match: its owner, or a scorer (this browser
    opened the current scorer link, or the account scored through it on any device), unless the
    account's right was withdrawn (a renewed link: `revoked`)."""
    if is_owner(request, match):
        return True
    user = account(request)
    if user is not None:
        row = MatchScorer.objects.filter(match=match, user=user).first()
        if row is not None:
            return row.revoked_at is None
    return match.scorer_token in remembered_tokens(request)


def revoked(request: HttpRequest, match: Match) -> bool:
    """A signed-in account, not the match's owner, that scored it through a scorer link renewed
    since (MatchScorer.revoked_at): it sees the match read-only, whatever link it holds."""
    user = account(request)
    if user is None or writes_as_owner(request, match):
        return False
    rows = MatchScorer.objects.filter(match=match, user=user, revoked_at__isnull=False)
    return rows.exists()


def match_for_viewer(token: str) -> Match:
    return _with_seats("view_token", token)


def author(request: HttpRequest, match: Match, *, reading: bool = False) -> Author:
    """Who is changing the match, for the services (and the change log). `reading`: only to
    ask whether a change would be allowed (a form about to be shown): no device key is made."""
    key = (existing_device_key(request) or "") if reading else device_key(request)
    owner = writes_as_owner(request, match)
    if request.user.is_authenticated:
        scorer = None if match.owner_id == request.user.pk else request.user.pk
        return Author(key=key, label=request.user.get_username(), account_id=scorer, owner=owner)
    label = "creator" if key == match.owner_key else "scorer link"
    return Author(key=key, label=label, owner=owner)


def remembered_tokens(request: HttpRequest, key: str = REMEMBERED) -> list[str]:
    tokens = request.session.get(key, [])
    return [t for t in tokens if isinstance(t, str)] if isinstance(tokens, list) else []


def remember_view(request: HttpRequest, match: Match) -> None:
    """Remember that this browser opened the match's read-only link, so the player pages it may
    open count the match (the newest REMEMBER_AT_MOST; new links forget it). Only for a browser
    that may open a player page at all (a device key or an account): a passer-by's visit creates
    no session."""
    if not (request.session.get(DEVICE_KEY) or request.user.is_authenticated):
        return
    viewed = remembered_tokens(request, VIEWED)
    if match.view_token not in viewed:
        request.session[VIEWED] = [match.view_token, *viewed][:REMEMBER_AT_MOST]


@dataclass(frozen=True)
class Viewer:
    """Who is looking, as far as seeing matches goes (read from the request by `viewer_of`)."""

    user_id: int | None
    device_key: str | None
    scorer_tokens: tuple[str, ...] = ()
    view_tokens: tuple[str, ...] = ()

    def matches(self, prefix: str = "") -> Q:
        """The matches this viewer may see, as a condition on Match (or, with `prefix` such as
        "match__", on a model that points to one): its owner (the creating browser or account),
        its scorers (a remembered scorer token, or the account's MatchScorer row) and whoever
        opened its read-only link on this browser. Revoked tokens and deleted matches match
        nothing."""
        condition = Q(**{f"{prefix}scorer_token__in": self.scorer_tokens}) | Q(
            **{f"{prefix}view_token__in": self.view_tokens}
        )
        if self.device_key:
            condition |= Q(**{f"{prefix}owner_key": self.device_key})
        if self.user_id is not None:
            scored = MatchScorer.objects.filter(user_id=self.user_id).values("match_id")
            condition |= Q(**{f"{prefix}owner_id": self.user_id}) | Q(**{f"{prefix}id__in": scored})
        return condition & Q(**{f"{prefix}deleted_at__isnull": True})


def viewer_of(request: HttpRequest) -> Viewer:
    key = request.session.get(DEVICE_KEY)
    user = account(request)
    return Viewer(
        user_id=user.pk if user is not None else None,
        device_key=key if isinstance(key, str) else None,
        scorer_tokens=tuple(remembered_tokens(request)),
        view_tokens=tuple(remembered_tokens(request, VIEWED)),
    )


# Player pages and "this is me" -----------------------------------------------------------------


def player_page_ids(request: HttpRequest) -> set[int]:
    """The players whose page this browser may open: the names it (or its account) gave, and
    the names linked to its account. What each page shows is still only what it may see."""
    condition = Q(pk__in=[])
    key = request.session.get(DEVICE_KEY)
    if isinstance(key, str) and key:
        condition |= Q(owner_key=key)
    user = account(request)
    if user is not None:
        condition |= Q(owner=user) | Q(user=user)
    return set(Player.objects.filter(condition).values_list("pk", flat=True))


def may_open_player(request: HttpRequest, pk: int) -> bool:
    return pk in player_page_ids(request)


@dataclass(frozen=True)
class ClaimAccess:
    """How this browser may say "this is me" for a name: `through` is the match whose scorer link
    allows it (the claim then lasts as long as that access), None for the name's owner, its
    linked player and the owner of a match where it sits."""

    player: Player
    through: Match | None


def claim_access(request: HttpRequest, pk: int) -> ClaimAccess | None:
    """None: this browser may not claim (nor unclaim) the name, and should not learn it exists."""
    if may_open_player(request, pk):
        player = Player.objects.filter(pk=pk).first()
        return ClaimAccess(player, None) if player is not None else None
    user = account(request)
    if user is None:
        return None
    matches = Match.objects.alive().filter(seat_rows__player_id=pk)  # a player sits once a match
    player = Player.objects.filter(pk=pk).first()
    if player is None:
        return None
    if matches.filter(owner=user).exists():
        return ClaimAccess(player, None)
    # A scorer: the account (MatchScorer) or this browser (a scorer link it opened).
    scorer = Q(scorers__user=user) | Q(scorer_token__in=remembered_tokens(request))
    scored = matches.filter(scorer).distinct().order_by("-created_at", "-id").first()
    return ClaimAccess(player, scored) if scored is not None else None


def account(request: HttpRequest) -> User | None:
    """The signed-in account, if any: what it creates is its own at once."""
    user = request.user
    return user if isinstance(user, User) and user.is_authenticated else None
