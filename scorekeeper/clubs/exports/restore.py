"""A club's archive restored (`restore_archive`; a `belote-club-archive/1` file of before issue 22,
concours only, too): every concours of the manifest recreated under the club by
`concours.services.import_tournament` (owner: the organiser restoring), then its place, prizes and
publication set, and finished again when it was (its final ranking stored); its names become the
club's people (`services.record_people`). Then the people: each spelling of an archived person names
it (an alias of the club moved to it, or made), under the archived name; a person of the club left
without a spelling is deleted, as a merge deletes it. Then the seasons and the merge log (its `by`
an organiser of this club of that username, else nobody). Into a fresh club (nothing in it yet) the
club's name and town are the archive's; otherwise the club keeps its own. A concours the club
already has (same name and date) is skipped, as a season (same name and days) and a logged merge
(same kind, names and time), so restoring twice adds nothing. One transaction: any error (a bad zip,
a manifest or file refused by the engine, a limit: MAX_CONCOURS files, MAX_FILE_BYTES a file,
MAX_TOTAL_BYTES unzipped, RESTORE_DEALS_PER_REQUEST deals) and nothing is created; the error names
the file and the place in it (`concours/003.json: rounds[1]...`, `manifest.json:
seasons[0].rule.table[2]`)."""

from __future__ import annotations

import io
import json
import zipfile
import zlib
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from scorekeeper.concours import services as tournament_services
from scorekeeper.concours.models import Tournament
from scorekeeper.engine.season import rule_from_dict, rule_to_dict
from scorekeeper.engine.tournament import TournamentError
from scorekeeper.engine.tournament.readers import (
    join,
    read_choice,
    read_int,
    read_list,
    read_name,
    read_object,
    read_text,
)
from scorekeeper.web import throttle

from ..models import NAME_MAX, Alias, Club, MergeLog, Person, Season, spelling_key
from ..services import MAX_CLUB_NAME, MAX_SEASON_NAME, MAX_SEASONS, MAX_TOWN, record_people
from .archive import ARCHIVE_FORMAT, FORMATS, MANIFEST

MAX_CONCOURS = 500  # concours in one archive (a club's concours every month for 40 years)
MAX_FILE_BYTES = 8 * 1024 * 1024  # one concours file, unzipped (150 teams × 5 rounds ≈ 1 MB)
MAX_TOTAL_BYTES = 200 * 1024 * 1024  # the whole archive, unzipped
MAX_TEXT = 200
MAX_PEOPLE = 100_000  # people of one archive (a big club has a few thousand)
MAX_SPELLINGS = 1_000  # spellings of one person
MAX_MERGES = 100_000
MAX_USERNAME = 150
KINDS = ("team", "player")
HOUR = 3600  # the window of RESTORE_DEALS_PER_HOUR
Progress = Callable[[int, int], object]  # (done, total)
_BROKEN = (zipfile.BadZipFile, zlib.error, RuntimeError, NotImplementedError, EOFError, OSError)


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
class SeasonEntry:
    name: str
    start: date
    end: date
    rule: dict[str, object]
    published: bool


@dataclass(frozen=True)
class PersonEntry:
    kind: str
    name: str
    spellings: tuple[str, ...]  # the name's own spelling among them


@dataclass(frozen=True)
class MergeEntry:
    kind: str
    kept: int | None  # an index into the manifest's people
    kept_name: str
    merged_id: int
    merged_name: str
    spellings: tuple[str, ...]
    by: str | None  # a username
    at: datetime


@dataclass(frozen=True)
class Manifest:
    club_name: str
    club_town: str
    concours: list[Entry]
    seasons: list[SeasonEntry] = field(default_factory=list)
    people: list[PersonEntry] = field(default_factory=list)
    merges: list[MergeEntry] = field(default_factory=list)


@dataclass(frozen=True)
class RestoreResult:
    restored: list[Tournament]
    skipped: list[str]  # names of concours the club already had
    seasons: int = 0  # seasons created
    merges: int = 0  # merges logged


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
    "" when blank, refused as the desk's forms refuse it (the one rule of every text,
    engine/scoring/free_text.py: a control character, a direction control, a broken character, only
    invisible characters)."""
    return read_text(" ".join(_text(value, path, most).split()), path, most)


def _name(value: object, path: str, most: int) -> str:
    """A name that must show something, read as `_words` reads it."""
    return read_name(" ".join(_text(value, path, most).split()), path, most)


def _day(value: object, path: str) -> date:
    try:
        return date.fromisoformat(_text(value, path, 10))
    except ValueError:
        raise ArchiveError(path, "bad_date") from None  # words: clubs/words.py


def _manifest(data: object) -> Manifest:
    """The manifest read and checked whole: TournamentError at the path of what is wrong."""
    manifest = read_object(data, "", ("format", "club", "concours", "seasons", "people", "merges"))
    if manifest.get("format") not in FORMATS:
        raise ArchiveError("format", "unsupported_format", expected=ARCHIVE_FORMAT)
    club = read_object(manifest.get("club") or {}, "club", ("name", "town", "slug"))
    people = _people(manifest.get("people", []))
    return Manifest(
        club_name=_words(club.get("name", ""), "club.name", MAX_CLUB_NAME),
        club_town=_words(club.get("town", ""), "club.town", MAX_TOWN),
        concours=_entries(manifest),
        seasons=_seasons(manifest.get("seasons", [])),
        people=people,
        merges=_merges(manifest.get("merges", []), people),
    )


def _entries(manifest: Any) -> list[Entry]:
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
        day = _day(when, f"{at}.date") if when is not None else None
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


def _seasons(value: object) -> list[SeasonEntry]:
    out = []
    keys = ("name", "start", "end", "rule", "published")
    for index, item in enumerate(read_list(value, "seasons", most=MAX_SEASONS)):
        at = f"seasons[{index}]"
        season = read_object(item, at, keys, required=("name", "start", "end"))
        start, end = _day(season["start"], f"{at}.start"), _day(season["end"], f"{at}.end")
        if start > end:
            raise ArchiveError(f"{at}.end", "season_dates")  # words: clubs/words.py
        try:
            rule = rule_to_dict(rule_from_dict(season.get("rule", {})))
        except TournamentError as error:
            raise ArchiveError(join(f"{at}.rule", error.path), error.code, **error.params) from None
        out.append(
            SeasonEntry(
                name=_name(season["name"], f"{at}.name", MAX_SEASON_NAME),
                start=start,
                end=end,
                rule=rule,
                published=season.get("published") is True,
            )
        )
    return out


def _spellings(value: object, path: str) -> list[tuple[str, str]]:
    """(spelling, its path) of a list of names."""
    items = read_list(value, path, most=MAX_SPELLINGS)
    return [(_name(item, f"{path}[{n}]", NAME_MAX), f"{path}[{n}]") for n, item in enumerate(items)]


def _people(value: object) -> list[PersonEntry]:
    """The archive's people: a spelling names one person of a kind (as in the club)."""
    out = []
    first: dict[tuple[str, str], str] = {}  # (kind, spelling key) -> where it was first met
    for index, item in enumerate(read_list(value, "people", most=MAX_PEOPLE)):
        at = f"people[{index}]"
        person = read_object(item, at, ("kind", "name", "spellings"), required=("kind", "name"))
        kind = read_choice(person["kind"], f"{at}.kind", KINDS)
        name = _name(person["name"], f"{at}.name", NAME_MAX)
        spellings = _spellings(person.get("spellings", []), f"{at}.spellings")
        if spelling_key(name) not in {spelling_key(s) for s, _ in spellings}:
            spellings.append((name, f"{at}.name"))
        for spelling, path in spellings:
            seen = first.setdefault((kind, spelling_key(spelling)), path)
            if seen != path:
                raise ArchiveError(path, "duplicate", value=spelling, first=seen)
        out.append(PersonEntry(kind, name, tuple(s for s, _ in spellings)))
    return out


def _merges(value: object, people: list[PersonEntry]) -> list[MergeEntry]:
    out = []
    keys = ("kind", "kept", "kept_name", "merged_id", "merged_name", "spellings", "by", "at")
    for index, item in enumerate(read_list(value, "merges", most=MAX_MERGES)):
        at = f"merges[{index}]"
        log = read_object(item, at, keys, required=("kind", "kept_name", "merged_name", "at"))
        kind = read_choice(log["kind"], f"{at}.kind", KINDS)
        kept = log.get("kept")
        if kept is not None:
            if not people:
                raise ArchiveError(f"{at}.kept", "no_people")  # words: clubs/words.py
            kept = read_int(kept, f"{at}.kept", 0, len(people) - 1)
            if people[kept].kind != kind:
                raise ArchiveError(f"{at}.kept", "merge_kinds")
        by = log.get("by")
        try:
            when = datetime.fromisoformat(_text(log["at"], f"{at}.at", 40))
        except ValueError:
            raise ArchiveError(f"{at}.at", "bad_time") from None  # words: clubs/words.py
        out.append(
            MergeEntry(
                kind=kind,
                kept=kept,
                kept_name=_name(log["kept_name"], f"{at}.kept_name", NAME_MAX),
                merged_id=read_int(log.get("merged_id", 0), f"{at}.merged_id", 0, 2**63 - 1),
                merged_name=_name(log["merged_name"], f"{at}.merged_name", NAME_MAX),
                spellings=tuple(
                    s for s, _ in _spellings(log.get("spellings", []), f"{at}.spellings")
                ),
                by=_text(by, f"{at}.by", MAX_USERNAME) if by is not None else None,
                at=when if when.tzinfo is not None else when.replace(tzinfo=UTC),
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
    """The deals a concours file holds (a quick count, before anything is read by the engine
    or created; a file the engine refuses is refused when prepared, and the engine's count is
    checked again then)."""
    try:
        data = json.loads(text)
        return sum(
            len(table.get("deals") or ())
            for round_ in data.get("rounds") or ()
            for table in round_.get("tables") or ()
        )
    except (ValueError, RecursionError, AttributeError, TypeError):
        return 0


class HourlyLimit(Exception):
    """The account restored RESTORE_DEALS_PER_HOUR deals within the hour (match backups and club
    archives together): wait `seconds`."""

    def __init__(self, limit: int, seconds: int) -> None:
        super().__init__(f"{limit} deals an hour: wait {seconds} s")
        self.limit = limit
        self.seconds = seconds


@dataclass(frozen=True)
class Planned:
    """A concours of the archive to restore: its manifest entry and its file, read and scored."""

    entry: Entry
    prepared: tournament_services.PreparedImport


@dataclass(frozen=True)
class RestorePlan:
    """An archive read, checked, counted and scored (`read_archive`), nothing written."""

    manifest: Manifest
    concours: list[Planned]
    skipped: list[str]  # names of concours the club already had
    deals: int  # what will be written: each entry's deals


def _read_manifest(archive: zipfile.ZipFile) -> Manifest:
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
        read = _manifest(manifest)
        _no_twice(read.concours)
    except TournamentError as error:
        raise ArchiveError(f"{MANIFEST}: {error.path}", error.code, **error.params) from None
    return read


def _no_twice(entries: list[Entry]) -> None:
    """A file is one concours and a concours (its name and date) is one file: a manifest listing
    either twice (which would write it twice, or skip it unseen) is refused at the second one."""
    files: dict[str, int] = {}
    concours: dict[tuple[str, date | None], int] = {}
    for index, entry in enumerate(entries):
        first = files.setdefault(entry.file, index)
        if first != index:
            raise ArchiveError(
                f"concours[{index}].file", "listed_twice", first=f"concours[{first}]"
            )
        if entry.name:
            first = concours.setdefault((entry.name, entry.date), index)
            if first != index:
                raise ArchiveError(
                    f"concours[{index}].name", "concours_twice", first=f"concours[{first}]"
                )


@dataclass(frozen=True)
class _Counted:
    manifest: Manifest
    todo: list[Entry]  # the entries to restore: those the club has not
    skipped: list[str]  # names of concours the club already had
    texts: dict[str, bytes]  # each file to restore
    deals: int  # what will be written: each entry's deals


def _count(club: Club, data: bytes) -> _Counted:
    """The zip and its manifest read (a file or a concours listed twice refused), the concours
    the club already has set aside, the deals of each entry to restore counted (JSON only, no
    scoring) and refused over RESTORE_DEALS_PER_REQUEST."""
    archive = _open(data)
    manifest = _read_manifest(archive)
    have = set(club.tournaments.values_list("name", "date"))
    todo = [entry for entry in manifest.concours if (entry.name, entry.date) not in have]
    skipped = [entry.name for entry in manifest.concours if (entry.name, entry.date) in have]
    texts = {entry.file: _read(archive, entry.file) for entry in todo}
    deals = sum(_deals(texts[entry.file]) for entry in todo)
    _check_deals(deals)
    return _Counted(manifest, todo, skipped, texts, deals)


def admit_archive(*, club: Club, owner: User, data: bytes) -> int:
    """Whether this archive may be restored, read quickly (the zip, the manifest, each entry's
    deals counted: no scoring, nothing written) and its deals charged to the account's
    RESTORE_DEALS_PER_HOUR, shared with the match backups; the number of deals. The restore
    page does it in the request, then starts the job (`read_archive(admitted=True)`,
    `write_archive`). ArchiveError, FileRefused or HourlyLimit."""
    deals = _count(club, data).deals
    if (wait := charge_deals(owner=owner, deals=deals)) is not None:
        raise HourlyLimit(settings.RESTORE_DEALS_PER_HOUR, wait)
    return deals


def read_archive(
    *,
    club: Club,
    owner: User,
    data: bytes,
    progress: Progress | None = None,
    admitted: bool = False,
) -> RestorePlan:
    """The archive read and checked whole before anything is written, outside any transaction:
    the zip, the manifest (a file or a concours listed twice refused), the concours the club
    already has set aside, the deals of what will be written counted (each entry: over
    RESTORE_DEALS_PER_REQUEST refused, then charged to the account's RESTORE_DEALS_PER_HOUR,
    unless `admitted` charged them already), then each concours read and scored by the engine
    (`progress(done, total)` after each). ArchiveError, FileRefused or HourlyLimit: nothing
    written (but the deals counted against the hour, as reading them is the work)."""
    counted = _count(club, data)
    deals, texts = counted.deals, counted.texts
    if not admitted and (wait := charge_deals(owner=owner, deals=deals)) is not None:
        raise HourlyLimit(settings.RESTORE_DEALS_PER_HOUR, wait)
    planned: list[Planned] = []
    exact = 0
    for done, entry in enumerate(counted.todo, start=1):
        try:
            prepared = tournament_services.prepare_import(texts.pop(entry.file))
        except TournamentError as error:
            raise ArchiveError(f"{entry.file}: {error.path}", error.code, **error.params) from None
        except tournament_services.Refused as refusal:
            raise FileRefused(entry.file, refusal) from None
        exact += prepared.deals
        _check_deals(max(exact, deals))  # the engine's count, should the quick one be short
        planned.append(Planned(entry, prepared))
        if progress is not None:
            progress(done, len(counted.todo))
    return RestorePlan(counted.manifest, planned, counted.skipped, deals)


def _check_deals(deals: int) -> None:
    if deals > settings.RESTORE_DEALS_PER_REQUEST:  # each deal is scored and stored again
        limit = settings.RESTORE_DEALS_PER_REQUEST
        raise FileRefused(
            "", tournament_services.Refused("too_many_deals", deals=deals, limit=limit)
        )


def charge_deals(*, owner: User, deals: int) -> int | None:
    """Count `deals` restored by `owner` this hour: None, or the seconds to wait (nothing
    counted). One budget with the match backups' restore (history.exports, same key)."""
    key, per_hour = f"restore:user:{owner.pk}", settings.RESTORE_DEALS_PER_HOUR
    return throttle.hit(key=key, limit=per_hour, window=HOUR, cost=deals)


@transaction.atomic
def write_archive(
    *, club: Club, owner: User, plan: RestorePlan, progress: Progress | None = None
) -> RestoreResult:
    """A read archive written under `club` in one transaction (see the module's docstring): a
    concours the club has by now (a restore meanwhile) is skipped. `progress(done, total)`
    after each concours. ArchiveError or FileRefused: nothing written."""
    club = Club.objects.select_for_update().get(pk=club.pk)
    fresh = not (
        club.tournaments.exists()
        or Season.objects.filter(club=club).exists()
        or Person.objects.filter(club=club).exists()
    )
    have = set(club.tournaments.values_list("name", "date"))
    restored, skipped = [], list(plan.skipped)
    for done, item in enumerate(plan.concours, start=1):
        entry = item.entry
        if (entry.name, entry.date) in have:
            skipped.append(entry.name)
            continue
        try:
            tournament = tournament_services.write_import(owner=owner, prepared=item.prepared)
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
        if progress is not None:
            progress(done, len(plan.concours))
    if restored:
        record_people(club=club, tournaments=[t.pk for t in restored])
    people = _restore_people(club, plan.manifest.people)
    seasons = _restore_seasons(club, plan.manifest.seasons)
    merges = _restore_merges(club, plan.manifest.merges, people)
    if fresh and plan.manifest.club_name:
        club.name, club.town = plan.manifest.club_name, plan.manifest.club_town
        club.save(update_fields=["name", "town"])
    return RestoreResult(restored, skipped, seasons, merges)


def restore_archive(
    *, club: Club, owner: User, data: bytes, progress: Progress | None = None
) -> RestoreResult:
    """The archive's concours, people, seasons and merges recreated under `club`: read,
    counted and scored first (`read_archive`, no transaction), then written in one
    (`write_archive`). ArchiveError, FileRefused (the engine's or the services' refusal under
    the file's name) or HourlyLimit: nothing created."""
    plan = read_archive(club=club, owner=owner, data=data, progress=progress)
    return write_archive(club=club, owner=owner, plan=plan)


def _restore_people(club: Club, people: list[PersonEntry]) -> list[int]:
    """Each archived person's spellings name one person of the club under the archived name:
    the one its name's spelling names already, else a new one; the club's aliases of those
    spellings are moved to it (or made, each spelled as archived), and a person left with no
    alias is deleted. The id of
    each archived person's person, in order. A fixed number of queries, plus one a person that
    gains spellings from another."""
    if not people:
        return []
    aliases = {
        (kind, key): (pk, person, spelling)
        for pk, kind, key, person, spelling in Alias.objects.filter(club=club).values_list(
            "pk", "kind", "spelling_key", "person_id", "spelling"
        )
    }
    names = dict(Person.objects.filter(club=club).values_list("pk", "name"))
    found = [aliases.get((entry.kind, spelling_key(entry.name))) for entry in people]
    made = iter(
        Person.objects.bulk_create(
            [
                Person(club=club, kind=entry.kind, name=entry.name)
                for entry, alias in zip(people, found, strict=True)
                if alias is None
            ]
        )
    )
    targets = [alias[1] if alias is not None else next(made).pk for alias in found]
    moves: dict[int, list[int]] = defaultdict(list)  # person -> aliases to move to it
    respelled: list[Alias] = []
    new: list[Alias] = []
    losers: set[int] = set()
    for entry, target in zip(people, targets, strict=True):
        for spelling in entry.spellings:
            key = spelling_key(spelling)
            alias = aliases.get((entry.kind, key))
            if alias is None:
                new.append(
                    Alias(
                        club=club,
                        kind=entry.kind,
                        person_id=target,
                        spelling_key=key,
                        spelling=spelling,
                    )
                )
                continue
            pk, person, written = alias
            if person != target:
                moves[target].append(pk)
                losers.add(person)
            if written != spelling:
                respelled.append(Alias(pk=pk, spelling=spelling))
    for target, moved in moves.items():
        Alias.objects.filter(pk__in=moved).update(person_id=target)
    Alias.objects.bulk_update(respelled, ["spelling"], batch_size=500)
    Alias.objects.bulk_create(new, batch_size=500)
    # A person of the club named by another spelling of its own (its name's key is the
    # archived name's: "ROIS" for "Rois") takes the archived one; a person the club had merged
    # under another name keeps it.
    renamed = [
        Person(pk=target, name=entry.name)
        for entry, target in zip(people, targets, strict=True)
        if target in names
        and names[target] != entry.name
        and spelling_key(names[target]) == spelling_key(entry.name)
    ]
    Person.objects.bulk_update(renamed, ["name"], batch_size=500)
    if losers:
        Person.objects.filter(club=club, pk__in=losers, aliases__isnull=True).delete()
    return targets


def _restore_seasons(club: Club, seasons: list[SeasonEntry]) -> int:
    """The archive's seasons the club has not (same name and days); how many were made."""
    have = set(Season.objects.filter(club=club).values_list("name", "start", "end"))
    new: dict[tuple[str, date, date], Season] = {}
    for entry in seasons:
        key = (entry.name, entry.start, entry.end)
        if key not in have and key not in new:
            new[key] = Season(
                club=club,
                name=entry.name,
                start=entry.start,
                end=entry.end,
                rule=entry.rule,
                published=entry.published,
            )
    if len(have) + len(new) > MAX_SEASONS:
        raise ArchiveError(f"{MANIFEST}: seasons", "too_many", max=MAX_SEASONS)
    Season.objects.bulk_create(new.values())
    return len(new)


def _restore_merges(club: Club, merges: list[MergeEntry], people: list[int]) -> int:
    """The merge log's entries the club has not (same kind, names and time), their kept person
    the restored one and their author the club's organiser of that username (else nobody)."""
    have = set(
        MergeLog.objects.filter(club=club).values_list("kind", "kept_name", "merged_name", "at")
    )
    organisers = dict(club.memberships.values_list("user__username", "user_id"))
    new: dict[tuple[str, str, str, datetime], MergeLog] = {}
    for entry in merges:
        key = (entry.kind, entry.kept_name, entry.merged_name, entry.at)
        if key in have or key in new:
            continue
        new[key] = MergeLog(
            club=club,
            kind=entry.kind,
            kept_id=people[entry.kept] if entry.kept is not None else None,
            kept_name=entry.kept_name,
            merged_id=entry.merged_id,
            merged_name=entry.merged_name,
            spellings=list(entry.spellings),
            by_id=organisers.get(entry.by) if entry.by is not None else None,
        )
    logs = MergeLog.objects.bulk_create(new.values())
    for log, when in zip(logs, [key[3] for key in new], strict=True):
        log.at = when  # the time of the merge, not of the restore (`at` is set on creation)
    MergeLog.objects.bulk_update(logs, ["at"], batch_size=500)
    return len(logs)
