"""The real thing once: with the database backend (django-tasks-db, the production default) a
started job waits queued, and `manage.py db_worker` runs it."""

import threading
import time
from collections.abc import Callable

import psycopg
import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.db import connection
from pytest_django.fixtures import Settings

from scorekeeper.jobs import services
from scorekeeper.jobs.management.commands import db_worker
from scorekeeper.jobs.models import Job

from . import kinds


@pytest.mark.django_db(transaction=True)
def test_the_database_backend_queues_and_db_worker_runs_the_job(settings: Settings) -> None:
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    job = services.start_job(
        kind="steps", owner=None, owner_key="phone", data=b"file", params={"steps": 3}
    )
    job.refresh_from_db()
    assert job.state == "queued" and kinds.SEEN == []  # no worker yet: it waits
    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)
    job.refresh_from_db()
    assert (job.state, job.done, job.total, job.result) == ("done", 3, 3, {"steps": 3})
    assert kinds.SEEN == [b"file"] and job.data is None


# The worker through a database restart (PostgreSQL) ----------------------------------------------

postgresql_only = pytest.mark.skipif(
    not django_settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
    reason="a PostgreSQL restart (DATABASE_URL=postgres://...)",
)


def wait_until(done: Callable[[], bool], seconds: float = 30) -> bool:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def job_done(job: Job) -> Callable[[], bool]:
    return lambda: Job.objects.get(pk=job.pk).state == "done"


@postgresql_only
@pytest.mark.django_db(transaction=True)
def test_the_worker_waits_out_a_database_restart_and_carries_on(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 42: the worker died with "the database system is shutting down" in its poll loop.
    Here its connection is ended under it (pg_terminate_backend, as a restart does) and new
    connections are refused for a while (ALLOW_CONNECTIONS false: the server is down): it
    waits, doubling its wait, then runs the next job."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    waits: list[float] = []
    monkeypatch.setattr(db_worker, "RETRY_FIRST", 0.05)

    def pause(seconds: float) -> None:
        waits.append(seconds)
        time.sleep(seconds)

    monkeypatch.setattr(db_worker, "pause", pause)
    worker = db_worker.SurvivingWorker(
        queue_names=["default"], interval=0.05, batch=False, backend_name="default",
        startup_delay=False, max_tasks=None, worker_id="restart-test", excluded_queue_names=[],
    )  # fmt: skip
    died: list[BaseException] = []

    def run() -> None:
        try:
            worker.run()
        except BaseException as error:  # the failure this test guards against
            died.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    db = connection.settings_dict
    # The server's side, from its maintenance database (a database's own sessions may not
    # close its door).
    server = psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], password=db["PASSWORD"],
        dbname="postgres", autocommit=True,
    )  # fmt: skip
    try:
        first = services.start_job(kind="steps", owner=None, owner_key="a", data=b"1")
        assert wait_until(job_done(first)), "the worker never ran the first job"
        connection.close()  # ours too: the server goes down for everyone
        server.execute(f'ALTER DATABASE "{db["NAME"]}" ALLOW_CONNECTIONS false')
        ended = server.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = %s",
            [db["NAME"]],
        ).fetchone()
        assert ended is not None and ended[0] >= 1  # the worker's connection
        assert wait_until(lambda: len(waits) >= 3), (waits, died)
    finally:
        server.execute(f'ALTER DATABASE "{db["NAME"]}" ALLOW_CONNECTIONS true')  # back up
        server.close()
    second = services.start_job(kind="steps", owner=None, owner_key="b", data=b"2")
    assert wait_until(job_done(second)), (waits, died)
    worker.running = False
    thread.join(timeout=10)
    assert not thread.is_alive() and died == []
    assert waits[:3] == [0.05, 0.1, 0.2]  # doubled at each failure in a row
    assert kinds.SEEN == [b"1", b"2"]


def test_manage_py_db_worker_is_the_surviving_one() -> None:
    """This app's command comes first (INSTALLED_APPS): `manage.py db_worker` runs it."""
    from django.core.management import get_commands

    assert get_commands()["db_worker"] == "scorekeeper.jobs"
