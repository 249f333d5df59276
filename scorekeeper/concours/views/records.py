"""A concours's records at the desk (issue 15, "Records"): its `belote-tournament/1` file and its
standings as CSV to download, a file imported as a new concours (one scored on paper, typed in
later), and deleting a concours with its table matches. Thin views: the desk's access check
(`access.own`: the owner, or a co-organiser link), a service or a selector, POST-redirect-GET.
Importing and deleting are the owner's alone."""

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_safe

from scorekeeper.jobs.services import JobRefused, active_job, start_job
from scorekeeper.matches.access import device_key
from scorekeeper.web import throttle
from scorekeeper.web.gc_pause import paused_gc

from .. import exports, selectors, services
from .. import jobs as concours_jobs
from ..access import own as _own
from ..access import owner_only as _owner_only
from ..forms import ImportForm
from ..words import criterion_words

HOUR = 3600  # the window of the import limit (settings.IMPORTS_PER_HOUR, as match files)


def _attachment(response: HttpResponse, name: str) -> HttpResponse:
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_safe
@paused_gc
def export_file(request: HttpRequest, pk: int) -> HttpResponse:
    """The concours as a `belote-tournament/1` file: its settings, entrants, rounds and every
    table's deals or paper totals (docs/tournaments.md §6)."""
    tournament = _own(request, pk)
    text = exports.document_text(selectors.export_document(tournament))
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    return _attachment(response, exports.file_name(tournament, ".json"))


@require_safe
@paused_gc
def standings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings as CSV: after round `?round=k` (a drawn qualifying round), or with no round
    the latest (the final ranking once the concours is finished). A round not drawn, or one of
    the final bracket (its standings are the last qualifying round's), is answered by the desk
    with a message, nothing downloaded."""
    tournament = _own(request, pk)
    drawn = tournament.rounds.count()
    asked = request.GET.get("round", "")
    after: int | None = None
    if asked:
        after = int(asked) if asked.isascii() and asked.isdecimal() and len(asked) < 4 else 0
        if not 1 <= after <= drawn:
            messages.error(request, _("No standings after that round: it is not drawn."))
            return redirect("concours:desk", pk=tournament.pk)
        qualifying = tournament.engine_settings.rounds
        if after > qualifying:  # a round of the final bracket leaves the standings be (§7)
            messages.error(
                request,
                _(
                    "No standings after round %(round)s: it is a round of the final bracket, "
                    "which leaves the standings as they were after round %(rounds)s. Download "
                    "those, or the final ranking once the concours is finished."
                )
                % {"round": after, "rounds": qualifying},
            )
            return redirect("concours:desk", pk=tournament.pk)
    text = exports.standings_csv(tournament, after, criterion=criterion_words)
    suffix = f"-standings-round-{after}.csv" if after else "-standings.csv"
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    return _attachment(response, exports.file_name(tournament, suffix))


@require_http_methods(["GET", "HEAD", "POST"])
def import_file(request: HttpRequest) -> HttpResponse:
    """A tournament file as a new concours of the signed-in organiser: the POST checks the
    file's size and that it is JSON, then starts the import as a background job
    (concours/jobs.py) and shows the job's page: its progress, then the concours (finished
    when every planned round is played, else under way at its last round), or where and what
    is wrong in the file (nothing created). One job at a time: refused while another runs."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('accounts:login')}?next={request.path}")
    bound = request.method == "POST"
    busy = active_job(owner=request.user, owner_key=device_key(request)) if bound else None
    if bound and busy is None:  # a file is read whether it imports or not: each counts
        wait = throttle.hit(
            key=f"concours-import:{request.user.pk}", limit=settings.IMPORTS_PER_HOUR, window=HOUR
        )
        if wait is not None:
            reason = _("Too many concours files imported by this account.")
            return throttle.too_many_requests(request, seconds=wait, reason=reason)
    form = ImportForm(request.POST if bound else None, request.FILES if bound else None)
    if bound and busy is None and form.is_valid():
        try:
            job = start_job(
                kind=concours_jobs.KIND,
                owner=request.user,
                owner_key=device_key(request),
                data=form.cleaned_data["file"],
            )
        except JobRefused as refused:
            busy = refused.active
        else:
            return redirect("jobs:job", pk=job.pk)
    if busy is not None:
        form.add_error(
            "file",
            _(
                "Nothing was imported: a job of yours is still running (see My jobs). "
                "Wait for it to end, then try again."
            ),
        )
    max_mb = settings.TOURNAMENT_FILE_MAX_BYTES // (1024 * 1024)
    context = {"form": form, "max_mb": max_mb, "busy": busy}
    return render(request, "concours/desk/import.html", context, status=409 if busy else 200)


@require_http_methods(["GET", "HEAD", "POST"])
def delete(request: HttpRequest, pk: int) -> HttpResponse:
    """Delete the concours, after a confirm page: its entrants, rounds and results, and its
    table matches (deleted as the matches app deletes a match). The owner's alone."""
    tournament = _owner_only(request, pk)
    if request.method == "POST":
        name = tournament.name
        gone = services.delete_tournament(tournament=tournament)
        text = ngettext(
            "“%(name)s” is deleted, with its %(count)s table match.",
            "“%(name)s” is deleted, with its %(count)s table matches.",
            gone,
        )
        messages.success(request, text % {"name": name, "count": gone})
        return redirect("concours:list")
    context = {
        "tournament": tournament,
        "entrants": tournament.entrants.count(),
        "rounds": tournament.rounds.count(),
        "matches": selectors.table_match_count(tournament),
    }
    return render(request, "concours/desk/delete.html", context)
