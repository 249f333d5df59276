"""The scoreboard, for its scorers and its viewers (polled: see polling.py)."""

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from scorekeeper.web.htmx import wants_partial
from scorekeeper.web.previews import speaks_asked_language

from .. import access, polling, previews
from ..view_helpers import HX, board_response


def _poll_shortcut(request: HttpRequest, role: str, **token: str) -> HttpResponse | None:
    """A poll of the fragment answered from the match's version alone, in one query and without
    the session (see polling.py): 204 when it asks for the version it shows (`?v=`, htmx then
    leaves the page as it is), 304 when its If-None-Match still holds. None: render it."""
    if not wants_partial(request) or polling.message_waiting(request):
        return None
    if "v" not in request.GET and "If-None-Match" not in request.headers:
        return None  # nothing to compare: the full path (no extra query)
    version = polling.version_of(**token)
    if request.GET.get("v") == str(version):
        return polling.mark(HttpResponse(status=204))
    tag = polling.etag(request, version=version, role=role)
    return polling.not_modified_response(tag) if polling.not_modified(request, tag) else None


@require_safe
@vary_on_headers(HX)
def scoreboard(request: HttpRequest, token: str) -> HttpResponse:
    shortcut = _poll_shortcut(request, polling.SCORER, scorer_token=token)
    if shortcut is not None:
        return shortcut
    match = access.match_for_scorer(request, token)
    # An account whose scorer right was withdrawn (a renewed link) sees it read-only.
    return board_response(request, match, can_score=not access.revoked(request, match))


@require_safe
@vary_on_headers(HX)
@speaks_asked_language
def viewer(request: HttpRequest, token: str) -> HttpResponse:
    shortcut = _poll_shortcut(request, polling.VIEWER, view_token=token)
    if shortcut is not None:
        return shortcut
    match = access.match_for_viewer(token)
    if not wants_partial(request):  # a first visit, not a poll: its players' pages may count it
        access.remember_view(request, match)
    # A finished match's link preview (issue 45), in the language its link asks for.
    return board_response(request, match, can_score=False, preview=previews.preview(request, match))
