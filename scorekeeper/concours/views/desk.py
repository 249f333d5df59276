"""The organiser's desk (issue 15): the organiser's concours, a new one, its settings, and each
concours's page (registration, check-in, draws, the round's board of tables, paper totals,
closing, the standings; their actions are in the other view modules), finishing it, the
co-organiser link. Thin views: a form reads, a service writes, POST-redirect-GET; a refusal is a
message and changes nothing. Only the concours's owner, or a browser that opened its
co-organiser link, sees these pages (404 for anyone else); a few actions are the owner's alone
(`access.owner_only`)."""

from dataclasses import replace
from typing import Any

from django.contrib import messages
from django.db.models import F, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from scorekeeper.engine.tournament import History, Settings, TournamentError
from scorekeeper.engine.tournament import Tournament as EngineTournament
from scorekeeper.web.addresses import absolute_url
from scorekeeper.web.gc_pause import paused_gc
from scorekeeper.web.htmx import wants_partial
from scorekeeper.web.paging import PER_PAGE, Page, paginate
from scorekeeper.web.qr import qr_response
from scorekeeper.web.words import reason

from .. import selectors, services
from ..access import co_organised, grant_co, is_owner
from ..access import own as _own
from ..access import owner_only as _owner_only
from ..brackets import bracket_view, planned_rounds, round_title
from ..clock import round_clock
from ..forms import (
    FORMAT_NAMES,
    ConcoursForm,
    CsvForm,
    NewConcoursForm,
    PaperForm,
    PasteForm,
    SettingsForm,
    TeamForm,
    settings_data,
    settings_words,
)
from ..models import Entrant, ResultChange, Round, Tournament
from ..phones import phone_news
from ..previews import share_links
from ..registration_forms import CheckInForm
from ..services import FORMATS, Refused
from ..team_registrations import desk_registrations
from ..view_helpers import (
    back_to_desk,
    correct_form,
    finds,
    matching,
    say_refused,
    search_query,
    side_names,
    table_rows,
)
from ..words import (
    breaks_ties,
    change_action,
    change_author,
    entry_closed,
    ranking_columns,
    refusal,
)


@require_http_methods(["GET", "HEAD", "POST"])
def concours_list(request: HttpRequest) -> HttpResponse:
    """The organiser's concours, newest first, and the New concours form: a ready format whose
    values fill every setting (`?preset=coinche` fills them from another; with htmx, picking a
    format swaps the settings in), each editable."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('accounts:login')}?next={request.path}")
    if request.method == "POST":
        form = NewConcoursForm(settings_data(request.POST))
    else:
        preset = request.GET.get("preset")
        preset = preset if preset in FORMATS else "belote"
        initial = {"preset": preset, "start": preset, **SettingsForm.initial_from(FORMATS[preset])}
        form = NewConcoursForm(initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            tournament = services.create_tournament(
                owner=request.user,
                name=data["name"],
                preset=data["preset"],
                overrides=form.values(),
                date=data["date"],
                place=data["place"],
                prizes=data["prizes"],
            )
        except Refused as error:
            form.add_error(None, refusal(error))
        except TournamentError as error:
            form.add_error(form.field_of(error.path) or "name", reason(error.code, **error.params))
        else:
            return redirect("concours:desk", pk=tournament.pk)
    formats = [(key, FORMAT_NAMES[key], settings_words(values)) for key, values in FORMATS.items()]
    context = {"form": form, "formats": formats}
    if wants_partial(request) and request.method == "GET":
        context["settings_open"] = True
        return render(request, "concours/desk/list.html#new-settings", context)
    context["tournaments"] = Tournament.objects.filter(owner=request.user).order_by("-created_at")
    context["helping"] = co_organised(request)
    return render(request, "concours/desk/list.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def edit_settings(request: HttpRequest, pk: int) -> HttpResponse:
    """The concours's name, date, place, prizes (at any time) and settings (until round 1 is
    drawn; shown in words after): the owner's alone."""
    tournament = _owner_only(request, pk)
    locked = tournament.rounds.exists()
    initial = {
        "name": tournament.name,
        "date": tournament.date,
        "place": tournament.place,
        "prizes": "\n".join(f"{rank}: {text}" for rank, text in tournament.prizes.items()),
        **SettingsForm.initial_from(tournament.settings),
    }
    form = ConcoursForm(request.POST or None, initial=initial)
    if locked:
        form.lock_settings()
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.update_tournament(
                tournament=tournament,
                name=data["name"],
                date=data["date"],
                place=data["place"],
                prizes=data["prizes"],
                settings=_clock_only(tournament, data["minutes"]) if locked else form.values(),
            )
        except Refused as error:
            form.add_error(None, refusal(error))
        except TournamentError as error:
            form.add_error(form.field_of(error.path) or "name", reason(error.code, **error.params))
        else:
            messages.success(request, _("The concours is saved."))
            return back_to_desk(tournament)
    context = {
        "tournament": tournament,
        "form": form,
        "locked": locked,
        "settings_lines": settings_words(tournament.settings),
    }
    return render(request, "concours/desk/settings.html", context)


def _csv_rounds(closed: list[Round], rules: Settings, finished: bool) -> list[int]:
    """The rounds whose standings the desk offers as CSV: the closed qualifying rounds (what
    records.standings_csv serves), the last left out once the concours is finished without a
    final bracket (its standings are the final ranking, offered as such)."""
    numbers = [round_.number for round_ in closed if round_.number <= rules.rounds]
    if finished and rules.final is None:
        numbers = numbers[:-1]
    return numbers


def _clock_only(tournament: Tournament, minutes: int | None) -> dict[str, Any]:
    """The concours's settings as they are but the round clock's minutes (once a round is
    drawn, the one setting the page still changes)."""
    values = {k: v for k, v in tournament.settings.items() if k != "minutes"}
    return values if minutes is None else {**values, "minutes": minutes}


def _rematch_tables(engine: EngineTournament) -> list[int]:
    """The numbers of the last round's tables whose sides met before (or, à la mêlée, repeat a
    partnership or an opponent): read from the tables as they stand, so a swap that makes or
    undoes one shows at once (the round's stored count is the draw's). No query."""
    if not engine.rounds:
        return []
    history = History(replace(engine, rounds=engine.rounds[:-1]))
    found = []
    for table in engine.rounds[-1].tables:
        first, second = table.sides
        again = sum(history.partnered(*side) for side in table.sides if len(side) == 2)
        again += history.meeting_again(first, second)
        if again:
            found.append(table.number)
    return sorted(found)


def _board(
    request: HttpRequest,
    snap: selectors.Snapshot,
    names: dict[int, str],
    wanted: set[int] | None,
    rules: Any,
) -> Page[dict[str, Any]]:
    """The current round's tables (those of the entrants looked for, `wanted`), a page of them
    (`?board=`), each with its two sides' names, its state and its forms: the forms and the
    table rows (phone links) read for that page only (one query)."""
    current = snap.rounds[-1]
    drawn = snap.engine.rounds[-1].tables
    shown: list[dict[str, Any]] = [
        {"number": row.number, "sides": side_names(table, names)}
        for row, table in zip(snap.tables[-1], drawn, strict=True)
        if finds(table, wanted)
    ]
    page = paginate(shown, request, param="board")
    # With what its phone last said (docs/offline.md), in the same query.
    rows = current.tables.filter(number__in=[r["number"] for r in page]).annotate(
        seen_at=F("match__phone_seen_at"),
        offline_since=F("match__phone_offline_since"),
        waiting=F("match__phone_waiting"),
    )
    tables = {t.number: t for t in rows}
    deals_limit = rules.partie.deals_limit
    now = timezone.now()
    for row in page:
        table = tables[row["number"]]
        table.round = current
        names_: list[str] = row["sides"]
        row.update(
            table=table,
            phone=phone_news(
                finished=table.finished,
                seen_at=table.seen_at,
                offline_since=table.offline_since,
                waiting=table.waiting or 0,
                now=now,
            ),
            deals_limit=deals_limit if table.match_id is not None else None,
            paper_form=PaperForm(prefix=f"t{table.number}", sides=names_),
            correct_form=correct_form(table, names_),
        )
    return page


DESK_PARTIALS = ("board", "standings", "changes", "registration")


@require_safe
@vary_on_headers("HX-Request")
@paused_gc
def desk(request: HttpRequest, pk: int) -> HttpResponse:
    """The desk: the current round first (its tables a page at a time), the standings, the
    past rounds (a round of more than PER_PAGE tables on a page of its own: `round_tables`),
    the change log and the registration, each long list a page at a time (`?board=`,
    `?standings=`, `?changes=`, `?registration=`: scorekeeper.web.paging) and, past PER_PAGE
    entrants, a search box (`?q=`) keeping in every list only the entrants found. The
    tournament is read once (selectors.snapshot) and its standings computed once."""
    tournament = _own(request, pk)
    snap = selectors.snapshot(tournament)
    rounds = list(snap.rounds)
    current = rounds[-1] if rounds else None
    closed = [r for r in rounds if r.is_closed]
    rules = tournament.engine_settings
    everyone = list(snap.everyone)
    names = {e.number: e.name for e in everyone}
    query = search_query(request)
    found = matching(everyone, query)
    wanted = {e.number for e in found} if found is not None else None
    standings = None
    ties: list[dict[str, Any]] = []
    finished = tournament.status == Tournament.Status.FINISHED
    if closed:
        by_number = {e.number: e for e in everyone}
        standings = selectors.standings_rows(tournament, closed[-1].number, snap=snap)
        ties = selectors.prize_ties(standings) if finished else []
        for row in standings:
            row["entrant"] = by_number.get(row["id"])
        if wanted is not None:
            standings = [row for row in standings if row["id"] in wanted]
    board = _board(request, snap, names, wanted, rules) if current is not None else None
    tables_now = snap.tables[-1] if current is not None else ()
    rematches = _rematch_tables(snap.engine) if current is not None else []
    if board is not None:
        for row in board:
            row["rematch"] = row["number"] in rematches
    all_done = bool(tables_now) and all(t.finished for t in tables_now)
    untouched = (
        current is not None
        and not current.is_closed
        and not any(t.finished or t.deal_count for t in tables_now)
    )
    in_round: list[Entrant] = []
    if current is not None and untouched:
        seated = {n for table in snap.engine.rounds[-1].tables for s in table.sides for n in s}
        in_round = sorted(
            (e for e in snap.entrants if e.number in seated), key=lambda e: e.name.casefold()
        )
    entrants = found if found is not None else everyone
    open_round = current is not None and not current.is_closed
    state = selectors.progress(snap)
    closed_to_entries = services.entry_refusal(tournament, len(rounds))
    stage_title = next_title = ""
    if state.bracket is not None:
        for round_ in state.bracket.rounds:
            if current is not None and round_.round == current.number:
                stage_title = round_title(round_)
        if state.bracket.next is not None:
            next_title = round_title(state.bracket.rounds[state.bracket.next])
    context = {
        # The round clock (concours/clock.py): its face, its Start button (the concours has
        # minutes), its Call time at every table (tables still playing with a deal).
        "clock": round_clock(current, where="desk") if open_round else None,
        "clock_minutes": rules.minutes,
        "playing_tables": sum(1 for t in tables_now if not t.finished and t.deal_count)
        if open_round
        else 0,
        "tournament": tournament,
        "settings_lines": settings_words(tournament.settings),
        "melee": rules.melee,
        "entrants": paginate(entrants, request, param="registration"),
        "entrant_count": len(everyone),
        "query": query,
        "found": found,
        "searchable": len(everyone) > PER_PAGE,
        "drawn": len(rounds),
        # Why no entrant can join now (the registration forms then give way to this line).
        "entry_closed": entry_closed(closed_to_entries) if closed_to_entries else "",
        "qualifying_rounds": rules.rounds,  # withdrawals: before a qualifying round only
        # With a final bracket, its rounds too (docs/tournaments.md §7: each a round).
        "rounds_planned": planned_rounds(rules),
        "current": current,
        "board": board,
        "rematch_tables": rematches,
        "byes": [names.get(n, "") for n in snap.engine.rounds[-1].byes] if current else [],
        "in_round": in_round if len(in_round) <= PER_PAGE else [],
        "swap_page": len(in_round) > PER_PAGE,
        "can_draw": not finished and (current is None or current.is_closed) and state.more,
        "bracket": bracket_view(state.bracket, names) if state.bracket else None,
        "round_robin": rules.pairing == "round_robin",
        "stage_title": stage_title,
        "next_title": next_title,
        "can_redraw": untouched,
        "public_url": reverse("concours_public:standings", args=[tournament.public_token]),
        "projector_url": reverse("concours_public:projector", args=[tournament.public_token]),
        "is_owner": is_owner(request, tournament),
        "co_url": absolute_url(request, reverse("concours:co", args=[tournament.co_token])),
        "can_close": current is not None and not current.is_closed and all_done,
        "can_finish": not finished and current is not None and current.is_closed and state.complete,
        "finished": finished,
        "standings": paginate(standings, request, param="standings") if standings else None,
        # The ranking's own criteria beside the usual figures, and which broke each tie.
        "ranking_columns": ranking_columns(rules.ranking),
        "tie_breaks": breaks_ties(rules.ranking),
        "ties": ties,
        # A bracket round leaves the qualifying standings be (docs/tournaments.md §7).
        "standings_round": min(closed[-1].number, rules.rounds) if closed else None,
        "bracket_ranking": state.bracket is not None and state.bracket.complete,
        # A standings CSV after each closed qualifying round (a bracket round leaves the
        # standings be), but the last once finished without a bracket: the final ranking's.
        "csv_rounds": _csv_rounds(closed, rules, finished),
        "past_rounds": _past_rounds(snap, names, wanted),
        "changes": _changes(request, tournament),
        "team_form": _team_form(rules.melee),
        "paste_form": _paste_form(rules.melee),
        "csv_form": CsvForm(),
        "past": _past_names(tournament) if not finished else ([], []),
        # Teams registering themselves (issue 45): the contacts for the owner alone.
        "sign_ups": desk_registrations(
            tournament, with_contacts=is_owner(request, tournament), drawn=len(rounds)
        ),
        "check_in_form": CheckInForm(),
        # Share the results (issue 45): once a round's results are in.
        "share": share_links(request, tournament) if closed else None,
    }
    template = "concours/desk/desk.html"
    target = request.headers.get("HX-Target", "")
    if wants_partial(request) and target in DESK_PARTIALS:
        template += f"#{target}"
    return render(request, template, context)


def _past_rounds(
    snap: selectors.Snapshot, names: dict[int, str], wanted: set[int] | None
) -> list[dict[str, Any]]:
    """The closed rounds, newest first: a round of PER_PAGE tables or fewer with its tables
    (sides, points, a Correct form each), a bigger one as a link to its own page (its tables a
    page at a time: `round_tables`). No query."""
    out = []
    for index in reversed(range(len(snap.rounds))):
        round_ = snap.rounds[index]
        if not round_.is_closed:
            continue
        count = len(snap.tables[index])
        small = count <= PER_PAGE
        tables = table_rows(snap, index, names, wanted) if small else []
        out.append({"round": round_, "count": count, "small": small, "tables": tables})
    return out


def _changes(request: HttpRequest, tournament: Tournament) -> Page[dict[str, Any]]:
    """The log of typed and corrected results, newest first, a page at a time (`?changes=`; a
    count and one query for the page): who, what, when."""
    query = (
        ResultChange.objects.filter(table__round__tournament=tournament)
        .select_related("table__round", "author")
        .order_by("-created_at", "-id")
    )
    page: Page[ResultChange] = paginate(
        query,  # type: ignore[arg-type]  # a QuerySet, sliced (django-stubs: not a Sequence)
        request,
        param="changes",
        total=query.count(),
    )
    rows = [
        {
            "change": change,
            "who": change_author(change, tournament),
            "what": change_action(change.action),
            "before": _points(change.before),
            "after": _points(change.after),
        }
        for change in page
    ]
    return page.with_items(rows)


def _points(result: Any) -> str:
    points = result.get("points") if isinstance(result, dict) else None
    if isinstance(points, list) and len(points) == 2:
        return f"{points[0]} – {points[1]}"
    return "–"


def _team_form(melee: bool) -> TeamForm:
    form = TeamForm()
    if melee:
        form.fields["name"].label = _("Player")
        form.fields["name"].widget.attrs["list"] = "past-players"
    return form


def _paste_form(melee: bool) -> PasteForm:
    form = PasteForm()
    if melee:
        form.fields["text"].help_text = _("One player a line: the name.")
    return form


PAST_NAMES = 500


def _past_names(tournament: Tournament) -> tuple[list[str], list[str]]:
    """The team and player names of the organiser's other concours and, for a club's concours,
    of the club's other concours (issue 16), newest first (suggested in the one-line form), in
    one query. A mêlée concours's entrants are players."""
    others = Q(tournament__owner_id=tournament.owner_id)
    if tournament.club_id is not None:
        others |= Q(tournament__club_id=tournament.club_id)
    rows = (
        Entrant.objects.filter(others)
        .exclude(tournament=tournament)
        .order_by("-created_at")
        .values_list("name", "player1", "player2", "tournament__settings__mode")[:PAST_NAMES]
    )
    teams: dict[str, None] = {}
    players: dict[str, None] = {}
    for name, player1, player2, mode in rows:
        (players if mode == "melee" else teams).setdefault(name, None)
        for player in (player1, player2):
            if player:
                players.setdefault(player, None)
    return list(teams), list(players)


@require_POST
def finish(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    if request.POST.get("confirm") != "yes":  # a confirmation step: see desk.html
        messages.error(
            request, _("The concours is finished with the button “Yes, finish the concours”.")
        )
        return back_to_desk(tournament)
    try:
        services.finish(tournament=tournament)
    except Refused as error:
        say_refused(request, error)
        return back_to_desk(tournament)
    messages.success(request, _("The concours is finished: here is the final ranking."))
    return back_to_desk(tournament, "standings")


@require_safe
def co_link(request: HttpRequest, token: str) -> HttpResponse:
    """The co-organiser link opened: this browser gets the concours's desk (kept in its session,
    see CO_SESSION_KEY), with or without an account."""
    tournament = get_object_or_404(Tournament, co_token=token)
    if not is_owner(request, tournament):
        grant_co(request, tournament)
        messages.info(
            request,
            _("You are helping to run “%(name)s”: this browser has its desk.")
            % {"name": tournament.name},
        )
    return back_to_desk(tournament)


@require_safe
def co_qr(request: HttpRequest, pk: int) -> HttpResponse:
    """The co-organiser link as a QR code (SVG), shown on the desk."""
    tournament = _own(request, pk)
    target = reverse("concours:co", args=[tournament.co_token])
    return qr_response(absolute_url(request, target), cache="private, no-store")


@require_POST
def co_new(request: HttpRequest, pk: int) -> HttpResponse:
    """A new co-organiser link (the owner only): the old one, and every desk opened with it,
    stop working at once."""
    tournament = _owner_only(request, pk)
    services.regenerate_co_link(tournament=tournament)
    messages.success(request, _("New co-organiser link: the old one no longer works."))
    return back_to_desk(tournament, "co-organiser")
