"""Paper (issue 15): the pages an organiser prints on A4 (static/css/print.css): the draw poster of
a round (everyone in alphabetical order with their table number, big; its heading again on every
page), one score sheet per table of a round (a row per deal with its dealer; classic belote: each
team's points, belote, capot and announcements; coinche: the contract, its suit, the takers,
coinché / surcoinché, each team's points and belote; a running total and a back page for a partie
to a target; totals, signatures, the QR code of the table's phone link), and the ranking with its
prizes (entrants tied on a prize flagged for the organiser: selectors.with_prizes). On screen each page is a
preview with a Print button (static/js/print.js; without JavaScript, the browser's own Print).

The concours's organiser only (the desk's `access.own`: 404 for anyone else). Each page reads a fixed
number of queries whatever the number of teams."""

from dataclasses import dataclass
from typing import Any

import segno
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scorekeeper.engine.scoring import Rules
from scorekeeper.engine.tournament.paper import CARD_POINTS, applies
from scorekeeper.matches.models import Match, Seat
from scorekeeper.web.folding import fold
from scorekeeper.web.gc_pause import paused_gc
from scorekeeper.web.paging import paginate

from .. import selectors
from ..access import own as _own
from ..brackets import bracket_view
from ..models import Entrant, Place, Round, Table, Tournament
from ..phones import table_url
from ..words import CRITERIA, breaks_ties, legend, ranking_columns

# A fixed mask pattern (any of the eight is standard): segno tries all eight by default and
# scores each, 25 ms a code; 75 tables' sheets then took 2 s, with one mask 0.3 s.
QR_MASK = 0


TARGET_ROWS = 20  # rows of a score sheet when the partie is played to a target, not N deals


# A partie to a target may run longer: a second page a table (the sheet's back, printed double
# sided, or a second sheet) continues the rows from TARGET_ROWS + 1, its running totals carried.
BACK_ROWS = 26


SEATS = 4


SUITS = ("♠", "♥", "♦", "♣")  # a coinche sheet's contract: the suit circled


NO_TRUMP_ALL_TRUMP = ("SA", "TA")  # with sa_ta: sans atout, tout atout (as the app writes them)


def sort_key(name: str) -> tuple[str, str]:
    """Alphabetical order as a reader expects it: accents, ligatures and case aside ("Écureuils"
    among the E, "Cœur" as "Coeur"), then the exact spelling to break ties."""
    return (fold(name), name)


def _round(tournament: Tournament, number: int) -> Round:
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    round_.tournament = tournament
    return round_


def _sides(
    round_: Round, tables: list[int] | None = None
) -> tuple[dict[int, list[list[Entrant]]], list[Entrant]]:
    """Each table's two sides (entrants by seat) and the byes of the round, in one query
    (`tables`: those tables' only, by pk, and no bye)."""
    sides: dict[int, list[list[tuple[int, Entrant]]]] = {}
    byes: list[Entrant] = []
    places = Place.objects.filter(round=round_)
    if tables is not None:
        places = places.filter(table_id__in=tables)
    for place in places.select_related("entrant"):
        if place.table_id is None or place.side is None:
            byes.append(place.entrant)
        else:
            sides.setdefault(place.table_id, [[], []])[place.side].append(
                (place.seat, place.entrant)
            )
    ordered = {
        pk: [[entrant for _seat, entrant in sorted(side, key=lambda s: s[0])] for side in pair]
        for pk, pair in sides.items()
    }
    return ordered, sorted(byes, key=lambda e: sort_key(e.name))


def _names(side: list[Entrant]) -> str:
    return " & ".join(entrant.name for entrant in side)


@dataclass(frozen=True)
class PosterRow:
    """One line of the draw poster: an entrant, where it plays, with whom, against whom."""

    name: str
    players: str  # teams: "Alice & Bruno"
    table: int | None  # None: a bye
    partners: str  # mêlée: the partner
    opponents: str


@require_safe
def draw_poster(request: HttpRequest, pk: int, round: int) -> HttpResponse:
    """Round k's draw, everyone in alphabetical order with their table number (byes too)."""
    tournament = _own(request, pk)
    round_ = _round(tournament, round)
    tables = {t.pk: t.number for t in Table.objects.filter(round=round_).only("pk", "number")}
    sides, byes = _sides(round_)
    rows = []
    for table_pk, pair in sides.items():
        for index, side in enumerate(pair):
            for entrant in side:
                rows.append(
                    PosterRow(
                        name=entrant.name,
                        players=" & ".join(p for p in (entrant.player1, entrant.player2) if p),
                        table=tables[table_pk],
                        partners=_names([e for e in side if e.pk != entrant.pk]),
                        opponents=_names(pair[1 - index]),
                    )
                )
    rows += [
        PosterRow(
            name=e.name,
            players=" & ".join(p for p in (e.player1, e.player2) if p),
            table=None,
            partners="",
            opponents="",
        )
        for e in byes
    ]
    rows.sort(key=lambda row: sort_key(row.name))
    columns = 1 if len(rows) <= 20 else 2 if len(rows) <= 50 else 3
    context = {
        "tournament": tournament,
        "round": round_,
        "rows": rows,
        "columns": columns,
        "tables": len(tables),
    }
    return render(request, "concours/print/draw.html", context)


def qr_svg(url: str, title: str) -> SafeString:
    """The address as an inline SVG QR code (segno's markup, the title escaped by segno: no style
    attribute, no script)."""
    svg = segno.make(url, error="m", mask=QR_MASK, micro=False).svg_inline(
        scale=4, dark="#000", light="#fff", omitsize=True, svgclass="print-qr-code", title=title
    )
    return mark_safe(svg)  # segno's own markup of an address we built


def table_link(request: HttpRequest, table: Table) -> str | None:
    """The absolute address of the table's phone link (phones.table_url), or None when it
    has none (revoked, or a table of an imported concours scored on paper: no match)."""
    if table.match_id is None:
        return None
    return table_url(request, table) or None


def sheet_rows(rules_deals: int | None) -> int:
    return rules_deals if rules_deals else TARGET_ROWS


def sheet_size(rows: int) -> str:
    """The row height's class: the rows, the heads and the signatures fit one A4 page."""
    if rows <= 13:
        return "l"
    if rows <= 17:
        return "m"
    if rows <= 22:
        return "s"
    return "xs"


def _seat_names(table: Table, pair: list[list[Entrant]], melee: bool) -> list[str]:
    """The four seats' names in playing order (as the table's match has them; for a table with no
    match, as the draw would seat them)."""
    match: Match | None = table.match
    if match is not None:
        return [match.seat_name(seat) for seat in range(SEATS)]
    a, b = pair
    if melee:
        names = [e.name for e in (a[0], b[0], a[1], b[1])] if len(a) > 1 and len(b) > 1 else []
    else:
        names = [a[0].player1, b[0].player1, a[0].player2, b[0].player2] if a and b else []
    return names if len(names) == SEATS and all(names) else []


def dealer_labels(seats: list[str]) -> list[str]:
    """Each seat's name as a sheet's dealer column prints it, short: its first word, else its
    first two, else its first and last, else as many words as tell it from the other seats'
    ("Marie Dupont" and "Marie Durand"), else the whole name; the full names are in the sheet's
    head. A row per deal then keeps its height whatever the names (print.css cuts a name to two
    lines)."""
    words = [name.split() for name in seats]
    labels = []
    for index, own in enumerate(words):
        others = {fold(" ".join(w)) for n, w in enumerate(words) if n != index}
        candidates = [own[:1], own[:2]] + ([[own[0], own[-1]]] if len(own) > 2 else [])
        candidates += [own[:count] for count in range(3, len(own) + 1)]
        label = " ".join(own)
        for candidate in candidates:
            short = fold(" ".join(candidate))
            if not any(_may_be(short, other) for other in others):
                label = " ".join(candidate)
                break
        labels.append(label)
    return labels


def _may_be(short: str, name: str) -> bool:
    """Whether a short form could be read as `name` too: its first word and, when it has two
    or more, its last."""
    mine, theirs = short.split(), name.split()
    if not mine or not theirs or mine[0] != theirs[0]:
        return False
    if len(mine) == 1:
        return True
    return " ".join(theirs).startswith(" ".join(mine)) or mine[-1] == theirs[-1]


SIDES = ((0, "A"), (1, "B"))


def _side(label: str, name: str, seats: list[str], side: int) -> dict[str, str]:
    """A side of a sheet: its letter, its name, its players (unless they are its name: mêlée)."""
    players = " & ".join(seats[s] for s in (side, side + 2)) if seats else ""
    return {"label": label, "name": name, "players": "" if players == name else players}


def paper_sum(rules: Rules) -> dict[str, Any] | None:
    """What both totals of a sheet add up to (docs/tournaments.md §2's paper check, printed so the
    table can check its sums before signing), or None when the rules give no fixed sum."""
    if not applies(rules) or rules.deals_limit is None:
        return None
    return {
        "deals": rules.deals_limit,
        "points": rules.deals_limit * CARD_POINTS,
        "belote": rules.belote_points,
        "capot": rules.capot_cards - CARD_POINTS,
        "announcements": rules.announcements,
    }


def team_columns(rules: Rules) -> int:
    """How many columns each team has on a sheet: coinche its points and belote; classic belote
    its points, belote, capot and, when counted, announcements; a running total with a target."""
    columns = 2 if rules.is_coinche else 4 if rules.announcements else 3
    return columns + (rules.target is not None)


@require_safe
def score_sheets(request: HttpRequest, pk: int, round: int) -> HttpResponse:
    """One score sheet a table of round k, one A4 page each (`?table=N`: that table's alone)."""
    tournament = _own(request, pk)
    round_ = _round(tournament, round)
    melee = tournament.melee
    rules = tournament.engine_settings.partie
    rows = sheet_rows(rules.deals_limit)
    back = BACK_ROWS if rules.deals_limit is None else 0  # a partie to a target: a back page
    query = Table.objects.filter(round=round_)
    only = request.GET.get("table", "")
    if only:  # one table's sheet again (a new link, a sheet lost)
        if not only.isdecimal() or len(only) > 4:
            raise Http404
        query = query.filter(number=int(only))
    # A big round's sheets a batch of PER_PAGE tables at a time (`?page=`: scorekeeper.web.paging),
    # printed batch by batch: 500 sheets in one page would take seconds and megabytes.
    numbers = paginate(list(query.order_by("number").values_list("number", flat=True)), request)
    tables = list(
        query.filter(number__in=list(numbers))
        .select_related("match")
        .prefetch_related(
            Prefetch("match__seat_rows", queryset=Seat.objects.select_related("player"))
        )
        .order_by("number")
    )
    if only and not tables:
        raise Http404
    sides, _byes = _sides(round_, [table.pk for table in tables])
    sheets = []
    for table in tables:
        pair = sides.get(table.pk, [[], []])
        seats = _seat_names(table, pair, melee)
        dealers = dealer_labels(seats)
        first = table.match.first_dealer if table.match is not None else 0
        link = table_link(request, table)
        sheets.append(
            {
                "table": table,
                "sides": [_side(label, _names(pair[side]), seats, side) for side, label in SIDES],
                "deals": [
                    (n + 1, dealers[(first + n) % SEATS] if seats else "") for n in range(rows)
                ],
                "back": [
                    (n + 1, dealers[(first + n) % SEATS] if seats else "")
                    for n in range(rows, rows + back)
                ],
                "link": link,
                "qr": qr_svg(link, _("QR code of table %(n)s's phone link") % {"n": table.number})
                if link
                else None,
            }
        )
    context = {
        "tournament": tournament,
        "round": round_,
        "sheets": sheets,
        "pages": numbers,
        "size": sheet_size(rows),
        "deals_limit": rules.deals_limit,
        "target": rules.target,
        "melee": melee,
        "check": paper_sum(rules),
        "coinche": rules.is_coinche,
        # Classic belote: a column for each team's announcements when the partie counts them.
        "announcements": rules.announcements and not rules.is_coinche,
        # A partie to a target: each team's running total, to see who reaches it.
        "running": rules.target is not None,
        "suits": SUITS + (NO_TRUMP_ALL_TRUMP if rules.sa_ta else ()),
        "multipliers": rules.multipliers,
        "belote_points": rules.belote_points,
        "team_columns": team_columns(rules),
        "blank_columns": range(team_columns(rules) - 1),  # a team's cells after its points
        "first_back": rows + 1,
        "last_back": rows + back,
    }
    return render(request, "concours/print/sheets.html", context)


@require_safe
@paused_gc
def ranking(request: HttpRequest, pk: int) -> HttpResponse:
    """The ranking after the last closed round, with every tie-break figure, the byes, the late
    entries and the withdrawals; once the concours is finished, the final ranking with its prizes."""
    tournament = _own(request, pk)
    closed = list(
        Round.objects.filter(tournament=tournament, closed_at__isnull=False).values_list(
            "number", flat=True
        )
    )
    after = max(closed) if closed else None
    rows: list[dict[str, Any]] = []
    if after is not None:
        rows = selectors.standings_rows(tournament, after)
        entrants = {e.number: e for e in tournament.entrants.all()}
        for row in rows:
            entrant = entrants.get(row["id"])
            row["players"] = (
                " & ".join(p for p in (entrant.player1, entrant.player2) if p) if entrant else ""
            )
            # A late entry (docs/tournaments.md §4), marked as the desk marks it.
            row["from_round"] = entrant.from_round if entrant else 1
    finished = tournament.status == Tournament.Status.FINISHED
    ranking = tournament.engine_settings.ranking
    columns = ranking_columns(ranking)
    context = {
        "tournament": tournament,
        "rows": rows,
        "ties": selectors.prize_ties(rows) if finished else [],
        "after": after,
        "finished": finished,
        "prizes": finished and any(row["prize"] or row["shared"] for row in rows),
        "ranking_words": [str(CRITERIA[name]) for name in ranking],
        # The ranking's own criteria beside the usual figures, and which broke each tie.
        "ranking_columns": columns,
        # On paper the column only where a tie was broken (A4 is narrow: the names first).
        "tie_breaks": breaks_ties(ranking) and any(row["tie_break"] for row in rows),
        "legend": legend(columns),
    }
    return render(request, "concours/print/ranking.html", context)


@require_safe
def bracket(request: HttpRequest, pk: int) -> HttpResponse:
    """The final bracket (docs/tournaments.md §7) on one A4 landscape page: a column per round,
    the main bracket and the consolation, results as they stand (a concours without one: a
    line saying so). A fixed number of queries (the snapshot)."""
    tournament = _own(request, pk)
    snap = selectors.snapshot(tournament)
    state = selectors.bracket_of(snap)
    names = {e.number: e.name for e in snap.everyone}
    view = bracket_view(state, names) if state is not None else None
    context = {"tournament": tournament, "bracket": view}
    return render(request, "concours/print/bracket.html", context)
