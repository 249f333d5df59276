"""What the desk's pages share (views/desk.py, entrants.py, rounds.py, tables.py), so that no view
module imports another: the way back to the desk (at an anchor, at a table, on the page holding
it), a refusal as a message, a round or a table of the concours by number (404 otherwise), the
search of entrants by name, and the rows of a round's tables with their Correct forms."""

from collections.abc import Sequence
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse

from scorekeeper.engine.tournament import Table as EngineTable
from scorekeeper.engine.tournament import TournamentError
from scorekeeper.web import folding
from scorekeeper.web.paging import page_of

from . import selectors
from .forms import PaperForm
from .models import Entrant, Round, Table, Tournament
from .services import Refused
from .words import engine_refusal, refusal


def say_refused(request: HttpRequest, error: Exception) -> None:
    if isinstance(error, Refused):
        messages.error(request, refusal(error))
    elif isinstance(error, TournamentError):
        messages.error(request, engine_refusal(error))


def back_to_desk(tournament: Tournament, anchor: str = "", query: str = "") -> HttpResponse:
    url = reverse("concours:desk", args=[tournament.pk]) + query
    return redirect(f"{url}#{anchor}" if anchor else url)


def page_query(param: str, index: int) -> str:
    """`?<param>=N` for the page (scorekeeper.web.paging) holding the item at 0-based `index`; ""
    for page 1."""
    number = page_of(index)
    return f"?{param}={number}" if number > 1 else ""


def back_to_table(tournament: Tournament, table: Table) -> HttpResponse:
    """The desk at a table of the current round: the board's page holding it (one query)."""
    before = Table.objects.filter(round_id=table.round_id, number__lt=table.number).count()
    return back_to_desk(tournament, f"table-{table.number}", page_query("board", before))


def round_of(tournament: Tournament, number: int) -> Round:
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    round_.tournament = tournament
    return round_


def table_of(tournament: Tournament, round_number: int, number: int) -> Table:
    round_ = round_of(tournament, round_number)
    table = get_object_or_404(Table, round=round_, number=number)
    table.round = round_
    return table


MAX_QUERY = 60  # a search's length kept


def search_query(request: HttpRequest) -> str:
    return " ".join(request.GET.get("q", "").split())[:MAX_QUERY]


def matching(entrants: Sequence[Entrant], query: str) -> list[Entrant] | None:
    """The entrants whose name or a player's name holds every word of `query`, in any order
    (case, accents, ligatures, hyphens aside: scorekeeper.web.folding.finds); None when nothing
    is looked for."""
    wanted = folding.name_words(query)
    if not wanted:
        return None
    return [
        e
        for e in entrants
        if any(
            folding.finds(wanted, folding.name_words(name))
            for name in (e.name, e.player1, e.player2)
            if name
        )
    ]


def side_names(drawn: EngineTable, names: dict[int, str]) -> list[str]:
    """A drawn table's two sides as the desk writes them ("Alice & Bruno" à la mêlée)."""
    return [" & ".join(names.get(n, "") for n in side) for side in drawn.sides]


def finds(drawn: EngineTable, wanted: set[int] | None) -> bool:
    return wanted is None or any(n in wanted for side in drawn.sides for n in side)


def correct_form(table: Table | selectors.TableRow, sides: list[str], **kwargs: Any) -> PaperForm:
    """A finished table's correction, filled with its result now."""
    initial = {"points0": table.points0, "points1": table.points1} if table.points else None
    return PaperForm(prefix=f"c{table.number}", sides=sides, initial=initial, **kwargs)


def table_rows(
    snap: selectors.Snapshot, index: int, names: dict[int, str], wanted: set[int] | None
) -> list[dict[str, Any]]:
    """Round `index + 1`'s tables (those of the entrants `wanted`) from the snapshot: each its
    row, its sides' names and its Correct form (ids told apart by round). No query."""
    number = snap.rounds[index].number
    rows = []
    for row, drawn in zip(snap.tables[index], snap.engine.rounds[index].tables, strict=True):
        if not finds(drawn, wanted):
            continue
        sides = side_names(drawn, names)
        form = correct_form(row, sides, auto_id=f"id_r{number}_%s")
        rows.append({"table": row, "sides": sides, "form": form})
    return rows
