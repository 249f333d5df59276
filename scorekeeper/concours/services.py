"""Every write to a concours. Keyword-only, each in one transaction: a refusal changes nothing.

State refusals raise `Refused(code, **params)` (words for pages come with the pages); what the
engine refuses (a name, a setting, too few entrants to draw) raises its TournamentError, whose
codes `scorekeeper/web/words.py` already words.

Each table is a match of `matches` (created by the draw, scored deal by deal by its phone through
`matches.services`). A table's result is stored on the Table row, in the transaction of the
change that makes it: the match services ask the concours before each write to a table's match
and tell it after (matches/hooks.py, through match_hooks.ConcoursHooks: `check_table_write`,
`table_moved`); paper totals, corrections and time called are written here. No reader writes."""

import csv
import datetime
import io
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from scorekeeper.engine import tournament as tournament_engine
from scorekeeper.engine.scoring import MatchFile, MatchResult, Team
from scorekeeper.engine.tournament import (
    PaperCheck,
    TournamentError,
    paper_check,
    settings_from_dict,
)
from scorekeeper.engine.tournament.readers import read_name, read_text
from scorekeeper.engine.tournament.settings import settings_to_dict
from scorekeeper.matches import services as match_services
from scorekeeper.matches.hooks import ADD, WriteRefused
from scorekeeper.matches.models import Match, new_token
from scorekeeper.web.folding import fold

from .models import Entrant, Place, ResultChange, Round, Table, Tournament
from .selectors import CONCOURS_KEY, final_rows, snapshot

MAX_NAME = 60
MAX_PLACE = 100  # Tournament.place
MAX_PRIZE = 200  # a prize (forms.read_prizes keeps as much; the club archive reads as much)
MAX_POINTS = 100_000
SEED_LIMIT = 2**31
# Deals a tournament file may hold to be imported (150 teams, 5 rounds of 12 deals: 4,500).
IMPORT_MAX_DEALS = 6_000

# The three ready formats of issue 15, as the engine's settings (without the seed, drawn at
# creation). Each is a starting point: `create_tournament(overrides=...)` changes any setting.
FORMATS: dict[str, dict[str, Any]] = {
    # "Belote: 4 parties of 12 deals, ranked by points"
    "belote": {
        "mode": "teams",
        "rounds": 4,
        "partie": {"preset": "belote", "deals_limit": 12, "target": None},
        "pairing": "swiss",
        "ranking": ["points", "wins", "difference", "best_partie"],
        "bye": {"points": "average", "win": False},
    },
    # "Coinche: 3 parties to 2000, ranked by wins then points": a bye counts as a win (ranked
    # by wins, a bye that is not one would sink the team that sat out).
    "coinche": {
        "mode": "teams",
        "rounds": 3,
        "partie": {"preset": "coinche", "deals_limit": None, "target": 2000},
        "pairing": "swiss",
        "ranking": ["wins", "points", "difference", "best_partie"],
        "bye": {"points": "average", "win": True},
    },
    # "Belote à la mêlée: 4 × 12"
    "melee": {
        "mode": "melee",
        "rounds": 4,
        "partie": {"preset": "belote", "deals_limit": 12, "target": None},
        "pairing": "random",
        "ranking": ["points", "wins", "difference", "best_partie"],
        "bye": {"points": "average", "win": False},
    },
}


class Refused(Exception):
    """A change the concours's state does not allow: a stable `code` and plain `params`."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def match_owner_key(tournament: Tournament) -> str:
    """The key owning a concours's table matches (and its players' names): never a browser's
    (the organiser's account owns them through Match.owner: see _create_match)."""
    return f"{CONCOURS_KEY}{tournament.pk}"


def _touch(tournament: Tournament) -> None:
    """A change standings readers can see: the projector's poll notices it."""
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)
    tournament.refresh_from_db(fields=["version"])


def _place(value: str) -> str:
    """A concours's place: a line of text (engine/scoring/free_text.py's rule), stripped, may be empty."""
    return read_text(value.strip(), "place", MAX_PLACE)


def _prizes(prizes: dict[int, str] | None) -> dict[str, str]:
    """{"1": "a ham"}: each prize a line of text, stripped, the empty ones left out."""
    out = {}
    for rank, text in (prizes or {}).items():
        prize = text.strip()
        if prize:
            out[str(rank)] = read_text(prize, f"prizes[{rank}]", MAX_PRIZE)
    return out


def _name_taken(tournament: Tournament, name: str, but: int | None = None) -> bool:
    """Another entrant of the concours has this name, read as a reader reads names
    (`folding.fold`: "Cœur" is "COEUR", "Trèfle" is "trefle"), as the file's import reads them."""
    wanted = fold(name)
    entrants = tournament.entrants.all() if but is None else tournament.entrants.exclude(pk=but)
    return any(fold(other) == wanted for other in entrants.values_list("name", flat=True))


def _name(value: str, path: str) -> str:
    name = " ".join(str(value).split())
    return read_name(name, path, MAX_NAME)


# ---------------------------------------------------------------------------------------------
# Creating a concours


@transaction.atomic
def create_tournament(
    *,
    owner: User,
    name: str,
    preset: str = "belote",
    overrides: dict[str, Any] | None = None,
    date: Any = None,
    place: str = "",
    prizes: dict[int, str] | None = None,
) -> Tournament:
    """A new concours of `owner` from one of FORMATS, any setting overridden; the seed of every
    draw is drawn here unless `overrides` gives one. TournamentError on a bad setting."""
    if preset not in FORMATS:
        raise Refused("unknown_format", format=preset)
    values = {**FORMATS[preset], **(overrides or {})}
    values.setdefault("seed", secrets.randbelow(SEED_LIMIT))
    settings = settings_from_dict(values)
    return Tournament.objects.create(
        owner=owner,
        name=read_name(" ".join(name.split()), "name", 100),
        date=date,
        place=_place(place),
        settings=settings_to_dict(settings),
        prizes=_prizes(prizes),
    )


def _rules_of(settings: tournament_engine.Settings) -> tuple[Any, ...]:
    """What a concours plays by (every setting but the seed and how the file wrote them)."""
    return (settings.mode, settings.rounds, settings.partie, settings.pairing,
            settings.ranking, settings.bye.points, settings.bye.win)  # fmt: skip


@transaction.atomic
def update_tournament(
    *,
    tournament: Tournament,
    name: str,
    date: Any = None,
    place: str = "",
    prizes: dict[int, str] | None = None,
    settings: dict[str, Any] | None = None,
) -> Tournament:
    """The concours's name, date, place and prizes (at any time) and, until round 1 is drawn,
    its settings (docs/tournaments.md §1; the seed kept). Refused: settings once a round is drawn,
    a change of mode once entrants are registered (teams and players do not convert).
    TournamentError on a bad setting or name."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    tournament.name = read_name(" ".join(name.split()), "name", 100)
    tournament.date = date
    tournament.place = _place(place)
    tournament.prizes = _prizes(prizes)
    fields = ["name", "date", "place", "prizes"]
    if settings is not None:
        values = {**settings, "seed": tournament.settings["seed"]}
        engine = settings_from_dict(values)
        if _rules_of(engine) != _rules_of(tournament.engine_settings):
            if _drawn(tournament):
                raise Refused("settings_locked")
            if engine.mode != tournament.engine_settings.mode and tournament.entrants.exists():
                raise Refused("mode_has_entrants")
            tournament.settings = settings_to_dict(engine)
            fields.append("settings")
    tournament.save(update_fields=fields)
    _touch(tournament)
    return tournament


# ---------------------------------------------------------------------------------------------
# Registration


def _drawn(tournament: Tournament) -> int:
    """How many rounds are drawn."""
    return int(tournament.rounds.aggregate(top=Max("number"))["top"] or 0)


@transaction.atomic
def add_entrant(
    *,
    tournament: Tournament,
    name: str,
    players: Sequence[str] = ("", ""),
    from_round: int | None = None,
) -> Entrant:
    """A team (two players required) or, à la mêlée, a player (`name` alone). Once a round is
    drawn it is a late entry: it joins at `from_round` (default: the next round), never at a
    round already drawn."""
    return _add(tournament, name, players, from_round, _drawn(tournament))


def _add(
    tournament: Tournament,
    name: str,
    players: Sequence[str],
    from_round: int | None,
    drawn: int,
    number: int | None = None,
) -> Entrant:
    if tournament.status == Tournament.Status.FINISHED:
        raise Refused("finished")
    settings = tournament.engine_settings
    clean = _name(name, "name")
    if settings.melee:
        p1 = p2 = ""
        if any(p.strip() for p in players):
            raise Refused("melee_no_players")
    else:
        p1, p2 = (_name(p, f"players[{i}]") for i, p in enumerate(players))
    if _name_taken(tournament, clean):
        raise Refused("duplicate_name", name=clean)
    start = from_round if from_round is not None else drawn + 1
    if start <= drawn or start < 1:
        raise Refused("round_already_drawn", round=start)
    if start > settings.rounds:
        raise Refused("after_last_round", round=start, rounds=settings.rounds)
    if number is None:
        number = int(tournament.entrants.aggregate(top=Max("number"))["top"] or 0) + 1
    entrant = Entrant.objects.create(
        tournament=tournament,
        number=number,
        name=clean,
        player1=p1,
        player2=p2,
        from_round=start,
        present=True if drawn else None,
    )
    _touch(tournament)
    return entrant


class LineRefused(Refused):
    """A line of a pasted list that cannot be read: `line` (1-based) and what is wrong."""


def split_line(line: str) -> list[str]:
    """The fields of one pasted line: separated by ";" or a tab (a spreadsheet's cells), or, when
    the line has neither, by ","."""
    for separator in (";", "\t"):
        if separator in line:
            return [part.strip() for part in line.replace("\t", ";").split(";")]
    return [part.strip() for part in line.split(",")]


@transaction.atomic
def add_entrants_from_text(*, tournament: Tournament, text: str) -> list[Entrant]:
    """A pasted list, one entrant a line: "Team name; Player 1; Player 2" (or "Player 1; Player
    2": the team is named "Player 1 & Player 2"); à la mêlée, a player's name alone. Fields are
    separated by ";" or a tab, or by "," when the line has neither. Blank lines and lines
    starting with "#" are skipped. All or nothing: the first bad line refuses the whole list
    (LineRefused with its line number)."""
    melee = tournament.melee
    drawn = _drawn(tournament)
    out = []
    for index, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        fields = [line] if melee else [f for f in split_line(line) if f]
        if not melee and len(fields) == 2:
            fields = [f"{fields[0]} & {fields[1]}"[:MAX_NAME], *fields]
        if not melee and len(fields) != 3:
            raise LineRefused("line_fields", line=index, found=len(fields))
        try:
            out.append(_add(tournament, fields[0], fields[1:], None, drawn))
        except Refused as error:
            raise LineRefused(error.code, line=index, **error.params) from None
        except TournamentError as error:
            raise LineRefused(error.code, line=index, **error.params) from None
    return out


# A CSV file of entrants: at most CSV_MAX_BYTES and CSV_MAX_ROWS rows (150 teams is a big
# concours); its line errors reported at most CSV_MAX_ERRORS at a time.
CSV_MAX_BYTES = 128 * 1024
CSV_MAX_ROWS = 500
CSV_MAX_ERRORS = 10
# A first row made of these words (any case) is a header, skipped.
CSV_HEADER_WORDS = frozenset(
    ["name", "team", "player", "player1", "player 1", "player2", "player 2", "nom", "équipe",
     "equipe", "joueur", "joueur1", "joueur 1", "joueur2", "joueur 2", "joueuse", "joueuse 1",
     "joueuse 2"]
)  # fmt: skip


class CsvRefused(Refused):
    """A CSV file refused: every bad line found (`lines`: LineRefused, at most CSV_MAX_ERRORS;
    `more`: how many other lines are bad too)."""

    def __init__(self, lines: list[LineRefused], more: int = 0) -> None:
        super().__init__("csv_lines", count=len(lines) + more)
        self.lines = lines
        self.more = more


def _csv_rows(data: bytes) -> list[tuple[int, list[str]]]:
    """The rows of a CSV file with their line numbers: UTF-8 with or without its BOM, separated
    by ";" (or a tab) when the file has one, else by ","; blank rows and a header left out."""
    if len(data) > CSV_MAX_BYTES:
        raise Refused("csv_too_big", limit=CSV_MAX_BYTES // 1024)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LineRefused("csv_encoding", line=data[: error.start].count(b"\n") + 1) from None
    delimiter = ";" if ";" in text else "\t" if "\t" in text else ","
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows: list[tuple[int, list[str]]] = []
    try:
        for row in reader:
            cells = [" ".join(cell.split()) for cell in row]
            while cells and not cells[-1]:
                cells.pop()
            if not cells:
                continue
            if len(rows) == CSV_MAX_ROWS:
                raise Refused("csv_too_many_rows", limit=CSV_MAX_ROWS)
            rows.append((reader.line_num, cells))
    except csv.Error:
        raise LineRefused("csv_unreadable", line=reader.line_num) from None
    if rows and all(cell.casefold() in CSV_HEADER_WORDS for cell in rows[0][1] if cell):
        rows.pop(0)
    return rows


@transaction.atomic
def add_entrants_from_csv(*, tournament: Tournament, data: bytes) -> list[Entrant]:
    """A CSV file of entrants, one a row: the team's name, player 1, player 2 (à la mêlée, the
    player's name alone); a header row is optional. All or nothing: any bad line refuses the
    whole file (CsvRefused naming every bad line, up to CSV_MAX_ERRORS); a file too big, with
    too many rows, not UTF-8 or with no entrant is refused as a whole."""
    rows = _csv_rows(data)
    if not rows:
        raise Refused("csv_empty")
    melee = tournament.melee
    drawn = _drawn(tournament)
    added: list[Entrant] = []
    bad: list[LineRefused] = []
    for line, cells in rows:
        expected = 1 if melee else 3
        try:
            if len(cells) != expected or not all(cells):
                found = sum(1 for cell in cells if cell)
                raise Refused("csv_fields_melee" if melee else "csv_fields", found=found)
            added.append(_add(tournament, cells[0], cells[1:] or ("", ""), None, drawn))
        except (Refused, TournamentError) as error:
            bad.append(LineRefused(error.code, line=line, **error.params))
    if bad:
        raise CsvRefused(bad[:CSV_MAX_ERRORS], more=max(0, len(bad) - CSV_MAX_ERRORS))
    return added


@transaction.atomic
def check_in(*, entrant: Entrant, present: bool) -> Entrant:
    """Present or absent, before round 1 is drawn. An absent entrant is left out of the concours
    (in no draw, no standings); arriving later, it is added as a late entry."""
    if _drawn(entrant.tournament):
        raise Refused("check_in_closed")
    entrant.present = present
    entrant.save(update_fields=["present"])
    _touch(entrant.tournament)
    return entrant


@transaction.atomic
def withdraw(*, entrant: Entrant, before_round: int | None = None) -> Entrant:
    """The entrant leaves before `before_round` (default: the next round to draw): drawn no
    more, its results and place kept, marked withdrawn."""
    tournament = entrant.tournament
    drawn = _drawn(tournament)
    round_number = before_round if before_round is not None else drawn + 1
    if entrant.withdrawn_before_round is not None:
        raise Refused("already_withdrawn", round=entrant.withdrawn_before_round)
    if round_number <= drawn:
        raise Refused("round_already_drawn", round=round_number)
    if round_number > tournament.engine_settings.rounds:
        raise Refused("after_last_round", round=round_number)
    entrant.withdrawn_before_round = round_number
    entrant.save(update_fields=["withdrawn_before_round"])
    _touch(tournament)
    return entrant


@transaction.atomic
def cancel_withdrawal(*, entrant: Entrant) -> Entrant:
    """Back in, while the round it left before is not drawn yet."""
    if entrant.withdrawn_before_round is None:
        return entrant
    if entrant.withdrawn_before_round <= _drawn(entrant.tournament):
        raise Refused("round_already_drawn", round=entrant.withdrawn_before_round)
    entrant.withdrawn_before_round = None
    entrant.save(update_fields=["withdrawn_before_round"])
    _touch(entrant.tournament)
    return entrant


@transaction.atomic
def edit_entrant(*, entrant: Entrant, name: str, players: Sequence[str] = ("", "")) -> Entrant:
    """A team's name and players (à la mêlée, a player's name), at any time. Every page that
    reads the concours (the desk, the standings, the public page, the prints) shows the new names
    at once; the matches of the tables of an open round take the new team name too (their
    phones show it), while closed rounds' matches keep the names they were played under, and a
    match's players (the app's players, whom accounts may have claimed) are left as drawn."""
    tournament = entrant.tournament
    if tournament.melee:
        p1 = p2 = ""
        if any(p.strip() for p in players):
            raise Refused("melee_no_players")
    else:
        p1, p2 = (_name(p, f"players[{i}]") for i, p in enumerate(players))
    clean = _name(name, "name")
    if _name_taken(tournament, clean, but=entrant.pk):
        raise Refused("duplicate_name", name=clean)
    if (clean, p1, p2) == (entrant.name, entrant.player1, entrant.player2):
        return entrant
    renamed = clean != entrant.name
    entrant.name, entrant.player1, entrant.player2 = clean, p1, p2
    entrant.save(update_fields=["name", "player1", "player2"])
    if renamed:
        _rename_open_tables(entrant)
    _touch(tournament)
    return entrant


def _rename_open_tables(entrant: Entrant) -> None:
    """The team names of the matches at the entrant's tables in open rounds, from the names of
    who sits there now."""
    tables = Table.objects.filter(
        places__entrant=entrant, round__closed_at__isnull=True, match__isnull=False
    )
    for table in tables.select_related("match").prefetch_related("places__entrant"):
        sides: list[list[str]] = [[], []]
        for place in sorted(table.places.all(), key=lambda p: p.seat):
            if place.side is not None:
                sides[place.side].append(place.entrant.name)
        names = [" & ".join(side)[:MAX_NAME] for side in sides]
        Match.objects.filter(concours_table=table).update(
            team0_name=names[0], team1_name=names[1], version=F("version") + 1
        )


# ---------------------------------------------------------------------------------------------
# Table results


def _higher(points: tuple[int, int]) -> int | None:
    """The side with more points; None for a draw."""
    if points[0] == points[1]:
        return None
    return 0 if points[0] > points[1] else 1


def apply_result(table: Table, match: Match | None) -> bool:
    """Set `table`'s cached result (not saved) from its paper totals, or its match's cached
    totals (finished when the match is, or when time was called). Whether anything changed."""
    before = (table.finished, table.points0, table.points1, table.winner, table.reserve_lost,
              table.deal_count, table.match_version)  # fmt: skip
    if table.paper is not None:
        table.finished, (table.points0, table.points1) = True, table.paper
        table.winner, table.reserve_lost = _higher(table.paper), 0
    elif match is None:
        table.finished, table.points0, table.points1 = False, None, None
        table.winner, table.reserve_lost = None, 0
    else:
        table.deal_count = match.deal_count
        table.match_version = match.version
        played = match.deal_count > 0 or table.ended
        table.points0, table.points1 = (match.total0, match.total1) if played else (None, None)
        if match.status == Match.Status.FINISHED:
            table.finished, table.winner = True, match.winner  # None: the engine's draw
            table.reserve_lost = match.reserve
        elif table.ended:
            table.finished = True
            table.winner = _higher((match.total0, match.total1))
            table.reserve_lost = match.reserve
        else:
            table.finished, table.winner, table.reserve_lost = False, None, 0
    after = (table.finished, table.points0, table.points1, table.winner, table.reserve_lost,
             table.deal_count, table.match_version)  # fmt: skip
    if table.finished and table.finished_at is None:
        table.finished_at = timezone.now()
    elif not table.finished:
        table.finished_at = None
    return before != after


RESULT_FIELDS = [
    "finished", "points0", "points1", "winner", "reserve_lost", "deal_count", "match_version",
    "finished_at",
]  # fmt: skip


# What a concours says to the matches app about its tables' matches (hooks.py, through
# match_hooks.ConcoursHooks): every write to a table's match is checked here first, and the
# table's result is stored with the change, in the same transaction. So the result is stored
# once, no page writes while it is read, and a table's state is enforced here, not by what a
# page shows.


def check_table_write(*, match: Match, owner: bool, action: str) -> None:
    """Whether this write to a table's match may go ahead (WriteRefused otherwise, with the
    reason): a paper result locks the deals for everyone (the desk decides); once time is called
    or the partie is over, its phones and the accounts that scored are refused everything,
    and the organiser (the match's owner) still corrects the deals (edit, delete, undo, redo)
    while the round is open, but adds none. A closed round's match is frozen (MatchFrozen)."""
    table = Table.objects.select_related("round").filter(match_id=match.pk).first()
    if table is None:
        return
    if table.paper is not None:
        raise WriteRefused("paper_result")
    if table.round.is_closed:
        raise WriteRefused("round_closed")
    if not (table.ended or match.is_finished):
        return
    if owner and action != ADD:
        return
    raise WriteRefused("time_called" if table.ended else "partie_over")


def table_moved(*, match: Match) -> None:
    """A table's match has just changed (its deals re-scored, in the transaction that saves
    them): the table's result follows at once. A partie that this change ends ends its phones
    too (a new scorer link, set on `match`)."""
    table = Table.objects.select_related("round").filter(match_id=match.pk).first()
    if table is None or table.round.is_closed:
        return
    was = table.finished
    if not apply_result(table, match):
        return
    if table.finished and not was and table.paper is None:
        renewed = end_phones([table]).get(match.pk)
        if renewed is not None:
            match.scorer_token, match.version = renewed.scorer_token, renewed.version
            table.match_version = renewed.version
    table.save(update_fields=RESULT_FIELDS)
    Tournament.objects.filter(pk=table.round.tournament_id).update(version=F("version") + 1)


def end_phones(tables: Sequence[Table], *, accounts: bool = False) -> dict[int, Match]:
    """The phones of these tables are done (their partie is over, their round closed, or their
    link renewed): their matches get new scorer links (`matches.services.revoke_scorer_links`),
    so whoever scored through the old one may score no more; the table link then shows the
    table read-only. `accounts` (a renewed link): the accounts that scored through the old link
    lose the right to write too. The matches with their new links, by id."""
    ids = [table.match_id for table in tables if table.match_id is not None]
    if not ids:
        return {}
    renewed = match_services.revoke_scorer_links(match_ids=ids, accounts=accounts)
    return {match.pk: match for match in renewed}


def _log(
    table: Table, action: str, before: dict[str, Any], author: User | None, label: str
) -> None:
    ResultChange.objects.create(
        table=table,
        author=author,
        author_label=label[:60],
        action=action,
        before=before,
        after=table.result_dict(),
    )


def _check_totals(totals: tuple[int, int]) -> tuple[int, int]:
    for index, value in enumerate(totals):
        if not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
            raise TournamentError(f"totals[{index}]", "out_of_range", min=0, max=MAX_POINTS)
    return (totals[0], totals[1])


def _set_paper(
    table: Table,
    totals: tuple[int, int],
    action: str,
    author: User | None,
    label: str,
    belotes: int,
    capots: int,
    announcements: int,
) -> PaperCheck | None:
    """The table's result from typed totals, and its match's with it (typed: the match, its
    scoreboard and the lists it is in say the same result, typed from paper)."""
    before = table.result_dict()
    table.paper0, table.paper1 = _check_totals(totals)
    table.paper_belotes, table.paper_capots = belotes, capots
    table.paper_announcements = announcements
    if table.match_id is not None:
        match = match_services.type_result(match_id=table.match_id, totals=totals)
        table.match_version = match.version
    apply_result(table, None)
    table.save()
    _log(table, action, before, author, label)
    _touch(table.round.tournament)
    rules = table.round.tournament.engine_settings.partie
    return paper_check(
        rules, table.paper or (0, 0), belotes=belotes, capots=capots, announcements=announcements
    )


def scored_on_phone(table: Table) -> Match | None:
    """The table's match when its phone scored deals there (what paper totals would set
    aside), else None."""
    if table.match_id is None or table.paper is not None:
        return None
    match = Match.objects.filter(pk=table.match_id).first()
    return match if match is not None and match.deal_count > 0 else None


@transaction.atomic
def record_paper_totals(
    *,
    table: Table,
    totals: tuple[int, int],
    belotes: int = 0,
    capots: int = 0,
    announcements: int = 0,
    author: User | None = None,
    author_label: str = "",
    over_deals: bool = False,
) -> PaperCheck | None:
    """The two totals of a paper score sheet (with the belotes, capots and announcement points
    written on it): the table is finished with them, its phones are done and its match's deals
    change no more (its match shows the typed result). A table whose phone scored deals is
    refused (`table_has_deals`) unless `over_deals`: the organiser has seen both and said the
    paper is right. Returns the engine's paper check (a warning when `not check.ok`, never a
    refusal; None when the partie's rules allow no check). Logged."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    if table.round.is_closed:
        raise Refused("round_closed", round=table.round.number)
    scored = scored_on_phone(table)
    if scored is not None and not over_deals:
        raise Refused("table_has_deals", table=table.number, deals=scored.deal_count)
    end_phones([table])  # the sheet wins: its phones are done
    return _set_paper(table, totals, "paper", author, author_label, belotes, capots, announcements)


@transaction.atomic
def correct_result(
    *,
    table: Table,
    totals: tuple[int, int],
    author: User | None = None,
    author_label: str = "",
) -> PaperCheck | None:
    """Replace a finished table's result by these totals (also once its round is closed: later
    standings change, draws already made stay); its match shows them as typed. Logged with the
    result before."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    if not table.finished:
        raise Refused("table_not_finished", table=table.number)
    check = _set_paper(table, totals, "correction", author, author_label, 0, 0, 0)
    tournament = table.round.tournament
    if tournament.status == Tournament.Status.FINISHED:
        store_final_standings(tournament=tournament)
    return check


@transaction.atomic
def call_time(*, table: Table, author: User | None = None, author_label: str = "") -> Table:
    """Time is up: the partie ends with the deals played, the higher total wins (a reserve still
    held is lost). Its match ends with it (`matches.services.end_match`), which stores the
    table's result and ends its phones (table_moved). Logged."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    if table.round.is_closed:
        raise Refused("round_closed", round=table.round.number)
    if table.match_id is None:
        raise Refused("no_match", table=table.number)
    if table.finished:
        raise Refused("table_finished", table=table.number)
    before = table.result_dict()
    table.ended = True
    table.save(update_fields=["ended"])
    match_services.end_match(match_id=table.match_id)
    table.refresh_from_db()
    _log(table, "time", before, author, author_label)
    return table


@transaction.atomic
def regenerate_co_link(*, tournament: Tournament) -> Tournament:
    """A new co-organiser link: every browser granted the desk by the old one loses it at once."""
    tournament.co_token = new_token()
    tournament.save(update_fields=["co_token"])
    return tournament


@transaction.atomic
def regenerate_table_link(*, table: Table) -> Table:
    """A new phone link for the table: the old one stops working at once, and so does the
    scorer link its phones were using (the new link leads to a new one); the accounts that
    scored through it lose the right to write (they keep the match in their history,
    read-only). The organiser keeps it while the round is open."""
    table.token = new_token()
    table.save(update_fields=["token"])
    end_phones([table], accounts=True)
    return table


# ---------------------------------------------------------------------------------------------
# Rounds


def _seat_names(names: list[str], teams: tuple[str, str]) -> list[str]:
    """The four seats' names (playing order), a name met twice at one table told apart by its
    team (one Player per name at a match)."""
    seen: set[str] = set()
    out = []
    for seat, name in enumerate(names):
        if name.casefold() in seen:
            name = f"{name} ({teams[seat % 2]})"[:MAX_NAME]
        seen.add(name.casefold())
        out.append(name)
    return out


def _table_names(
    melee: bool, sides: Sequence[Sequence[Entrant]]
) -> tuple[tuple[str, str], list[str]]:
    """A table's two team names and its four seats' names, in playing order."""
    if melee:
        teams = (
            " & ".join(e.name for e in sides[0])[:MAX_NAME],
            " & ".join(e.name for e in sides[1])[:MAX_NAME],
        )
        names = [sides[0][0].name, sides[1][0].name, sides[0][1].name, sides[1][1].name]
    else:
        a, b = sides[0][0], sides[1][0]
        teams = (a.name, b.name)
        names = [a.player1, b.player1, a.player2, b.player2]
    return teams, _seat_names(names, teams)


def _create_match(tournament: Tournament, sides: list[list[Entrant]]) -> Match:
    """A table's match: the partie's rules, the two sides' names and players."""
    teams, names = _table_names(tournament.melee, sides)
    # The organiser's account owns every table (their history and player pages show them; their
    # My matches lists a table once a deal is scored); the key stays the concours's, never a
    # browser's, so signing in on some device claims none of them.
    return match_services.create_match(
        owner_key=match_owner_key(tournament),
        owner=tournament.owner,
        rules=tournament.engine_settings.partie,
        team_names=teams,
        players=names,
        first_dealer=0,
        in_concours=True,
    )


def _match_file(
    settings: tournament_engine.Settings,
    sides: Sequence[Sequence[Entrant]],
    table: tournament_engine.Table,
) -> MatchFile:
    """A table of a tournament file as a match file (its deals, none for a table not started),
    with the names `_create_match` gives a drawn table."""
    teams, names = _table_names(settings.melee, sides)
    return MatchFile(
        rules=settings.partie,
        teams=(Team(teams[0], (names[0], names[2])), Team(teams[1], (names[1], names[3]))),
        first_dealer=table.first_dealer or 0,
        deals=tuple(table.deals or ()),
    )


def _store_draw(tournament: Tournament, draw: tournament_engine.Draw) -> Round:
    by_number = {e.number: e for e in tournament.entrants.all()}
    round_ = Round.objects.create(
        tournament=tournament, number=draw.round, rematches=draw.rematches
    )
    tables = []
    places = []
    for drawn in draw.tables:
        sides = [[by_number[n] for n in side] for side in drawn.sides]
        table = Table(round=round_, number=drawn.number, match=_create_match(tournament, sides))
        apply_result(table, table.match)
        tables.append(table)
        for side, entrants in enumerate(sides):
            places += [
                Place(round=round_, entrant=e, table=table, side=side, seat=seat)
                for seat, e in enumerate(entrants)
            ]
    Table.objects.bulk_create(tables)
    places += [Place(round=round_, entrant=by_number[n]) for n in draw.byes]
    Place.objects.bulk_create(places)
    return round_


@transaction.atomic
def draw_round(*, tournament: Tournament) -> Round:
    """Draw the next round with the engine (docs/tournaments.md §5) and create its tables, one match
    each, and its byes. Refused while the last round is open or once the concours is finished;
    the engine's TournamentError when it cannot draw (every round drawn, too few entrants)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise Refused("finished")
    last = tournament.rounds.order_by("-number").first()
    if last is not None and not last.is_closed:
        raise Refused("round_open", round=last.number)
    snap = snapshot(tournament)
    number = len(snap.rounds) + 1
    withdrawn = sorted(e.number for e in snap.entrants if e.withdrawn_before_round == number)
    draw = tournament_engine.draw_round(snap.engine, withdrawn=withdrawn, results=snap.results)
    round_ = _store_draw(tournament, draw)
    if tournament.status == Tournament.Status.REGISTRATION:
        tournament.status = Tournament.Status.PLAYING
        tournament.save(update_fields=["status"])
    _touch(tournament)
    return round_


def _untouched(round_: Round) -> None:
    """Refused once any table of the round has a result or a deal."""
    if round_.is_closed:
        raise Refused("round_closed", round=round_.number)
    started = (
        round_.tables.filter(finished=True).exists()
        or round_.tables.filter(deal_count__gt=0).exists()
    )
    if started:
        raise Refused("round_started", round=round_.number)


def _drop_matches(tables: Sequence[Table]) -> None:
    Match.objects.filter(pk__in=[t.match_id for t in tables if t.match_id]).delete()


@transaction.atomic
def swap_entrants(*, round_: Round, first: Entrant, second: Entrant) -> Round:
    """Swap two entrants' places (tables, or a table and a bye) before any table of the round
    has a result or a deal; the tables concerned get new matches (and links)."""
    _untouched(round_)
    a = round_.places.select_related("table").get(entrant=first)
    b = round_.places.select_related("table").get(entrant=second)
    spots = [(a.table, a.side, a.seat), (b.table, b.side, b.seat)]
    a.table, a.side = None, None
    a.save()
    b.table, b.side, b.seat = spots[0]
    b.save()
    a.table, a.side, a.seat = spots[1]
    a.save()
    tables = [t for t in {spots[0][0], spots[1][0]} if t is not None]
    _drop_matches(tables)
    tournament = round_.tournament
    for table in tables:
        sides: list[list[Entrant]] = [[], []]
        for place in sorted(table.places.select_related("entrant"), key=lambda p: p.seat):
            assert place.side is not None
            sides[place.side].append(place.entrant)
        table.match = _create_match(tournament, sides)
        table.token = new_token()
        table.match_version = None
        apply_result(table, table.match)
        table.save()
    _touch(tournament)
    return round_


@transaction.atomic
def redraw_round(*, round_: Round) -> Round:
    """Draw the last round again, before any of its tables has a result or a deal. The seed of
    the draws changes (the same seed would give the same draw); a Swiss round after the first
    depends only on the standings and comes out the same."""
    tournament = round_.tournament
    if tournament.rounds.filter(number__gt=round_.number).exists():
        raise Refused("not_last_round", round=round_.number)
    _untouched(round_)
    _drop_matches(list(round_.tables.all()))
    round_.delete()
    tournament.settings = {**tournament.settings, "seed": secrets.randbelow(SEED_LIMIT)}
    tournament.save(update_fields=["settings"])
    return draw_round(tournament=tournament)


@transaction.atomic
def close_round(*, round_: Round) -> Round:
    """Close the round when every table is finished; its tables' links turn read-only, and the
    next round may be drawn."""
    if round_.is_closed:
        return round_
    pending = list(round_.tables.filter(finished=False).values_list("number", flat=True))
    if pending:
        raise Refused("tables_pending", round=round_.number, tables=pending)
    round_.closed_at = timezone.now()
    round_.save(update_fields=["closed_at"])
    end_phones(list(round_.tables.filter(match__isnull=False)))  # table links read-only now
    # Its tables' results are the concours's now: their matches take no more changes (a
    # late correction goes through correct_result, which the standings read).
    Match.objects.filter(concours_table__round=round_).update(
        frozen_at=round_.closed_at, version=F("version") + 1
    )
    _touch(round_.tournament)
    return round_


@transaction.atomic
def finish(*, tournament: Tournament) -> Tournament:
    """The concours is over: the standings become the final ranking. Refused before a round is
    played or while a round is open."""
    if tournament.status == Tournament.Status.FINISHED:
        return tournament
    rounds = list(tournament.rounds.all())
    if not rounds:
        raise Refused("no_round")
    if any(not r.is_closed for r in rounds):
        raise Refused("round_open", round=rounds[-1].number)
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    _touch(tournament)
    store_final_standings(tournament=tournament)
    return tournament


def store_final_standings(*, tournament: Tournament) -> Tournament:
    """Keep a finished concours's final ranking on it (`final_standings`: the rows of
    `selectors.final_rows` and the `version` they were computed at), so the club pages read 120
    concours without computing 120 standings. Written by `finish`, and again by a correction
    after the finish (a reader finding another version computes it afresh)."""
    rows = final_rows(tournament)
    tournament.refresh_from_db(fields=["version"])
    tournament.final_standings = {"version": tournament.version, "rows": rows}
    tournament.save(update_fields=["final_standings"])
    return tournament


# ---------------------------------------------------------------------------------------------
# The file


def _hold(tables: Sequence[Table]) -> None:
    """Imported tables' matches are held by the concours, those whose time was called ended
    (as call_time ends a drawn table's), those of closed rounds frozen (as a drawn table's match
    is, and as closing its round freezes it)."""
    Match.objects.filter(pk__in=[t.match_id for t in tables if t.match_id]).update(in_concours=True)
    for table in tables:
        if table.ended and table.match_id is not None:
            match_services.end_match(match_id=table.match_id)
    closed = [t.match_id for t in tables if t.match_id and t.round.closed_at is not None]
    Match.objects.filter(pk__in=closed).update(frozen_at=timezone.now())


@dataclass(frozen=True)
class PreparedImport:
    """A tournament file read, checked and scored, nothing written yet (`prepare_import`)."""

    engine: tournament_engine.Tournament
    entrants: dict[int, Entrant]
    files: list[MatchFile]
    scored: list[MatchResult]

    @property
    def deals(self) -> int:
        return file_deals(self.engine)


def file_deals(engine: tournament_engine.Tournament) -> int:
    """The deals a read tournament file holds: each is scored and stored on import."""
    return sum(len(table.deals or ()) for round_ in engine.rounds for table in round_.tables)


def import_tournament(*, owner: User, text: str | bytes) -> Tournament:
    """A `belote-tournament/1` file as a new concours of `owner` (a concours scored on paper,
    typed in later): its entrants, rounds, tables (paper totals, or deals: the table's match,
    owned as a drawn table's), byes and withdrawals. Every round whose tables are all finished
    is closed; the concours is finished when every planned round is. TournamentError (with its
    path) on a bad file or two entrants of one name, Refused over IMPORT_MAX_DEALS deals.

    The engine reads the file and scores every table's deals first, with nothing written
    (`prepare_import`); then one transaction writes it all in a few bulk inserts
    (`write_import`)."""
    return write_import(owner=owner, prepared=prepare_import(text))


def prepare_import(
    text: str | bytes, *, progress: Callable[[int, int], object] | None = None
) -> PreparedImport:
    """The file read and checked by the engine, two entrants of one name refused as the desk
    refuses them (`_name_taken`'s rule; TournamentError `duplicate` at the second one's name),
    its deals counted (Refused over IMPORT_MAX_DEALS, before any scoring), then every table's
    match scored. Nothing written; `progress(done, total)` after each round."""
    engine = tournament_engine.load_tournament(text)
    first: dict[str, int] = {}
    for index, entrant in enumerate(engine.entrants):
        seen = first.setdefault(fold(entrant.name), index)
        if seen != index:
            raise TournamentError(
                f"entrants[{index}].name", "duplicate", value=entrant.name,
                first=f"entrants[{seen}].name",
            )  # fmt: skip
    deals = file_deals(engine)
    if deals > IMPORT_MAX_DEALS:  # bounded work per file
        raise Refused("too_many_deals", deals=deals, limit=IMPORT_MAX_DEALS)
    gone = engine.withdrawal_round()
    entrants = {
        e.id: Entrant(
            number=e.id,
            name=e.name,
            player1=e.players[0] if e.players else "",
            player2=e.players[1] if e.players else "",
            from_round=e.from_round,
            present=True,
            withdrawn_before_round=gone.get(e.id),
        )
        for e in engine.entrants
    }
    files: list[MatchFile] = []
    scored: list[MatchResult] = []
    for number, round_ in enumerate(engine.rounds, start=1):
        for table in round_.tables:
            if table.totals is None:
                sides = [[entrants[n] for n in side] for side in table.sides]
                files.append(_match_file(engine.settings, sides, table))
                scored.append(files[-1].score())
        if progress is not None:
            progress(number, len(engine.rounds))
    return PreparedImport(engine, entrants, files, scored)


def write_import(*, owner: User, prepared: PreparedImport) -> Tournament:
    """A prepared file written as a new concours of `owner`, in one transaction."""
    return _write_import(owner, prepared.engine, prepared.entrants, prepared.files, prepared.scored)


@transaction.atomic
def _write_import(
    owner: User,
    engine: tournament_engine.Tournament,
    entrants: dict[int, Entrant],
    files: list[MatchFile],
    scored: list[MatchResult],
) -> Tournament:
    settings = engine.settings
    tournament = Tournament.objects.create(
        owner=owner,
        name=engine.name or "",
        date=datetime.date.fromisoformat(engine.date) if engine.date else None,
        settings=settings_to_dict(settings),
    )
    for entrant in entrants.values():
        entrant.tournament = tournament
    Entrant.objects.bulk_create(entrants.values())
    results = tournament_engine.round_results(engine)
    tables: list[tuple[Table, list[list[Entrant]]]] = []
    byes: list[Place] = []
    for number, (drawn, result) in enumerate(zip(engine.rounds, results, strict=True), start=1):
        round_ = Round.objects.create(
            tournament=tournament,
            number=number,
            closed_at=timezone.now() if result.finished else None,
        )
        for table_data in drawn.tables:
            sides = [[entrants[n] for n in side] for side in table_data.sides]
            table = Table(round=round_, number=table_data.number, ended=table_data.ended)
            if table_data.totals is not None:
                table.paper0, table.paper1 = table_data.totals
            tables.append((table, sides))
        byes += [Place(round=round_, entrant=entrants[n]) for n in drawn.byes]
    matches = iter(
        match_services.import_matches(
            match_files=files,
            owner_key=match_owner_key(tournament),
            owner=owner,
            results=scored,
        )
    )
    for table, _sides in tables:
        if table.paper is None:  # the files are in the tables' order
            table.match = next(matches)
        apply_result(table, table.match)
    Table.objects.bulk_create([table for table, _sides in tables])
    _hold([table for table, _sides in tables])
    Place.objects.bulk_create(
        [
            Place(round=table.round, entrant=e, table=table, side=side, seat=seat)
            for table, sides in tables
            for side, members in enumerate(sides)
            for seat, e in enumerate(members)
        ]
        + byes
    )
    if engine.rounds:
        every_round = len(engine.rounds) == settings.rounds
        if every_round and all(result.finished for result in results):
            tournament.status = Tournament.Status.FINISHED
            tournament.finished_at = timezone.now()
        else:
            tournament.status = Tournament.Status.PLAYING
        tournament.save(update_fields=["status", "finished_at"])
        if tournament.status == Tournament.Status.FINISHED:
            store_final_standings(tournament=tournament)
    return tournament


# ---------------------------------------------------------------------------------------------
# Deleting


@transaction.atomic
def delete_tournament(*, tournament: Tournament) -> int:
    """Delete the concours (entrants, rounds, tables, places, log) and its table matches with
    it: those are deleted as the matches app deletes one (gone from every page, their links
    answer 404; restorable by their owner for DELETED_KEPT_DAYS, then purged). How many matches
    were deleted."""
    matches = Match.objects.filter(
        concours_table__round__tournament=tournament, deleted_at__isnull=True
    )
    # Restored from Recently deleted, a table's match is a match of its own again.
    gone = matches.update(
        deleted_at=timezone.now(), in_concours=False, frozen_at=None, version=F("version") + 1
    )
    tournament.delete()
    return gone
