"""A concours's files: its standings as CSV (after a round, or the final ranking) and a safe file
name for its downloads. The `belote-tournament/1` document itself is `selectors.export_document`.

The CSV opens in a spreadsheet as it is: UTF-8 with a byte order mark (Excel reads "é" right
only with it), one row per entrant with every tie-break figure (and the criterion that broke its
tie with the row above, in words), and any text cell a spreadsheet
would run as a formula written with a leading apostrophe (OWASP's advice against CSV
injection, as the history's CSV does). Columns are named by the engine's keys
(docs/tournaments.md §6), as the match CSV's are; a prize shared ex æquo says so in its cell, in the
language of the download."""

import csv
import io
import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext as _

from scorekeeper.engine.tournament.settings import EXTRA_CRITERIA
from scorekeeper.web.spreadsheet import safe_cell

from .models import Tournament
from .selectors import standings_rows

BOM = "\ufeff"
FIGURES = [
    "played", "won", "drawn", "lost", "byes", "wins", "points", "conceded", "difference",
    "best_partie", "opponents_wins",
]  # fmt: skip


def _wins(value: Any) -> object:
    """A count kept in halves (wins, opponents' wins, head to head...) may be a half (2.5):
    written as such, a whole number without ".0"."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _prize(row: dict[str, Any]) -> str:
    """A row's prize; ex æquo on a prize rank, the prizes its tied group shares out, said so
    (selectors.with_prizes)."""
    if row["shared"]:
        return _("Ex æquo, to decide: %(prizes)s") % {"prizes": " / ".join(row["shared"])}
    return str(row["prize"])


def columns(melee: bool, ranking: Sequence[str] = ()) -> list[str]:
    """The CSV's columns: the names, every figure, each figure `ranking` adds (as the file's
    standings add them), the criterion that broke the row's tie with the one above, then
    withdrawn and prize."""
    names = ["rank", "id", "name"] if melee else ["rank", "id", "team", "player1", "player2"]
    extra = [key for key in EXTRA_CRITERIA if key in ranking]
    return [*names, *FIGURES, *extra, "tie_break", "withdrawn", "prize"]


def standings_csv(
    tournament: Tournament,
    after_round: int | None = None,
    *,
    criterion: Callable[[str | None], str],
) -> str:
    """The standings after round `after_round` (None: every round drawn; the final ranking once
    finished) as CSV text, the byte order mark first; `criterion`: a criterion's words, in the
    language of the download (words.criterion_words, above this module)."""
    melee = tournament.melee
    players = {}
    if not melee:
        players = {
            number: (p1, p2)
            for number, p1, p2 in tournament.entrants.values_list("number", "player1", "player2")
        }
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, lineterminator="\r\n")
    ranking = tournament.engine_settings.ranking
    extra = [key for key in EXTRA_CRITERIA if key in ranking]
    writer.writerow(columns(melee, ranking))
    for row in standings_rows(tournament, after_round):
        names: list[object] = [row["rank"], row["id"], row["name"]]
        if not melee:
            names += list(players.get(row["id"], ("", "")))
        figures = [_wins(row[key]) for key in [*FIGURES, *extra]]
        tie_break = criterion(row["tie_break"])
        cells = [*names, *figures, tie_break, "yes" if row["withdrawn"] else "", _prize(row)]
        writer.writerow([safe_cell(cell) for cell in cells])
    return out.getvalue()


def document_text(document: dict[str, Any]) -> str:
    """A `belote-tournament/1` document as the file's text: a key a line, a list's items (an
    entrant, a round) a line each, each written compact. As readable as an indented file, and
    written by the json module's C encoder (an indented dump is pure Python: a 1,000-team
    concours of 20 rounds took most of a second)."""

    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = []
    for key, value in document.items():
        if isinstance(value, list) and value:
            items = ",\n".join(f"    {dump(item)}" for item in value)
            lines.append(f"  {dump(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {dump(key)}: {dump(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def file_name(tournament: Tournament, suffix: str) -> str:
    """A download's name from the concours's: ASCII letters, digits and dashes only (safe in a
    Content-Disposition header on every browser), e.g. "concours-de-la-saint-martin-2026-11-11"
    then `suffix` ("-standings.csv")."""
    ascii_name = unicodedata.normalize("NFKD", tournament.name).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:60].strip("-")
    if tournament.date:
        slug = f"{slug}-{tournament.date.isoformat()}" if slug else tournament.date.isoformat()
    return f"{slug or 'concours'}{suffix}"
