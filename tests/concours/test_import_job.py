"""Issue 23: a concours file's import runs as a background job (concours/jobs.py). The POST
checks the file (size, JSON) and counts it against IMPORTS_PER_HOUR, then starts it; the job's
page shows its progress (a step a round scored, one for the writing), then the concours linked,
or the refusal with its path. One job at a time: a second POST while one runs starts nothing and
counts nothing."""

import html
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scorekeeper.concours.models import Tournament
from scorekeeper.jobs.models import Job
from scorekeeper.web.models import RateLimit

from .test_records import document

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(make_user: Callable[[str], User], client: Client) -> User:
    user = make_user("organiser")
    client.force_login(user)
    return user


def post(client: Client, content: bytes) -> Any:
    upload = SimpleUploadedFile("concours.json", content, "application/json")
    return client.post(reverse("concours:import"), {"file": upload})


def test_the_import_runs_as_a_job_round_by_round(organiser: User, client: Client) -> None:
    rounds = [
        {"tables": [{"table": 1, "sides": [1, 2], "totals": [1712, 1520]}], "byes": [3]},
        {"tables": [{"table": 1, "sides": [1, 3], "totals": [1600, 1400]}], "byes": [2]},
    ]
    response = post(client, json.dumps(document(rounds=rounds)).encode())
    job = Job.objects.get()
    assert response["Location"] == reverse("jobs:job", args=[job.pk])
    assert (job.kind, job.owner, job.state) == ("concours_import", organiser, "done")
    assert (job.done, job.total) == (3, 3)  # 2 rounds scored, then the writing
    assert job.data is None
    tournament = Tournament.objects.get()
    assert tournament.status == Tournament.Status.FINISHED
    page = html.unescape(client.get(response["Location"]).content.decode())
    assert "“Concours du printemps” is imported." in page
    assert f'href="{reverse("concours:desk", args=[tournament.pk])}"' in page


def test_a_refusal_keeps_its_path(organiser: User, client: Client) -> None:
    entrants = document()["entrants"]
    entrants[1]["name"] = "les as"
    response = post(client, json.dumps(document(entrants=entrants)).encode())
    assert Job.objects.get().result["refused"]["path"] == "entrants[1].name"
    page = html.unescape(client.get(response["Location"]).content.decode())
    assert "Nothing was imported: entrants[1].name: les as appears twice" in page
    assert f'href="{reverse("concours:import")}"' in page
    assert not Tournament.objects.exists()


def test_a_file_not_json_is_refused_at_once(organiser: User, client: Client) -> None:
    response = post(client, b"{not json")
    assert response.status_code == 200
    assert "Nothing was imported: not valid JSON (line 1, column 2)" in response.content.decode()
    assert not Job.objects.exists()


def test_one_job_at_a_time_counts_nothing(organiser: User, client: Client) -> None:
    running = Job.objects.create(
        kind="concours_import", owner=organiser, owner_key="elsewhere", state="queued"
    )
    response = post(client, json.dumps(document()).encode())
    assert response.status_code == 409
    page = html.unescape(response.content.decode())
    assert "Nothing was imported: a job of yours is still running (see My jobs)." in page
    assert f'href="{reverse("jobs:job", args=[running.pk])}"' in page
    assert Job.objects.count() == 1 and not Tournament.objects.exists()
    assert not RateLimit.objects.filter(count__gt=0).exists()
