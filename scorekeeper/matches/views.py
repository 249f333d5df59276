"""Match pages. Thin views: parse the request, call a service, render. Every page works as plain
forms with POST-redirect-GET; htmx requests get the matching partial (name = element id)."""

import json
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django.views.i18n import set_language
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper.engine.scoring import (
    InvalidInput,
    PassedDeal,
    PlayedDeal,
    dump_match,
    score_deal,
    score_match,
)
from scorekeeper.jobs.services import JobRefused, start_job
from scorekeeper.web import throttle
from scorekeeper.web.htmx import wants_partial
from scorekeeper.web.qr import qr_response
from scorekeeper.web.throttle import client_ip
from scorekeeper.web.words import PRESET_NAMES, PRESET_SUMMARIES, TRUMP_LABELS, breakdown, describe

from . import access, fragments, polling, services
from .board import board_note, build_board
from .forms import (
    CountCardsForm,
    DealForm,
    DealStamp,
    ImportForm,
    ManualDealForm,
    NewMatchForm,
    deal_initial,
)
from .hooks import ADD, DELETE, EDIT
from .models import DELETED_KEPT_DAYS, Deal, DealChange, Match, Player
from .undo import change_words, reversed_words, undo_label

HX = "HX-Request"
HOUR = 3600  # the window of the import limits (settings.IMPORTS_PER_HOUR...)


def _is_htmx(request: HttpRequest) -> bool:
    return wants_partial(request)


def _version(request: HttpRequest) -> int | None:
    raw = request.POST.get("version", "")
    return int(raw) if raw.isdecimal() and len(raw) < 10 else None


SUBMISSION = re.compile(r"[A-Za-z0-9_-]{1,64}")


def _submission(request: HttpRequest) -> str | None:
    """The form's one-time id (see DealForm.submission); anything else is ignored."""
    raw = request.POST.get("submission", "")
    return raw if SUBMISSION.fullmatch(raw) else None


# Home ----------------------------------------------------------------------------------------

RECENT = 8  # the rest is in My matches


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Start a match, or go back to one this browser created or scored through a link. Unlike
    My matches, a match without a deal yet is listed (the one just created, or whose scorer link
    was just opened, is found here); deleted ones are not."""
    matches = (
        Match.objects.visible_to(
            user=access.account(request),
            device_key=access.existing_device_key(request),
            remembered=access.remembered_tokens(request),
        )
        .alive()
        .with_players()
        .newest_first()[:RECENT]
    )
    return render(request, "home.html", {"matches": matches})


# New match, import ---------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def new_match(request: HttpRequest) -> HttpResponse:
    form = NewMatchForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and form.rules is not None:
        match = services.create_match(
            owner_key=access.device_key(request),
            owner=access.account(request),
            rules=form.rules,
            team_names=(form.cleaned_data["team0_name"], form.cleaned_data["team1_name"]),
            players=form.players(),
            first_dealer=form.first_dealer_value(),
        )
        return redirect("matches:scoreboard", token=match.scorer_token)
    presets = [(name, PRESET_NAMES[name], PRESET_SUMMARIES[name]) for name in PRESET_SUMMARIES]
    return render(
        request,
        "matches/new.html",
        {
            "form": form,
            "presets": presets,
            "known_players": _known_players(request),
        },
    )


def _known_players(request: HttpRequest) -> list[str]:
    """Names this browser or account gave before; a browser that never saved anything has none
    (and gets no session for asking)."""
    key, user = access.existing_device_key(request), access.account(request)
    return services.known_player_names(key or "", user) if key or user else []


@require_http_methods(["GET", "HEAD", "POST"])
def import_match(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and (wait := _import_wait(request)) is not None:
        reason = _("Too many match files imported from this browser or this network.")
        return throttle.too_many_requests(request, seconds=wait, reason=reason)
    form = ImportForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if isinstance(upload, bytes):  # a big file (IMPORT_INLINE_DEALS): imported by a job
            try:
                job = start_job(
                    kind="match_import",
                    owner=access.account(request),
                    owner_key=access.device_key(request),
                    data=upload,
                )
            except JobRefused:
                status = 409
                form.add_error(
                    "file",
                    _(
                        "Nothing was imported: a job of yours is still running (see My jobs). "
                        "Wait for it to end, then try again."
                    ),
                )
            else:
                return redirect("jobs:job", pk=job.pk)
        else:
            match = services.import_match(
                match_file=upload,
                owner_key=access.device_key(request),
                owner=access.account(request),
            )
            messages.success(request, _("Match imported."))
            return redirect("matches:scoreboard", token=match.scorer_token)
    context = {"form": form, "inline_deals": settings.IMPORT_INLINE_DEALS}
    return render(request, "matches/import.html", context, status=status)


def _import_wait(request: HttpRequest) -> int | None:
    """Counts this import against the browser's and the address's hourly limits (a file is read
    whether it imports or not): None, or the seconds to wait."""
    wait = throttle.hit(
        key=f"import:device:{access.device_key(request)}",
        limit=settings.IMPORTS_PER_HOUR,
        window=HOUR,
    )
    if wait is None:
        wait = throttle.hit(
            key=f"import:ip:{client_ip(request)}",
            limit=settings.IMPORTS_PER_HOUR_PER_IP,
            window=HOUR,
        )
    return wait


# Scoreboard ----------------------------------------------------------------------------------


def _poll_shortcut(request: HttpRequest, role: str, **token: str) -> HttpResponse | None:
    """A poll of the fragment answered from the match's version alone, in one query and without
    the session (see polling.py): 204 when it asks for the version it shows (`?v=`, htmx then
    leaves the page as it is), 304 when its If-None-Match still holds. None: render it."""
    if not _is_htmx(request) or polling.message_waiting(request):
        return None
    if "v" not in request.GET and "If-None-Match" not in request.headers:
        return None  # nothing to compare: the full path (no extra query)
    version = polling.version_of(**token)
    if request.GET.get("v") == str(version):
        return polling.mark(HttpResponse(status=204))
    tag = polling.etag(request, version=version, role=role)
    return polling.not_modified_response(tag) if polling.not_modified(request, tag) else None


def _board_response(
    request: HttpRequest,
    match: Match,
    *,
    can_score: bool,
    confirm_undo: dict[str, str] | None = None,
) -> HttpResponse:
    # A poll that already has this version gets 204: htmx leaves the page as it is.
    if _is_htmx(request) and request.GET.get("v") == str(match.version):
        return polling.mark(HttpResponse(status=204))
    board = build_board(match, scorer_token=match.scorer_token if can_score else None)
    note = board_note(request, board)  # another app's word on the match (a concours's table)
    if note is not None and note.read_only and can_score:
        can_score = False
        board = build_board(match)
    template = "matches/scoreboard.html"
    if _is_htmx(request):
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
    }
    response = render(request, template, context)
    if _is_htmx(request) and request.method in ("GET", "HEAD"):  # a poll: tagged for the next
        role = polling.SCORER if can_score else polling.VIEWER
        polling.mark(response, polling.etag(request, version=match.version, role=role))
    return response


@require_safe
@vary_on_headers(HX)
def scoreboard(request: HttpRequest, token: str) -> HttpResponse:
    shortcut = _poll_shortcut(request, polling.SCORER, scorer_token=token)
    if shortcut is not None:
        return shortcut
    match = access.match_for_scorer(request, token)
    # An account whose scorer right was withdrawn (a renewed link) sees it read-only.
    return _board_response(request, match, can_score=not access.revoked(request, match))


@require_safe
@vary_on_headers(HX)
def viewer(request: HttpRequest, token: str) -> HttpResponse:
    shortcut = _poll_shortcut(request, polling.VIEWER, view_token=token)
    if shortcut is not None:
        return shortcut
    match = access.match_for_viewer(token)
    if not _is_htmx(request):  # a first visit, not a poll: its players' pages may count it
        access.remember_view(request, match)
    return _board_response(request, match, can_score=False)


def _after_change(request: HttpRequest, match: Match) -> HttpResponseBase:
    """PRG: back to the scoreboard (htmx swaps it in place instead), where this browser may
    still see it: see _board_url."""
    if _is_htmx(request):
        token = match.scorer_token
        match.refresh_from_db()
        if match.scorer_token != token and not access.writes_as_owner(request, match):
            return HttpResponseClientRedirect(reverse("matches:viewer", args=[match.view_token]))
        return _board_response(request, match, can_score=not access.revoked(request, match))
    return redirect(_board_url(request, match))


def _board_url(request: HttpRequest, match: Match) -> str:
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


def _refused_here(request: HttpRequest, match: Match, action: str) -> HttpResponseBase | None:
    """A form whose saving could only be refused (a concours table whose time is called, an
    account whose scorer right was withdrawn...) is not shown: back to the scoreboard with the
    reason. None: show it. Writes nothing but the message."""
    try:
        services.check_write(
            match=match, author=access.author(request, match, reading=True), action=action
        )
    except services.WriteRefused as refused:
        _write_refused_message(request, refused)
        return redirect(_board_url(request, match))
    return None


def _write_refused_message(request: HttpRequest, refused: services.WriteRefused) -> None:
    words = refused.words or str(WRITE_REFUSALS.get(refused.reason, ""))
    messages.error(request, words or _("This change is not allowed: nothing was saved."))


# Why the services refuse a write (WriteRefused codes of this app; a holder words its own).
WRITE_REFUSALS = {
    "link_renewed": gettext_lazy(
        "This scorer link was renewed: this account no longer scores the match (it stays in "
        "your matches, read-only). Nothing was saved."
    ),
}


def _changed_message(request: HttpRequest) -> None:
    messages.warning(
        request, _("The match changed on another phone meanwhile. Check the scores and try again.")
    )


def _gone_message(request: HttpRequest) -> None:
    messages.info(
        request, _("This form was already saved, and that deal was undone since: nothing saved.")
    )


def _no_more_deals(request: HttpRequest, *, abandoned: bool) -> None:
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


def _frozen_message(request: HttpRequest) -> None:
    messages.error(
        request,
        _(
            "This table's round is closed: its deals change no more. The organiser corrects "
            "its result on the concours's page."
        ),
    )


def _held_message(request: HttpRequest) -> None:
    messages.error(
        request,
        _(
            "This match is a table of a concours: it is deleted or abandoned only with its concours."
        ),
    )


def _attempt[T](
    request: HttpRequest, change: Callable[[], T], *, form: forms.Form | None = None
) -> T | Refused:
    """Run a service's change; each refusal of the services becomes its words. With a `form`
    (the deal forms), a changed match or an invalid deal keeps the form on screen; without
    one (a one-tap action), every refusal is a message on the scoreboard."""
    try:
        return change()
    except services.MatchChanged as error:
        if form is None:
            _changed_message(request)
        return Refused(stay=form is not None, version=error.match.version)
    except services.MatchOver as over:
        _no_more_deals(request, abandoned=isinstance(over, services.MatchAbandoned))
    except services.SubmissionGone:
        _gone_message(request)
    except services.MatchFrozen:
        _frozen_message(request)
    except services.WriteRefused as refused:
        _write_refused_message(request, refused)
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


# Recording deals -----------------------------------------------------------------------------


def _carried(source: QueryDict, match: Match) -> dict[str, str]:
    """The deal form's fields found in `source`: the deal being typed, taken to the card-counting
    helper and back (initial values only: nothing is checked until the form is sent)."""
    if not source:
        return {}  # the usual case: no deal carried, no form to build for its field names
    names = DealForm(rules=match.engine_rules, team_names=match.team_names).fields
    values = {name: str(source.get(name)) for name in names if source.get(name)}
    return {name: value for name, value in values.items() if len(value) <= 1000}  # a note at most


def _deal_form(request: HttpRequest, match: Match, **kwargs: Any) -> DealForm:
    return DealForm(
        request.POST if request.method == "POST" else None,
        rules=match.engine_rules,
        team_names=match.team_names,
        seat_names=[match.seat_name(seat) for seat in range(4)],
        **kwargs,
    )


def _preview(
    match: Match, form: DealForm, replacing: int | None = None, *, saving: bool = False
) -> dict[str, Any]:
    """What the deal on the form would score, exactly as the saved deal will show it (a litige
    reserve it receives included), and the match totals after it (engine only)."""
    if form.deal is None:
        return {"problems": _problems(form, saving=saving)}
    rules = match.engine_rules
    result = score_deal(rules, form.deal)
    rows = match.deal_rows()
    deals = [form.deal if row.seq == replacing else row.to_engine() for row in rows]
    index = next((i for i, row in enumerate(rows) if row.seq == replacing), len(rows))
    if replacing is None:
        deals.append(form.deal)
    shown: dict[str, Any] = {"result": result, "scores": result.scores}
    shown["left_out"] = form.points_left_out  # card points typed, then a capot chosen
    shown["unticked"] = form.generale_unticked  # a générale failed for want of its box
    try:
        after = score_match(rules, deals, match.first_dealer)
    except InvalidInput as error:
        return {**shown, "error": describe(error)}
    played = after.deals[index]
    received = (played.scores[0] - result.scores[0], played.scores[1] - result.scores[1])
    return {
        **shown,
        "scores": played.scores,  # what the deal adds, as the scoreboard will show it
        "received": received,  # of which the litige reserve it receives
        "lines": breakdown(played.breakdown, match.team_names),
        "after": after,
    }


def _preview_carried(match: Match, form: DealForm, replacing: int | None = None) -> dict[str, Any]:
    """The preview of a deal brought back to the form (from the card counter, or after a
    language switch), at once: the form shown stays unbound, so nothing is marked wrong."""
    initial = {name: form.get_initial_for_field(field, name) for name, field in form.fields.items()}
    data = {
        name: "on" if value is True else "" if value in (None, False) else str(value)
        for name, value in initial.items()
    }
    typed = DealForm(data, rules=form.rules, team_names=form.team_names)
    typed.is_valid()
    return _preview(match, typed, replacing)


def _switch_language(request: HttpRequest, match: Match) -> HttpResponseBase:
    """A language button of the deal page (see deal_form.html): it posts the deal being typed,
    which comes back in that language, carried in the query string as for the card counter.
    Django's set_language does the switch, pointed back at the form; no script needed."""
    query = urlencode(_carried(request.POST, match))
    target = f"{request.path}?{query}" if query and len(query) <= 8000 else request.path
    switch = urlencode({"language": request.POST.get("language", ""), "next": target})
    request.POST = QueryDict(switch)  # what set_language reads
    return set_language(request)


def _left_out_message(request: HttpRequest, form: DealForm, number: int) -> None:
    if form.points_left_out is not None:
        messages.info(
            request,
            _(
                "Deal %(n)s saved: the card points typed (%(points)s) were left out "
                "because of the capot."
            )
            % {"n": number, "points": form.points_left_out},
        )


def _saving(request: HttpRequest) -> bool:
    """A tap on Save (not a live or a no-script preview)."""
    return "preview" not in request.POST and not _is_htmx(request)


def _problems(form: DealForm, *, saving: bool = False) -> list[str]:
    """What stops the preview, in words; a field not filled in yet is no problem while typing,
    but after a tap on Save everything missing is listed."""
    filled = ("taker_points", "defence_points", "capot")
    if not form.is_bound or not (saving or any(form.data.get(name) for name in filled)):
        return []  # no points yet: the deal is being typed in, from the top
    problems = []
    for name, errors in form.errors.as_data().items():
        label = form.fields[name].label if name in form.fields else None
        for error in errors:
            if error.code == "required" and not saving:
                continue
            text = " ".join(str(m) for m in error)
            problems.append(f"{label}: {text}" if label else text)
    return problems


@require_http_methods(["GET", "HEAD", "POST"])
@vary_on_headers(HX)
def deal_new(request: HttpRequest, token: str) -> HttpResponseBase:
    match = access.match_for_scorer(request, token)  # the players' names: who took
    refused = _refused_here(request, match, ADD)
    if refused is not None:
        return refused
    if not match.in_play:
        _no_more_deals(request, abandoned=match.is_abandoned)
        return redirect("matches:scoreboard", token=token)
    if request.method == "POST" and "language" in request.POST:
        return _switch_language(request, match)
    carried = _carried(request.GET, match)
    if request.method != "POST" and not carried:
        inputs = fragments.remembered_inputs(match)
        if inputs is not None:  # the usual page: memoised inputs, only the stamp built
            stamp = DealStamp(initial={"version": match.version})
            context = _deal_context(match, stamp, {}, fields_html=inputs)
            return render(request, "matches/deal_form.html", context)
    initial: dict[str, Any] = {"version": match.version, **carried}
    form = _deal_form(request, match, initial=initial)
    preview: dict[str, Any] = _preview_carried(match, form) if carried else {}
    changed = False  # another phone saved first: the form says so
    if request.method == "POST":
        valid = form.is_valid() and form.deal is not None
        if valid and "preview" not in request.POST and not _is_htmx(request):
            assert form.deal is not None
            saved = _attempt(
                request,
                partial(
                    services.record_deal,
                    match_id=match.pk,
                    expected_version=form.cleaned_data.get("version"),
                    deal=form.deal,
                    author=access.author(request, match),
                    submission=form.cleaned_data.get("submission"),
                ),
                form=form,
            )
            if not isinstance(saved, Refused):
                _left_out_message(request, form, saved.number)
                return redirect(_board_url(request, match))
            if not saved.stay:
                return redirect(_board_url(request, match))
            if saved.version is not None:
                form, changed = _rebind_version(form, saved.version), True
        preview = _preview(match, form, saving=_saving(request))
        if _is_htmx(request):
            return _preview_response(request, _deal_context(match, form, preview))
    extra = {}
    if fragments.is_plain(form):  # the same inputs for every new deal of the match
        extra["fields_html"] = fragments.new_deal_inputs(request, match, form)
    context = _deal_context(match, form, preview, changed=changed, **extra)
    return render(request, "matches/deal_form.html", context)


def _preview_response(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    """The #preview partial, and out of band the one-line summary of the save bar and the words
    of the live region (#preview-status, whose element stays: only its content is swapped)."""
    parts = [
        render_to_string(f"matches/deal_form.html#{name}", context, request)
        for name in ("preview", "preview-line", "preview-status")
    ]
    return HttpResponse("".join(parts))


def _rebind_version(form: DealForm, version: int) -> DealForm:
    data = {**form.data.dict(), "version": str(version)}  # type: ignore[attr-defined]
    fresh = DealForm(data, rules=form.rules, team_names=form.team_names, seat_names=form.seat_names)
    fresh.is_valid()
    return fresh


def _deal_context(
    match: Match,
    form: DealForm | DealStamp,
    preview: dict[str, Any],
    *,
    changed: bool = False,
    **extra: Any,
) -> dict[str, Any]:
    return {"match": match, "form": form, "preview": preview, "changed": changed, **extra}


@require_http_methods(["GET", "HEAD", "POST"])
@vary_on_headers(HX)
def deal_edit(request: HttpRequest, token: str, seq: int) -> HttpResponseBase:
    match = access.match_for_scorer(request, token)  # the players' names: who took
    row = get_object_or_404(match.deals, seq=seq)
    refused = _refused_here(request, match, EDIT)
    if refused is not None:
        return refused
    if row.kind == Deal.Kind.MANUAL:
        return redirect("matches:deal_manual_edit", token=token, seq=seq)
    engine_deal = row.to_engine()
    # A passed deal can be turned into a played one (it was recorded by mistake).
    initial = deal_initial(engine_deal) if isinstance(engine_deal, PlayedDeal) else {}
    initial["version"] = match.version
    if request.method == "POST" and "language" in request.POST:
        return _switch_language(request, match)
    carried = _carried(request.GET, match)  # back from the card counter, or a language switch
    initial.update(carried)
    form = _deal_form(request, match, initial=initial)
    preview: dict[str, Any] = _preview_carried(match, form, seq) if carried else {}
    changed = False  # another phone saved first: the form says so
    if request.method == "POST":
        valid = form.is_valid() and form.deal is not None
        if valid and "preview" not in request.POST and not _is_htmx(request):
            assert form.deal is not None
            saved = _attempt(
                request,
                partial(
                    services.edit_deal,
                    match_id=match.pk,
                    seq=seq,
                    expected_version=form.cleaned_data.get("version"),
                    deal=form.deal,
                    author=access.author(request, match),
                    submission=form.cleaned_data.get("submission"),
                ),
                form=form,
            )
            if not isinstance(saved, Refused):
                messages.success(request, _("Deal %(n)s changed.") % {"n": row.number})
                _left_out_message(request, form, row.number)
                return redirect(_board_url(request, match))
            if not saved.stay:
                return redirect(_board_url(request, match))
            if saved.version is not None:
                form, changed = _rebind_version(form, saved.version), True
        preview = _preview(match, form, replacing=seq, saving=_saving(request))
        if _is_htmx(request):
            return _preview_response(request, _deal_context(match, form, preview, editing=row))
    context = _deal_context(match, form, preview, changed=changed, editing=row)
    return render(request, "matches/deal_form.html", context)


@require_POST
@vary_on_headers(HX)
def deal_passed(request: HttpRequest, token: str) -> HttpResponseBase:
    match = access.match_for_scorer(request, token)
    row = _attempt(
        request,
        partial(
            services.record_deal,
            match_id=match.pk,
            expected_version=_version(request),
            deal=PassedDeal(),
            author=access.author(request, match),
            submission=_submission(request),
        ),
    )
    if not isinstance(row, Refused):
        # A one-tap action says what it did (and Undo is right there).
        messages.success(request, _("Deal %(n)s: all passed.") % {"n": row.number})
    return _after_change(request, match)


@require_http_methods(["GET", "HEAD", "POST"])
def deal_manual(request: HttpRequest, token: str, seq: int | None = None) -> HttpResponseBase:
    """A manual-score deal: a new one, or (with `seq`) a change to one."""
    match = access.match_for_scorer(request, token)
    row = get_object_or_404(match.deals, seq=seq, kind=Deal.Kind.MANUAL) if seq else None
    action = ADD if row is None else EDIT
    refused = _refused_here(request, match, action)
    if refused is not None:
        return refused
    if row is None and match.is_abandoned:
        _no_more_deals(request, abandoned=True)
        return redirect("matches:scoreboard", token=token)
    initial: dict[str, Any] = {"version": match.version}
    if row is not None:
        initial.update(score0=row.manual0, score1=row.manual1, note=row.note)
    form = ManualDealForm(
        request.POST if request.method == "POST" else None,
        team_names=match.team_names,
        initial=initial,
    )
    changed = False
    if request.method == "POST" and form.is_valid():
        common: dict[str, Any] = {
            "match_id": match.pk,
            "expected_version": form.cleaned_data.get("version"),
            "deal": form.to_deal(),
            "author": access.author(request, match),
            "submission": form.cleaned_data.get("submission"),
        }
        if row is None:
            change = partial(services.record_deal, **common)
        else:
            change = partial(services.edit_deal, seq=row.seq, **common)
        saved = _attempt(request, change, form=form)
        if not isinstance(saved, Refused) or not saved.stay:
            return redirect(_board_url(request, match))
        if saved.version is not None:
            changed = True
            data = {**request.POST.dict(), "version": str(saved.version)}
            form = ManualDealForm(data, team_names=match.team_names)
    context = {"match": match, "form": form, "changed": changed, "editing": row}
    return render(request, "matches/manual.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def deal_delete(request: HttpRequest, token: str, seq: int) -> HttpResponseBase:
    match = access.match_for_scorer(request, token)
    row = get_object_or_404(match.deals, seq=seq)
    refused = _refused_here(request, match, DELETE)
    if refused is not None:
        return refused
    if request.method == "POST":
        deleted = _attempt(
            request,
            partial(
                services.delete_deal,
                match_id=match.pk,
                seq=seq,
                expected_version=_version(request),
                author=access.author(request, match),
            ),
        )
        if not isinstance(deleted, Refused):
            messages.success(
                request, _("Deal %(n)s deleted. Undo brings it back.") % {"n": row.number}
            )
        return redirect(_board_url(request, match))
    return render(request, "matches/delete.html", {"match": match, "row": row})


@require_POST
@vary_on_headers(HX)
def undo(request: HttpRequest, token: str) -> HttpResponseBase:
    """Undo the latest change. On a finished match the first tap asks (a confirmation page, or
    the board with the question in place of the buttons through htmx) and changes nothing."""
    match = access.match_for_scorer(request, token)
    try:
        change = _attempt(
            request,
            partial(
                services.undo_last_change,
                match_id=match.pk,
                expected_version=_version(request),
                author=access.author(request, match),
                submission=_submission(request),
                confirmed=request.POST.get("confirm") == "yes",
            ),
        )
    except services.ConfirmUndo as ask:  # a question, not a refusal
        return _confirm_undo(request, match, ask.change)
    if not isinstance(change, Refused):
        messages.success(request, _("Undone: %(change)s.") % {"change": reversed_words(change)})
    return _after_change(request, match)


def _confirm_undo(request: HttpRequest, match: Match, change: DealChange) -> HttpResponse:
    confirm = {"label": undo_label(change), "what": change_words(change)}
    if _is_htmx(request):
        return _board_response(request, match, can_score=True, confirm_undo=confirm)
    submission = _submission(request) or f"{uuid.uuid4().hex}-undo"
    context = {"match": match, "confirm_undo": confirm, "undo_submission": submission}
    return render(request, "matches/undo_confirm.html", context)


@require_POST
@vary_on_headers(HX)
def redo(request: HttpRequest, token: str) -> HttpResponseBase:
    """Bring back what the latest undo reversed (until a new change is made)."""
    match = access.match_for_scorer(request, token)
    change = _attempt(
        request,
        partial(
            services.redo_last_undo,
            match_id=match.pk,
            expected_version=_version(request),
            author=access.author(request, match),
            submission=_submission(request),
        ),
    )
    if not isinstance(change, Refused):
        messages.success(request, _("Redone: %(change)s.") % {"change": change_words(change)})
    return _after_change(request, match)


@require_safe
def deal_log(request: HttpRequest, token: str, seq: int) -> HttpResponse:
    """A deal's change log: every change of it (added, edited, deleted, undone, redone), newest
    first, with who made it and when."""
    match = access.match_for_scorer(request, token)
    changes = list(match.changes.filter(seq=seq).order_by("-id"))
    row = match.deals.filter(seq=seq).first()
    if row is None and not changes:
        raise Http404
    return render(
        request,
        "matches/deal_log.html",
        {"match": match, "row": row, "changes": changes, "seq": seq},
    )


# Managing the match: delete, abandon (its owner only) -------------------------------------------

# The word typed to delete a match, in the page's language ("supprimer" in French); the English
# word counts in every language (a page read before switching language).
# Translators: the word typed to confirm deleting a match, lower case, easy to type on a phone.
DELETE_WORD = gettext_lazy("delete")


def _confirmed(typed: str) -> bool:
    word = typed.strip().casefold()
    return bool(word) and word in {str(DELETE_WORD).casefold(), "delete"}


def _owner_only(request: HttpRequest, match: Match) -> HttpResponseBase | None:
    """None for the match's owner; anyone else (a scorer) is sent back to the scoreboard."""
    if access.is_owner(request, match):
        return None
    messages.error(request, _("Only the match's owner can delete or abandon it."))
    return redirect("matches:scoreboard", token=match.scorer_token)


def _manage_page(request: HttpRequest, match: Match, *, error: str = "") -> HttpResponse:
    context = {"match": match, "word": DELETE_WORD, "error": error, "kept_days": DELETED_KEPT_DAYS}
    return render(request, "matches/manage.html", context)


@require_safe
def manage(request: HttpRequest, token: str) -> HttpResponseBase:
    match = access.match_for_scorer(request, token)
    refused = _owner_only(request, match)
    return refused if refused is not None else _manage_page(request, match)


@require_POST
def delete_match(request: HttpRequest, token: str) -> HttpResponseBase:
    """Delete after the typed word: gone from every page, restorable from Recently deleted."""
    match = access.match_for_scorer(request, token)
    refused = _owner_only(request, match)
    if refused is not None:
        return refused
    if not _confirmed(request.POST.get("confirm", "")[:100]):
        error = _("Type %(word)s to confirm: nothing was deleted.") % {"word": DELETE_WORD}
        return _manage_page(request, match, error=error)
    try:
        services.delete_match(match_id=match.pk)
    except services.MatchHeld:
        _held_message(request)
        return redirect("matches:scoreboard", token=token)
    messages.success(
        request,
        _("%(match)s deleted. You can restore it here for %(days)s days.")
        % {"match": match, "days": DELETED_KEPT_DAYS},
    )
    return redirect("history:deleted")


@require_POST
def abandon(request: HttpRequest, token: str) -> HttpResponseBase:
    return _set_abandoned(request, token, abandoned=True)


@require_POST
def resume(request: HttpRequest, token: str) -> HttpResponseBase:
    return _set_abandoned(request, token, abandoned=False)


def _set_abandoned(request: HttpRequest, token: str, *, abandoned: bool) -> HttpResponseBase:
    match = access.match_for_scorer(request, token)
    refused = _owner_only(request, match)
    if refused is not None:
        return refused
    try:
        services.abandon_match(match_id=match.pk, abandoned=abandoned)
    except services.MatchOver:
        messages.info(request, _("The match is over: there is nothing to abandon."))
    except services.MatchHeld:
        _held_message(request)
    else:
        if abandoned:
            messages.success(
                request, _("Match abandoned: it takes no more deals until you resume it.")
            )
        else:
            messages.success(request, _("Match resumed: record the next deal."))
    return redirect("matches:scoreboard", token=token)


# Sharing, files, rematch ---------------------------------------------------------------------


@require_safe
def share(request: HttpRequest, token: str) -> HttpResponse:
    match = access.match_for_scorer(request, token)
    links = {
        "view": request.build_absolute_uri(reverse("matches:viewer", args=[match.view_token])),
        "scorer": request.build_absolute_uri(reverse("matches:scoreboard", args=[token])),
    }
    is_owner = access.is_owner(request, match)
    claims: list[Player] = []
    if is_owner:  # "I am Anna": who linked which name of this table to their account, and how
        seated = [p.pk for p in match.seats if p is not None]
        claims = list(
            Player.objects.filter(pk__in=seated, user__isnull=False).select_related("user")
        )
    context = {"match": match, "links": links, "is_owner": is_owner, "claims": claims}
    return render(request, "matches/share.html", context)


@require_POST
def unlink_player(request: HttpRequest, token: str, pk: int) -> HttpResponseBase:
    """The owner unlinks a name of the table from the account that claimed it ("this is me"),
    so that the right player can claim it."""
    match = access.match_for_scorer(request, token)
    if not access.is_owner(request, match):
        messages.error(request, _("Only the match's owner can unlink a name."))
        return redirect("matches:share", token=token)
    unlinked = services.unlink_player(match_id=match.pk, player_id=pk)
    if unlinked is None:
        messages.error(request, _("This name is not linked to an account at this table."))
    else:
        player, former = unlinked
        messages.success(
            request,
            _("%(name)s is no longer linked to %(account)s: the right player can now claim it.")
            % {"name": player.name, "account": former.get_username()},
        )
    return redirect("matches:share", token=token)


@require_POST
def regenerate_links(request: HttpRequest, token: str) -> HttpResponseBase:
    """The owner revokes both links and gets new ones (scorers must be sent the new link)."""
    match = access.match_for_scorer(request, token)
    if not access.is_owner(request, match):
        messages.error(request, _("Only the match's owner can change its links."))
        return redirect("matches:share", token=token)
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm: the old links will stop working."))
        return redirect("matches:share", token=token)
    match = services.regenerate_links(match_id=match.pk)
    messages.success(request, _("New links made: the old ones no longer work."))
    return redirect("matches:share", token=match.scorer_token)


@require_safe
def qr_code(request: HttpRequest, token: str, kind: str) -> HttpResponse:
    match = access.match_for_scorer(request, token)
    targets = {
        "view": reverse("matches:viewer", args=[match.view_token]),
        "scorer": reverse("matches:scoreboard", args=[token]),
    }
    if kind not in targets:
        raise Http404
    return qr_response(request.build_absolute_uri(targets[kind]))


def _export(match: Match) -> HttpResponse:
    body = json.dumps(dump_match(services.match_file_for(match)), ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match.view_token[:8]}.json"'
    return response


@require_safe
def export_scorer(request: HttpRequest, token: str) -> HttpResponse:
    return _export(access.match_for_scorer(request, token))


@require_safe
def export_viewer(request: HttpRequest, token: str) -> HttpResponse:
    return _export(access.match_for_viewer(token))


@require_POST
@vary_on_headers(HX)
def rematch(request: HttpRequest, token: str) -> HttpResponseBase:
    match = access.match_for_scorer(request, token)
    new = services.rematch(
        match=match, owner_key=access.device_key(request), owner=access.account(request)
    )
    url = reverse("matches:scoreboard", args=[new.scorer_token])
    return HttpResponseClientRedirect(url) if _is_htmx(request) else redirect(url)


# Card-counting helper ------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
@vary_on_headers(HX)
def count_cards(request: HttpRequest, token: str) -> HttpResponseBase:
    """Tap the cards a team won to total its points. Opened from the deal form (a POST of the
    deal being typed, turned into a GET), it keeps that deal and takes it back with the total
    in the right team's card points."""
    match = access.match_for_scorer(request, token)
    if request.method == "POST" and not _is_htmx(request):
        query = urlencode({**_carried(request.POST, match), "for": _count_for(request.GET)})
        if len(query) > 8000:  # only a forged form gets here: no URL that long
            query = urlencode({"for": _count_for(request.GET)})
        return redirect(f"{request.path}?{query}")
    source = request.POST if request.method == "POST" else request.GET
    deal = {k: v for k, v in _carried(source, match).items() if k != "trump"}
    takers = deal.get("taker") if deal.get("taker") in ("0", "1") else None
    form = CountCardsForm(source, rules=match.engine_rules, takers=takers)
    trump = form.trump_value
    back = _count_for(source)
    deal_url = (
        reverse("matches:deal_edit", args=[match.scorer_token, int(back)])
        if back != "new"
        else reverse("matches:deal_new", args=[match.scorer_token])
    )
    # The total goes to the team that won these cards: the takers' or the defence's points (the
    # form works out the other). With no takers chosen yet, that team is taken as the takers.
    # Both teams' points go back, so the deal form shows them and its preview at once.
    use = {k: v for k, v in deal.items() if k not in ("taker_points", "defence_points")}
    use["trump"] = trump.value
    if takers is None:
        use["taker"] = form.won_by_team
    use["taker_points"], use["defence_points"] = map(str, form.points(use["taker"]))
    context = {
        "match": match,
        "trumps": [(t.value, TRUMP_LABELS[t.value]) for t in form.trumps],
        "trump": trump.value,
        "suits": form.suits(),
        "picked": form.picked,
        "last_trick": form.with_last_trick,
        "total": form.total,
        "counted": bool(form.cards) or form.with_last_trick,  # nothing tapped: nothing to use yet
        "won_by": form.won_by_team,
        "takers": takers,
        "carried": sorted({**deal, "for": back}.items()),
        "from_deal": bool(deal) or back != "new",
        "back_url": f"{deal_url}?{urlencode({**deal, 'trump': trump.value})}",
        "use_url": f"{deal_url}?{urlencode(use)}",
    }
    template = "matches/count.html#count-body" if _is_htmx(request) else "matches/count.html"
    return render(request, template, context)


def _count_for(source: QueryDict) -> str:
    """Which deal form the helper goes back to: "new", or the number (seq) of a deal edited."""
    value = source.get("for", "")
    return value if value.isdecimal() and len(value) < 10 and int(value) > 0 else "new"
