"""A club's exports (issue 16): the season ranking as CSV (formula-safe) and as a printable page;
the club archive (a zip of belote-tournament/1 files and a manifest) for organisers only, and its
restore: the round trip, nothing created on any error, bounded, 404 for anyone but an organiser.
And the stored final ranking: written on finish, on a finished import, again on a correction."""

import csv
import html
import io
import json
import zipfile
from collections.abc import Callable, Mapping
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scorekeeper.clubs import exports
from scorekeeper.clubs.models import Club, ClubOrganiser
from scorekeeper.concours import selectors, services
from scorekeeper.concours.models import Table, Tournament
from scorekeeper.web.spreadsheet import safe_cell
from tests.factories import ClubFactory, TournamentFactory

from ..concours.support import play_out
from .public_support import A, final, played, ranking_names, season

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------------------------
# CSV and print


def test_the_season_csv_is_formula_safe(client: Client, ann: User, club: Club) -> None:
    points = {"=HYPERLINK(1)": 900, "+33 6": 800, "-Moins": 700, "@SUM(A1)": 600}
    played(ann, club, "Octobre", date(2025, 10, 1), points)
    this = season(club, rank="teams")
    response = client.get(reverse("club_public:season_csv", args=[club.slug, this.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    body = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][:3] == ["Rank", "Name", "Score"]
    names = [row[1] for row in rows[1:]]
    assert names == ["'=HYPERLINK(1)", "'+33 6", "'-Moins", "'@SUM(A1)"]
    assert rows[1][2] == "900" and rows[1][4] == "1"  # numbers stay numbers
    # A tab or a carriage return first (a name never keeps one: the services fold spaces).
    assert safe_cell("\tx") == "'\tx" and safe_cell("\rx") == "'\rx"
    assert safe_cell(-5) == -5


def test_the_printable_page(client: Client, ann: User, club: Club) -> None:
    played(ann, club, "Octobre", date(2025, 10, 1), A)
    this = season(club, rank="teams", measure="placement")
    response = client.get(reverse("club_public:season_print", args=[club.slug, this.pk]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "clubs-public.css" in body and "club-print-table" in body
    assert (
        '<td class="club-print-rank">1</td><th scope="row">Rois</th><td data-label="Score">25</td>'
        in body
    )


# ---------------------------------------------------------------------------------------------
# The archive


def _login(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def test_the_archive_and_restore_are_for_organisers_only(
    client: Client, ann: User, club: Club, make_user: Callable[[str], User]
) -> None:
    played(ann, club, "Octobre", date(2025, 10, 1), A)
    count = Tournament.objects.count()
    archive = reverse("club_public:archive", args=[club.slug])
    restore = reverse("club_public:restore", args=[club.slug])
    other_club_organiser = make_user("carl")
    ClubFactory.create(organiser=other_club_organiser, name="Autre", town="Lyon")
    for who in (None, make_user("bob"), other_club_organiser):
        visitor = Client()
        if who is not None:
            visitor.force_login(who)
        assert visitor.get(archive).status_code == 404
        assert visitor.get(restore).status_code == 404
        upload = SimpleUploadedFile("a.zip", exports.archive_zip(club))
        assert visitor.post(restore, {"file": upload}).status_code == 404
    assert Tournament.objects.count() == count
    organiser = _login(client, ann)
    response = organiser.get(archive)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert organiser.get(restore).status_code == 200
    page = organiser.get(reverse("club_public:club", args=[club.slug])).content.decode()
    assert archive in page and restore in page


def test_the_archive_round_trip(client: Client, ann: User, club: Club) -> None:
    first = played(ann, club, "Octobre", date(2025, 10, 1), A, prizes={1: "Un jambon"})
    melee = played(
        ann, club, "Mêlée", date(2025, 11, 1), {"Ana": 500, "Bo": 400, "Cy": 300, "Di": 200},
        melee=True, published=False,
    )  # fmt: skip
    open_one = TournamentFactory.create(
        owner=ann,
        name="En cours",
        date=date(2025, 12, 1),
        teams=[(name, f"{name} 1", f"{name} 2") for name in A],
    )
    open_one.club, open_one.published = club, True
    open_one.save()
    data = _login(client, ann).get(reverse("club_public:archive", args=[club.slug])).content
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        assert manifest["format"] == "belote-club-archive/2"  # issue 22: with seasons, people
        assert [e["name"] for e in manifest["concours"]] == ["Octobre", "Mêlée", "En cours"]
        document = json.loads(archive.read(manifest["concours"][0]["file"]))
        assert document["format"] == "belote-tournament/1"
    bob = ClubOrganiser.objects.get(club=club, user=ann).user
    other = ClubFactory.create(organiser=bob, name="Le club restauré", town="Caen")
    url = reverse("club_public:restore", args=[other.slug])
    response = client.post(url, {"file": SimpleUploadedFile("club.zip", data)})
    assert response.status_code == 302
    restored = {t.name: t for t in Tournament.objects.filter(club=other)}
    assert set(restored) == {"Octobre", "Mêlée", "En cours"}
    again = restored["Octobre"]
    assert again.status == Tournament.Status.FINISHED and again.published
    assert again.prizes == {"1": "Un jambon"} and again.date == date(2025, 10, 1)
    assert ranking_names(final(again)["rows"]) == ranking_names(final(first)["rows"])
    assert not restored["Mêlée"].published and restored["Mêlée"].melee
    assert ranking_names(final(restored["Mêlée"])["rows"]) == ranking_names(final(melee)["rows"])
    assert restored["En cours"].status != Tournament.Status.FINISHED
    assert restored["En cours"].entrants.count() == 4 and restored["En cours"].published
    # Its names are the club's people at once; restoring twice adds nothing.
    assert other.people.filter(kind="team", name="Rois").exists()
    count = Tournament.objects.count()
    response = client.post(url, {"file": SimpleUploadedFile("club.zip", data)}, follow=True)
    assert "3 skipped: the club already has them." in response.content.decode()
    assert Tournament.objects.count() == count


def _zip(files: Mapping[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def test_a_bad_archive_restores_nothing(client: Client, ann: User, club: Club) -> None:
    played(ann, club, "Octobre", date(2025, 10, 1), A)
    good = exports.archive_zip(club)
    with zipfile.ZipFile(io.BytesIO(good)) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        document = archive.read("concours/001.json")
    second = {**manifest["concours"][0], "file": "concours/002.json", "name": "Novembre"}
    broken = json.loads(document)
    broken["rounds"][0]["tables"][0]["sides"] = [[1], [1]]
    target = ClubFactory.create(organiser=ann, name="Vide", town="Caen")
    url = reverse("club_public:restore", args=[target.slug])
    cases = {
        "not a zip file": b"this is no zip",
        "manifest.json: this file is not in the zip": _zip({"x.json": "{}"}),
        'unsupported format: expected "belote-club-archive/2"': _zip(
            {"manifest.json": json.dumps({**manifest, "format": "other"})}
        ),
        "concours/002.json: this file is not in the zip": _zip(
            {
                "manifest.json": json.dumps(
                    {**manifest, "concours": [*manifest["concours"], second]}
                ),
                "concours/001.json": document,
            }
        ),
        "concours/002.json: rounds[0].tables[0]": _zip(
            {
                "manifest.json": json.dumps(
                    {**manifest, "concours": [*manifest["concours"], second]}
                ),
                "concours/001.json": document,
                "concours/002.json": json.dumps(broken),
            }
        ),
        "concours[0].date: not a date": _zip(
            {"manifest.json": json.dumps({**manifest, "concours": [{**second, "date": "mars"}]})}
        ),
    }
    client.force_login(ann)
    count = Tournament.objects.count()
    for words, data in cases.items():
        response = client.post(url, {"file": SimpleUploadedFile("a.zip", data)}, follow=True)
        page = html.unescape(response.content.decode())
        assert response.status_code == 200, words
        assert "Nothing was restored" in page and words in page, (words, page[-3000:])
        assert Tournament.objects.count() == count
        assert not target.tournaments.exists()


def test_the_manifest_s_names_places_and_prizes_are_read_like_the_desk_s(
    client: Client, ann: User, club: Club
) -> None:
    """A manifest's name, place or prize with a control character is refused in words and
    nothing is created (a NUL was stored as typed, and a 500 on PostgreSQL); their spaces are
    folded as the desk folds them, so a restored name matches the concours it skips."""
    played(ann, club, "Octobre", date(2025, 10, 1), A)
    good = exports.archive_zip(club)
    with zipfile.ZipFile(io.BytesIO(good)) as archive:
        manifest = json.loads(archive.read("manifest.json"))
        document = archive.read("concours/001.json")
    entry = manifest["concours"][0]
    target = ClubFactory.create(organiser=ann, name="Vide", town="Caen")
    url = reverse("club_public:restore", args=[target.slug])
    client.force_login(ann)

    def restore(**changed: object) -> str:
        data = _zip(
            {
                "manifest.json": json.dumps({**manifest, "concours": [{**entry, **changed}]}),
                "concours/001.json": document,
            }
        )
        response = client.post(url, {"file": SimpleUploadedFile("a.zip", data)}, follow=True)
        assert response.status_code == 200
        return html.unescape(response.content.decode())

    cases: dict[str, dict[str, object]] = {
        "manifest.json: concours[0].name: must not contain control characters (U+0000)": {
            "name": "Oct\x00obre"
        },
        "manifest.json: concours[0].name: must not contain control characters (U+0007)": {
            "name": "\x07"
        },
        "manifest.json: concours[0].place: must not contain control characters (U+0000)": {
            "place": "Salle\x00"
        },
        "manifest.json: concours[0].prizes[1]: must not contain control characters (U+0000)": {
            "prizes": {"1": "Un jambon\x00"}
        },
    }
    for words, changed in cases.items():
        page = restore(**changed)
        assert "Nothing was restored" in page and words in page, (words, page[-2000:])
        assert not target.tournaments.exists()
    page = restore(
        name="  Octobre  ", place=" Salle   des fêtes ", prizes={"1": "  ", "2": " Vin "}
    )
    assert "1 concours restored." in page
    again = target.tournaments.get()
    assert (again.name, again.place, again.prizes) == ("Octobre", "Salle des fêtes", {"2": "Vin"})
    assert "1 skipped: the club already has it." in restore(name=" Octobre")


def test_the_archive_is_bounded(ann: User, club: Club) -> None:
    too_many = {"manifest.json": "{}"} | {
        f"c/{n}.json": "{}" for n in range(exports.MAX_CONCOURS + 1)
    }
    with pytest.raises(exports.ArchiveError) as found:
        exports.restore_archive(club=club, owner=ann, data=_zip(too_many))
    assert found.value.code == "too_many_files"
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", "{}")
        archive.writestr("concours/001.json", b" " * (exports.MAX_FILE_BYTES + 1))
    manifest = {
        "format": exports.ARCHIVE_FORMAT,
        "concours": [{"file": "concours/001.json", "name": "Gros"}],
    }
    data = _zip({"manifest.json": json.dumps(manifest)})
    with zipfile.ZipFile(io.BytesIO(buffer.getvalue())) as source:
        big = source.read("concours/001.json")
    data = _zip({"manifest.json": json.dumps(manifest), "concours/001.json": big})
    with pytest.raises(exports.ArchiveError) as found:
        exports.restore_archive(club=club, owner=ann, data=data)
    assert found.value.code == "file_too_large"
    assert not Tournament.objects.filter(name="Gros").exists()


# ---------------------------------------------------------------------------------------------
# The stored final ranking


def test_the_final_ranking_is_stored_on_finish_and_after_a_correction(
    ann: User, club: Club
) -> None:
    tournament = played(ann, club, "Octobre", date(2025, 10, 1), A)
    stored = final(tournament)
    assert stored["version"] == tournament.version
    assert stored["rows"] == selectors.final_rows(tournament)
    assert ranking_names(stored["rows"]) == [(1, "Rois"), (2, "Dames"), (3, "Valets"), (4, "As")]
    assert stored["rows"][0]["players"] == ["Rois A", "Rois B"]
    table = Table.objects.get(round__tournament=tournament, places__entrant__name="As")
    places = {p.entrant.name: p.side or 0 for p in table.places.select_related("entrant")}
    totals = [0, 0]
    totals[places["As"]] = 1500
    totals[1 - places["As"]] = 100
    services.correct_result(table=table, totals=(totals[0], totals[1]))
    tournament.refresh_from_db()
    assert final(tournament)["version"] == tournament.version
    assert final(tournament)["rows"][0]["name"] == "As"


def test_a_finished_import_stores_its_final_ranking(ann: User, club: Club) -> None:
    tournament = played(ann, club, "Octobre", date(2025, 10, 1), A)
    document = json.dumps(selectors.export_document(tournament))
    again = services.import_tournament(owner=ann, text=document)
    assert again.status == Tournament.Status.FINISHED
    assert ranking_names(final(again)["rows"]) == ranking_names(final(tournament)["rows"])


def test_an_archive_with_too_many_deals_restores_nothing(
    client: Client, ann: User, club: Club, settings: Any
) -> None:
    tournament = TournamentFactory.create(
        owner=ann,
        name="Joué",
        overrides={"rounds": 1},
        date=date(2025, 10, 1),
        teams=[(name, f"{name} 1", f"{name} 2") for name in A],
    )
    round_ = services.draw_round(tournament=tournament)
    for table in round_.tables.all():
        play_out(table)
    tournament.club = club
    tournament.save()
    data = exports.archive_zip(club)
    settings.RESTORE_DEALS_PER_REQUEST = 10  # 2 tables of 12 deals
    target = ClubFactory.create(organiser=ann, name="Vide", town="Caen")
    client.force_login(ann)
    url = reverse("club_public:restore", args=[target.slug])
    response = client.post(url, {"file": SimpleUploadedFile("a.zip", data)}, follow=True)
    assert "The file holds 24 deals; one import takes 10 at most." in html.unescape(
        response.content.decode()
    )
    assert not target.tournaments.exists()


def test_the_archive_per_role(ann: User, club: Club, make_user: Callable[[str], User]) -> None:
    """Organiser: the archive and the restore page. A concours's co-organiser link, a table's
    link, the public link, the owner of a concours of the club who no longer organises it,
    another account, a stranger: 404 (the public pages stay open to all)."""
    from scorekeeper.clubs import services as club_services

    bob = make_user("bob")
    club_services.join(club=club, user=bob)
    tournament = played(bob, club, "Octobre", date(2025, 10, 1), A)
    club_services.leave(club=club, user=bob)
    table = Table.objects.filter(round__tournament=tournament).first()
    assert table is not None and table.token
    archive = reverse("club_public:archive", args=[club.slug])
    restore = reverse("club_public:restore", args=[club.slug])
    public = reverse("club_public:club", args=[club.slug])
    organiser = Client()
    organiser.force_login(ann)
    co_link, table_link, public_link, owner, other, stranger = (Client() for _ in range(6))
    co_link.get(reverse("concours:co", args=[tournament.co_token]))
    table_link.get(reverse("concours:table", args=[table.token]))
    public_link.get(reverse("concours_public:standings", args=[tournament.public_token]))
    owner.force_login(bob)
    other.force_login(make_user("carl"))
    assert organiser.get(archive).status_code == 200
    assert organiser.get(restore).status_code == 200
    for visitor in (co_link, table_link, public_link, owner, other, stranger):
        assert visitor.get(archive).status_code == 404
        assert visitor.get(restore).status_code == 404
        assert visitor.get(public).status_code == 200
