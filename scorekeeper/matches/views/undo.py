"""Undo and redo, one tap each (an undo on a finished match asks first)."""

import uuid

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_headers

from scorekeeper.web.htmx import wants_partial

from .. import access, services
from ..models import DealChange, Match
from ..undo_next import change_words, reversed_words, undo_label
from ..view_helpers import (
    HX,
    NotSaved,
    after_change,
    attempt,
    board_response,
    change_by,
    posted_submission,
)


@require_POST
@vary_on_headers(HX)
def undo(request: HttpRequest, token: str) -> HttpResponseBase:
    """Undo the latest change. On a finished match the first tap asks (a confirmation page, or
    the board with the question in place of the buttons through htmx) and changes nothing."""
    match = access.match_for_scorer(request, token)
    try:
        confirmed = request.POST.get("confirm") == "yes"
        undo_it = change_by(request, match, services.undo_last_change, confirmed=confirmed)
        change = attempt(request, undo_it)
    except services.ConfirmUndo as ask:  # a question, not a refusal
        return _confirm_undo(request, match, ask.change)
    if not isinstance(change, NotSaved):
        messages.success(request, _("Undone: %(change)s.") % {"change": reversed_words(change)})
    return after_change(request, match)


def _confirm_undo(request: HttpRequest, match: Match, change: DealChange) -> HttpResponse:
    confirm = {"label": undo_label(change), "what": change_words(change)}
    if wants_partial(request):
        return board_response(request, match, can_score=True, confirm_undo=confirm)
    submission = posted_submission(request) or f"{uuid.uuid4().hex}-undo"
    context = {"match": match, "confirm_undo": confirm, "undo_submission": submission}
    return render(request, "matches/undo_confirm.html", context)


@require_POST
@vary_on_headers(HX)
def redo(request: HttpRequest, token: str) -> HttpResponseBase:
    """Bring back what the latest undo reversed (until a new change is made)."""
    match = access.match_for_scorer(request, token)
    change = attempt(request, change_by(request, match, services.redo_last_undo))
    if not isinstance(change, NotSaved):
        messages.success(request, _("Redone: %(change)s.") % {"change": change_words(change)})
    return after_change(request, match)
