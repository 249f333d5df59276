"""Entrants by the list: a pasted text, one a line, or a CSV file, one a row; all or nothing,
a bad line refused with its number."""

import csv
import io

from django.db import transaction

from scorekeeper.engine.tournament import TournamentError

from ..holder import get_holder
from ..models import Entrant, Tournament
from .base import MAX_NAME, Refused
from .entrants import _add


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
    drawn = tournament.drawn_rounds()
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
    get_holder().names_changed(tournament)  # once for the whole list
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
    drawn = tournament.drawn_rounds()
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
    get_holder().names_changed(tournament)  # once for the whole file
    return added
