"""The desk's actions on a table: its paper totals (and, when its phone scored deals, which is
right), its deals, time called, a correction, a new phone link. Thin views: a form reads, a
service writes, POST-redirect-GET back to the table on the desk."""

from urllib.parse import urlencode

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.engine.tournament import TournamentError
from scorekeeper.web.paging import PER_PAGE, page_of

from .. import services
from ..access import author as _author
from ..access import own as _own
from ..forms import PaperForm
from ..middleware import remember_table
from ..models import Table, Tournament
from ..services import Refused
from ..view_helpers import back_to_desk, back_to_table, page_query, say_refused, table_of
from ..words import paper_warning


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
    row = table_of(tournament, round, table)
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
        say_refused(request, error)
        return back_to_table(tournament, row)
    except TournamentError as error:
        say_refused(request, error)
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
    read-only board once the round is closed. Writes no row (the session remembers the table,
    as the table link does)."""
    tournament = _own(request, pk)
    row = table_of(tournament, round, table)
    match = row.match
    if match is None or match.deleted_at is not None:
        raise Http404
    if row.round.is_closed or tournament.status == Tournament.Status.FINISHED:
        return redirect("matches:viewer", token=match.view_token)
    if row.token:  # a tap by this link once the partie is over goes to the desk (middleware.py)
        remember_table(request, match.scorer_token, row.token)
    return redirect("matches:scoreboard", token=match.scorer_token)


@require_POST
def call_time(request: HttpRequest, pk: int, round: int, table: int) -> HttpResponse:
    """Time is up at a table: its partie ends with the deals played."""
    tournament = _own(request, pk)
    row = table_of(tournament, round, table)
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
        say_refused(request, error)
    else:
        messages.success(request, _("Table %(table)s: time called.") % {"table": table})
    return back_to_table(tournament, row)


@require_POST
def correct(request: HttpRequest, pk: int, round: int, table: int) -> HttpResponse:
    """A finished table's result replaced by two totals (logged with the result before)."""
    tournament = _own(request, pk)
    row = table_of(tournament, round, table)
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
        say_refused(request, error)
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
        return back_to_desk(tournament, anchor)
    before = Table.objects.filter(round_id=table.round_id, number__lt=table.number).count()
    url = reverse("concours:round_tables", args=[tournament.pk, table.round.number])
    return redirect(f"{url}{page_query('page', before)}#{anchor}")


@require_POST
def new_link(request: HttpRequest, pk: int, round: int, table: int) -> HttpResponse:
    """The desk's "New link" for a table: the old table link and the scorer link its phones
    were using stop working at once."""
    tournament = _own(request, pk)
    row = get_object_or_404(Table, round__tournament=tournament, round__number=round, number=table)
    services.regenerate_table_link(table=row)
    messages.success(
        request,
        _("Table %(table)s: new link. The old one no longer works; scan the new QR code.")
        % {"table": table},
    )
    # Back at the table on the desk's board: the page holding it (scorekeeper.web.paging).
    page = page_of(Table.objects.filter(round_id=row.round_id, number__lt=table).count())
    query = f"?board={page}" if page > 1 else ""
    return redirect(f"{reverse('concours:desk', args=[tournament.pk])}{query}#table-{table}")
