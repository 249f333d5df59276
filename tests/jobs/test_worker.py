"""The real thing once: with the database backend (django-tasks-db, the production default) a
started job waits queued, and `manage.py db_worker` runs it."""

import pytest
from django.core.management import call_command
from pytest_django.fixtures import Settings

from scorekeeper.jobs import services

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
