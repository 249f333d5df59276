"""Issue 23: a club archive restored through its job's progress page, on a 360 px phone, with the
real database task backend (django-tasks-db) and its worker running in a thread: the page waits
for the worker, shows how far the restore got (htmx polling the status fragment), then the
result with links to the club and each restored concours. The worker is held at the second
concours by an event (not a sleep) so the progress is seen for sure."""

import re
import tempfile
import threading
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django_tasks_db.management.commands.db_worker import Worker
from playwright.sync_api import expect
from pytest_django.fixtures import Settings
from pytest_django.live_server_helper import LiveServer

from scorekeeper.clubs import exports
from scorekeeper.clubs import services as club_services
from scorekeeper.concours import services as tournament_services
from scorekeeper.concours.models import Tournament
from scorekeeper.jobs import worker as job_worker
from scorekeeper.jobs.models import Job
from tests.factories import PASSWORD, UserFactory

from ..concours.support import play_out
from .conftest import NewPhone, Shot, page_errors

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]


class HeldWorker:
    """`manage.py db_worker`'s Worker in a thread; `hold` stops the restore before its second
    concours is read until `release`."""

    def __init__(self) -> None:
        self.worker = Worker(
            queue_names=["default"],
            interval=0.05,
            batch=False,
            backend_name="default",
            startup_delay=False,
            max_tasks=None,
            worker_id="browser-test",
            excluded_queue_names=[],
        )
        self.hold = threading.Event()
        self.held = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            self.worker.run()
        finally:
            connection.close()

    def stop(self) -> None:
        self.hold.set()
        self.worker.running = False
        self.thread.join(timeout=30)
        assert not self.thread.is_alive()


@pytest.fixture
def worker(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldWorker]:
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    monkeypatch.setattr(job_worker, "PROGRESS_EVERY", 0)  # every step saved at once
    held = HeldWorker()
    prepare = tournament_services.prepare_import
    calls = []

    def prepare_held(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:  # the first concours is read and counted: wait here
            held.held.set()
            assert held.hold.wait(timeout=60)
        return prepare(*args, **kwargs)

    monkeypatch.setattr(tournament_services, "prepare_import", prepare_held)
    yield held
    held.stop()


def test_a_club_archive_restores_through_its_progress_page(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot, worker: HeldWorker
) -> None:
    user = UserFactory.create(username="organiser")
    club = club_services.create_club(user=user, name="Belote Club de Rouen", town="Rouen")
    for name, day in (
        ("Concours de mars", date(2026, 3, 1)),
        ("Concours d'avril", date(2026, 4, 5)),
    ):
        tournament = tournament_services.create_tournament(
            owner=user, name=name, overrides={"rounds": 1}, date=day
        )
        for team in ("Les As", "Les Rois", "Les Dames", "Les Valets"):
            tournament_services.add_entrant(
                tournament=tournament, name=team, players=(f"{team} 1", f"{team} 2")
            )
        for table in tournament_services.draw_round(tournament=tournament).tables.all():
            play_out(table)
        tournament.club = club
        tournament.save()
    archive = Path(tempfile.mkdtemp()) / "club.zip"
    archive.write_bytes(exports.archive_zip(club))
    target = club_services.create_club(user=user, name="Nouveau club", town="Caen")

    url = live_server.url
    page = new_phone()
    page.goto(f"{url}/accounts/login/?next=/club/{target.slug}/restore/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Restore an archive")).to_be_visible()
    page.get_by_label("Club archive (.zip)").set_input_files(str(archive))
    page.get_by_role("button", name="Restore", exact=True).click()
    page.wait_for_url(re.compile(r"/jobs/\d+/$"))
    status = page.locator("#job-status")
    expect(status).to_contain_text("Waiting to start.")
    assert Job.objects.get().state == "queued"  # no worker yet: the job waits for one

    worker.thread.start()
    assert worker.held.wait(timeout=30)
    expect(status).to_contain_text("Running: 1 of 4 done.")  # htmx's poll brought it
    expect(status.locator("progress")).to_have_attribute("value", "1")
    shot(page, "01-progress")

    worker.hold.set()
    expect(status).to_contain_text("2 concours restored.", timeout=30_000)
    restored = {t.name: t.pk for t in Tournament.objects.filter(club=target)}
    assert set(restored) == {"Concours de mars", "Concours d'avril"}
    for name, pk in restored.items():
        expect(status.get_by_role("link", name=name)).to_have_attribute("href", f"/concours/{pk}/")
    expect(status.get_by_role("link", name="Belote Club de Rouen")).to_be_visible()
    expect(status).not_to_have_attribute("hx-get", re.compile(".*"))  # done: no more polling
    shot(page, "02-result")
    status.get_by_role("link", name="Concours de mars").click()
    page.wait_for_url(re.compile(r"/concours/\d+/$"))
    assert page_errors(page) == []
    assert Job.objects.get().state == "done"
