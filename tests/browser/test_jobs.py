"""Issue 23 on a phone: a backup restored through its progress page. The jobs run with the real
database backend here: the page says the restore waits, the worker runs it (the test runs
`db_worker --batch` as the server's worker would), and htmx's poll of the status fragment brings
the result in without a reload; without JavaScript, the Refresh link does."""

import io
import json
import re
import zipfile

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import FilePayload, Page, expect
from pytest_django.fixtures import Settings
from pytest_django.live_server_helper import LiveServer

from scorekeeper.jobs.models import Job
from scorekeeper.matches.models import Match

from .conftest import NewPhone, Shot, page_errors

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

PASSWORD = "a-long-enough-password-42"
DEAL = {"taker": 0, "contract": 80, "trump": "hearts", "taker_points": 100}
JOB_PAGE = re.compile(r"/jobs/\d+/$")


def backup() -> bytes:
    match = {
        "format": "belote-match/1",
        "rules": {"preset": "coinche", "target": 100_000},
        "teams": [
            {"name": "Les As", "players": ["Alice", "Bruno"]},
            {"name": "Eux", "players": ["Chloé", "David"]},
        ],
        "deals": [DEAL] * 3,
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("a.json", json.dumps(match))
        archive.writestr("broken.json", json.dumps({"not": "a match"}))
    return buffer.getvalue()


def restore(page: Page, url: str) -> None:
    User.objects.create_user("member", password=PASSWORD)
    page.goto(f"{url}/accounts/login/?next=/history/restore/")
    page.locator("input[name=username]").fill("member")
    page.locator("input[name=password]").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(re.compile(r"/history/restore/$"))
    file: FilePayload = {"name": "backup.zip", "mimeType": "application/zip", "buffer": backup()}
    page.locator("input[type=file]").set_input_files(files=file)
    page.get_by_role("button", name="Restore").click()
    page.wait_for_url(JOB_PAGE)
    expect(page.locator("#job-status")).to_contain_text("Waiting to start.")
    assert Match.objects.count() == 0 and Job.objects.get().state == "queued"


@pytest.fixture
def database_backend(settings: Settings) -> None:
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.mark.usefixtures("database_backend")
def test_a_restore_through_its_progress_page(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page = new_phone()
    restore(page, live_server.url)
    shot(page, "01-waiting")
    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)
    # The poll (every 2 s) brings the result in; the page was not reloaded.
    status = page.locator("#job-status")
    expect(status).to_contain_text("1 match restored, 1 file refused.")
    expect(status).to_contain_text("Les As – Eux, 3 deals")
    expect(status).to_contain_text("broken.json: not: unknown key")
    assert page.locator("#job-detail").get_attribute("hx-trigger") is None  # done: no more poll
    shot(page, "02-done")
    page.get_by_role("link", name="My matches", exact=True).last.click()
    expect(page.locator("main")).to_contain_text("Les As")
    page.goto(f"{live_server.url}/jobs/")
    expect(page.locator("main")).to_contain_text("Restore a backup")
    assert page_errors(page) == []


@pytest.mark.usefixtures("database_backend")
def test_a_restore_without_javascript(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page = new_phone(javascript=False)
    restore(page, live_server.url)
    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)
    page.get_by_role("link", name="Refresh").click()
    expect(page.locator("#job-status")).to_contain_text("1 match restored, 1 file refused.")
    shot(page, "nojs-done")
