"""CSV of deals and zip backups of match files, and restoring such a backup."""

import csv
import io
import json
import zipfile
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Prefetch

from scorekeeper.engine.scoring import InvalidInput, decode_json, dump_match, load_scored_match
from scorekeeper.engine.scoring.errors import printable
from scorekeeper.jobs.services import Progress
from scorekeeper.matches import services
from scorekeeper.matches.models import Deal, Match, MatchQuerySet
from scorekeeper.web import throttle
from scorekeeper.web.spreadsheet import Echo, safe_cell

CSV_COLUMNS = [
    "match", "date", "team1", "team2", "deal", "kind", "takers", "contract", "trump", "coinche",
    "taker_points", "capot", "generale", "belote1", "belote2", "announcements", "outcome",
    "score1", "score2", "total1", "total2", "reserve", "note",
]  # fmt: skip
MAX_FILES = 20_000  # a backup of every match of a busy club still restores
MAX_TOTAL_BYTES = 200 * 1024 * 1024  # unzipped: a small zip must not fill the memory
MAX_NAME = 200  # characters of a file's name shown in the result
HOUR = 3600  # the window of RESTORE_DEALS_PER_HOUR
# What a damaged or unusual zip raises when an entry is read (bad CRC, bad deflate data,
# encryption, an unknown compression method, a truncated file).
_BROKEN_ENTRY = (zipfile.BadZipFile, zlib.error, RuntimeError, NotImplementedError, EOFError)


def csv_rows(matches: Iterable[Match]) -> Iterator[str]:
    """One CSV line per deal of each match (streamed), the header first."""
    writer = csv.writer(Echo())
    yield writer.writerow(CSV_COLUMNS)
    for match in matches:
        names = match.team_names
        for deal in match.deals.all():
            yield writer.writerow([safe_cell(value) for value in _deal_row(match, names, deal)])


def _deal_row(match: Match, names: tuple[str, str], deal: Deal) -> list[object]:
    announcements = "; ".join(  # a top card not said (issue 22) is not written
        f"{names[team]}: {item['kind']}"
        + (f" {item['high']}" if item.get("high_said", True) else "")
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


def with_deals(matches: MatchQuerySet) -> MatchQuerySet:
    """Matches with their players and deals in order, in three queries whatever their number."""
    return matches.with_players().prefetch_related(
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


class TooManyDeals(Exception):
    """The backup holds more deals than one restore takes (RESTORE_DEALS_PER_REQUEST)."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"more than {limit} deals")
        self.limit = limit


class HourlyLimit(Exception):
    """The account restored RESTORE_DEALS_PER_HOUR deals within the hour: wait `seconds`."""

    def __init__(self, limit: int, seconds: int) -> None:
        super().__init__(f"{limit} deals an hour: wait {seconds} s")
        self.limit = limit
        self.seconds = seconds


@dataclass(frozen=True)
class Restored:
    name: str  # the file's name in the zip
    match: Match


@dataclass(frozen=True)
class RefusedFile:
    """A file of the zip not restored, and why (a name ending in Refused is an exception)."""

    name: str
    error: InvalidInput


@dataclass
class RestoreResult:
    restored: list[Restored] = field(default_factory=list)
    refused: list[RefusedFile] = field(default_factory=list)


def restore_backup(*, data: bytes, owner_key: str, owner: User) -> RestoreResult:
    """Restore every valid match file of a zip for this account: `admit_backup`, then
    `write_backup` (the pages do the first in the request and the second in a job)."""
    admit_backup(data=data, owner=owner)
    return write_backup(data=data, owner_key=owner_key, owner=owner)


def admit_backup(*, data: bytes, owner: User) -> int:
    """Whether this zip may be restored, read quickly (JSON only, no scoring), and its deals
    counted against the account's hour; the number of deals.

    Refused whole, nothing written: InvalidInput for a zip that cannot be read as a backup,
    TooManyDeals over RESTORE_DEALS_PER_REQUEST deals, HourlyLimit when the account's deals of the
    hour would go over RESTORE_DEALS_PER_HOUR (the deals the zip holds are counted, restored or
    not: reading them is the work)."""
    archive, entries = _open(data)
    key, per_hour = f"restore:user:{owner.pk}", settings.RESTORE_DEALS_PER_HOUR
    if (wait := throttle.hit(key=key, limit=per_hour, window=HOUR, cost=0)) is not None:
        raise HourlyLimit(per_hour, wait)
    deals = _count_deals(archive, entries, settings.RESTORE_DEALS_PER_REQUEST)
    if (wait := throttle.hit(key=key, limit=per_hour, window=HOUR, cost=deals)) is not None:
        raise HourlyLimit(per_hour, wait)
    return deals


def write_backup(
    *, data: bytes, owner_key: str, owner: User, progress: Progress | None = None
) -> RestoreResult:
    """Restore the valid match files of an admitted zip (`admit_backup`), one short transaction
    per match (a phone saving a deal meanwhile waits for one match's write at most, never for the
    whole backup); an invalid file is left out and reported with its reason. `progress` (a job's)
    counts the files, and stops the restore past the job's time limit (the matches restored
    until then stay)."""
    archive, entries = _open(data)
    if progress is not None:
        progress.set_total(len(entries))
    result = RestoreResult()
    for entry in entries:
        name = printable(entry.filename)[:MAX_NAME]
        try:
            match_file, scored = load_scored_match(_read(archive, entry))
            services.check_importable(match_file)
        except InvalidInput as error:
            result.refused.append(RefusedFile(name, error))
        else:
            [match] = services.import_matches(
                match_files=[match_file], results=[scored], owner_key=owner_key, owner=owner
            )
            result.restored.append(Restored(name, match))
        if progress is not None:
            progress.advance()
    return result


def _open(data: bytes) -> tuple[zipfile.ZipFile, list[zipfile.ZipInfo]]:
    """The zip's files, or InvalidInput if it is no backup at all."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, EOFError, OSError, NotImplementedError):
        # ValueError: e.g. a name flagged as UTF-8 that is not; OSError: offsets out of the data.
        raise InvalidInput("", "not_zip") from None
    entries = [e for e in archive.infolist() if not e.is_dir()]
    if not entries:
        raise InvalidInput("", "zip_empty")
    if len(entries) > MAX_FILES:
        raise InvalidInput("", "too_many_files", max=MAX_FILES)
    if sum(e.file_size for e in entries) > MAX_TOTAL_BYTES:
        raise InvalidInput("", "zip_too_large")
    return archive, entries


def _read(archive: zipfile.ZipFile, entry: zipfile.ZipInfo) -> bytes:
    if entry.file_size > settings.MATCH_FILE_MAX_BYTES:
        raise InvalidInput("", "file_too_large")
    try:
        with archive.open(entry) as member:
            data = member.read(settings.MATCH_FILE_MAX_BYTES + 1)  # the declared size may lie
    except _BROKEN_ENTRY:
        raise InvalidInput("", "zip_damaged") from None
    if len(data) > settings.MATCH_FILE_MAX_BYTES:
        raise InvalidInput("", "file_too_large")
    return data


def _count_deals(archive: zipfile.ZipFile, entries: list[zipfile.ZipInfo], limit: int) -> int:
    """The deals the zip's files hold (a quick first reading: JSON only, no scoring), or
    TooManyDeals as soon as they are more than `limit`."""
    deals = unzipped = 0
    for entry in entries:
        try:
            data = _read(archive, entry)
            document = decode_json(data)
        except InvalidInput:
            continue  # the second reading reports it
        unzipped += len(data)
        if unzipped > MAX_TOTAL_BYTES:
            raise InvalidInput("", "zip_too_large")
        if isinstance(document, dict) and isinstance(document.get("deals"), list):
            deals += len(document["deals"])
        if deals > limit:
            raise TooManyDeals(limit)
    return deals
