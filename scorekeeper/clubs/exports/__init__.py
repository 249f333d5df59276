"""A club's exports (issue 16): a season's ranking as CSV, and the club's archive, a zip of
everything its desk makes, restorable.

One module each: `ranking` (the season's CSV), `archive` (writing the archive: its format
below), `restore` (reading it back into a club). Callers import this package
(`from scorekeeper.clubs import exports`): every public name is here."""

from .archive import ARCHIVE_FORMAT, FORMATS, MANIFEST, archive_zip
from .ranking import season_csv
from .restore import (
    HOUR,
    KINDS,
    MAX_CONCOURS,
    MAX_FILE_BYTES,
    MAX_MERGES,
    MAX_PEOPLE,
    MAX_SPELLINGS,
    MAX_TEXT,
    MAX_TOTAL_BYTES,
    MAX_USERNAME,
    ArchiveError,
    Entry,
    FileRefused,
    HourlyLimit,
    Manifest,
    MergeEntry,
    PersonEntry,
    Planned,
    Progress,
    RestorePlan,
    RestoreResult,
    SeasonEntry,
    admit_archive,
    charge_deals,
    read_archive,
    restore_archive,
    write_archive,
)

__all__ = [
    "ARCHIVE_FORMAT",
    "FORMATS",
    "HOUR",
    "KINDS",
    "MANIFEST",
    "MAX_CONCOURS",
    "MAX_FILE_BYTES",
    "MAX_MERGES",
    "MAX_PEOPLE",
    "MAX_SPELLINGS",
    "MAX_TEXT",
    "MAX_TOTAL_BYTES",
    "MAX_USERNAME",
    "ArchiveError",
    "Entry",
    "FileRefused",
    "HourlyLimit",
    "Manifest",
    "MergeEntry",
    "PersonEntry",
    "Planned",
    "Progress",
    "RestorePlan",
    "RestoreResult",
    "SeasonEntry",
    "admit_archive",
    "archive_zip",
    "charge_deals",
    "read_archive",
    "restore_archive",
    "season_csv",
    "write_archive",
]
