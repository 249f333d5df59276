"""A club's archive written (issue 16; `archive_zip`, `belote-club-archive/2` since issue 22):
`concours/NNN.json` a concours (`concours.selectors.export_document`, each table with its deals or
its paper totals) and `manifest.json`: `format`; `club` (name, town, address); `concours`, one entry
a concours (its file, name, date, place, prizes, published, finished); `seasons` (name, first and
last day, rule as `season.rule_to_dict` writes it, published; a season's concours are those of its
dates); `people`, each team or player of the club (kind, the club's name for them, every spelling
that names them: the merges done); `merges`, the merge tool's log (kind, `kept`: the index in
`people` of the person kept or null when it was merged again since, both names, the merged person's
id and spellings, `by`: the organiser's username, `at`: ISO 8601). The club's organisers are
accounts, not in the archive: whoever restores is the organiser, others join by the invite link."""

from __future__ import annotations

import io
import json
import zipfile
from collections import defaultdict
from typing import Any

from scorekeeper.concours import selectors as tournament_selectors
from scorekeeper.concours.models import Tournament

from ..models import Alias, Club, MergeLog, Person, Season

ARCHIVE_FORMAT = "belote-club-archive/2"
FORMATS = ("belote-club-archive/1", ARCHIVE_FORMAT)  # /1: before issue 22 (concours only)
MANIFEST = "manifest.json"


def archive_zip(club: Club) -> bytes:
    """Everything the club's desk makes: every concours of the club (published or not), oldest
    first, and the manifest with the club, its seasons, its people and the merges' log."""
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
        people, merges = _people_and_merges(club)
        manifest = {
            "format": ARCHIVE_FORMAT,
            "club": {"name": club.name, "town": club.town, "slug": club.slug},
            "concours": entries,
            "seasons": [
                {
                    "name": season.name,
                    "start": season.start.isoformat(),
                    "end": season.end.isoformat(),
                    "rule": season.rule,
                    "published": season.published,
                }
                for season in Season.objects.filter(club=club).order_by("start", "name", "pk")
            ],
            "people": people,
            "merges": merges,
        }
        archive.writestr(MANIFEST, json.dumps(manifest, ensure_ascii=False, indent=1))
    return buffer.getvalue()


def _people_and_merges(club: Club) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The club's people with their spellings, and the merges' log (oldest first), its kept
    person as an index into the people. Three queries."""
    spellings: dict[int, list[str]] = defaultdict(list)
    for person, spelling in (
        Alias.objects.filter(club=club).order_by("spelling_key").values_list("person", "spelling")
    ):
        spellings[person].append(spelling)
    rows = Person.objects.filter(club=club).order_by("kind", "name", "pk")
    people = list(rows.values_list("pk", "kind", "name"))
    index = {pk: n for n, (pk, _kind, _name) in enumerate(people)}
    merges = [
        {
            "kind": log.kind,
            "kept": index.get(log.kept_id) if log.kept_id is not None else None,
            "kept_name": log.kept_name,
            "merged_id": log.merged_id,
            "merged_name": log.merged_name,
            "spellings": list(log.spellings) if isinstance(log.spellings, list) else [],
            "by": log.by.username if log.by else None,
            "at": log.at.isoformat(),
        }
        for log in MergeLog.objects.filter(club=club).select_related("by").order_by("at", "pk")
    ]
    return [
        {"kind": kind, "name": name, "spellings": spellings[pk]} for pk, kind, name in people
    ], merges
