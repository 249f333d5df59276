"""The jobs core (scorekeeper/jobs/services.py): one job at a time per account and per browser, a
time limit, a job its worker left failed and never run again, the input deleted when it ends."""

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.timezone import now
from pytest_django.fixtures import Settings

from scorekeeper.jobs import services, worker
from scorekeeper.jobs.models import Job

from . import kinds

pytestmark = pytest.mark.django_db


def queued(**fields: object) -> Job:
    """A job written as start_job writes it, without running it."""
    values: dict[str, object] = {"kind": "steps", "owner_key": "phone", "data": b"input"}
    return Job.objects.create(**(values | fields))


def test_a_job_runs_to_its_result_and_its_input_is_deleted() -> None:
    job = services.start_job(
        kind="steps", owner=None, owner_key="phone", data=b"the file", params={"steps": 4}
    )
    job.refresh_from_db()
    assert (job.state, job.done, job.total, job.result) == ("done", 4, 4, {"steps": 4})
    assert kinds.SEEN == [b"the file"]
    assert job.data is None
    assert job.attempts == 1 and job.started_at is not None and job.finished_at is not None


def test_one_job_at_a_time_per_browser(make_user: Callable[[str], User]) -> None:
    first = queued(owner_key="phone")
    with pytest.raises(services.JobRefused) as refused:
        services.start_job(kind="steps", owner=None, owner_key="phone")
    assert refused.value.active == first
    assert Job.objects.count() == 1
    # Another browser, and the same one once its job ended, may start one.
    services.start_job(kind="steps", owner=None, owner_key="laptop")
    Job.objects.filter(pk=first.pk).update(state="done")
    services.start_job(kind="steps", owner=None, owner_key="phone")
    assert Job.objects.filter(state="done").count() == 3


def test_one_job_at_a_time_per_account_on_every_device(
    make_user: Callable[[str], User],
) -> None:
    alice, bob = make_user("alice"), make_user("bob")
    first = queued(owner=alice, owner_key="alice-phone")
    with pytest.raises(services.JobRefused) as refused:
        services.start_job(kind="steps", owner=alice, owner_key="alice-laptop")
    assert refused.value.active == first
    assert services.active_job(owner=alice, owner_key="alice-laptop") == first
    services.start_job(kind="steps", owner=bob, owner_key="bob-phone")
    assert Job.objects.count() == 2


def test_the_database_refuses_a_second_active_job(make_user: Callable[[str], User]) -> None:
    """The constraint holds where two requests raced past the check."""
    alice = make_user("alice")
    queued(owner=alice, owner_key="a")
    with pytest.raises(IntegrityError), transaction.atomic():
        queued(owner=alice, owner_key="b", state="running")
    with pytest.raises(IntegrityError), transaction.atomic():
        queued(owner_key="a")
    queued(owner=alice, owner_key="c", state="failed")  # ended jobs are not counted


def test_a_job_over_the_time_limit_is_stopped_and_failed(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.JOB_TIME_LIMIT = 60
    ticks = iter(range(0, 10_000, 25))  # each reading of the clock: 25 s later
    monkeypatch.setattr(worker, "clock", lambda: next(ticks))
    job = services.start_job(
        kind="steps", owner=None, owner_key="phone", data=b"x", params={"steps": 10}
    )
    job.refresh_from_db()
    assert job.state == "failed"
    assert job.result == {"failure": "time_limit", "limit": 60}
    assert 0 < job.done < 10 and job.total == 10
    assert job.data is None


def test_a_kind_that_breaks_fails_its_job_and_logs_it(caplog: pytest.LogCaptureFixture) -> None:
    job = services.start_job(
        kind="steps", owner=None, owner_key="phone", data=b"x", params={"crash": True}
    )
    job.refresh_from_db()
    assert (job.state, job.result, job.data) == ("failed", {"failure": "crashed"}, None)
    assert "the kind broke" in caplog.text


def test_a_job_found_running_is_failed_never_run_twice() -> None:
    """The task came again for a job its first worker started (and died running): it is failed
    with the reason, and the kind does not run."""
    job = queued(state="running", started_at=now(), attempts=1)
    services.run_job(job.pk)
    job.refresh_from_db()
    assert (job.state, job.result, job.attempts) == ("failed", {"failure": "worker_lost"}, 1)
    assert job.data is None
    assert kinds.SEEN == []


def test_a_stale_job_is_failed_not_rerun_and_frees_its_owner(settings: Settings) -> None:
    settings.JOB_STALE_AFTER = 900
    long_ago = now() - timedelta(seconds=901)
    lost = queued(owner_key="phone", state="running", started_at=long_ago)
    waiting = queued(owner_key="laptop")
    Job.objects.filter(pk=waiting.pk).update(created_at=long_ago)
    recent = queued(owner_key="tablet", state="running", started_at=now())
    assert services.is_stale(lost) and not services.is_stale(recent)
    # The next start (of anyone) fails them: the browser may start a new job.
    services.start_job(kind="steps", owner=None, owner_key="phone", params={"steps": 1})
    lost.refresh_from_db()
    waiting.refresh_from_db()
    recent.refresh_from_db()
    assert (lost.state, lost.result, lost.data) == ("failed", {"failure": "worker_lost"}, None)
    assert (waiting.state, waiting.result) == ("failed", {"failure": "not_picked_up"})
    assert recent.state == "running"
    # Its task coming now does not run it.
    services.run_job(waiting.pk)
    services.run_job(lost.pk)
    assert kinds.SEEN == [b""]  # only the new job ran
    assert Job.objects.get(pk=waiting.pk).state == "failed"


def test_an_unknown_kind_is_refused_before_anything_is_written() -> None:
    with pytest.raises(KeyError):
        services.start_job(kind="nope", owner=None, owner_key="phone")
    assert Job.objects.count() == 0
