"""A concours table's phone (issue 15): the table's link `/t/<table token>/`, opened from the QR
code on its paper sheet or on the organiser's board, without an account.

While the table's round is open and its partie is not over, the link hands the phone its match's
scorer pages (a redirect to `/score/<scorer token>/`): everything a match does works there. Once
the partie is over (its Nth deal, time called, paper totals), the round closed or the concours
finished, the link shows the table read-only ("Result sent to the organiser") with the round's
standings so far. The services renewed the match's scorer link in the transaction that ended
the partie (`close_round`, `call_time`, `record_paper_totals`, `regenerate_table_link`, and
`table_moved` after the Nth deal), and refuse any write of a phone from then on
(`check_table_write`): these pages only read. A renewed table link (the desk's "New link")
answers 404.

What other pages say of a table's phone (its link, its header, its scoreboard's note) is in
`concours/phones.py`."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from scorekeeper.web.htmx import wants_partial
from scorekeeper.web.qr import qr_response

from .. import selectors
from ..access import is_organiser
from ..clock import table_clock as table_clock_of
from ..middleware import remember_table
from ..models import Table
from ..phones import header, table_over, table_url


def _table(token: str) -> Table:
    """The table of this phone link, with its round, concours and match (one query); 404 for a
    renewed or unknown link."""
    table = (
        Table.objects.select_related("round__tournament", "match")
        .filter(token=token)
        .exclude(token__isnull=True)
        .first()
    )
    if table is None:
        raise Http404
    return table


@require_safe
def table_phone(request: HttpRequest, token: str) -> HttpResponse:
    """The table's link: its match's scorer pages while the table plays, read-only after."""
    table = _table(token)
    match = table.match
    if not table_over(table, match):
        assert match is not None and table.token is not None
        remember_table(request, match.scorer_token, table.token)  # see middleware.py
        return redirect("matches:scoreboard", token=match.scorer_token)
    tournament = table.round.tournament
    rows = selectors.standings_rows(tournament, table.round.number)
    sides = set(
        table.places.values_list("entrant__number", flat=True)
    )  # this table's entrants, marked in the standings
    context = {
        "table": table,
        "tournament": tournament,
        "match": match,
        "header": header(table, match),
        "finished": table.finished,
        "live_version": tournament.version,  # read with the table, before the standings
        "closed": table.round.is_closed,
        "rows": rows,
        "ours": sides,
        "public_url": reverse("concours_public:standings", args=[tournament.public_token]),
        "desk_url": reverse("concours:desk", args=[tournament.pk])
        if is_organiser(request, tournament)
        else None,
    }
    template = "concours/table/phone.html"
    if wants_partial(request):  # its poll: the standings as other tables finish
        template += "#table-phone"
    return render(request, template, context)


@require_safe
def table_clock(request: HttpRequest, token: str) -> HttpResponse:
    """The table's round clock, polled by its phone's scoreboard (a clock started again by the
    organiser shows without a reload): the clock's fragment, or nothing (the poll's element is
    removed) once the table's partie is over or the round has no clock."""
    table = _table(token)
    clock = table_clock_of(table)
    if clock is None:
        return HttpResponse("")
    context = {"clock": clock, "css": "board-clock"}
    return render(request, "partials/round_clock.html", context)


@require_safe
def table_qr(request: HttpRequest, token: str) -> HttpResponse:
    """The table's phone link as a QR code (SVG): on the desk's board and its paper sheet."""
    table = _table(token)
    return qr_response(table_url(request, table), scale=4)
