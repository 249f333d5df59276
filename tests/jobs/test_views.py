"""A job's page: its owner's only (a browser, or its account on any device; 404 for anyone else),
without JavaScript a Refresh link, with htmx a status fragment polled every 2 s and answered 304
while nothing changed; then the result, or why it failed, in the page's language."""

import html
import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils.timezone import now
from pytest_django.fixtures import Settings

from scorekeeper.jobs.models import Job
from tests.conftest import Browser

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true", "HX-Target": "job-detail"}


def job_of(owner_key: str, owner: User | None = None, **fields: object) -> Job:
    values: dict[str, object] = {"kind": "steps", "owner_key": owner_key, "owner": owner}
    return Job.objects.create(**(values | fields))


def url(job: Job) -> str:
    return f"/jobs/{job.pk}/"


def test_only_the_owner_sees_a_job(browser: Browser, make_user: Callable[[str], User]) -> None:
    alice = make_user("alice")
    job = job_of("alice-phone", alice)
    # The browser that started it, and the account on another device.
    assert browser("alice-phone").get(url(job)).status_code == 200
    assert browser("alice-laptop", alice).get(url(job)).status_code == 200
    # Anyone else: another browser, another account, no session at all, an unknown job.
    assert browser("bob-phone").get(url(job)).status_code == 404
    assert browser("bob-phone", make_user("bob")).get(url(job)).status_code == 404
    assert Client().get(url(job)).status_code == 404
    assert browser("alice-phone").get(f"/jobs/{job.pk + 1}/").status_code == 404
    assert Client().get(url(job), headers=HTMX).status_code == 404


def test_a_browser_without_an_account_sees_its_jobs_only(browser: Browser) -> None:
    mine, theirs = job_of("phone", state="done"), job_of("other", state="done")
    page = browser("phone").get("/jobs/").text
    assert f'href="{url(mine)}"' in page and f'href="{url(theirs)}"' not in page
    assert "No job yet." in Client().get("/jobs/").text


def test_a_queued_job_says_it_waits_with_a_refresh_link_and_polls(browser: Browser) -> None:
    job = job_of("phone")
    page = browser("phone").get(url(job)).text
    assert "Waiting to start." in page
    assert "the worker process may not be running" in page
    assert f'<a class="btn btn-block" href="{url(job)}">Refresh</a>' in page
    assert f'hx-get="{url(job)}?shown=' in page and 'hx-trigger="every 2s"' in page
    assert "<script" not in page.split("<main", 1)[1]  # nothing inline (the CSP)


def test_the_poll_gets_304_while_nothing_changed(browser: Browser) -> None:
    job = job_of("phone", state="running", started_at=now(), done=2, total=10)
    client = browser("phone")
    first = client.get(url(job), headers=HTMX)
    assert first.status_code == 200
    assert first.text.lstrip().startswith('<div id="job-detail"')  # the fragment alone
    # The progress words for the page's one live region, swapped out of band.
    assert '<p id="job-words" hx-swap-oob="innerHTML"><strong>Running: 2 of 10 done.' in first.text
    assert 'max="10" value="2"' in first.text
    assert "HX-Request" in first["Vary"] and "no-cache" in first["Cache-Control"]
    tag = first["ETag"]
    again = client.get(url(job), headers=HTMX | {"If-None-Match": tag})
    assert again.status_code == 304 and again.content == b""
    # Progress moves: a new fragment.
    Job.objects.filter(pk=job.pk).update(done=3, updated_at=now())
    moved = client.get(url(job), headers=HTMX | {"If-None-Match": tag})
    assert moved.status_code == 200 and "Running: 3 of 10 done." in moved.text
    assert moved["ETag"] != tag
    # Another language is another fragment.
    client.cookies["django_language"] = "fr"
    french = client.get(url(job), headers=HTMX | {"If-None-Match": moved["ETag"]})
    assert french.status_code == 200 and "En cours\u00a0: 3 sur 10 faits." in french.text


def test_the_poll_saying_what_it_shows_gets_204_until_it_moves(browser: Browser) -> None:
    """The page's poll says what it shows (`?shown=`): 204 while that holds, so htmx swaps
    nothing and the live region says nothing again."""
    job = job_of("phone", state="running", started_at=now(), done=2, total=10)
    client = browser("phone")
    page = client.get(url(job)).text
    shown = re.search(r'hx-get="/jobs/\d+/\?shown=(\w+)"', page)
    assert shown is not None
    poll = f"{url(job)}?shown={shown[1]}"
    still = client.get(poll, headers=HTMX)
    assert still.status_code == 204 and still.content == b""
    assert "no-cache" in still["Cache-Control"]
    Job.objects.filter(pk=job.pk).update(done=3, updated_at=now())
    moved = client.get(poll, headers=HTMX)
    assert moved.status_code == 200 and "Running: 3 of 10 done." in moved.text
    assert f'?shown={shown[1]}"' not in moved.text  # the next poll says the new state


def test_a_done_job_shows_its_result_and_stops_polling(browser: Browser) -> None:
    job = job_of("phone", state="done", result={"steps": 4}, finished_at=now())
    page = browser("phone").get(url(job)).text
    assert "4 steps counted" in page and "a: one" in page
    assert 'href="/history/"' in page
    assert "hx-trigger" not in page and "Refresh" not in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "It was stopped: it took longer than 10 minutes, the most a job may take."),
        ("fr", "Elle a été arrêtée\u00a0: elle a duré plus de 10\u00a0minutes, le plus long"),
    ],
)
def test_a_failed_job_says_why_in_the_page_language(
    browser: Browser, language: str, words: str
) -> None:
    job = job_of("phone", state="failed", result={"failure": "time_limit", "limit": 600})
    client = browser("phone")
    client.cookies["django_language"] = language
    assert words in client.get(url(job)).text


@pytest.mark.parametrize(
    ("language", "limit", "stale", "words"),
    [
        ("en", 60, 60, "it took longer than 1 minute, the most a job may take."),
        ("en", 60, 60, "No worker started it within 1 minute:"),
        ("en", 120, 120, "it took longer than 2 minutes, the most a job may take."),
        ("en", 120, 120, "No worker started it within 2 minutes:"),
        ("fr", 60, 60, "elle a duré plus d’une minute, le plus long"),
        ("fr", 60, 60, "Aucun processus de fond ne l’a lancée en une minute"),
        ("fr", 120, 120, "elle a duré plus de 2\u00a0minutes, le plus long"),
        ("fr", 120, 120, "Aucun processus de fond ne l’a lancée en 2\u00a0minutes"),
    ],
)
def test_a_failure_counts_its_minutes_in_the_page_language(
    browser: Browser, settings: Settings, language: str, limit: int, stale: int, words: str
) -> None:
    """One minute is singular ("took longer than 1 minute", "plus d’une minute"): ngettext."""
    settings.JOB_STALE_AFTER = stale
    client = browser("phone")
    client.cookies["django_language"] = language
    failures = [{"failure": "time_limit", "limit": limit}, {"failure": "not_picked_up"}]
    pages = [html.unescape(client.get(url(job_of("phone", state="failed", result=r))).text)
             for r in failures]  # fmt: skip
    assert any(words in page for page in pages), words


def test_a_job_its_worker_left_shows_as_failed_without_a_write(browser: Browser) -> None:
    long_ago = now() - timedelta(hours=2)
    job = job_of("phone", state="running", started_at=long_ago)
    Job.objects.filter(pk=job.pk).update(updated_at=long_ago)
    page = html.unescape(browser("phone").get(url(job)).text)
    assert "the server's worker stopped while running it" in page
    assert "hx-trigger" not in page
    job.refresh_from_db()
    assert job.state == "running" and job.updated_at == long_ago  # GET writes nothing
