"""The organiser's desk (issue 15): the organiser's concours, a new one, and each concours's
page: registration, check-in, draws, the round's board of tables, paper totals, closing, the
standings. Thin views: a form reads, a service writes, POST-redirect-GET; a refusal is a
message and changes nothing. Only the concours's owner, or a browser that opened its
co-organiser link, sees these pages (404 for anyone else); a few actions are the owner's alone
(`_owner_only`)."""

from collections.abc import Sequence
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from scorekeeper.engine.tournament import History, TournamentError
from scorekeeper.engine.tournament import Table as EngineTable
from scorekeeper.engine.tournament import Tournament as EngineTournament
from scorekeeper.web.folding import fold
from scorekeeper.web.gc_pause import paused_gc
from scorekeeper.web.htmx import wants_partial
from scorekeeper.web.paging import PER_PAGE, Page, page_of, paginate
from scorekeeper.web.qr import qr_response
from scorekeeper.web.words import reason

from . import selectors, services
from .access import author as _author
from .access import co_organised, grant_co, is_owner
from .access import own as _own
from .access import owner_only as _owner_only
from .forms import (
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
from .models import Entrant, ResultChange, Round, Table, Tournament
from .services import FORMATS, Refused
from .words import change_action, change_author, paper_warning, refusal


def _refused(request: HttpRequest, error: Exception) -> None:
    if isinstance(error, Refused):
        messages.error(request, refusal(error))
    elif isinstance(error, TournamentError):
        messages.error(request, reason(error.code, **error.params))


def _back(tournament: Tournament, anchor: str = "", query: str = "") -> HttpResponse:
    url = reverse("concours:desk", args=[tournament.pk]) + query
    return redirect(f"{url}#{anchor}" if anchor else url)


def _page_query(param: str, index: int) -> str:
    """`?<param>=N` for the page (scorekeeper.web.paging) holding the item at 0-based `index`; ""
    for page 1."""
    number = page_of(index)
    return f"?{param}={number}" if number > 1 else ""


def back_to_table(tournament: Tournament, table: Table) -> HttpResponse:
    """The desk at a table of the current round: the board's page holding it (one query)."""
    before = Table.objects.filter(round_id=table.round_id, number__lt=table.number).count()
    return _back(tournament, f"table-{table.number}", _page_query("board", before))


def _back_to_entrant(tournament: Tournament, entrant: Entrant) -> HttpResponse:
    """The desk at an entrant of the registration list: the page holding it (one query)."""
    before = tournament.entrants.filter(number__lt=entrant.number).count()
    return _back(tournament, f"entrant-{entrant.number}", _page_query("registration", before))


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
                settings=None if locked else form.values(),
            )
        except Refused as error:
            form.add_error(None, refusal(error))
        except TournamentError as error:
            form.add_error(form.field_of(error.path) or "name", reason(error.code, **error.params))
        else:
            messages.success(request, _("The concours is saved."))
            return _back(tournament)
    context = {
        "tournament": tournament,
        "form": form,
        "locked": locked,
        "settings_lines": settings_words(tournament.settings),
    }
    return render(request, "concours/desk/settings.html", context)


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


def _names_of(drawn: EngineTable, names: dict[int, str]) -> list[str]:
    """A drawn table's two sides as the desk writes them ("Alice & Bruno" à la mêlée)."""
    return [" & ".join(names.get(n, "") for n in side) for side in drawn.sides]


def _finds(drawn: EngineTable, wanted: set[int] | None) -> bool:
    return wanted is None or any(n in wanted for side in drawn.sides for n in side)


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
        {"number": row.number, "sides": _names_of(table, names)}
        for row, table in zip(snap.tables[-1], drawn, strict=True)
        if _finds(table, wanted)
    ]
    page = paginate(shown, request, param="board")
    tables = {t.number: t for t in current.tables.filter(number__in=[r["number"] for r in page])}
    deals_limit = rules.partie.deals_limit
    for row in page:
        table = tables[row["number"]]
        table.round = current
        names_: list[str] = row["sides"]
        row.update(
            table=table,
            deals_limit=deals_limit if table.match_id is not None else None,
            paper_form=PaperForm(prefix=f"t{table.number}", sides=names_),
            correct_form=_correct_form(table, names_),
        )
    return page


def _correct_form(table: Table | selectors.TableRow, sides: list[str], **kwargs: Any) -> PaperForm:
    """A finished table's correction, filled with its result now."""
    initial = {"points0": table.points0, "points1": table.points1} if table.points else None
    return PaperForm(prefix=f"c{table.number}", sides=sides, initial=initial, **kwargs)


MAX_QUERY = 60  # a search's length kept


def _query(request: HttpRequest) -> str:
    return " ".join(request.GET.get("q", "").split())[:MAX_QUERY]


def _wanted(entrants: Sequence[Entrant], query: str) -> list[Entrant] | None:
    """The entrants whose name or a player's name holds `query`, folded (case, accents and
    ligatures aside: scorekeeper.web.folding); None when nothing is looked for."""
    folded = fold(query)
    if not folded:
        return None
    return [
        e
        for e in entrants
        if any(folded in fold(name) for name in (e.name, e.player1, e.player2) if name)
    ]


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
    query = _query(request)
    found = _wanted(everyone, query)
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
    context = {
        "tournament": tournament,
        "settings_lines": settings_words(tournament.settings),
        "melee": rules.melee,
        "entrants": paginate(entrants, request, param="registration"),
        "entrant_count": len(everyone),
        "query": query,
        "found": found,
        "searchable": len(everyone) > PER_PAGE,
        "drawn": len(rounds),
        "rounds_planned": rules.rounds,
        "current": current,
        "board": board,
        "rematch_tables": rematches,
        "byes": [names.get(n, "") for n in snap.engine.rounds[-1].byes] if current else [],
        "in_round": in_round if len(in_round) <= PER_PAGE else [],
        "swap_page": len(in_round) > PER_PAGE,
        "can_draw": not finished
        and (current is None or current.is_closed)
        and len(rounds) < rules.rounds,
        "can_redraw": untouched,
        "public_url": reverse("concours_public:standings", args=[tournament.public_token]),
        "projector_url": reverse("concours_public:projector", args=[tournament.public_token]),
        "is_owner": is_owner(request, tournament),
        "co_url": request.build_absolute_uri(reverse("concours:co", args=[tournament.co_token])),
        "can_close": current is not None and not current.is_closed and all_done,
        "can_finish": not finished
        and current is not None
        and current.is_closed
        and len(rounds) == rules.rounds,
        "finished": finished,
        "standings": paginate(standings, request, param="standings") if standings else None,
        "ties": ties,
        "standings_round": closed[-1].number if closed else None,
        "closed_rounds": [r.number for r in closed],  # standings CSV after each
        "past_rounds": _past_rounds(snap, names, wanted),
        "changes": _changes(request, tournament),
        "team_form": _team_form(rules.melee),
        "paste_form": _paste_form(rules.melee),
        "csv_form": CsvForm(),
        "past": _past_names(tournament) if not finished else ([], []),
    }
    template = "concours/desk/desk.html"
    target = request.headers.get("HX-Target", "")
    if wants_partial(request) and target in DESK_PARTIALS:
        template += f"#{target}"
    return render(request, template, context)


def _table_rows(
    snap: selectors.Snapshot, index: int, names: dict[int, str], wanted: set[int] | None
) -> list[dict[str, Any]]:
    """Round `index + 1`'s tables (those of the entrants `wanted`) from the snapshot: each its
    row, its sides' names and its Correct form (ids told apart by round). No query."""
    number = snap.rounds[index].number
    rows = []
    for row, drawn in zip(snap.tables[index], snap.engine.rounds[index].tables, strict=True):
        if not _finds(drawn, wanted):
            continue
        sides = _names_of(drawn, names)
        form = _correct_form(row, sides, auto_id=f"id_r{number}_%s")
        rows.append({"table": row, "sides": sides, "form": form})
    return rows


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
        tables = _table_rows(snap, index, names, wanted) if small else []
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
def add_team(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    form = TeamForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Type the team's name and its two players."))
        return _back(tournament, "registration")
    data = form.cleaned_data
    players = ("", "") if tournament.melee else (data["player1"], data["player2"])
    try:
        entrant = services.add_entrant(tournament=tournament, name=data["name"], players=players)
    except (Refused, TournamentError) as error:
        _refused(request, error)
    else:
        messages.success(request, _("“%(name)s” is registered.") % {"name": entrant.name})
    return _back(tournament, "registration")


@require_POST
def paste(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    form = PasteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Paste at least one line."))
        return _back(tournament, "registration")
    try:
        added = services.add_entrants_from_text(
            tournament=tournament, text=form.cleaned_data["text"]
        )
    except (Refused, TournamentError) as error:
        _refused(request, error)
        messages.info(request, _("Nothing was added: correct the line and paste the list again."))
    else:
        messages.success(request, _("%(count)s added.") % {"count": len(added)})
    return _back(tournament, "registration")


@require_POST
def import_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """A CSV file of entrants (beside the pasted list): all added, or none and every bad line
    named."""
    tournament = _own(request, pk)
    form = CsvForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose a CSV file."))
        return _back(tournament, "registration")
    data = form.cleaned_data["file"].read(services.CSV_MAX_BYTES + 1)
    try:
        added = services.add_entrants_from_csv(tournament=tournament, data=data)
    except services.CsvRefused as error:
        for line in error.lines:
            messages.error(request, refusal(line))
        if error.more:
            messages.error(request, _("…and %(count)s more lines.") % {"count": error.more})
        messages.info(request, _("Nothing was added: correct the file and import it again."))
    except (Refused, TournamentError) as error:
        _refused(request, error)
        messages.info(request, _("Nothing was added: correct the file and import it again."))
    else:
        messages.success(request, _("%(count)s added.") % {"count": len(added)})
    return _back(tournament, "registration")


def _entrant(tournament: Tournament, number: int) -> Entrant:
    entrant = get_object_or_404(Entrant, tournament=tournament, number=number)
    entrant.tournament = tournament
    return entrant


@require_http_methods(["GET", "HEAD", "POST"])
def edit_entrant(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A team's name and players (à la mêlée, a player's name), at any time: its own page, a
    plain form."""
    tournament = _own(request, pk)
    entrant = _entrant(tournament, number)
    initial = {"name": entrant.name, "player1": entrant.player1, "player2": entrant.player2}
    form = TeamForm(request.POST or None, initial=initial)
    melee = tournament.melee
    if melee:
        form.fields["name"].label = _("Player")
    else:
        for field in ("player1", "player2"):
            form.fields[field].required = True
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        players = ("", "") if melee else (data["player1"], data["player2"])
        try:
            services.edit_entrant(entrant=entrant, name=data["name"], players=players)
        except Refused as error:
            form.add_error("name", refusal(error))
        except TournamentError as error:
            field = {"players[0]": "player1", "players[1]": "player2"}.get(error.path, "name")
            form.add_error(field, reason(error.code, **error.params))
        else:
            messages.success(request, _("“%(name)s” is saved.") % {"name": entrant.name})
            return _back_to_entrant(tournament, entrant)
    context = {"tournament": tournament, "entrant": entrant, "form": form, "melee": melee}
    return render(request, "concours/desk/entrant.html", context)


@require_POST
def check_in(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _own(request, pk)
    entrant = _entrant(tournament, number)
    present = request.POST.get("present")
    if present not in ("1", "0"):
        raise Http404
    try:
        services.check_in(entrant=entrant, present=present == "1")
    except Refused as error:
        _refused(request, error)
    return _back_to_entrant(tournament, entrant)


@require_POST
def withdraw(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _own(request, pk)
    entrant = _entrant(tournament, number)
    try:
        if request.POST.get("cancel"):
            services.cancel_withdrawal(entrant=entrant)
            messages.success(
                request,
                _("“%(name)s” is back in: drawn again from the next round.")
                % {"name": entrant.name},
            )
        else:
            services.withdraw(entrant=entrant)
            messages.success(
                request,
                _(
                    "“%(name)s” is withdrawn: not drawn from round %(round)s on; its results "
                    "so far are kept."
                )
                % {"name": entrant.name, "round": entrant.withdrawn_before_round},
            )
    except Refused as error:
        _refused(request, error)
    return _back_to_entrant(tournament, entrant)


@require_POST
def draw(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    try:
        round_ = services.draw_round(tournament=tournament)
    except (Refused, TournamentError) as error:
        _refused(request, error)
        return _back(tournament)
    messages.success(request, _("Round %(round)s is drawn.") % {"round": round_.number})
    if round_.rematches:
        messages.warning(
            request,
            _("Teams meeting again that the draw could not avoid: %(count)s.")
            % {"count": round_.rematches},
        )
    return _back(tournament, "board")


def _round(tournament: Tournament, number: int) -> Round:
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    round_.tournament = tournament
    return round_


def _sides(table: Table) -> list[str]:
    """The two sides' names at a table (one query)."""
    sides: list[list[str]] = [[], []]
    for place in sorted(table.places.select_related("entrant"), key=lambda p: p.seat):
        if place.side is not None:
            sides[place.side].append(place.entrant.name)
    return [" & ".join(names) for names in sides]


@require_http_methods(["GET", "HEAD", "POST"])
def paper(request: HttpRequest, pk: int, round: int, table: int) -> HttpResponse:
    """A table's paper totals. A table whose phone scored deals is not typed over at once: the
    desk is shown both (the phone's deals and the paper) and asked which is right (a GET page,
    the totals in its address; its two buttons post here again: `choice`)."""
    tournament = _own(request, pk)
    row = _table(tournament, round, table)
    source = request.POST if request.method == "POST" else request.GET
    form = PaperForm(source, prefix=f"t{table}", sides=_sides(row))
    if not form.is_valid():
        if request.method == "POST":
            messages.error(
                request,
                _("Table %(table)s: type both totals as whole numbers from 0 to 100000.")
                % {"table": table},
            )
        return back_to_table(tournament, row)
    if request.method != "POST":
        return _paper_choice(request, tournament, row, form)
    choice = request.POST.get("choice", "")
    if choice == "phone":  # the phone's deals are right: nothing is typed
        messages.info(
            request,
            _("Table %(table)s: its phone's deals are kept; the paper totals were not saved.")
            % {"table": table},
        )
        return back_to_table(tournament, row)
    data = form.cleaned_data
    try:
        check = services.record_paper_totals(
            table=row,
            totals=(data["points0"], data["points1"]),
            belotes=data["belotes"] or 0,
            capots=data["capots"] or 0,
            over_deals=choice == "paper",
            **_author(request, tournament),
        )
    except Refused as error:
        if error.code == "table_has_deals":  # ask which is right (PRG: a page of its own)
            names = [form.add_prefix(name) for name in form.fields]
            query = urlencode({name: source.get(name, "") for name in names})
            return redirect(f"{request.path}?{query}")
        _refused(request, error)
        return back_to_table(tournament, row)
    except TournamentError as error:
        _refused(request, error)
        return back_to_table(tournament, row)
    warning = paper_warning(check) if check is not None else None
    if warning:
        messages.warning(
            request,
            _("Table %(table)s: totals saved. Check the sheet: %(warning)s")
            % {"table": table, "warning": warning},
        )
    else:
        messages.success(request, _("Table %(table)s: totals saved.") % {"table": table})
    return back_to_table(tournament, row)


def _paper_choice(
    request: HttpRequest, tournament: Tournament, table: Table, form: PaperForm
) -> HttpResponse:
    """The phone's deals and the paper totals side by side, and the question: which is right?
    Reads only; a table with no deal (or no longer open) goes back to the desk."""
    match = services.scored_on_phone(table)
    if match is None or table.round.is_closed:
        return back_to_table(tournament, table)
    data = form.cleaned_data
    context = {
        "tournament": tournament,
        "table": table,
        "match": match,
        "sides": form.sides,
        "paper": (data["points0"], data["points1"]),
        "form": form,
        "deals_url": reverse(
            "concours:table_deals",
            kwargs={"pk": tournament.pk, "round": table.round.number, "table": table.number},
        ),
    }
    return render(request, "concours/desk/paper_choice.html", context)


@require_safe
def table_deals(request: HttpRequest, pk: int, round: int, table: int) -> HttpResponse:
    """A table's deals from the desk, at an address that never goes stale: its scoreboard by the
    scorer link it has now while its round is open (the organiser corrects there), its
    read-only board once the round is closed. Reads only."""
    tournament = _own(request, pk)
    row = _table(tournament, round, table)
    match = row.match
    if match is None or match.deleted_at is not None:
        raise Http404
    if row.round.is_closed or tournament.status == Tournament.Status.FINISHED:
        return redirect("matches:viewer", token=match.view_token)
    return redirect("matches:scoreboard", token=match.scorer_token)


def _table(tournament: Tournament, round_number: int, number: int) -> Table:
    round_ = _round(tournament, round_number)
    table = get_object_or_404(Table, round=round_, number=number)
    table.round = round_
    return table


@require_POST
def call_time(request: HttpRequest, pk: int, round: int, table: int) -> HttpResponse:
    """Time is up at a table: its partie ends with the deals played."""
    tournament = _own(request, pk)
    row = _table(tournament, round, table)
    if request.POST.get("confirm") != "yes":  # a confirmation step: see desk.html
        messages.error(
            request,
            _("Table %(table)s: time is called with the button “Yes, call time”.")
            % {"table": table},
        )
        return back_to_table(tournament, row)
    try:
        services.call_time(table=row, **_author(request, tournament))
    except Refused as error:
        _refused(request, error)
    else:
        messages.success(request, _("Table %(table)s: time called.") % {"table": table})
    return back_to_table(tournament, row)


@require_POST
def correct(request: HttpRequest, pk: int, round: int, table: int) -> HttpResponse:
    """A finished table's result replaced by two totals (logged with the result before)."""
    tournament = _own(request, pk)
    row = _table(tournament, round, table)
    form = PaperForm(request.POST, prefix=f"c{table}")
    if not form.is_valid():
        messages.error(
            request,
            _("Table %(table)s: type both totals as whole numbers from 0 to 100000.")
            % {"table": table},
        )
        return _back_after_correct(tournament, row)
    data = form.cleaned_data
    try:
        services.correct_result(
            table=row,
            totals=(data["points0"], data["points1"]),
            **_author(request, tournament),
        )
    except (Refused, TournamentError) as error:
        _refused(request, error)
    else:
        messages.success(request, _("Table %(table)s: result corrected.") % {"table": table})
    return _back_after_correct(tournament, row)


def _back_after_correct(tournament: Tournament, table: Table) -> HttpResponse:
    """Where a table is corrected from: the current round's board; a closed round's table the
    desk's Past rounds, or, for a round of more than PER_PAGE tables, the page of its round's
    tables holding it (two queries)."""
    if not table.round.is_closed:
        return back_to_table(tournament, table)
    anchor = f"past-{table.round.number}-table-{table.number}"
    if Table.objects.filter(round_id=table.round_id).count() <= PER_PAGE:
        return _back(tournament, anchor)
    before = Table.objects.filter(round_id=table.round_id, number__lt=table.number).count()
    url = reverse("concours:round_tables", args=[tournament.pk, table.round.number])
    return redirect(f"{url}{_page_query('page', before)}#{anchor}")


@require_safe
@vary_on_headers("HX-Request")
@paused_gc
def round_tables(request: HttpRequest, pk: int, round: int) -> HttpResponse:
    """A closed round's tables, a page at a time (`?page=`), found by a team's name (`?q=`),
    each with its result and its Correct form: where the desk's Past rounds send a round of
    more than PER_PAGE tables. The desk's access (the owner, a co-organiser link); the open
    round's tables are on the desk's board."""
    tournament = _own(request, pk)
    round_ = _round(tournament, round)
    if not round_.is_closed:
        return _back(tournament, "board")
    snap = selectors.snapshot(tournament)
    index = round_.number - 1
    names = {e.number: e.name for e in snap.everyone}
    query = _query(request)
    found = _wanted(snap.everyone, query)
    wanted = {e.number for e in found} if found is not None else None
    tables = paginate(_table_rows(snap, index, names, wanted), request)
    context = {
        "tournament": tournament,
        "round": round_,
        "tables": tables,
        "count": len(snap.tables[index]),
        "query": query,
        "found": found,
    }
    template = "concours/desk/round.html"
    if wants_partial(request) and request.headers.get("HX-Target") == "round-tables":
        template += "#round-tables"
    return render(request, template, context)


@require_POST
def redraw(request: HttpRequest, pk: int, round: int) -> HttpResponse:
    """Draw the last round again, before any of its tables has a deal or a result."""
    tournament = _own(request, pk)
    round_ = _round(tournament, round)
    try:
        services.redraw_round(round_=round_)
    except (Refused, TournamentError) as error:
        _refused(request, error)
    else:
        messages.success(request, _("Round %(round)s is drawn again.") % {"round": round})
    return _back(tournament, "board")


@require_http_methods(["GET", "HEAD", "POST"])
def swap(request: HttpRequest, pk: int, round: int) -> HttpResponse:
    """Swap two entrants' places (tables, or a table and a bye) before any result. GET: the
    form on a page of its own (the desk's, past PER_PAGE entrants in the round: two lists of
    them all would outweigh the desk); it posts here as the desk's does."""
    tournament = _own(request, pk)
    round_ = _round(tournament, round)
    if request.method != "POST":
        return _swap_page(request, tournament, round_)
    picked = (request.POST.get("first", ""), request.POST.get("second", ""))
    numbers = set(picked)
    seated = {
        str(number): entrant
        for number, entrant in (
            (place.entrant.number, place.entrant)
            for place in round_.places.select_related("entrant")
        )
    }
    if len(numbers) != 2 or not numbers <= seated.keys():
        messages.error(request, _("Pick two different teams of this round."))
        return _back(tournament, "board")
    first, second = seated[picked[0]], seated[picked[1]]
    try:
        services.swap_entrants(round_=round_, first=first, second=second)
    except Refused as error:
        _refused(request, error)
    else:
        messages.success(
            request,
            _("“%(first)s” and “%(second)s” swapped places.")
            % {"first": first.name, "second": second.name},
        )
    return _back(tournament, "board")


def _swap_page(request: HttpRequest, tournament: Tournament, round_: Round) -> HttpResponse:
    """The swap form alone, while the round may still be drawn again (else the desk's board)."""
    last = tournament.rounds.order_by("-number").first()
    if (
        last is None
        or last.pk != round_.pk
        or round_.is_closed
        or round_.tables.filter(Q(finished=True) | Q(deal_count__gt=0)).exists()
    ):
        return _back(tournament, "board")
    in_round = sorted(
        (place.entrant for place in round_.places.select_related("entrant")),
        key=lambda e: e.name.casefold(),
    )
    context = {"tournament": tournament, "round": round_, "in_round": in_round}
    return render(request, "concours/desk/swap.html", context)


@require_POST
def close_round(request: HttpRequest, pk: int, round: int) -> HttpResponse:
    tournament = _own(request, pk)
    round_ = _round(tournament, round)
    try:
        services.close_round(round_=round_)
    except Refused as error:
        _refused(request, error)
        return _back(tournament, "board")
    messages.success(request, _("Round %(round)s is closed.") % {"round": round_.number})
    return _back(tournament, "standings")


@require_POST
def finish(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    if request.POST.get("confirm") != "yes":  # a confirmation step: see desk.html
        messages.error(
            request, _("The concours is finished with the button “Yes, finish the concours”.")
        )
        return _back(tournament)
    try:
        services.finish(tournament=tournament)
    except Refused as error:
        _refused(request, error)
        return _back(tournament)
    messages.success(request, _("The concours is finished: here is the final ranking."))
    return _back(tournament, "standings")


# ---------------------------------------------------------------------------------------------
# The co-organiser link


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
    return _back(tournament)


@require_safe
def co_qr(request: HttpRequest, pk: int) -> HttpResponse:
    """The co-organiser link as a QR code (SVG), shown on the desk."""
    tournament = _own(request, pk)
    target = reverse("concours:co", args=[tournament.co_token])
    return qr_response(request.build_absolute_uri(target), cache="private, no-store")


@require_POST
def co_new(request: HttpRequest, pk: int) -> HttpResponse:
    """A new co-organiser link (the owner only): the old one, and every desk opened with it,
    stop working at once."""
    tournament = _owner_only(request, pk)
    services.regenerate_co_link(tournament=tournament)
    messages.success(request, _("New co-organiser link: the old one no longer works."))
    return _back(tournament, "co-organiser")
