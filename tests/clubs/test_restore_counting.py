"""Issue 23, "Counting": a club archive's restore counts what it will write (each manifest entry,
each deal) before writing anything. A manifest listing one file (or one concours) twice is
refused with its path, nothing written (an 18 KB zip listing one 6,000-deal concours 8 times
wrote 72,000 deals); the deals of the entries to restore are counted against
RESTORE_DEALS_PER_REQUEST, and against RESTORE_DEALS_PER_HOUR shared with the match backups."""

import html
import io
import json
import zipfile
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scorekeeper.clubs import exports
from scorekeeper.clubs.models import Club, Person
from scorekeeper.concours import services
from scorekeeper.concours.models import Tournament
from scorekeeper.matches.models import Deal, Match
from scorekeeper.web.models import RateLimit
from tests.factories import ClubFactory, TournamentFactory

from ..concours.support import play_out
from .public_support import A

pytestmark = pytest.mark.django_db


def scored(owner: User, club: Club, name: str, day: date) -> Tournament:
    """A concours of one round played on the phones: 2 tables of 12 deals."""
    tournament = TournamentFactory.create(
        owner=owner,
        name=name,
        overrides={"rounds": 1},
        date=day,
        teams=[(team, f"{team} 1", f"{team} 2") for team in A],
    )
    for table in services.draw_round(tournament=tournament).tables.all():
        play_out(table)
    tournament.club = club
    tournament.save()
    return tournament


def parts(data: bytes) -> tuple[dict[str, Any], dict[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    return json.loads(files.pop("manifest.json")), files


def rezip(manifest: dict[str, Any], files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", json.dumps(manifest))
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def restore(client: Client, club: Club, data: bytes) -> Any:
    url = reverse("club_public:restore", args=[club.slug])
    return client.post(url, {"file": SimpleUploadedFile("club.zip", data)}, follow=True)


def written() -> tuple[int, int, int]:
    return Tournament.objects.count(), Match.objects.count(), Deal.objects.count()


def test_a_file_listed_twice_is_refused_and_writes_nothing(
    client: Client, ann: User, club: Club
) -> None:
    """Before: each entry was imported (the file's deals counted once): 8 copies of a concours."""
    scored(ann, club, "Octobre", date(2025, 10, 1))
    manifest, files = parts(exports.archive_zip(club))
    first = manifest["concours"][0]
    manifest["concours"] = [first] + [
        {**first, "name": f"Copie {n}", "date": f"2025-11-0{n}"} for n in range(1, 8)
    ]
    target = ClubFactory.create(organiser=ann, name="Vide", town="Caen")
    before = written()
    client.force_login(ann)
    page = html.unescape(restore(client, target, rezip(manifest, files)).content.decode())
    assert (
        "Nothing was restored: manifest.json: concours[1].file: listed twice (first at "
        "concours[0])" in page
    )
    assert written() == before
    assert not target.tournaments.exists() and not Person.objects.filter(club=target).exists()
    assert not RateLimit.objects.filter(count__gt=0).exists()  # refused before counting


def test_a_concours_listed_twice_is_refused(client: Client, ann: User, club: Club) -> None:
    """Before: the second file of the same name and date was skipped unsaid."""
    scored(ann, club, "Octobre", date(2025, 10, 1))
    manifest, files = parts(exports.archive_zip(club))
    first = manifest["concours"][0]
    files["concours/002.json"] = files[first["file"]]
    manifest["concours"].append({**first, "file": "concours/002.json"})
    target = ClubFactory.create(organiser=ann, name="Vide", town="Caen")
    before = written()
    with pytest.raises(exports.ArchiveError) as found:
        exports.restore_archive(club=target, owner=ann, data=rezip(manifest, files))
    assert (found.value.path, found.value.code) == (
        "manifest.json: concours[1].name",
        "concours_twice",
    )
    assert written() == before
    client.force_login(ann)
    page = html.unescape(restore(client, target, rezip(manifest, files)).content.decode())
    assert (
        "manifest.json: concours[1].name: the same concours (name and date) is listed twice "
        "(first at concours[0])" in page
    )


def test_the_deals_of_each_entry_to_restore_are_counted(
    client: Client, ann: User, club: Club, settings: Any
) -> None:
    """Two concours of 24 deals: 48 to write, over 40 refused whole; one of them already in the
    club is skipped, not counted: 24 restore."""
    scored(ann, club, "Octobre", date(2025, 10, 1))
    scored(ann, club, "Novembre", date(2025, 11, 1))
    data = exports.archive_zip(club)
    settings.RESTORE_DEALS_PER_REQUEST = 40
    target = ClubFactory.create(organiser=ann, name="Vide", town="Caen")
    client.force_login(ann)
    before = written()
    page = html.unescape(restore(client, target, data).content.decode())
    assert "The file holds 48 deals; one import takes 40 at most." in page
    assert written() == before
    scored(ann, target, "Octobre", date(2025, 10, 1))
    page = restore(client, target, data).content.decode()
    assert "1 concours restored. 1 skipped: the club already has it." in page
    assert target.tournaments.filter(name="Novembre").exists()


def test_the_hourly_deals_are_shared_with_the_match_backups(
    client: Client, ann: User, club: Club, settings: Any
) -> None:
    """A club archive's deals count against RESTORE_DEALS_PER_HOUR with the match backups' (one
    budget an account): before, the club restore had no hourly limit at all."""
    scored(ann, club, "Octobre", date(2025, 10, 1))
    data = exports.archive_zip(club)
    settings.RESTORE_DEALS_PER_HOUR = 30
    client.force_login(ann)
    backup = io.BytesIO()
    with zipfile.ZipFile(backup, "w") as archive:
        match = {
            "format": "belote-match/1",
            "rules": {"preset": "coinche", "target": 100_000},
            "teams": [{"name": "Nous"}, {"name": "Eux"}],
            "deals": [{"taker": 0, "contract": 80, "trump": "hearts", "taker_points": 100}] * 10,
        }
        archive.writestr("m.json", json.dumps(match))
    file = SimpleUploadedFile("backup.zip", backup.getvalue())
    assert "1 match restored." in client.post("/history/restore/", {"file": file}, follow=True).text
    target = ClubFactory.create(organiser=ann, name="Vide", town="Caen")
    before = written()
    refused = restore(client, target, data)
    page = html.unescape(refused.content.decode())
    assert "Nothing was restored: your account may restore 30 deals an hour." in page
    assert "Wait 60 minutes, then try again." in page
    assert refused.status_code == 429 and 3540 <= int(refused["Retry-After"]) <= 3600
    assert written() == before
    # Within the hour's budget it restores, and counts: a backup after it is refused.
    settings.RESTORE_DEALS_PER_HOUR = 40
    assert "1 concours restored." in restore(client, target, data).content.decode()
    assert RateLimit.objects.get(key=f"restore:user:{ann.pk}").count == 34
    file = SimpleUploadedFile("backup.zip", backup.getvalue())
    again = client.post("/history/restore/", {"file": file})
    assert again.status_code == 429 and 3540 <= int(again["Retry-After"]) <= 3600
