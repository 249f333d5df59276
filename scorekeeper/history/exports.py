"""CSV of deals and zip backups of match files, and restoring such a backup."""

import csv
import io
import json
import zipfile
import zlib
from collections.abc import Iterable, Iterator

from django.contrib.auth.models import User
from django.db.models import Prefetch, QuerySet

from scorekeeper.matches import services
from scorekeeper.matches.models import Deal, Match
from scorekeeper.scoring import InvalidInput, MatchFile, dump_match, load_match

CSV_COLUMNS = [
    "match", "date", "team1", "team2", "deal", "kind", "takers", "contract", "trump", "coinche",
    "taker_points", "capot", "generale", "belote1", "belote2", "announcements", "outcome",
    "score1", "score2", "total1", "total2", "reserve", "note",
]  # fmt: skip
MAX_FILES = 20_000  # a backup of every match of a busy club still restores
MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_TOTAL_BYTES = 200 * 1024 * 1024  # unzipped: a small zip must not fill the memory
# What a damaged or unusual zip raises when an entry is read (bad CRC, bad deflate data,
# encryption, an unknown compression method, a truncated file).
_BROKEN_ENTRY = (zipfile.BadZipFile, zlib.error, RuntimeError, NotImplementedError, EOFError)


class _Echo:
    def write(self, value: str) -> str:
        return value


def csv_rows(matches: Iterable[Match]) -> Iterator[str]:
    """One CSV line per deal of each match (streamed), the header first."""
    writer = csv.writer(_Echo())
    yield writer.writerow(CSV_COLUMNS)
    for match in matches:
        names = match.team_names
        for deal in match.deals.all():
            yield writer.writerow([_cell(value) for value in _deal_row(match, names, deal)])


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    """A text cell a spreadsheet would run as a formula (a team name "=HYPERLINK(...)", a note
    "@SUM(...)", "-x") gets a leading single quote, as OWASP advises against CSV injection, and
    is shown as typed. Numbers are written from ints, so they stay numbers, negative ones too."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _deal_row(match: Match, names: tuple[str, str], deal: Deal) -> list[object]:
    announcements = "; ".join(
        f"{names[team]}: {item['kind']} {item['high']}"
        for team, items in enumerate(deal.announcements or [])
        for item in items
    )
    return [
        match.view_token[:8],
        match.created_at.date().isoformat(),
        names[0],
        names[1],
        deal.number,
        deal.kind,
        names[deal.taker] if deal.taker is not None else "",
        deal.contract,
        deal.trump,
        deal.coinche if deal.kind == Deal.Kind.PLAYED else "",
        "" if deal.taker_points is None else deal.taker_points,
        names[deal.capot] if deal.capot is not None else "",
        "yes" if deal.generale else "",
        deal.belote0,
        deal.belote1,
        announcements,
        deal.outcome,
        deal.score0,
        deal.score1,
        deal.total0,
        deal.total1,
        deal.reserve_after,
        deal.note,
    ]


def with_deals(matches: QuerySet[Match]) -> QuerySet[Match]:
    """Matches with their players and deals in order, in two queries whatever their number."""
    return matches.select_related("seat0", "seat1", "seat2", "seat3").prefetch_related(
        Prefetch("deals", queryset=Deal.objects.order_by("seq"))
    )


def backup_zip(matches: Iterable[Match]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for match in matches:
            match_file = services.match_file_for(match, rows=list(match.deals.all()))
            name = f"{match.created_at:%Y-%m-%d}-{match.view_token[:8]}.json"
            archive.writestr(name, json.dumps(dump_match(match_file), ensure_ascii=False, indent=2))
    return buffer.getvalue()


def read_backup(data: bytes) -> list[MatchFile]:
    """Every match file of a zip, checked in full; InvalidInput names the file that is wrong."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise InvalidInput("", "not a zip file") from None
    entries = [e for e in archive.infolist() if not e.is_dir()]
    if not entries:
        raise InvalidInput("", "the zip holds no match file")
    if len(entries) > MAX_FILES:
        raise InvalidInput("", f"at most {MAX_FILES} files")
    if sum(e.file_size for e in entries) > MAX_TOTAL_BYTES:
        raise InvalidInput("", "the zip is too large once unzipped")
    parsed, unzipped = [], 0
    for entry in entries:
        if entry.file_size > MAX_FILE_BYTES:
            raise InvalidInput(entry.filename, "file too large")
        try:
            with archive.open(entry) as member:
                data = member.read(MAX_FILE_BYTES + 1)  # the declared size may lie
        except _BROKEN_ENTRY:
            raise InvalidInput(entry.filename, "damaged zip: this file cannot be read") from None
        unzipped += len(data)
        if len(data) > MAX_FILE_BYTES:
            raise InvalidInput(entry.filename, "file too large")
        if unzipped > MAX_TOTAL_BYTES:
            raise InvalidInput("", "the zip is too large once unzipped")
        try:
            parsed.append(services.check_importable(load_match(data)))
        except InvalidInput as error:
            where = f"{entry.filename}: {error.path}" if error.path else entry.filename
            raise InvalidInput(where, error.message) from None
    return parsed


def restore_backup(
    *, match_files: list[MatchFile], owner_key: str, owner: User | None = None
) -> list[Match]:
    """All the matches or none (import_matches is one transaction)."""
    return services.import_matches(match_files=match_files, owner_key=owner_key, owner=owner)
