"""What the match pages share (views/): how a page tells an htmx request, reads the posted
version and one-time submission id, draws the scoreboard, goes back to it after a change, and
words each refusal of the services; and the deal being typed, carried to another page and back.
Not a page itself: the view modules import it, never each other."""

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper.engine.scoring import InvalidInput
from scorekeeper.web.htmx import wants_partial
from scorekeeper.web.previews import Preview
from scorekeeper.web.words import describe

from . import access, polling, services
from .board import board_note, build_board
from .forms import DealForm
from .models import Match

HX = "HX-Request"


def posted_version(request: HttpRequest) -> int | None:
    raw = request.POST.get("version", "")
    return int(raw) if raw.isdecimal() and len(raw) < 10 else None


SUBMISSION = re.compile(r"[A-Za-z0-9_-]{1,64}")


def posted_submission(request: HttpRequest) -> str | None:
    """The form's one-time id (see DealForm.submission); anything else is ignored."""
    raw = request.POST.get("submission", "")
    return raw if SUBMISSION.fullmatch(raw) else None


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
    hooks.after_write renews its scorer link in the same transaction): then the owner goes on
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
        write_refused_message(request, refused)
        return redirect(board_url(request, match))
    return None


def write_refused_message(request: HttpRequest, refused: services.WriteRefused) -> None:
    words = refused.words or str(WRITE_REFUSALS.get(refused.reason, ""))
    messages.error(request, words or _("This change is not allowed: nothing was saved."))


# Why the services refuse a write (WriteRefused codes of this app; a holder words its own).
WRITE_REFUSALS = {
    "link_renewed": gettext_lazy(
        "This scorer link was renewed: this account no longer scores the match (it stays in "
        "your matches, read-only). Nothing was saved."
    ),
}


def changed_message(request: HttpRequest) -> None:
    messages.warning(
        request, _("The match changed on another phone meanwhile. Check the scores and try again.")
    )


def gone_message(request: HttpRequest) -> None:
    messages.info(
        request, _("This form was already saved, and that deal was undone since: nothing saved.")
    )


def no_more_deals(request: HttpRequest, *, abandoned: bool) -> None:
    if abandoned:
        messages.info(
            request, _("This match was abandoned: no more deals. Its owner can resume it.")
        )
    else:
        messages.info(request, _("The match is over: no more deals."))


@dataclass(frozen=True)
class Refused:
    """A service refused the change; what it refused is already said (a message for the next
    page, or an error on the form). `stay`: show the form again, with `version` (the match's
    version now) when another phone saved first."""

    stay: bool = False
    version: int | None = None


def frozen_message(request: HttpRequest) -> None:
    messages.error(
        request,
        _(
            "This table's round is closed: its deals change no more. The organiser corrects "
            "its result on the concours's page."
        ),
    )


def held_message(request: HttpRequest) -> None:
    messages.error(
        request,
        _(
            "This match is a table of a concours: it is deleted or abandoned only with its concours."
        ),
    )


def attempt[T](
    request: HttpRequest, change: Callable[[], T], *, form: forms.Form | None = None
) -> T | Refused:
    """Run a service's change; each refusal of the services becomes its words. With a `form`
    (the deal forms), a changed match or an invalid deal keeps the form on screen; without
    one (a one-tap action), every refusal is a message on the scoreboard."""
    try:
        return change()
    except services.MatchChanged as error:
        if form is None:
            changed_message(request)
        return Refused(stay=form is not None, version=error.match.version)
    except services.MatchOver as over:
        no_more_deals(request, abandoned=isinstance(over, services.MatchAbandoned))
    except services.SubmissionGone:
        gone_message(request)
    except services.MatchFrozen:
        frozen_message(request)
    except services.WriteRefused as refused:
        write_refused_message(request, refused)
    except services.MatchBusy:
        busy = _("Another phone is saving this match right now: nothing was saved. Try again.")
        if form is None:
            messages.error(request, busy)
        else:
            form.add_error(None, busy)
            return Refused(stay=True)
    except services.NothingToUndo:
        messages.info(request, _("Nothing to undo."))
    except services.NothingToRedo:
        messages.info(request, _("Nothing to redo."))
    except InvalidInput as error:
        if form is None:
            messages.error(request, describe(error))
        else:
            form.add_error(None, describe(error))
            return Refused(stay=True)
    return Refused()


def carried_deal(source: QueryDict, match: Match) -> dict[str, str]:
    """The deal form's fields found in `source`: the deal being typed, taken to the card-counting
    helper and back (initial values only: nothing is checked until the form is sent)."""
    if not source:
        return {}  # the usual case: no deal carried, no form to build for its field names
    names = DealForm(rules=match.engine_rules, team_names=match.team_names).fields
    values = {name: str(source.get(name)) for name in names if source.get(name)}
    return {name: value for name, value in values.items() if len(value) <= 1000}  # a note at most
