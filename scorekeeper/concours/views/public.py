"""The public side of a concours (issue 15), reached by its public token only: the standings page
with "Find my table", and the projector view. No account, no session; nothing of the
organiser's (no co-organiser link, no table link, no prize settings beyond the prizes shown on the
final ranking).

Both pages poll their fragment (the element id = the partial's name). A poll carries the ETag of
what it shows: the tournament's change key (`selectors.change_key`: its version and its open
matches' versions, one query), the language, the address asked (its query: the round shown, the
name looked up) and the app's build; when it still holds, the answer is `304 Not Modified` after
that one query."""

import hashlib
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scorekeeper.engine import tournament as tournament_engine
from scorekeeper.matches import polling
from scorekeeper.web.addresses import absolute_url
from scorekeeper.web.folding import finds, name_words
from scorekeeper.web.gc_pause import paused_gc
from scorekeeper.web.htmx import wants_partial
from scorekeeper.web.qr import qr_response

from .. import selectors
from ..brackets import bracket_view, round_title
from ..clock import round_clock
from ..models import Entrant, Round, Tournament
from ..words import (
    CRITERIA,
    Column,
    legend,
    projector_columns,
    ranking_columns,
)

PROJECTOR_ROWS = 16  # ranking rows of one line a 1080-pixel-high page shows in big type


# About what a line of the projector's ranking holds (its name column, in its big type; a prize
# in its smaller one): a longer name wraps onto more lines, so its page holds fewer rows.
NAME_CHARS = 28


PRIZE_CHARS = 32


TIE_CHARS = 24  # the ex æquo tag before the prizes to share


MAX_QUERY = 60


MAX_PICKS = 12  # names offered when several fit what was typed


def _tag(request: HttpRequest, key: str, page: str) -> str:
    parts = [polling.build(), page, key, get_language() or "", request.get_full_path()]
    return 'W/"{}"'.format(hashlib.sha256("|".join(parts).encode()).hexdigest()[:32])


def _poll_shortcut(request: HttpRequest, token: str, page: str) -> tuple[HttpResponse | None, str]:
    """For a poll of the fragment: (a 304 answer when its If-None-Match still holds, else None;
    the fragment's tag), after one query; 404 for an unknown token. The whole page is never
    answered 304 (its header shows who is signed in, its forms carry a CSRF token): no tag."""
    if not wants_partial(request):
        return None, ""
    key = selectors.change_key(public_token=token)
    if key is None:
        raise Http404
    tag = _tag(request, key, page)
    if polling.not_modified(request, tag):
        return polling.not_modified_response(tag), tag
    return None, tag


@dataclass(frozen=True)
class Seat:
    """Where an entrant sits in the current round."""

    round: int
    table: int | None  # None: a bye
    partners: tuple[str, ...]  # mêlée: the partner
    opponents: tuple[str, ...]
    finished: bool
    stage_title: str = ""  # a round of the final bracket: "Quarter-finals"...


@dataclass(frozen=True)
class Board:
    """What the public pages show, read once (selectors.snapshot)."""

    tournament: Tournament
    current: int  # the last round drawn (0: none yet)
    closed: int  # rounds closed
    shown: int | None  # the standings after this round (None: live)
    rows: list[dict[str, Any]]
    playing: list[dict[str, Any]]  # tables of the current round still playing
    byes: list[str]
    withdrawn: list[str]
    entrants: dict[int, Entrant]
    engine: tournament_engine.Tournament
    ranks: dict[int, dict[str, Any]]
    tables: tuple[selectors.TableRow, ...]  # the current round's, in the engine's order
    current_round: Round | None = None  # the last round drawn (its clock)
    bracket: dict[str, Any] | None = None  # the final bracket (brackets.bracket_view)
    stage_title: str = ""  # the current round's in the final bracket ("Quarter-finals")

    @property
    def finished(self) -> bool:
        return self.tournament.status == Tournament.Status.FINISHED

    @property
    def rounds_planned(self) -> int:
        return self.engine.settings.rounds

    @property
    def round_numbers(self) -> range:
        """The rounds whose standings may be looked at again: the closed ones (the last closed
        one only when it is not what the live standings already show)."""
        last = self.closed if self.closed < self.current else self.closed - 1
        if self.engine.settings.final is not None:  # a bracket round leaves the standings be
            last = min(last, self.engine.settings.rounds)
        return range(1, max(last, 0) + 1)

    @property
    def ranking_words(self) -> list[str]:
        return [str(CRITERIA[name]) for name in self.engine.settings.ranking]

    @cached_property
    def ranking_columns(self) -> list[Column]:
        """The ranking's own criteria beside the usual figures (words.ranking_columns)."""
        return ranking_columns(self.engine.settings.ranking)

    @property
    def legend(self) -> str:
        return legend(self.ranking_columns)

    def seat(self, number: int) -> Seat | None:
        if not self.engine.rounds:
            return None
        last = self.engine.rounds[-1]
        if number in last.byes:
            return Seat(self.current, None, (), (), False, self.stage_title)
        names = self.entrants
        for index, table in enumerate(last.tables):
            for side, _place, entrant in table.entrants():
                if entrant != number:
                    continue
                own = [names[n].name for n in table.sides[side] if n != number and n in names]
                other = [names[n].name for n in table.sides[1 - side] if n in names]
                done = self.tables[index].finished
                return Seat(
                    self.current, table.number, tuple(own), tuple(other), done, self.stage_title
                )
        return None


def _board(tournament: Tournament, after: int | None) -> Board:
    snap = selectors.snapshot(tournament)
    engine = snap.engine
    closed = sum(1 for round_ in snap.rounds if round_.is_closed)
    if after is not None and not 1 <= after <= len(snap.rounds):
        after = None
    by_number = {entrant.number: entrant for entrant in snap.entrants}
    rows = selectors.standings_rows(tournament, after, snap=snap)
    playing = []
    byes: list[str] = []
    tables: tuple[selectors.TableRow, ...] = ()
    if snap.rounds:
        tables = snap.tables[-1]
        for table, drawn in zip(tables, engine.rounds[-1].tables, strict=True):
            if table.finished:
                continue
            sides = [
                " & ".join(by_number[n].name for n in side if n in by_number)
                for side in drawn.sides
            ]
            playing.append({"table": table, "sides": sides})
        byes = [by_number[n].name for n in engine.rounds[-1].byes if n in by_number]
    withdrawn = [e.name for e in snap.entrants if e.withdrawn_before_round is not None]
    state = selectors.bracket_of(snap)
    bracket = None
    stage_title = ""
    if state is not None:
        bracket = bracket_view(state, {e.number: e.name for e in snap.everyone})
        current = len(snap.rounds)
        for round_ in state.rounds:
            if current and round_.round == current:
                stage_title = round_title(round_)
    return Board(
        tournament=tournament,
        current=len(snap.rounds),
        closed=closed,
        shown=after,
        rows=rows,
        playing=playing,
        byes=byes,
        withdrawn=withdrawn,
        entrants=by_number,
        engine=engine,
        ranks={row["id"]: row for row in rows},
        tables=tables,
        current_round=_with_tournament(snap.rounds[-1], tournament) if snap.rounds else None,
        bracket=bracket,
        stage_title=stage_title,
    )


def _with_tournament(round_: Round, tournament: Tournament) -> Round:
    round_.tournament = tournament  # read, not queried again
    return round_


def _after(request: HttpRequest) -> int | None:
    value = request.GET.get("after", "")
    return int(value) if value.isdecimal() and len(value) < 3 else None


def _find(board: Board, query: str) -> tuple[list[Entrant], Entrant | None]:
    """The entrants whose name (or, in teams, a player's name) holds every word of `query`, in
    any order, and the one meant: a name of exactly those words, or the only match. Case,
    accents, ligatures and hyphens aside (scorekeeper.web.folding.finds: "trefle" finds "Trèfle",
    "dupont rene" René Dupont, "saint jean" "Saint-Jean-de-Luz", "coeur" "Cœur")."""
    wanted = name_words(query)
    if not wanted:
        return [], None
    exactly = sorted(wanted)
    found = []
    for entrant in board.entrants.values():
        names = [name_words(n) for n in (entrant.name, entrant.player1, entrant.player2) if n]
        if any(sorted(words) == exactly for words in names):
            return [entrant], entrant
        if any(finds(wanted, words) for words in names):
            found.append(entrant)
    return found, (found[0] if len(found) == 1 else None)


@require_safe
@paused_gc
def standings_page(request: HttpRequest, token: str) -> HttpResponse:
    shortcut, tag = _poll_shortcut(request, token, "standings")
    if shortcut is not None:
        return shortcut
    tournament = get_object_or_404(Tournament, public_token=token)
    board = _board(tournament, _after(request))
    query = " ".join(request.GET.get("q", "").split())[:MAX_QUERY]
    matches, me = _find(board, query)
    context = {
        "board": board,
        "tournament": tournament,
        "query": query,
        "matches": matches[:MAX_PICKS],
        "more": max(len(matches) - MAX_PICKS, 0),
        "me": me,
        "my_seat": board.seat(me.number) if me is not None else None,
        "my_row": board.ranks.get(me.number) if me is not None else None,
        "names": sorted(e.name for e in board.entrants.values()),
    }
    template = "concours/public/standings.html"
    if tag:
        template += "#public-board"
    return polling.mark(render(request, template, context), tag or None)


def _lines(row: dict[str, Any], finished: bool) -> float:
    """How many one-line rows of the projector `row` takes: its name's lines (a long name wraps,
    never cut) and, at the end, its prize's (ex æquo: the tag and the prizes to share), in
    smaller type under it."""
    lines: float = -(-len(str(row["name"])) // NAME_CHARS)
    if finished and (row.get("shared") or row.get("prize")):
        shared = row.get("shared") or []
        size = TIE_CHARS + len(" / ".join(shared)) if shared else len(str(row["prize"]))
        lines += 0.85 * -(-size // PRIZE_CHARS)
    return lines


def _places(rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The rows grouped by place: the entrants ex æquo (one rank) together, in order."""
    groups: list[list[dict[str, Any]]] = []
    for row in rows:
        rank = row.get("rank")
        if groups and rank is not None and groups[-1][-1].get("rank") == rank:
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups


def projector_pages(rows: list[dict[str, Any]], finished: bool) -> list[list[dict[str, Any]]]:
    """The ranking cut into the projector's pages: PROJECTOR_ROWS rows of one line a page, a
    row of long names or prizes counting for the lines it takes (projector.js makes the type of
    a page still too tall smaller). A place shared (ex æquo) stays on one page (issue 42: two
    teams 16th were split over the two pages); one longer than a page (the teams yet to play,
    early in a round) goes on filling the page, cut where each page is full."""
    pages: list[list[dict[str, Any]]] = []
    page: list[dict[str, Any]] = []
    used = 0.0
    for group in _places(rows):
        lines = sum(_lines(row, finished) for row in group)
        if page and used + lines > PROJECTOR_ROWS >= lines:
            pages.append(page)
            page, used = [], 0.0
        for row in group:
            row_lines = _lines(row, finished)
            if page and used + row_lines > PROJECTOR_ROWS:
                pages.append(page)
                page, used = [], 0.0
            page.append(row)
            used += row_lines
    return [*pages, page] if page else pages or [[]]


@require_safe
@paused_gc
def projector(request: HttpRequest, token: str) -> HttpResponse:
    shortcut, tag = _poll_shortcut(request, token, "projector")
    if shortcut is not None:
        return shortcut
    tournament = get_object_or_404(Tournament, public_token=token)
    board = _board(tournament, None)
    ranking = board.engine.settings.ranking
    columns = projector_columns(ranking)
    context = {
        "board": board,
        "tournament": tournament,
        # After parties played, wins and points, the ranking's criteria only (a wall's width
        # is for the names); the figure that broke a tie is marked in its cell, no column.
        "columns": columns,
        "tie_broken": any(row["tie_break"] for row in board.rows),
        "span": 5 + len(columns),
        "pages": projector_pages(board.rows, board.finished),
        "clock": round_clock(board.current_round, where="projector"),
    }
    template = "concours/public/projector.html"
    if tag:
        template += "#projector"
    return polling.mark(render(request, template, context), tag or None)


@require_safe
def qr_code(request: HttpRequest, token: str) -> HttpResponse:
    """The public page's address as a QR code (SVG), for the projector and the posters."""
    tournament = get_object_or_404(Tournament, public_token=token)
    target = reverse("concours_public:standings", args=[tournament.public_token])
    return qr_response(absolute_url(request, target), cache="public, max-age=3600")
