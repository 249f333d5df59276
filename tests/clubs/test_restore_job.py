"""Issue 23: the club archive's restore runs as a background job (clubs/jobs.py). The POST checks
the upload (size, a zip) and starts it; the job's page shows its progress (a step a concours
read and scored, a step a concours written), then the old result message's counts with links to
the club and each restored concours, or the refusal with its path, in the page's language. One
job at a time: a second POST while one runs starts nothing."""

import html
import json
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scorekeeper.clubs import exports
from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club
from scorekeeper.concours.models import Tournament
from scorekeeper.jobs.models import Job
from scorekeeper.jobs.services import run_job
from tests.factories import ClubFactory

from .public_support import A, B, played
from .test_restore_counting import parts, rezip

pytestmark = pytest.mark.django_db


def post(client: Client, club: Club, data: bytes, **extra: Any) -> Any:
    url = reverse("club_public:restore", args=[club.slug])
    return client.post(url, {"file": SimpleUploadedFile("club.zip", data)}, **extra)


def test_the_restore_runs_as_a_job_and_its_page_links_what_it_restored(
    client: Client, ann: User, club: Club
) -> None:
    played(ann, club, "Octobre", date(2025, 10, 1), A)
    played(ann, club, "Novembre", date(2025, 11, 1), B)
    data = exports.archive_zip(club)
    target = ClubFactory.create(organiser=ann, name="Vide", town="Caen")
    client.force_login(ann)
    response = post(client, target, data)
    job = Job.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("jobs:job", args=[job.pk])
    assert (job.kind, job.owner, job.state) == ("club_restore", ann, "done")
    assert (job.done, job.total) == (4, 4)  # 2 concours read and scored, 2 written
    assert job.data is None  # the upload is deleted with the job's end
    page = html.unescape(client.get(response["Location"]).content.decode())
    assert "2 concours restored." in page
    restored = {t.name: t.pk for t in target.tournaments.all()}
    assert set(restored) == {"Octobre", "Novembre"}
    for name, pk in restored.items():
        assert f'href="{reverse("concours:desk", args=[pk])}">{name}</a>' in page
    target.refresh_from_db()  # a fresh club takes the archive's name
    assert f'href="{reverse("clubs:desk", args=[target.pk])}">{target.name}</a>' in page
    # In French, the same result.
    french = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "2 concours restaurés." in html.unescape(french)


def test_a_refusal_is_shown_with_its_path_in_the_page_s_language(
    client: Client, ann: User, club: Club
) -> None:
    """What the engine finds in a concours file (the job reads it) is said on the job's page,
    with the file and the place in it; nothing is written."""
    played(ann, club, "Octobre", date(2025, 10, 1), A)
    manifest, files = parts(exports.archive_zip(club))
    broken = json.loads(files["concours/001.json"])
    broken["rounds"][0]["tables"][0]["sides"] = [[1], [1]]
    files["concours/001.json"] = json.dumps(broken).encode()
    target = ClubFactory.create(organiser=ann, name="Vide", town="Caen")
    client.force_login(ann)
    response = post(client, target, rezip(manifest, files))
    job = Job.objects.get()
    refused = job.result["refused"]
    assert (refused["kind"], refused["path"]) == (
        "archive",
        "concours/001.json: rounds[0].tables[0].sides[0]",
    )
    page = html.unescape(client.get(response["Location"]).content.decode())
    assert "Nothing was restored: concours/001.json: rounds[0].tables[0].sides[0]: " in page
    assert f'href="{reverse("club_public:restore", args=[target.slug])}"' in page
    french = client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "restauré\u00a0: concours/001.json: rounds[0].tables[0].sides[0]\u00a0: " in (
        html.unescape(french)
    )
    assert not target.tournaments.exists()


def test_the_manifest_and_the_limits_are_checked_in_the_request(
    client: Client, ann: User, club: Club
) -> None:
    """A manifest listing a file twice is refused at once, with its path: no job."""
    played(ann, club, "Octobre", date(2025, 10, 1), A)
    manifest, files = parts(exports.archive_zip(club))
    manifest["concours"].append({**manifest["concours"][0], "name": "Copie"})
    target = ClubFactory.create(organiser=ann, name="Vide", town="Caen")
    client.force_login(ann)
    response = post(client, target, rezip(manifest, files))
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    assert (
        "Nothing was restored: manifest.json: concours[1].file: listed twice (first at "
        "concours[0])" in page
    )
    french = post(client, target, rezip(manifest, files), HTTP_ACCEPT_LANGUAGE="fr")
    assert "concours[1].file\u00a0: figure deux fois (d’abord en concours[0])" in html.unescape(
        french.content.decode()
    )
    assert not Job.objects.exists() and not target.tournaments.exists()


def test_the_post_checks_the_upload_at_once(client: Client, ann: User, club: Club) -> None:
    client.force_login(ann)
    response = post(client, club, b"this is no zip")
    assert response.status_code == 200
    assert "Nothing was restored: not a zip file" in html.unescape(response.content.decode())
    assert not Job.objects.exists()


def test_one_job_at_a_time(client: Client, ann: User, club: Club) -> None:
    played(ann, club, "Octobre", date(2025, 10, 1), A)
    data = exports.archive_zip(club)
    target = ClubFactory.create(organiser=ann, name="Vide", town="Caen")
    running = Job.objects.create(kind="club_restore", owner=ann, owner_key="other", state="running")
    client.force_login(ann)
    response = post(client, target, data)
    assert response.status_code == 409
    page = html.unescape(response.content.decode())
    assert "Nothing was restored: a job of yours is still running (see My jobs)." in page
    assert f'href="{reverse("jobs:job", args=[running.pk])}"' in page
    assert Job.objects.count() == 1 and not target.tournaments.exists()


def test_an_organiser_who_left_before_the_job_ran_restores_nothing(
    ann: User, club: Club, make_user: Any
) -> None:
    played(ann, club, "Octobre", date(2025, 10, 1), A)
    data = exports.archive_zip(club)
    bob = make_user("bob")
    target = ClubFactory.create(organiser=ann, name="Vide", town="Caen")
    club_services.join(club=target, user=bob)
    job = Job.objects.create(
        kind="club_restore", owner=bob, owner_key="bob", data=data, params={"club": target.pk}
    )
    club_services.leave(club=target, user=bob)
    run_job(job.pk)
    job.refresh_from_db()
    assert job.result == {"refused": {"kind": "club", "code": "not_organiser"}}
    assert not Tournament.objects.filter(club=target).exists()
