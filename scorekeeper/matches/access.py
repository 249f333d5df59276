"""Who may see and change a match. No account is needed: the browser that creates a match gets a
random device key in its session and may score its matches; anyone holding the scorer link may
score; anyone holding the read-only link may look. Ids are never in URLs, only unguessable tokens."""

import secrets

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from .models import Match, MatchScorer
from .services import Author

DEVICE_KEY = "device"
REMEMBERED = "scored"  # scorer tokens this browser opened: new links (revoking) forget them
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


def _with_seats(token_field: str, token: str) -> Match:
    queryset = Match.objects.select_related("seat0", "seat1", "seat2", "seat3")
    return get_object_or_404(queryset, **{token_field: token})


def is_owner(request: HttpRequest, match: Match) -> bool:
    """The creating browser, or the account that browser signed in to."""
    if request.user.is_authenticated and match.owner_id == request.user.pk:
        return True
    return match.owner_key == request.session.get(DEVICE_KEY)


def match_for_scorer(request: HttpRequest, token: str) -> Match:
    """The match whose scorer link this is (404 otherwise); remembered for this browser's list,
    and for a signed-in scorer, in the account's history."""
    match = _with_seats("scorer_token", token)
    if is_owner(request, match):
        return match
    remembered = remembered_tokens(request)
    if token not in remembered:
        request.session[REMEMBERED] = [token, *remembered][:REMEMBER_AT_MOST]
        if request.user.is_authenticated:
            MatchScorer.objects.get_or_create(match=match, user=request.user)
    return match


def can_score(request: HttpRequest, match: Match) -> bool:
    """Whether this browser or account may score the match: its owner, or a scorer (this browser
    opened the current scorer link, or the account did on any device)."""
    if is_owner(request, match) or match.scorer_token in remembered_tokens(request):
        return True
    user = account(request)
    return user is not None and MatchScorer.objects.filter(match=match, user=user).exists()


def match_for_viewer(token: str) -> Match:
    return _with_seats("view_token", token)


def author(request: HttpRequest, match: Match) -> Author:
    key = device_key(request)
    if request.user.is_authenticated:
        return Author(key=key, label=request.user.get_username())
    label = "creator" if key == match.owner_key else "scorer link"
    return Author(key=key, label=label)


def remembered_tokens(request: HttpRequest) -> list[str]:
    tokens = request.session.get(REMEMBERED, [])
    return [t for t in tokens if isinstance(t, str)] if isinstance(tokens, list) else []


def account(request: HttpRequest) -> User | None:
    """The signed-in account, if any: what it creates is its own at once."""
    user = request.user
    return user if isinstance(user, User) and user.is_authenticated else None
