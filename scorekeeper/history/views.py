"""History, match review, player pages and the data files. Thin views over selectors.py."""

from django.contrib import messages
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from scorekeeper.matches import access
from scorekeeper.matches.board import build_board
from scorekeeper.matches.engine_text import explain
from scorekeeper.matches.models import Match, MatchQuerySet, Player
from scorekeeper.scoring import InvalidInput
from scorekeeper.web.htmx import wants_partial

from . import exports
from .charts import line_chart
from .forms import HistoryFilterForm, RestoreForm
from .selectors import filter_history, match_facts, player_ids_for, player_stats

PAGE_SIZE = 25


def _mine(request: HttpRequest) -> MatchQuerySet:
    return Match.objects.visible_to(
        user=request.user if request.user.is_authenticated else None,
        device_key=request.session.get(access.DEVICE_KEY),
        remembered=access.remembered_tokens(request),
    )


@require_safe
@vary_on_headers("HX-Request")
def history(request: HttpRequest) -> HttpResponse:
    form = HistoryFilterForm(request.GET or None)
    matches = filter_history(_mine(request), form.filters())
    page = Paginator(matches, PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {"form": form, "page": page, "query": query.urlencode()}
    template = "history/history.html"
    if wants_partial(request):
        template += "#results"
    return render(request, template, context)


@require_safe
def review(request: HttpRequest, token: str) -> HttpResponse:
    match = access.match_for_viewer(token)
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
    visible_players = _visible_player_ids(request)
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
        "team_facts": list(zip(match.team_names, facts.teams, strict=True)),
        "players": seated,
        "visible_players": visible_players,
        "can_score": scorer,
        "claimable": claimable,  # "which one is you?" for a signed-in player of this table
    }
    return render(request, "history/review.html", context)


def _visible_player_ids(request: HttpRequest) -> set[int]:
    query = Player.objects.none()
    key = request.session.get(access.DEVICE_KEY)
    if key:
        query = Player.objects.filter(owner_key=key)
    if request.user.is_authenticated:
        query = (
            query
            | Player.objects.filter(owner=request.user)
            | Player.objects.filter(user=request.user)
        )
    return set(query.values_list("pk", flat=True))


def _player_for(request: HttpRequest, pk: int) -> Player:
    """A player page is for the browser or account that named the player, or the player."""
    if pk not in _visible_player_ids(request):
        raise Http404
    return get_object_or_404(Player, pk=pk)


@require_safe
def player(request: HttpRequest, pk: int) -> HttpResponse:
    person = _player_for(request, pk)
    ids = player_ids_for(person)
    stats = player_stats(ids)
    form_chart = line_chart([("t0", _("Form"), [v * 100 for v in stats.form])], floor=0)
    context = {
        "player": person,
        "stats": stats,
        "form_chart": form_chart,
        "linked_names": Player.objects.filter(pk__in=ids).exclude(pk=person.pk),
    }
    return render(request, "history/player.html", context)


def _shares_a_table(person: Player, user_id: int) -> bool:
    """Whether `person` sat in a match with a name already linked to this account."""
    mine = list(Player.objects.filter(user_id=user_id).values_list("pk", flat=True))
    if not mine:
        return False
    seats = ("seat0", "seat1", "seat2", "seat3")
    with_person = Q()
    with_mine = Q()
    for seat in seats:
        with_person |= Q(**{f"{seat}_id": person.pk})
        with_mine |= Q(**{f"{seat}_id__in": mine})
    return Match.objects.filter(with_person).filter(with_mine).exists()


def _claimable_by_scorer(request: HttpRequest, pk: int) -> Player | None:
    """A name seated in a match this account scores (or owns): its player may say "this is me"
    from the match's review page, though the name was given on another phone."""
    if not request.user.is_authenticated:
        return None
    seated = Q()
    for seat in ("seat0", "seat1", "seat2", "seat3"):
        seated |= Q(**{f"{seat}_id": pk})
    mine = Q(owner=request.user) | Q(scorers__user=request.user)
    if not Match.objects.filter(seated).filter(mine).exists():
        return None
    return Player.objects.filter(pk=pk).first()


@require_POST
def this_is_me(request: HttpRequest, pk: int) -> HttpResponseBase:
    person = _claimable_by_scorer(request, pk) or _player_for(request, pk)
    if not request.user.is_authenticated:
        return redirect(f"/accounts/login/?next=/players/{pk}/")
    if request.POST.get("undo"):
        if person.user_id == request.user.pk:
            person.user = None
            person.save(update_fields=["user"])
            messages.info(
                request, _("%(name)s is no longer linked to you.") % {"name": person.name}
            )
    elif person.user_id is None and _shares_a_table(person, request.user.pk):
        # Two names of one match cannot be the same person: the statistics would count it twice.
        messages.error(
            request,
            _("%(name)s played in the same match as a name already linked to you.")
            % {"name": person.name},
        )
    elif person.user_id is None:
        person.user = request.user
        person.save(update_fields=["user"])
        messages.success(
            request, _("%(name)s is you: statistics now gather.") % {"name": person.name}
        )
    else:
        messages.error(request, _("This name is already linked to another account."))
    return redirect("history:player", pk=pk)


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


@require_http_methods(["GET", "HEAD", "POST"])
def restore(request: HttpRequest) -> HttpResponseBase:
    bound = request.method == "POST"
    form = RestoreForm(request.POST if bound else None, request.FILES if bound else None)
    if request.method == "POST" and form.is_valid():
        try:
            files = exports.read_backup(form.cleaned_data["file"])
        except InvalidInput as error:
            form.add_error(
                "file", _("Nothing was restored: %(reason)s") % {"reason": explain(error)}
            )
        else:
            restored = exports.restore_backup(
                match_files=files,
                owner_key=access.device_key(request),
                owner=access.account(request),
            )
            count = len(restored)
            messages.success(
                request,
                ngettext("%(n)s match restored.", "%(n)s matches restored.", count) % {"n": count},
            )
            return redirect("history:history")
    return render(request, "history/restore.html", {"form": form})
