"""A club's exports (issue 16): a season's ranking as CSV, and the club's archive, a zip of its
concours as `belote-tournament/1` files with a small manifest, restorable.

**The archive** (`archive_zip`): `manifest.json` (`format` "belote-club-archive/1", the club's
name, town and address, and one entry a concours: its file, name, date, place, prizes, published
and finished) and `concours/NNN.json` a concours (`tournaments.selectors.export_document`, each
table with its deals or its paper totals).

**Restore** (`restore_archive`): every concours of the manifest recreated under the club by
`tournaments.services.import_tournament` (owner: the organiser restoring), then its place,
prizes and publication set, and finished again when it was (its final ranking stored); its names
become the club's people (`services.record_people`). A concours
the club already has (same name and date) is skipped, so restoring twice adds nothing. One
transaction: any error (a bad zip, a manifest or file refused by the engine, a limit: MAX_CONCOURS
files, MAX_FILE_BYTES a file, MAX_TOTAL_BYTES unzipped, RESTORE_DEALS_PER_REQUEST deals) and
nothing is created; the error names the file and the place in it (`concours/003.json: rounds[1]...`)."""

from __future__ import annotations

import csv
import io
import json
import zipfile
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from scorekeeper.concours import TournamentError
from scorekeeper.concours.readers import read_name, read_object
from scorekeeper.spreadsheet import Echo, safe_cell
from scorekeeper.tournaments import selectors as tournament_selectors
from scorekeeper.tournaments import services as tournament_services
from scorekeeper.tournaments.models import Tournament

from .models import Club
from .public_selectors import SeasonPage
from .services import record_people

ARCHIVE_FORMAT = "belote-club-archive/1"
MANIFEST = "manifest.json"
MAX_CONCOURS = 500  # concours in one archive (a club's concours every month for 40 years)
MAX_FILE_BYTES = 8 * 1024 * 1024  # one concours file, unzipped (150 teams × 5 rounds ≈ 1 MB)
MAX_TOTAL_BYTES = 200 * 1024 * 1024  # the whole archive, unzipped
MAX_TEXT = 200
_BROKEN = (zipfile.BadZipFile, zlib.error, RuntimeError, NotImplementedError, EOFError, OSError)


# ---------------------------------------------------------------------------------------------
# CSV


def season_csv(page: SeasonPage, header: Sequence[str]) -> Iterator[str]:
    """The season's ranking, a line a row: rank, name, score, results counted, concours won,
    best place, played, podiums, average place (`header`: the column names in the page's
    language)."""
    writer = csv.writer(Echo())
    yield writer.writerow([safe_cell(str(name)) for name in header])
    for row in page.rows:
        yield writer.writerow(
            [
                safe_cell(value)
                for value in (
                    row.rank,
                    row.name,
                    row.score,
                    len(row.counted),
                    row.won,
                    row.best_place,
                    row.played,
                    row.podiums,
                    f"{row.average_place:.2f}",
                )
            ]
        )


# ---------------------------------------------------------------------------------------------
# The archive


def archive_zip(club: Club) -> bytes:
    """Every concours of the club (published or not), oldest first, with the manifest."""
    tournaments = list(club.tournaments.order_by("date", "created_at", "pk"))
    buffer = io.BytesIO()
    entries = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for number, tournament in enumerate(tournaments, start=1):
            name = f"concours/{number:03}.json"
            document = tournament_selectors.export_document(tournament)
            archive.writestr(name, json.dumps(document, ensure_ascii=False, indent=1))
            entries.append(
                {
                    "file": name,
                    "name": tournament.name,
                    "date": tournament.date.isoformat() if tournament.date else None,
                    "place": tournament.place,
                    "prizes": tournament.prizes,
                    "published": tournament.published,
                    "finished": tournament.status == Tournament.Status.FINISHED,
                }
            )
        manifest = {
            "format": ARCHIVE_FORMAT,
            "club": {"name": club.name, "town": club.town, "slug": club.slug},
            "concours": entries,
        }
        archive.writestr(MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1))
    return buffer.getvalue()


@dataclass(frozen=True)
class Entry:
    file: str
    name: str
    date: date | None
    place: str
    prizes: dict[str, str]
    published: bool
    finished: bool


@dataclass(frozen=True)
class RestoreResult:
    restored: list[Tournament]
    skipped: list[str]  # names of concours the club already had


class ArchiveError(TournamentError):
    """An archive refused whole: `path` starts with the file it is about."""


class FileRefused(Exception):
    """A concours of the archive the concours services refused (`refusal`, e.g. too many
    deals): the archive is refused whole."""

    def __init__(self, file: str, refusal: tournament_services.Refused) -> None:
        super().__init__(file, refusal.code)
        self.file = file
        self.refusal = refusal


def _text(value: object, path: str, most: int = MAX_TEXT) -> str:
    if not isinstance(value, str):
        raise ArchiveError(path, "not_string")
    if len(value) > most:
        raise ArchiveError(path, "too_long", max=most)
    return value


def _words(value: object, path: str, most: int = MAX_TEXT) -> str:
    """A name, place or prize of the manifest, stored as the desk stores it: its spaces folded,
    "" when blank, refused with a control character (a NUL that PostgreSQL refuses to store, a
    bell) as the engine refuses it in a name (`read_name`)."""
    text = " ".join(_text(value, path, most).split())
    return read_name(text, path, most) if text else ""


def _entries(data: object) -> list[Entry]:
    manifest = read_object(data, "", ("format", "club", "concours"))
    if manifest.get("format") != ARCHIVE_FORMAT:
        raise ArchiveError("format", "unsupported_format", expected=ARCHIVE_FORMAT)
    items = manifest.get("concours")
    if not isinstance(items, list):
        raise ArchiveError("concours", "not_list")
    if len(items) > MAX_CONCOURS:
        raise ArchiveError("concours", "too_many", max=MAX_CONCOURS)
    out = []
    keys = ("file", "name", "date", "place", "prizes", "published", "finished")
    for index, item in enumerate(items):
        at = f"concours[{index}]"
        entry = read_object(item, at, keys)
        when = entry.get("date")
        try:
            day = date.fromisoformat(_text(when, f"{at}.date", 10)) if when is not None else None
        except ValueError:
            raise ArchiveError(f"{at}.date", "bad_date") from None  # words: public_views
        prizes = entry.get("prizes") or {}
        if not isinstance(prizes, dict) or len(prizes) > MAX_CONCOURS:
            raise ArchiveError(f"{at}.prizes", "not_object")
        out.append(
            Entry(
                file=_text(entry.get("file"), f"{at}.file"),
                name=_words(entry.get("name", ""), f"{at}.name", 100),
                date=day,
                place=_words(entry.get("place", ""), f"{at}.place", 100),
                prizes={
                    _text(k, f"{at}.prizes", 4): _words(v, f"{at}.prizes[{k}]")
                    for k, v in prizes.items()
                },
                published=entry.get("published") is True,
                finished=entry.get("finished") is True,
            )
        )
    return out


def _open(data: bytes) -> zipfile.ZipFile:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, EOFError, OSError, NotImplementedError):
        raise ArchiveError("", "not_zip") from None
    infos = archive.infolist()
    if len(infos) > MAX_CONCOURS + 1:
        raise ArchiveError("", "too_many_files", max=MAX_CONCOURS + 1)
    if sum(info.file_size for info in infos) > MAX_TOTAL_BYTES:
        raise ArchiveError("", "zip_too_large")
    return archive


def _read(archive: zipfile.ZipFile, name: str) -> bytes:
    try:
        info = archive.getinfo(name)
    except KeyError:
        raise ArchiveError(name, "missing_file") from None
    if info.file_size > MAX_FILE_BYTES:
        raise ArchiveError(name, "file_too_large")
    try:
        with archive.open(info) as member:
            data = member.read(MAX_FILE_BYTES + 1)  # the declared size may lie
    except _BROKEN:
        raise ArchiveError(name, "zip_damaged") from None
    if len(data) > MAX_FILE_BYTES:
        raise ArchiveError(name, "file_too_large")
    return data


def _deals(text: bytes) -> int:
    """The deals a concours file holds (a quick count, before anything is created; a file the
    engine refuses is refused when imported)."""
    try:
        data = json.loads(text)
        return sum(
            len(table.get("deals") or ())
            for round_ in data.get("rounds") or ()
            for table in round_.get("tables") or ()
        )
    except (ValueError, RecursionError, AttributeError, TypeError):
        return 0


@transaction.atomic
def restore_archive(*, club: Club, owner: User, data: bytes) -> RestoreResult:
    """The archive's concours recreated under `club` (see the module's docstring). ArchiveError
    or the engine's TournamentError (its path under the file's name): nothing created."""
    archive = _open(data)
    text = _read(archive, MANIFEST)
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as error:
        raise ArchiveError(
            MANIFEST, "json_invalid", line=error.lineno, column=error.colno
        ) from None
    except (ValueError, RecursionError):  # not UTF-8, too deep
        raise ArchiveError(MANIFEST, "json_invalid", line=1, column=1) from None
    try:
        entries = _entries(manifest)
    except TournamentError as error:
        raise ArchiveError(f"{MANIFEST}: {error.path}", error.code, **error.params) from None
    have = set(club.tournaments.values_list("name", "date"))
    texts = {
        entry.file: _read(archive, entry.file)
        for entry in entries
        if (entry.name, entry.date) not in have
    }
    deals = sum(_deals(text) for text in texts.values())
    if deals > settings.RESTORE_DEALS_PER_REQUEST:  # each deal is scored and stored again
        limit = settings.RESTORE_DEALS_PER_REQUEST
        raise FileRefused(
            "", tournament_services.Refused("too_many_deals", deals=deals, limit=limit)
        )
    restored, skipped = [], []
    for entry in entries:
        if (entry.name, entry.date) in have:
            skipped.append(entry.name)
            continue
        text = texts[entry.file]
        try:
            tournament = tournament_services.import_tournament(owner=owner, text=text)
            tournament.name = entry.name or tournament.name or entry.file
            tournament.date = entry.date or tournament.date
            tournament.place = entry.place
            tournament.prizes = {k: v for k, v in entry.prizes.items() if k.isdecimal() and v}
            tournament.club = club
            tournament.published = entry.published
            tournament.save()
            if entry.finished and tournament.status != Tournament.Status.FINISHED:
                tournament_services.finish(tournament=tournament)
        except TournamentError as error:
            raise ArchiveError(f"{entry.file}: {error.path}", error.code, **error.params) from None
        except tournament_services.Refused as refusal:
            raise FileRefused(entry.file, refusal) from None
        have.add((entry.name, entry.date))
        restored.append(tournament)
    if restored:
        record_people(club=club, tournaments=[t.pk for t in restored])
    return RestoreResult(restored, skipped)
