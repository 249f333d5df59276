"""What the match pages share (views/): how a page tells an htmx request, builds the deal form
for a match, reads the posted version and one-time submission id, makes a service's change as
this request's author, draws the scoreboard, goes back to it after a change, and says each
refusal of the services (in words.py's words); and the deal being typed, carried to another
page and back. Not a page itself: the view modules import it, never each other."""

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper.engine.scoring.form_reading import SUBMISSION, VERSION_MAX, form_fields
from scorekeeper.web.htmx import wants_partial
from scorekeeper.web.previews import Preview

from . import access, polling, services
from .board import board_note, build_board
from .forms import DealForm
from .models import Match
from .words import REFUSALS, Refusal, refusal, said

HX = "HX-Request"


def deal_form(match: Match, data: Mapping[str, Any] | None = None, **kwargs: Any) -> DealForm:
    """The deal form of `match` (its rules, its teams' and players' names), bound to `data`
    when given: the one place it is built, for the deal pages and the outbox alike."""
    return DealForm(
        data,
        rules=match.engine_rules,
        team_names=match.team_names,
        seat_names=[match.seat_name(seat) for seat in range(4)],
        **kwargs,
    )


def posted_version(request: HttpRequest) -> int | None:
    """A one-tap form's version (the deal form's limits: form_reading.VERSION_MAX); anything
    else is no version. (The outbox refuses it instead: views/outbox.py.)"""
    raw = request.POST.get("version", "")
    fits = raw.isdecimal() and len(raw) <= len(str(VERSION_MAX))
    return int(raw) if fits else None


def posted_submission(request: HttpRequest) -> str | None:
    """The form's one-time id (the deal form's pattern: form_reading.SUBMISSION); anything else
    is ignored."""
    raw = request.POST.get("submission", "")
    return raw if SUBMISSION.search(raw) else None


def change_by[T](
    request: HttpRequest,
    match: Match,
    service: Callable[..., T],
    stamp: Mapping[str, Any] | None = None,
    **change: Any,
) -> Callable[[], T]:
    """A service's change of `match` made by this request's author, stamped with the version
    its page was drawn at (checked: another phone may have saved first) and its one-time
    submission id (a double tap saves once): `stamp` is a form's cleaned data, else the POST's
    own (posted_version, posted_submission). The one preamble of a deal's record, edit, undo
    and redo, on the pages and from the outbox."""
    if stamp is None:
        stamp = {"version": posted_version(request), "submission": posted_submission(request)}
    return partial(
        service,
        match_id=match.pk,
        expected_version=stamp.get("version"),
        author=access.author(request, match),
        submission=stamp.get("submission") or None,
        **change,
    )


def board_response(
    request: HttpRequest,
    match: Match,
    *,
    can_score: bool,
    confirm_undo: dict[str, str] | None = None,
    preview: Preview | None = None,
) -> HttpResponse:
    # A poll that already has this version gets 204: htmx leaves the page as it is.
    if wants_partial(request) and request.GET.get("v") == str(match.version):
        return polling.mark(HttpResponse(status=204))
    board = build_board(match, scorer_token=match.scorer_token if can_score else None)
    note = board_note(request, board)  # another app's word on the match (a concours's table)
    if note is not None and note.read_only and can_score:
        can_score = False
        board = build_board(match)
    template = "matches/scoreboard.html"
    if wants_partial(request):
        template += "#scoreboard"
    # The page polls the board itself, also when it was swapped in by a POST (passed, undo).
    poll_url = (
        reverse("matches:scoreboard", args=[match.scorer_token])
        if can_score
        else reverse("matches:viewer", args=[match.view_token])
    )
    context = {
        "board": board,
        "note": note,
        "match": match,
        "can_score": can_score,
        "is_owner": can_score and access.is_owner(request, match),  # the Manage link
        "poll_url": poll_url,
        "submission": uuid.uuid4().hex,  # the "All passed" form: a double tap records one deal
        "confirm_undo": confirm_undo,  # the question before undoing in a finished match
        "preview": preview,  # a finished match's link preview tags (issue 45)
    }
    response = render(request, template, context)
    if wants_partial(request) and request.method in ("GET", "HEAD"):  # a poll: tagged for the next
        role = polling.SCORER if can_score else polling.VIEWER
        polling.mark(response, polling.etag(request, version=match.version, role=role))
    return response


def after_change(request: HttpRequest, match: Match) -> HttpResponseBase:
    """PRG: back to the scoreboard (htmx swaps it in place instead), where this browser may
    still see it: see board_url."""
    if wants_partial(request):
        token = match.scorer_token
        match.refresh_from_db()
        if match.scorer_token != token and not access.writes_as_owner(request, match):
            return HttpResponseClientRedirect(reverse("matches:viewer", args=[match.view_token]))
        return board_response(request, match, can_score=not access.revoked(request, match))
    return redirect(board_url(request, match))


def board_url(request: HttpRequest, match: Match) -> str:
    """Where a scorer page goes back to after a change (or a refusal): the scoreboard by the
    link it came with. A change may end that link (a concours table's Nth deal ends its phones:
    MatchHolder.after_write renews its scorer link in the same transaction): then the owner goes on
    by the new link, anyone else to the match's read-only board, which says why."""
    token = match.scorer_token
    if match.in_concours:  # the only matches whose link a change may renew
        current = Match.objects.filter(pk=match.pk).values_list("scorer_token", flat=True).first()
        if current is not None and current != token:
            if access.writes_as_owner(request, match):
                return reverse("matches:scoreboard", args=[current])
            return reverse("matches:viewer", args=[match.view_token])
    return reverse("matches:scoreboard", args=[token])


def refused_here(request: HttpRequest, match: Match, action: str) -> HttpResponseBase | None:
    """A form whose saving could only be refused (a concours table whose time is called, an
    account whose scorer right was withdrawn...) is not shown: back to the scoreboard with the
    reason. None: show it. Writes nothing but the message."""
    try:
        services.check_write(
            match=match, author=access.author(request, match, reading=True), action=action
        )
    except services.WriteRefused as refused:
        say(request, refusal(refused))
        return redirect(board_url(request, match))
    return None


def say(request: HttpRequest, refused: Refusal) -> None:
    """A refusal as a message on the next page."""
    messages.add_message(request, refused.level, refused.words)


def no_more_deals(request: HttpRequest, match: Match) -> None:
    say(request, said("abandoned" if match.is_abandoned else "over"))


@dataclass(frozen=True)
class NotSaved:
    """What `attempt` returns when a service refused the change; the refusal is already said (a
    message for the next page, or an error on the form). `stay`: show the form again, with
    `version` (the match's version now) when another phone saved first."""

    stay: bool = False
    version: int | None = None


def attempt[T](
    request: HttpRequest, change: Callable[[], T], *, form: forms.Form | None = None
) -> T | NotSaved:
    """Run a service's change; each refusal of the services is said (words.refusal). With a
    `form` (the deal forms), a changed match, a busy one or an invalid deal keeps the form on
    screen (the form says why); without one (a one-tap action), every refusal is a message on
    the scoreboard."""
    try:
        return change()
    except REFUSALS as error:
        refused = refusal(error)
    if form is not None and refused.code in ("changed", "busy", "invalid"):
        if refused.code != "changed":  # the form's page says "changed" itself
            form.add_error(None, refused.words)
        return NotSaved(stay=True, version=refused.version)
    say(request, refused)
    return NotSaved(version=refused.version)


def carried_deal(source: QueryDict, match: Match) -> dict[str, str]:
    """The deal form's fields found in `source`: the deal being typed, taken to the card-counting
    helper and back (initial values only: nothing is checked until the form is sent)."""
    if not source:
        return {}  # the usual case: no deal carried
    names = form_fields(match.engine_rules)  # the deal form's, without building it
    values = {name: str(source.get(name)) for name in names if source.get(name)}
    return {name: value for name, value in values.items() if len(value) <= 1000}  # a note at most
