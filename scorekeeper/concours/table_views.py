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

`scoreboard_note` is this app's word on a table match's scoreboard (asked through the matches
app's extension point, match_hooks.py, so that the matches app imports nothing of concours):
the header "Table 7 · round 2 · Les As – Pique Dame · deal 5 of 12", and once the table is over,
the scoreboard read-only with "Result sent to the organiser" (the organiser still corrects the
deals while the round is open)."""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from scorekeeper.matches.board import Board, BoardNote
from scorekeeper.matches.models import Deal, Match
from scorekeeper.web.htmx import wants_partial
from scorekeeper.web.paging import page_of
from scorekeeper.web.qr import qr_response

from . import selectors, services
from .access import co_granted, is_owner
from .access import own as _own
from .middleware import remember_table
from .models import Table, Tournament


def table_url(request: HttpRequest, table: Table) -> str:
    """The table's phone link as an absolute address (for its QR code and the printed sheet);
    "" when the link is revoked."""
    if not table.token:
        return ""
    return request.build_absolute_uri(reverse("concours:table", args=[table.token]))


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


def _over(table: Table, match: Match | None) -> bool:
    """Whether the table's phones are done: its round closed, the concours finished, its partie
    over (the engine ended it, time called, paper totals), or no match to score."""
    tournament = table.round.tournament
    return (
        table.round.is_closed
        or tournament.status == Tournament.Status.FINISHED
        or table.ended
        or table.paper is not None
        or match is None
        or match.deleted_at is not None
        or match.is_finished
    )


def header(table: Table, match: Match | None, scored_deals: int | None = None) -> str:
    """ "Table 7 · round 2 · Les As – Pique Dame · deal 5 of 12" (a partie to a target: "· 1,240
    / 2,000", the higher total)."""
    parts = [
        _("Table %(table)s") % {"table": table.number},
        _("round %(round)s") % {"round": table.round.number},
    ]
    if match is not None:
        parts.append(" – ".join(match.team_names))
        rules = match.engine_rules
        if scored_deals is None:  # passed deals do not count towards the limit (one query)
            scored_deals = match.deals.exclude(kind=Deal.Kind.PASSED).count()
        done = scored_deals
        if table.ended:  # time called: the partie is over, whatever its limit said
            parts.append(
                ngettext(
                    "time called after %(done)s deal", "time called after %(done)s deals", done
                )
                % {"done": done}
            )
        elif rules.deals_limit and not done:  # not "deal 0 of 12"
            parts.append(
                ngettext(
                    "a partie of %(limit)s deal", "a partie of %(limit)s deals", rules.deals_limit
                )
                % {"limit": rules.deals_limit}
            )
        elif rules.deals_limit:
            parts.append(
                _("deal %(done)s of %(limit)s") % {"done": done, "limit": rules.deals_limit}
            )
        if rules.target:
            high = max(match.total0, match.total1)
            parts.append(
                f"{number_format(high, force_grouping=True)} / "
                f"{number_format(rules.target, force_grouping=True)}"
            )
    return " · ".join(parts)


def _is_organiser(request: HttpRequest, tournament: Tournament) -> bool:
    """Whoever may open the desk: its owner, or a browser with a co-organiser grant."""
    return is_owner(request, tournament) or co_granted(request, tournament)


def runs_the_desk(request: HttpRequest, match: Match) -> bool:
    """Whether this browser runs the desk of the concours this match is a table of (its owner,
    or a co-organiser link): it corrects the table's deals as the organiser does."""
    table = Table.objects.select_related("round__tournament").filter(match_id=match.pk).first()
    return table is not None and _is_organiser(request, table.round.tournament)


def scoreboard_note(request: HttpRequest, board: Board) -> BoardNote | None:
    """The table's header on its match's scoreboard (None when the match is no table), read
    only. Once the table is over, its phones and the accounts that scored see it read-only;
    the organiser (its owner or a co-organiser) still corrects its deals while the round is open
    (`services.check_table_write` decides the same), adding none; a paper result is read-only
    for everyone."""
    match = board.match
    table = Table.objects.select_related("round__tournament").filter(match_id=match.pk).first()
    if table is None:
        return None
    tournament = table.round.tournament
    over = _over(table, match)
    corrects = (
        over
        and table.paper is None
        and not table.round.is_closed
        and tournament.status != Tournament.Status.FINISHED
        and _is_organiser(request, tournament)
    )
    links: list[tuple[str, str]] = []
    banner = ""
    if over:
        if table.paper is not None:
            banner = _("Typed by the organiser from the paper sheet.")
            if board.rows:
                banner += " " + _("The deals below, scored on the phone, do not count.")
        elif table.round.is_closed and not (match.is_finished or table.ended):
            banner = _("Round %(round)s is closed.") % {"round": table.round.number}
        elif corrects:
            banner = _(
                "Result sent to the organiser. No more deals; you can still correct these "
                "until the round is closed."
            )
        else:
            banner = _("Result sent to the organiser")
        if table.token:
            links.append(
                (_("See the round's standings"), reverse("concours:table", args=[table.token]))
            )
        else:
            links.append(
                (
                    _("See the standings"),
                    reverse("concours_public:standings", args=[tournament.public_token]),
                )
            )
    if _is_organiser(request, tournament):
        desk = reverse("concours:desk", args=[tournament.pk])
        links.append((_("Back to the desk"), f"{desk}#table-{table.number}"))
    winner = board.winner_name
    return BoardNote(
        header=header(table, match, board.scored_deals),
        win_title=_("Partie won by %(name)s") % {"name": winner} if winner else "",
        read_only=over and not corrects,
        banner=banner,
        links=tuple(links),
    )


@require_safe
def table_phone(request: HttpRequest, token: str) -> HttpResponse:
    """The table's link: its match's scorer pages while the table plays, read-only after."""
    table = _table(token)
    match = table.match
    if not _over(table, match):
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
        "closed": table.round.is_closed,
        "rows": rows,
        "ours": sides,
        "public_url": reverse("concours_public:standings", args=[tournament.public_token]),
        "desk_url": reverse("concours:desk", args=[tournament.pk])
        if _is_organiser(request, tournament)
        else None,
    }
    template = "concours/table/phone.html"
    if wants_partial(request):  # its poll: the standings as other tables finish
        template += "#table-phone"
    return render(request, template, context)


@require_safe
def table_qr(request: HttpRequest, token: str) -> HttpResponse:
    """The table's phone link as a QR code (SVG): on the desk's board and its paper sheet."""
    table = _table(token)
    return qr_response(table_url(request, table), scale=4)


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
