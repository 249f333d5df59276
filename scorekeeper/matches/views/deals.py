"""Recording deals: a played deal's form (with its live preview), all passed, a manual score,
an edit, a delete, and a deal's change log."""

from collections.abc import Callable
from functools import partial
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django.views.i18n import set_language

from scorekeeper.engine.scoring import InvalidInput, PassedDeal, PlayedDeal, score_deal, score_match
from scorekeeper.web.htmx import wants_partial
from scorekeeper.web.words import breakdown, describe

from .. import access, fragments, services
from ..forms import DealForm, DealStamp, ManualDealForm, deal_initial
from ..holder import ADD, DELETE, EDIT
from ..models import Deal, Match
from ..view_helpers import (
    HX,
    NotSaved,
    after_change,
    attempt,
    board_url,
    carried_deal,
    change_by,
    deal_form,
    no_more_deals,
    posted_version,
    refused_here,
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
    typed = deal_form(match, data)
    typed.is_valid()
    if typed.capot_taken_back:  # points brought back over a bid's capot: shown taken back too
        form.initial.update(capot="", generale=False)
    return _preview(match, typed, replacing)


def _switch_language(request: HttpRequest, match: Match) -> HttpResponseBase:
    """A language button of the deal page (see deal_form.html): it posts the deal being typed,
    which comes back in that language, carried in the query string as for the card counter.
    Django's set_language does the switch, pointed back at the form; no script needed."""
    query = urlencode(carried_deal(request.POST, match))
    target = f"{request.path}?{query}" if query and len(query) <= 8000 else request.path
    switch = urlencode({"language": request.POST.get("language", ""), "next": target})
    request.POST = QueryDict(switch)  # what set_language reads
    return set_language(request)


def _left_out_message(request: HttpRequest, form: DealForm, number: int) -> None:
    if form.capot_taken_back:  # a form sent without app.js, which takes it back as it is typed
        messages.info(
            request,
            _(
                "Deal %(n)s saved as a failed bid: card points were typed, so the capot the "
                "bid had chosen was taken back."
            )
            % {"n": number},
        )
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
    return "preview" not in request.POST and not wants_partial(request)


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
    return _deal_page(request, match, None)


@require_http_methods(["GET", "HEAD", "POST"])
@vary_on_headers(HX)
def deal_edit(request: HttpRequest, token: str, seq: int) -> HttpResponseBase:
    match = access.match_for_scorer(request, token)  # the players' names: who took
    row = get_object_or_404(match.deals, seq=seq)
    return _deal_page(request, match, row)


def _deal_page(request: HttpRequest, match: Match, row: Deal | None) -> HttpResponseBase:
    """A played deal's page: a new deal (`row` None) or a change to the deal `row`. Its form,
    its live preview, and Save: the deal recorded or changed, back to the scoreboard; refused,
    said (the form stays on screen when another phone saved first, with the new version)."""
    refused = refused_here(request, match, ADD if row is None else EDIT)
    if refused is not None:
        return refused
    if row is None and not match.in_play:
        no_more_deals(request, match)
        return redirect("matches:scoreboard", token=match.scorer_token)
    if row is not None and row.kind == Deal.Kind.MANUAL:
        return redirect("matches:deal_manual_edit", token=match.scorer_token, seq=row.seq)
    if request.method == "POST" and "language" in request.POST:
        return _switch_language(request, match)
    carried = carried_deal(request.GET, match)  # back from the card counter, or a language switch
    if row is None and request.method != "POST" and not carried:
        inputs = fragments.remembered_inputs(match)
        if inputs is not None:  # the usual page: memoised inputs, only the stamp built
            stamp = DealStamp(initial={"version": match.version})
            context = _deal_context(match, stamp, {}, fields_html=inputs)
            return render(request, "matches/deal_form.html", context)
    initial = _initial(row)
    initial.update({"version": match.version, **carried})
    seq = None if row is None else row.seq
    form = deal_form(match, request.POST if request.method == "POST" else None, initial=initial)
    # A deal carried back, or a saved deal opened to edit, is previewed at once (issue 41).
    show = carried or (row is not None and request.method != "POST")
    preview: dict[str, Any] = _preview_carried(match, form, seq) if show else {}
    changed = False  # another phone saved first: the form says so
    if request.method == "POST":
        if form.is_valid() and form.deal is not None and _saving(request):
            saved = attempt(request, _save(request, match, form, row), form=form)
            if not isinstance(saved, NotSaved):
                _saved_message(request, form, row, saved.number)
                return redirect(board_url(request, match))
            if not saved.stay:
                return redirect(board_url(request, match))
            if saved.version is not None:
                form, changed = _rebind_version(match, form, saved.version), True
        preview = _preview(match, form, replacing=seq, saving=_saving(request))
        if wants_partial(request):
            return _preview_response(request, _deal_context(match, form, preview, editing=row))
    extra: dict[str, Any] = {}
    if row is None and fragments.is_plain(form):  # the same inputs for every new deal
        extra["fields_html"] = fragments.new_deal_inputs(request, match, form)
    context = _deal_context(match, form, preview, changed=changed, editing=row, **extra)
    return render(request, "matches/deal_form.html", context)


def _initial(row: Deal | None) -> dict[str, Any]:
    """The form's values: a new deal's none, a played deal's own (a passed deal can be turned
    into a played one: it was recorded by mistake)."""
    if row is None:
        return {}
    engine_deal = row.to_engine()
    return deal_initial(engine_deal) if isinstance(engine_deal, PlayedDeal) else {}


def _save(
    request: HttpRequest, match: Match, form: DealForm, row: Deal | None
) -> Callable[[], Deal]:
    """The service's change of a valid form: a new deal recorded, or the deal `row` changed."""
    if row is None:
        return change_by(request, match, services.record_deal, form.cleaned_data, deal=form.deal)
    return change_by(
        request, match, services.edit_deal, form.cleaned_data, seq=row.seq, deal=form.deal
    )


def _saved_message(request: HttpRequest, form: DealForm, row: Deal | None, number: int) -> None:
    if row is not None:
        messages.success(request, _("Deal %(n)s changed.") % {"n": row.number})
    _left_out_message(request, form, number)


def _preview_response(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    """The #preview partial, and out of band the one-line summary of the save bar and the words
    of the live region (#preview-status, whose element stays: only its content is swapped)."""
    parts = [
        render_to_string(f"matches/deal_form.html#{name}", context, request)
        for name in ("preview", "preview-line", "preview-status")
    ]
    return HttpResponse("".join(parts))


def _rebind_version(match: Match, form: DealForm, version: int) -> DealForm:
    data = {**form.data.dict(), "version": str(version)}  # type: ignore[attr-defined]
    fresh = deal_form(match, data)
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


@require_POST
@vary_on_headers(HX)
def deal_passed(request: HttpRequest, token: str) -> HttpResponseBase:
    match = access.match_for_scorer(request, token)
    row = attempt(request, change_by(request, match, services.record_deal, deal=PassedDeal()))
    if not isinstance(row, NotSaved):
        # A one-tap action says what it did, with Undo beside it (the scoreboard draws it there).
        words = _("Deal %(n)s: all passed.") % {"n": row.number}
        messages.success(request, words, extra_tags="undo")
    return after_change(request, match)


@require_http_methods(["GET", "HEAD", "POST"])
def deal_manual(request: HttpRequest, token: str, seq: int | None = None) -> HttpResponseBase:
    """A manual-score deal: a new one, or (with `seq`) a change to one."""
    match = access.match_for_scorer(request, token)
    row = get_object_or_404(match.deals, seq=seq, kind=Deal.Kind.MANUAL) if seq else None
    action = ADD if row is None else EDIT
    refused = refused_here(request, match, action)
    if refused is not None:
        return refused
    if row is None and match.is_abandoned:
        no_more_deals(request, match)
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
        stamp, deal = form.cleaned_data, form.to_deal()
        if row is None:
            change = change_by(request, match, services.record_deal, stamp, deal=deal)
        else:
            change = change_by(request, match, services.edit_deal, stamp, seq=row.seq, deal=deal)
        saved = attempt(request, change, form=form)
        if not isinstance(saved, NotSaved) or not saved.stay:
            return redirect(board_url(request, match))
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
    refused = refused_here(request, match, DELETE)
    if refused is not None:
        return refused
    if request.method == "POST":
        deleted = attempt(
            request,
            partial(
                services.delete_deal,
                match_id=match.pk,
                seq=seq,
                expected_version=posted_version(request),
                author=access.author(request, match),
            ),
        )
        if not isinstance(deleted, NotSaved):
            messages.success(
                request, _("Deal %(n)s deleted. Undo brings it back.") % {"n": row.number}
            )
        return redirect(board_url(request, match))
    return render(request, "matches/delete.html", {"match": match, "row": row})


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
