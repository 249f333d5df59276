"""The desk's rounds: drawn, drawn again, two entrants swapped before play, its clock started and
time called at every table, closed, and a closed round's tables on a page of their own. Thin
views: a service writes, POST-redirect-GET."""

from django.contrib import messages
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers

from scorekeeper.engine.tournament import TournamentError
from scorekeeper.web.gc_pause import paused_gc
from scorekeeper.web.htmx import wants_partial
from scorekeeper.web.paging import paginate

from .. import selectors, services
from ..access import author as _author
from ..access import own as _own
from ..models import Round, Tournament
from ..services import Refused
from ..view_helpers import back_to_desk, matching, round_of, say_refused, search_query, table_rows


@require_POST
def draw(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    try:
        round_ = services.draw_round(tournament=tournament)
    except (Refused, TournamentError) as error:
        say_refused(request, error)
        return back_to_desk(tournament)
    messages.success(request, _("Round %(round)s is drawn.") % {"round": round_.number})
    if round_.rematches:
        messages.warning(
            request,
            _("Teams meeting again that the draw could not avoid: %(count)s.")
            % {"count": round_.rematches},
        )
    return back_to_desk(tournament, "board")


@require_safe
@vary_on_headers("HX-Request")
@paused_gc
def round_tables(request: HttpRequest, pk: int, round: int) -> HttpResponse:
    """A closed round's tables, a page at a time (`?page=`), found by a team's name (`?q=`),
    each with its result and its Correct form: where the desk's Past rounds send a round of
    more than PER_PAGE tables. The desk's access (the owner, a co-organiser link); the open
    round's tables are on the desk's board."""
    tournament = _own(request, pk)
    round_ = round_of(tournament, round)
    if not round_.is_closed:
        return back_to_desk(tournament, "board")
    snap = selectors.snapshot(tournament)
    index = round_.number - 1
    names = {e.number: e.name for e in snap.everyone}
    query = search_query(request)
    found = matching(snap.everyone, query)
    wanted = {e.number for e in found} if found is not None else None
    tables = paginate(table_rows(snap, index, names, wanted), request)
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
    round_ = round_of(tournament, round)
    try:
        services.redraw_round(round_=round_)
    except (Refused, TournamentError) as error:
        say_refused(request, error)
    else:
        messages.success(request, _("Round %(round)s is drawn again.") % {"round": round})
    return back_to_desk(tournament, "board")


@require_http_methods(["GET", "HEAD", "POST"])
def swap(request: HttpRequest, pk: int, round: int) -> HttpResponse:
    """Swap two entrants' places (tables, or a table and a bye) before any result. GET: the
    form on a page of its own (the desk's, past PER_PAGE entrants in the round: two lists of
    them all would outweigh the desk); it posts here as the desk's does."""
    tournament = _own(request, pk)
    round_ = round_of(tournament, round)
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
        return back_to_desk(tournament, "board")
    first, second = seated[picked[0]], seated[picked[1]]
    try:
        services.swap_entrants(round_=round_, first=first, second=second)
    except Refused as error:
        say_refused(request, error)
    else:
        messages.success(
            request,
            _("“%(first)s” and “%(second)s” swapped places.")
            % {"first": first.name, "second": second.name},
        )
    return back_to_desk(tournament, "board")


def _swap_page(request: HttpRequest, tournament: Tournament, round_: Round) -> HttpResponse:
    """The swap form alone, while the round may still be drawn again (else the desk's board)."""
    last = tournament.rounds.order_by("-number").first()
    if (
        last is None
        or last.pk != round_.pk
        or round_.is_closed
        or round_.tables.filter(Q(finished=True) | Q(deal_count__gt=0)).exists()
    ):
        return back_to_desk(tournament, "board")
    in_round = sorted(
        (place.entrant for place in round_.places.select_related("entrant")),
        key=lambda e: e.name.casefold(),
    )
    context = {"tournament": tournament, "round": round_, "in_round": in_round}
    return render(request, "concours/desk/swap.html", context)


@require_POST
def close_round(request: HttpRequest, pk: int, round: int) -> HttpResponse:
    tournament = _own(request, pk)
    round_ = round_of(tournament, round)
    try:
        services.close_round(round_=round_)
    except Refused as error:
        say_refused(request, error)
        return back_to_desk(tournament, "board")
    messages.success(request, _("Round %(round)s is closed.") % {"round": round_.number})
    return back_to_desk(tournament, "standings")


@require_POST
def start_clock(request: HttpRequest, pk: int, round: int) -> HttpResponse:
    """Start the round's clock now, from its full length (again, when it was running or at
    zero): the projector and the table phones count from the new end."""
    tournament = _own(request, pk)
    round_ = round_of(tournament, round)
    try:
        round_ = services.start_clock(round_=round_)
    except Refused as error:
        say_refused(request, error)
    else:
        messages.success(
            request,
            _("Round %(round)s: clock started, %(minutes)s min.")
            % {"round": round_.number, "minutes": round_.clock_minutes},
        )
    return back_to_desk(tournament, "clock")


@require_POST
def call_time_all(request: HttpRequest, pk: int, round: int) -> HttpResponse:
    """Time called at every table still playing (services.call_time_everywhere): at the clock's
    zero at once; before it, or without a clock, only when the form says so (`early=yes`, the
    button under "Call time now, before zero…")."""
    tournament = _own(request, pk)
    round_ = round_of(tournament, round)
    try:
        called, left = services.call_time_everywhere(
            round_=round_, early=request.POST.get("early") == "yes", **_author(request, tournament)
        )
    except Refused as error:
        say_refused(request, error)
        return back_to_desk(tournament, "clock")
    messages.success(
        request,
        ngettext(
            "Time called at %(count)s table: %(tables)s.",
            "Time called at %(count)s tables: %(tables)s.",
            len(called),
        )
        % {"count": len(called), "tables": ", ".join(map(str, called))},
    )
    if left:
        messages.warning(
            request,
            ngettext(
                "Table %(tables)s has no deal on its phone: type its paper sheet's totals.",
                "Tables %(tables)s have no deal on their phones: type their paper sheets' totals.",
                len(left),
            )
            % {"tables": ", ".join(map(str, left))},
        )
    return back_to_desk(tournament, "board")
