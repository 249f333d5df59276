"""Who may run a concours's desk (issue 15): its owner, signed in, or a browser holding its
co-organiser link; owner-only actions; who typed a result. Every organiser page (the desk, the
prints, the files, a table's New link) asks here."""

import secrets
from typing import Any

from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from .models import Tournament

# The co-organiser link (`/concours/co/<co_token>/`) grants the browser that opens it the desk of
# that concours, signed in or not. The session keeps the grants under this key as a dict
# {"<tournament pk>": "<co_token at the time>"}; a grant holds while the concours's co_token is
# still that token ("New link" kills it at once). At most CO_GRANTS concours are kept (the
# oldest grant dropped first).
CO_SESSION_KEY = "concours_co"
CO_GRANTS = 20
# ResultChange.author_label of what a co-organiser types (results, corrections, time called).
CO_LABEL = "co-organiser link"


def is_owner(request: HttpRequest, tournament: Tournament) -> bool:
    return bool(request.user.is_authenticated and tournament.owner_id == request.user.pk)


def co_granted(request: HttpRequest, tournament: Tournament) -> bool:
    """Whether this browser holds a live co-organiser grant for the concours: its session's
    `request.session["concours_co"]` (CO_SESSION_KEY) is a dict {"<tournament pk>": "<co_token>"}
    written by `co_link`, and the token must still be the concours's `co_token`."""
    grants = request.session.get(CO_SESSION_KEY)
    token = grants.get(str(tournament.pk)) if isinstance(grants, dict) else None
    return isinstance(token, str) and secrets.compare_digest(token, tournament.co_token)


def is_organiser(request: HttpRequest, tournament: Tournament) -> bool:
    """Whoever may open the desk: its owner, or a browser with a co-organiser grant."""
    return is_owner(request, tournament) or co_granted(request, tournament)


def co_organised(request: HttpRequest) -> list[Tournament]:
    """The concours this browser helps run (live grants only), newest first: one query."""
    grants = request.session.get(CO_SESSION_KEY)
    if not isinstance(grants, dict) or not grants:
        return []
    pks = [int(key) for key in grants if isinstance(key, str) and key.isdecimal()]
    found = Tournament.objects.filter(pk__in=pks).order_by("-created_at")
    return [t for t in found if co_granted(request, t) and not is_owner(request, t)]


def own(request: HttpRequest, pk: int) -> Tournament:
    """The concours's desk: its owner (signed in) or a browser holding a live co-organiser
    grant; 404 for anyone else (no hint it exists)."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if is_organiser(request, tournament):
        return tournament
    raise Http404


def owner_only(request: HttpRequest, pk: int) -> Tournament:
    """What only the owner may do (a new co-organiser link, the settings, deleting the concours):
    404 for a co-organiser as for anyone else."""
    tournament = get_object_or_404(Tournament, pk=pk)
    if is_owner(request, tournament):
        return tournament
    raise Http404


def author(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """Who typed a result, for the change log: the owner, or the co-organiser link (with the
    account it was opened in, if any)."""
    user = request.user if request.user.is_authenticated else None
    label = "" if is_owner(request, tournament) else CO_LABEL
    return {"author": user, "author_label": label}


def grant_co(request: HttpRequest, tournament: Tournament) -> None:
    """This browser opened the concours's co-organiser link: its grant, the newest kept."""
    grants = request.session.get(CO_SESSION_KEY)
    kept = {
        key: value
        for key, value in (grants.items() if isinstance(grants, dict) else ())
        if key != str(tournament.pk)
    }
    kept = dict(list(kept.items())[-(CO_GRANTS - 1) :])
    request.session[CO_SESSION_KEY] = {**kept, str(tournament.pk): tournament.co_token}
