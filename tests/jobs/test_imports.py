"""Heavy work through a job: a backup restore, and a match file of more than IMPORT_INLINE_DEALS
deals (a smaller one is imported in the request as before). The request checks what is quick
(size, type, the deal limits, the hourly limits counted) and starts the job; its page shows the
result, or the refusal with its path, in the page's language."""

import html
import io
import json
import zipfile
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.timezone import now
from pytest_django.fixtures import Settings

from scorekeeper.jobs.models import Job
from scorekeeper.matches.models import Deal, Match
from scorekeeper.web.models import RateLimit
from tests.conftest import Browser

pytestmark = pytest.mark.django_db

DEAL = {"taker": 0, "contract": 80, "trump": "hearts", "taker_points": 100}


def match_file(deals: int, name: str = "Nous") -> dict[str, Any]:
    return {
        "format": "belote-match/1",
        "rules": {"preset": "coinche", "target": 100_000},
        "teams": [
            {"name": name, "players": ["Alice", "Bruno"]},
            {"name": "Eux", "players": ["Chloé", "David"]},
        ],
        "deals": [DEAL] * deals,
    }


def upload(content: bytes, name: str) -> io.BytesIO:
    file = io.BytesIO(content)
    file.name = name
    return file


def zip_of(files: dict[str, object]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, json.dumps(content))
    return buffer.getvalue()


def import_file(client: Client, document: dict[str, Any]) -> Any:
    file = upload(json.dumps(document).encode(), "match.json")
    return client.post("/import/", {"file": file})


@pytest.fixture
def member(browser: Browser, make_user: Callable[[str], User]) -> Client:
    return browser("member-phone", make_user("member"))


# A backup restore -------------------------------------------------------------------------------


def test_a_restore_runs_as_a_job_a_step_per_file(member: Client) -> None:
    data = zip_of({"a.json": match_file(3), "b.json": {"format": "x"}, "c.json": match_file(2)})
    response = member.post("/history/restore/", {"file": upload(data, "backup.zip")})
    job = Job.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/jobs/{job.pk}/"
    assert (job.kind, job.owner_key, job.owner) == (
        "history_restore",
        "member-phone",
        member_user(),
    )
    assert (job.state, job.done, job.total, job.data) == ("done", 3, 3, None)
    assert Match.objects.count() == 2 and Deal.objects.count() == 5
    page = member.get(response["Location"]).text
    assert "2 matches restored, 1 file refused." in page
    assert "b.json: format: unsupported format" in page
    assert 'href="/jobs/"' in member.get("/history/restore/").text  # where to find it again


def member_user() -> User:
    return User.objects.get(username="member")


def test_a_restore_waits_for_the_accounts_running_job_and_counts_nothing(
    member: Client, browser: Browser
) -> None:
    running = Job.objects.create(
        kind="history_restore", owner=member_user(), owner_key="member-laptop", state="running"
    )
    data = zip_of({"a.json": match_file(3)})
    response = member.post("/history/restore/", {"file": upload(data, "backup.zip")})
    assert response.status_code == 409
    assert "Nothing was restored: a job of yours is still running" in response.text
    assert Job.objects.get() == running and Match.objects.count() == 0
    assert not RateLimit.objects.exists()  # the hour was not charged
    Job.objects.filter(pk=running.pk).update(state="done", finished_at=now())
    response = member.post("/history/restore/", {"file": upload(data, "backup.zip")}, follow=True)
    assert "1 match restored." in response.text


# A match file -----------------------------------------------------------------------------------


def test_a_small_match_file_is_still_imported_in_the_request(
    browser: Browser, settings: Settings
) -> None:
    settings.IMPORT_INLINE_DEALS = 5
    response = import_file(browser("phone"), match_file(5))
    match = Match.objects.get()
    assert response["Location"] == f"/score/{match.scorer_token}/"
    assert not Job.objects.exists()


def test_a_big_match_file_is_imported_by_a_job(browser: Browser, settings: Settings) -> None:
    settings.IMPORT_INLINE_DEALS = 5
    phone = browser("phone")
    response = import_file(phone, match_file(6))
    job = Job.objects.get()
    assert response["Location"] == f"/jobs/{job.pk}/"
    assert (job.kind, job.owner_key, job.owner, job.state) == (
        "match_import",
        "phone",
        None,
        "done",
    )
    assert (job.done, job.total, job.data) == (3, 3, None)
    match = Match.objects.get()
    assert (match.owner_key, match.deal_count, match.team0_name) == ("phone", 6, "Nous")
    page = html.unescape(phone.get(response["Location"]).text)
    assert "Match imported." in page and "Nous – Eux, 6 deals" in page
    assert f'href="/score/{match.scorer_token}/"' in page
    assert f'href="/jobs/{job.pk}/"' in phone.get("/jobs/").text
    assert browser("stranger").get(response["Location"]).status_code == 404


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "This match file cannot be imported: deals[6].taker_points: must be from 0 to 162"),
        (
            "fr",
            "Ce fichier de partie ne peut pas être importé\u00a0: "
            "deals[6].taker_points\u00a0: doit aller de 0 à 162",
        ),
    ],
)
def test_a_big_match_file_refused_by_the_job_says_where(
    browser: Browser, settings: Settings, language: str, words: str
) -> None:
    settings.IMPORT_INLINE_DEALS = 5
    document = match_file(8)
    document["deals"][6] = {**DEAL, "taker_points": 200}
    phone = browser("phone")
    phone.cookies["django_language"] = language
    response = import_file(phone, document)
    job = Job.objects.get()
    refused = ["deals[6].taker_points", "out_of_range", {"min": 0, "max": 162}]
    assert job.result == {"refused": refused}  # a code and its params, worded by the page
    assert words in html.unescape(phone.get(response["Location"]).text)
    assert Match.objects.count() == 0


def test_a_match_file_over_the_deal_limit_is_refused_in_the_request(
    browser: Browser, settings: Settings
) -> None:
    settings.IMPORT_INLINE_DEALS = 5
    response = import_file(browser("phone"), match_file(1001))
    assert response.status_code == 200
    assert "This match file cannot be imported: deals: " in html.unescape(response.text)
    assert not Job.objects.exists() and Match.objects.count() == 0


def test_a_big_import_waits_for_the_browsers_running_job(
    browser: Browser, settings: Settings
) -> None:
    settings.IMPORT_INLINE_DEALS = 5
    Job.objects.create(kind="match_import", owner_key="phone", state="queued")
    response = import_file(browser("phone"), match_file(6))
    assert response.status_code == 409
    assert "Nothing was imported: a job of yours is still running" in response.text
    assert Match.objects.count() == 0 and Job.objects.count() == 1
