"""History, match review, player pages and the data files. Thin views over selectors.py."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from scorekeeper.concours.selectors import played_in, player_concours
from scorekeeper.engine.scoring import InvalidInput
from scorekeeper.jobs.services import JobRefused, active_job, start_job
from scorekeeper.matches import access, services
from scorekeeper.matches.board import build_board
from scorekeeper.matches.models import (
    DELETED_KEPT_DAYS,
    Match,
    MatchQuerySet,
    Player,
    Seat,
    counted,
)
from scorekeeper.web import throttle
from scorekeeper.web.htmx import wants_partial
from scorekeeper.web.words import explain

from . import exports
from .chart_text import running_totals_text
from .charts import line_chart
from .forms import HistoryFilterForm, RestoreForm
from .jobs import restore_words
from .selectors import filter_history, linked_names, match_facts, player_ids_for, player_stats

PAGE_SIZE = 25


def _mine(request: HttpRequest) -> MatchQuerySet:
    """This browser's or account's matches (created or scored), deleted ones left out: its CSV
    and backup hold these, matches without a deal included."""
    return Match.objects.visible_to(
        user=request.user if request.user.is_authenticated else None,
        device_key=request.session.get(access.DEVICE_KEY),
        remembered=access.remembered_tokens(request),
    ).alive()


@require_safe
@vary_on_headers("HX-Request")
def history(request: HttpRequest) -> HttpResponse:
    form = HistoryFilterForm(request.GET or None)
    listed = _mine(request).listed().with_players()
    matches = filter_history(listed, form.filters())
    page = Paginator(matches, PAGE_SIZE).get_page(request.GET.get("page"))
    _note_concours(list(page))
    query = request.GET.copy()
    query.pop("page", None)
    context = {"form": form, "page": page, "query": query.urlencode()}
    template = "history/history.html"
    if wants_partial(request):
        template += "#results"
    return render(request, template, context)


def _note_concours(matches: list[Match]) -> None:
    """Each table match of a concours gets `played_in` (its concours, round, table and, once
    finished, the places: concours.selectors.PlayedIn), in two queries for the page; none
    when no match of the page is a table."""
    tables = [m.pk for m in matches if m.in_concours]
    notes = played_in(tables) if tables else {}
    for match in matches:
        setattr(match, "played_in", notes.get(match.pk))  # noqa: B010 (not a Match field)


@require_safe
def review(request: HttpRequest, token: str) -> HttpResponse:
    match = access.match_for_viewer(token)
    access.remember_view(request, match)  # its players' pages may now count it
    board = build_board(match)
    rows = [deal.row for deal in reversed(board.deals)]
    facts = match_facts(rows, board.result)
    totals = [(0, 0)] + [d.totals for d in board.result.deals]  # x = the deal's number
    chart = line_chart(
        [
            ("t0", match.team0_name, [t[0] for t in totals]),
            ("t1", match.team1_name, [t[1] for t in totals]),
        ],
        target=board.result.rules.target,
    )
    chart_text = running_totals_text(
        match.team_names,
        totals[1:],
        finished=board.finished,
        winner=board.winner,
        abandoned=match.is_abandoned,
    )
    visible_players = access.player_page_ids(request)
    scorer = access.can_score(request, match)
    seated = [p for p in match.seats if p is not None]
    claimable: list[Player] = []
    if (
        scorer
        and request.user.is_authenticated
        and not any(p.user_id == request.user.pk for p in seated)
    ):
        claimable = [p for p in seated if p.user_id is None]
    context = {
        "match": match,
        "board": board,
        "deals": list(reversed(board.deals)),
        "facts": facts,
        "biggest_team": match.team_names[facts.biggest[1]] if facts.biggest else "",
        "chart": chart,
        "chart_text": chart_text,
        "team_facts": list(zip(match.team_names, facts.teams, strict=True)),
        "players": seated,
        "visible_players": visible_players,
        "can_score": scorer,
        "claimable": claimable,  # "which one is you?" for a signed-in player of this table
        "played_in": (
            played_in([match.pk]).get(match.pk) if match.in_concours else None
        ),  # a concours's table: its concours, round, table (and places once finished)
    }
    return render(request, "history/review.html", context)


@require_safe
def player(request: HttpRequest, pk: int) -> HttpResponse:
    """A player page is for the browser or account that named the player, or the player; it
    counts only the matches its viewer may see (owned, scored, or opened by read-only link)."""
    if not access.may_open_player(request, pk):
        raise Http404
    person = get_object_or_404(Player, pk=pk)
    visible = access.viewer_of(request).matches
    ids = player_ids_for(person)
    stats = player_stats(ids, visible)
    seats = Seat.objects.filter(player_id__in=ids).filter(visible("match__"), counted("match__"))
    form_chart = line_chart([("t0", _("Form"), [v * 100 for v in stats.form])], floor=0)
    context = {
        "player": person,
        "stats": stats,
        "form_chart": form_chart,
        "linked_names": linked_names(ids, person, visible),
        "concours": player_concours(seats),  # "played in: Concours de la Saint-Martin, 3rd"
    }
    return render(request, "history/player.html", context)


@require_POST
def this_is_me(request: HttpRequest, pk: int) -> HttpResponseBase:
    """Link a name to the signed-in account ("undo": unlink it). Allowed to the name's owner and
    its player, and to the owner or a signed-in scorer of a match where it sits; a scorer's claim
    is tied to that match's scorer link (see access.claim_access)."""
    route = access.claim_access(request, pk)
    if route is None:
        raise Http404
    user = access.account(request)
    if user is None:
        return redirect_to_login(reverse("history:player", args=[pk]))
    name = route.player.name
    undo = bool(request.POST.get("undo"))
    try:
        changed = services.this_is_me(player_id=pk, user=user, through=route.through, undo=undo)
    except services.ClaimRefused as refused:
        messages.error(request, _refusal(refused.reason, name, by_scorer=bool(route.through)))
    else:
        if undo and changed:
            messages.info(request, _("%(name)s is no longer linked to you.") % {"name": name})
        elif not undo:
            messages.success(request, _("%(name)s is you: statistics now gather.") % {"name": name})
    if access.may_open_player(request, pk):
        return redirect("history:player", pk=pk)
    if route.through is not None:  # a scorer whose claim was refused (or undone)
        return redirect("history:review", token=route.through.view_token)
    return redirect("history:history")


def _refusal(reason: str, name: str, *, by_scorer: bool) -> str:
    if reason == "same_table":
        # Two names of one match cannot be the same person: the statistics would count it twice.
        return _("%(name)s played in the same match as a name already linked to you.") % {
            "name": name
        }
    if by_scorer:
        return _(
            "This name is already linked to another account. If it is yours, ask the match's "
            "owner to unlink it."
        )
    return _(
        "This name is already linked to another account. If it is yours, unlink it on the "
        "Share page of one of its matches, then claim it."
    )


# Recently deleted ----------------------------------------------------------------------------


@require_safe
def deleted(request: HttpRequest) -> HttpResponse:
    """The matches this browser or account owns and deleted less than DELETED_KEPT_DAYS ago,
    newest deletion first, each with a Restore button (its owner's only)."""
    matches = access.owned(request).restorable().with_players().order_by("-deleted_at", "-id")
    return render(
        request, "history/deleted.html", {"matches": matches, "kept_days": DELETED_KEPT_DAYS}
    )


@require_POST
def undelete(request: HttpRequest, token: str) -> HttpResponseBase:
    """Restore a deleted match: its owner's only (404 for anyone else, as its links)."""
    match = get_object_or_404(access.owned(request).restorable(), scorer_token=token)
    try:
        services.restore_match(match_id=match.pk)
    except (services.NotRestorable, services.MatchHeld):
        raise Http404 from None  # restored or past the limit since shown; held by a concours
    messages.success(request, _("%(match)s restored.") % {"match": match})
    return redirect("matches:scoreboard", token=match.scorer_token)


# Files ---------------------------------------------------------------------------------------


def _csv_response(matches: "MatchQuerySet", filename: str) -> StreamingHttpResponse:
    rows = exports.csv_rows(exports.with_deals(matches).iterator(chunk_size=200))
    response = StreamingHttpResponse(rows, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_safe
def match_csv(request: HttpRequest, token: str) -> StreamingHttpResponse:
    match = access.match_for_viewer(token)
    return _csv_response(Match.objects.filter(pk=match.pk), f"match-{token[:8]}.csv")


@require_safe
def history_csv(request: HttpRequest) -> StreamingHttpResponse:
    return _csv_response(_mine(request).order_by("created_at", "id"), "my-matches.csv")


@require_safe
def backup(request: HttpRequest) -> HttpResponse:
    data = exports.backup_zip(exports.with_deals(_mine(request).order_by("created_at", "id")))
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = 'attachment; filename="belote-backup.zip"'
    return response


RESTORE_RESULT = "restore_result"  # session key of a restore's result before jobs


def _needs_account(request: HttpRequest) -> HttpResponse:
    messages.info(
        request,
        _(
            "Restoring a backup needs an account: log in (or sign up), and the restored "
            "matches are yours on every device."
        ),
    )
    return redirect_to_login(request.get_full_path())


@require_http_methods(["GET", "HEAD", "POST"])
def restore(request: HttpRequest) -> HttpResponseBase:
    if not request.user.is_authenticated:
        return _needs_account(request)
    bound = request.method == "POST"
    form = RestoreForm(request.POST if bound else None, request.FILES if bound else None)
    status, wait = 200, None
    if request.method == "POST" and form.is_valid():
        owner_key = access.device_key(request)
        try:
            if (active := active_job(owner=request.user, owner_key=owner_key)) is not None:
                raise JobRefused(active)
            exports.admit_backup(data=form.cleaned_data["file"], owner=request.user)
            job = start_job(
                kind="history_restore",
                owner=request.user,
                owner_key=owner_key,
                data=form.cleaned_data["file"],
            )
        except JobRefused:
            status = 409
            form.add_error(
                "file",
                _(
                    "Nothing was restored: a job of yours is still running (see My jobs). "
                    "Wait for it to end, then try again."
                ),
            )
        except InvalidInput as error:
            form.add_error(
                "file", _("Nothing was restored: %(reason)s") % {"reason": explain(error)}
            )
        except exports.TooManyDeals as refusal:
            form.add_error(
                "file",
                _(
                    "Nothing was restored: this backup holds more than %(limit)s deals, the most "
                    "one restore takes. Split it into smaller zips."
                )
                % {"limit": number_format(refusal.limit, force_grouping=True)},
            )
        except exports.HourlyLimit as refusal:
            status, wait = 429, refusal.seconds
            minutes = throttle.wait_minutes(refusal.seconds)
            form.add_error(
                "file",
                _("Nothing was restored: your account may restore %(limit)s deals an hour.")
                % {"limit": number_format(refusal.limit, force_grouping=True)},
            )
            form.add_error(
                "file",
                ngettext(
                    "Wait %(minutes)s minute, then try again.",
                    "Wait %(minutes)s minutes, then try again.",
                    minutes,
                )
                % {"minutes": minutes},
            )
        else:
            return redirect("jobs:job", pk=job.pk)
    limits = {
        "per_request": number_format(settings.RESTORE_DEALS_PER_REQUEST, force_grouping=True),
        "per_hour": number_format(settings.RESTORE_DEALS_PER_HOUR, force_grouping=True),
    }
    page = render(request, "history/restore.html", {"form": form, **limits}, status=status)
    return throttle.retry_after(page, wait)


@require_safe
def restore_done(request: HttpRequest) -> HttpResponseBase:
    """The result of a restore made before restores ran as jobs, kept in the session: the
    matches restored (links to their review) and the files refused, each with its reason in the
    page's language. A restore's result is now on its job's page."""
    if not request.user.is_authenticated:
        return _needs_account(request)
    saved = request.session.get(RESTORE_RESULT)
    if not saved:
        return redirect("history:restore")
    context = {"outcome": restore_words(saved)}
    return render(request, "history/restore_done.html", context)
