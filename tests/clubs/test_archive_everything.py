"""Issue 22, the club archive: reached from the organiser's desk, it carries everything the desk
makes (the club's name and town, its concours, its seasons with their rules, its people with
their spellings, the merges and their log), and a restore brings all of it back: a club built
with every kind of thing, archived, the club deleted, restored into a fresh club, compared. An
archive made before (belote-club-archive/1: concours only) is still restored; a bad season,
person or merge is refused with its path and nothing is created."""

import html as entities
import io
import json
import zipfile
from collections.abc import Callable, Mapping
from datetime import date, datetime
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper.clubs import exports, public_selectors, services
from scorekeeper.clubs.models import Alias, Club, MergeLog, Person, Season
from scorekeeper.concours.models import Tournament
from tests.factories import ClubFactory, TournamentFactory

from .public_support import A, played, season

pytestmark = pytest.mark.django_db

MakeUser = Callable[[str], User]


def test_the_desk_offers_the_archive_and_its_restore(client: Client, make_user: MakeUser) -> None:
    ann = make_user("ann")
    club = ClubFactory.create(organiser=ann)
    client.force_login(ann)
    desk = client.get(reverse("clubs:desk", args=[club.pk])).content.decode()
    archive = reverse("club_public:archive", args=[club.slug])
    restore = reverse("club_public:restore", args=[club.slug])
    assert f'href="{archive}"' in desk and f'href="{restore}"' in desk
    assert "Download the club archive (.zip)" in desk
    # The restore page leads back to the desk.
    page = client.get(restore).content.decode()
    assert f'href="{reverse("clubs:desk", args=[club.pk])}"' in page
    client.cookies["django_language"] = "fr"
    desk = entities.unescape(client.get(reverse("clubs:desk", args=[club.pk])).content.decode())
    translation.activate("en")
    assert "Télécharger l’archive du club (.zip)" in desk and "Restaurer une archive" in desk


def merge(club: Club, kind: str, kept: str, other: str, user: User) -> None:
    services.merge_people(
        club=club,
        kept=Person.objects.get(club=club, kind=kind, name=kept),
        merged=Person.objects.get(club=club, kind=kind, name=other),
        user=user,
    )


def build(ann: User, bob: User) -> Club:
    """A club with everything its desk makes: a name and town changed, two organisers, concours
    finished, open, à la mêlée, published or not, with prizes and place, one removed from the
    club (its people stay), two seasons (published or not, two rules), three merges (one
    whose kept person was merged again later, so its log keeps no kept person)."""
    club = ClubFactory.create(organiser=ann, name="Belote Club de Rouen", town="Rouen")
    services.update_club(club=club, name="Le Club des As", town="Rouen-Nord")
    services.join(club=club, user=bob)
    october = played(ann, club, "Octobre", date(2025, 10, 1), A, prizes={1: "Un jambon"})
    october.place = "Salle des fêtes"
    october.save(update_fields=["place"])
    played(bob, club, "Novembre", date(2025, 11, 1), {"Les Rois": 900, "Dames": 800,
           "VALETS": 700, "As": 600}, players={"Les Rois": ("Rois A", "Zoe")})  # fmt: skip
    played(ann, club, "Mêlée", date(2025, 12, 1), {"Rois A": 500, "Dames B": 400, "Zoé": 300,
           "Cœur": 200}, melee=True, published=False)  # fmt: skip
    coming = TournamentFactory.create(
        owner=ann,
        name="En cours",
        date=date(2026, 1, 10),
        teams=[(name, f"{name} A", f"{name} B") for name in ("Rois", "Pique")],
        club=club,
    )
    services.publish(club=club, tournament=coming, published=True)
    gone = played(ann, club, "Retiré", date(2026, 2, 1), {"Fantômes": 900, "Rois": 100})
    services.detach(club=club, tournament=gone)
    merge(club, "team", "Rois", "Les Rois", ann)
    merge(club, "player", "Zoé", "Zoe", bob)
    merge(club, "team", "Valets", "As", ann)
    merge(club, "team", "Dames", "Valets", bob)  # the "As" merge's kept person is gone
    season(club, "2025-2026", rank="teams", measure="placement", best=2)
    season(club, "Hiver", date(2025, 11, 1), date(2026, 2, 28), published=False,
           measure="placement", table=[10, 5, 1], others=0)  # fmt: skip
    return club


def record(page: public_selectors.RecordPage | None) -> tuple[Any, ...]:
    if page is None:
        return ()
    results = tuple(
        (r.date, r.concours_name, r.place, r.points, r.field, r.team) for r in page.results
    )
    return (page.record.name, tuple(page.also), results)


def snapshot(club: Club) -> dict[str, Any]:
    """What the desk and the public pages show of a club, without ids."""
    club.refresh_from_db()

    def concours(t: Tournament) -> tuple[Any, ...]:
        rows = (t.final_standings or {}).get("rows", [])
        ranking = [(r["rank"], r["name"], r["points"], tuple(r.get("players") or ())) for r in rows]
        entrants = sorted(t.entrants.values_list("name", "player1", "player2"))
        return (t.name, t.date, t.place, t.prizes, t.published, t.status, t.melee,
                ranking, entrants)  # fmt: skip

    def log(m: MergeLog) -> tuple[Any, ...]:
        return (m.kind, m.kept.name if m.kept else None, m.kept_name, m.merged_id, m.merged_name,
                tuple(m.spellings), m.by.username if m.by else None, m.at)  # fmt: skip

    seasons = list(Season.objects.filter(club=club).order_by("start", "name"))
    people = Person.objects.filter(club=club).prefetch_related("aliases")
    return {
        "club": (club.name, club.town),
        "concours": sorted(concours(t) for t in club.tournaments.all()),
        "seasons": [(s.name, s.start, s.end, s.rule, s.published) for s in seasons],
        "people": sorted(
            (p.kind, p.name, tuple(sorted((a.spelling_key, a.spelling) for a in p.aliases.all())))
            for p in people
        ),
        "merges": sorted((log(m) for m in MergeLog.objects.filter(club=club)), key=repr),
        "rankings": [
            [
                (r.rank, r.name, r.score, r.played)
                for r in public_selectors.season_page(club, s).rows
            ]
            for s in seasons
        ],
        "records": sorted(
            ((p.kind, p.name, record(public_selectors.record_page(club, p))) for p in people),
            key=repr,
        ),
    }


def test_a_restore_brings_back_everything_the_desk_made(
    client: Client, make_user: MakeUser
) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    club = build(ann, bob)
    before = snapshot(club)
    assert len(before["merges"]) == 4 and len(before["seasons"]) == 2
    assert ("team", "Fantômes", (("fantômes", "Fantômes"),)) in before["people"]
    assert before["rankings"][0][0][1] == "Rois" and len(before["rankings"][1]) > 0
    client.force_login(ann)
    response = client.get(reverse("club_public:archive", args=[club.slug]))
    assert response.status_code == 200
    data = response.content
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        manifest = json.loads(archive.read("manifest.json"))
    assert manifest["format"] == "belote-club-archive/2"
    assert {"seasons", "people", "merges"} <= set(manifest)
    # A fresh start: the club and its concours are gone (another server, say).
    Tournament.objects.all().delete()
    club.delete()
    fresh = ClubFactory.create(organiser=ann, name="Nouveau", town="Caen")
    services.join(club=fresh, user=bob)
    restore = reverse("club_public:restore", args=[fresh.slug])
    response = client.post(restore, {"file": SimpleUploadedFile("club.zip", data)})
    assert response.status_code == 302  # to the restore's job page (issue 23), run at once
    page = entities.unescape(client.get(response["Location"]).content.decode())
    assert "4 concours restored." in page
    assert f'href="{reverse("clubs:desk", args=[fresh.pk])}"' in page
    after = snapshot(fresh)
    for key in before:
        assert after[key] == before[key], key
    # Twice: nothing more (its concours, seasons, people and merges are all there).
    counts = (Tournament.objects.count(), Season.objects.count(), Person.objects.count(),
              Alias.objects.count(), MergeLog.objects.count())  # fmt: skip
    response = client.post(restore, {"file": SimpleUploadedFile("club.zip", data)}, follow=True)
    assert "4 skipped: the club already has them." in response.content.decode()
    assert counts == (Tournament.objects.count(), Season.objects.count(), Person.objects.count(),
                      Alias.objects.count(), MergeLog.objects.count())  # fmt: skip
    assert snapshot(fresh) == after


def test_a_restore_into_a_club_with_its_own_things(client: Client, make_user: MakeUser) -> None:
    """Into a club that already has concours or people: the club keeps its name and town, the
    archive's merges join the club's people (its own spellings stay theirs), and a merge by
    someone who does not organise this club is logged without its author."""
    ann, bob = make_user("ann"), make_user("bob")
    club = build(ann, bob)
    data = exports.archive_zip(club)
    carl = make_user("carl")
    other = ClubFactory.create(organiser=carl, name="Autre club", town="Lyon")
    played(carl, other, "Chez Carl", date(2025, 9, 1), {"Les Rois": 900, "Trèfle": 800})
    exports.restore_archive(club=other, owner=carl, data=data)
    other.refresh_from_db()
    assert (other.name, other.town) == ("Autre club", "Lyon")
    rois = Person.objects.get(club=other, kind="team", name="Rois")
    assert sorted(rois.aliases.values_list("spelling", flat=True)) == ["Les Rois", "Rois"]
    assert Person.objects.filter(club=other, kind="team", name="Trèfle").exists()
    assert not Person.objects.filter(club=other, kind="team", name="Les Rois").exists()
    assert set(MergeLog.objects.filter(club=other).values_list("by__username", flat=True)) == {None}
    assert Season.objects.filter(club=other).count() == 2


def test_an_archive_from_before_is_restored(client: Client, make_user: MakeUser) -> None:
    """belote-club-archive/1 (before issue 22): a manifest of the club and its concours."""
    ann = make_user("ann")
    club = ClubFactory.create(organiser=ann)
    played(ann, club, "Octobre", date(2025, 10, 1), A, prizes={1: "Un jambon"})
    with zipfile.ZipFile(io.BytesIO(exports.archive_zip(club))) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        document = archive.read("concours/001.json")
    old = {
        "format": "belote-club-archive/1",
        "club": manifest["club"],
        "concours": manifest["concours"],
    }
    fresh = ClubFactory.create(organiser=ann, name="Nouveau", town="Caen")
    result = exports.restore_archive(club=fresh, owner=ann, data=_zip(
        {"manifest.json": json.dumps(old), "concours/001.json": document}
    ))  # fmt: skip
    assert [t.name for t in result.restored] == ["Octobre"]
    fresh.refresh_from_db()
    assert (fresh.name, fresh.town) == (club.name, club.town)
    assert Person.objects.filter(club=fresh, kind="team", name="Rois").exists()
    assert not Season.objects.filter(club=fresh).exists()


def _zip(files: Mapping[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def test_a_bad_season_person_or_merge_restores_nothing(client: Client, make_user: MakeUser) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    club = build(ann, bob)
    with zipfile.ZipFile(io.BytesIO(exports.archive_zip(club))) as archive:
        files = {name: archive.read(name) for name in archive.namelist()}
    manifest = json.loads(files["manifest.json"])
    first_season, first_person, first_merge = (
        manifest["seasons"][0], manifest["people"][0], manifest["merges"][0]
    )  # fmt: skip

    def changed(key: str, index: int, **fields: object) -> bytes:
        items = [dict(item) for item in manifest[key]]
        items[index] = {**items[index], **fields}
        return _zip({**files, "manifest.json": json.dumps({**manifest, key: items})})

    twice = manifest["people"][1]["spellings"][0]
    cases = {
        "manifest.json: seasons[0].rule.table[1]: must not be more than the points of the place "
        "before (10)": changed("seasons", 0, rule={**first_season["rule"], "table": [10, 20]}),
        "manifest.json: seasons[0].start: not a date (YYYY-MM-DD)": changed(
            "seasons", 0, start="septembre"
        ),
        "manifest.json: seasons[0].end: the season ends before it starts": changed(
            "seasons", 0, start="2026-01-01", end="2025-12-31"
        ),
        "manifest.json: seasons[0].name: must not be empty": changed("seasons", 0, name="  "),
        "manifest.json: seasons[0].colour: unknown key": changed("seasons", 0, colour="red"),
        "manifest.json: people[0].kind: must be one of team, player": changed(
            "people", 0, kind="dog"
        ),
        "manifest.json: people[0].name: must not contain control characters (U+0000)": changed(
            "people", 0, name="A\x00"
        ),
        f"manifest.json: people[1].spellings[0]: {twice} appears twice (first at "
        "people[0].spellings[0])": changed(
            "people", 0, kind=manifest["people"][1]["kind"], spellings=[twice]
        ),
        "manifest.json: people[0].spellings: must be a list": changed(
            "people", 0, spellings="Rois"
        ),
        "manifest.json: merges[0].kept: must be from 0 to": changed("merges", 0, kept=999),
        "manifest.json: merges[0].at: not a date and time": changed("merges", 0, at="hier"),
        "manifest.json: merges[0].kept: this person is not of the merge's kind": changed(
            "merges", 0, kind="player" if first_merge["kind"] == "team" else "team"
        ),
        "manifest.json: merges[0].kind: must be one of team, player": changed(
            "merges", 0, kind="dog"
        ),
    }
    assert first_person and first_merge
    target = ClubFactory.create(organiser=ann, name="Vide", town="Caen")
    client.force_login(ann)
    url = reverse("club_public:restore", args=[target.slug])
    for words, data in cases.items():
        response = client.post(url, {"file": SimpleUploadedFile("a.zip", data)}, follow=True)
        page = entities.unescape(response.content.decode())
        assert response.status_code == 200, words
        assert "Nothing was restored" in page and words in page, (words, page[-3000:])
        assert not target.tournaments.exists() and not target.seasons.exists()
        assert not target.people.exists() and not target.merges.exists()
        target.refresh_from_db()
        assert (target.name, target.town) == ("Vide", "Caen")


def test_merge_times_are_kept(make_user: MakeUser) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    club = build(ann, bob)
    when = datetime.fromisoformat("2024-05-06T07:08:09+00:00")
    MergeLog.objects.filter(club=club).update(at=when)
    data = exports.archive_zip(club)
    fresh = ClubFactory.create(organiser=ann, name="Nouveau", town="Caen")
    exports.restore_archive(club=fresh, owner=ann, data=data)
    assert set(MergeLog.objects.filter(club=fresh).values_list("at", flat=True)) == {when}
