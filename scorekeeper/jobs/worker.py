"""The worker's side of the jobs app (services.py says what a job is): run a queued job once
(`run_job`, what tasks.run_job_task calls), its `Progress`, the kinds (`JobKind`, named by
settings.JOB_KINDS) and the jobs whose worker died or never came (`fail_stale_jobs`). It imports
nothing of the browser's side: services.py starts a job and hands it to tasks.py."""

import logging
import time
from collections.abc import Callable
from datetime import timedelta
from functools import cache
from typing import Any, Protocol

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string
from django.utils.timezone import now

from .models import Job

logger = logging.getLogger(__name__)

PROGRESS_EVERY = 0.5  # seconds between two saves of a job's progress
# Why a job failed (Job.result["failure"]; words in views.py).
TIME_LIMIT, WORKER_LOST = "time_limit", "worker_lost"
NOT_PICKED_UP, CRASHED = "not_picked_up", "crashed"
FAILURES = (TIME_LIMIT, WORKER_LOST, NOT_PICKED_UP, CRASHED)

clock: Callable[[], float] = time.monotonic  # the time limit's clock (tests move it)


class TimeLimitReached(Exception):
    """The job ran past settings.JOB_TIME_LIMIT: it is stopped at its next step."""


class Progress:
    """How far a running job got: `set_total(n)`, then `advance()` after each step. The count is
    saved at most every PROGRESS_EVERY seconds (and by `flush`); each step checks the time
    limit."""

    def __init__(self, job: Job) -> None:
        self.job_id = job.pk
        self.done = job.done
        self.total = job.total
        self._started = clock()
        self._saved_at = self._started

    def set_total(self, total: int) -> None:
        self.total = total
        self.flush()

    def advance(self, steps: int = 1) -> None:
        self.done += steps
        self.check_time()
        if clock() - self._saved_at >= PROGRESS_EVERY:
            self.flush()

    def check_time(self) -> None:
        if clock() - self._started > settings.JOB_TIME_LIMIT:
            raise TimeLimitReached

    def flush(self) -> None:
        Job.objects.filter(pk=self.job_id).update(
            done=self.done, total=self.total, updated_at=now()
        )
        self._saved_at = clock()


class JobKind(Protocol):
    template: str  # the result's partial (rendered with result_context's words)

    def title(self) -> str: ...

    def run(self, *, job: Job, data: bytes, progress: Progress) -> dict[str, Any]: ...

    def result_context(self, result: dict[str, Any]) -> dict[str, Any]: ...


@cache
def kind_of(kind: str) -> JobKind:
    """The kind's implementation, named by settings.JOB_KINDS (KeyError for an unknown kind)."""
    built: JobKind = import_string(settings.JOB_KINDS[kind])()
    return built


def run_job(job_id: int) -> None:
    """Run a queued job once: its kind's `run`, then `done` with the result, or `failed` with
    the reason; the input is deleted either way. A job not queued is left as it is, but one
    found running: its first run's worker died, and it is failed, never run twice."""
    fail_stale_jobs()
    with transaction.atomic():
        job = Job.objects.select_for_update().filter(pk=job_id).first()
        if job is None or job.state not in Job.ACTIVE:
            return
        if job.state == Job.State.RUNNING:
            _finish(job, Job.State.FAILED, {"failure": WORKER_LOST})
            return
        job.state = Job.State.RUNNING
        job.started_at = now()
        job.attempts += 1
        job.save(update_fields=["state", "started_at", "attempts", "updated_at"])
    progress = Progress(job)
    try:
        data = bytes(job.data or b"")
        result = kind_of(job.kind).run(job=job, data=data, progress=progress)
    except TimeLimitReached:
        failure = {"failure": TIME_LIMIT, "limit": settings.JOB_TIME_LIMIT}
        _finish(job, Job.State.FAILED, failure, progress=progress)
    except Exception:
        logger.exception("job %s (%s) failed", job.pk, job.kind)
        _finish(job, Job.State.FAILED, {"failure": CRASHED}, progress=progress)
    else:
        progress.done = max(progress.done, progress.total)
        _finish(job, Job.State.DONE, result, progress=progress)


def _finish(
    job: Job, state: str, result: dict[str, Any], *, progress: Progress | None = None
) -> None:
    fields: dict[str, Any] = {"state": state, "result": result, "data": None}
    if progress is not None:
        fields |= {"done": progress.done, "total": progress.total}
    moment = now()
    ended = Job.objects.filter(pk=job.pk, state__in=Job.ACTIVE).update(
        **fields, finished_at=moment, updated_at=moment
    )
    if not ended:  # failed meanwhile as stale (it ran past JOB_STALE_AFTER in one step)
        logger.warning("job %s ended (%s) after it was failed as stale", job.pk, state)


def fail_stale_jobs() -> int:
    """Fail every job still running JOB_STALE_AFTER seconds after it started (its worker died)
    or still queued that long after it was asked (no worker took it): they are never run."""
    moment = now()
    limit = moment - timedelta(seconds=settings.JOB_STALE_AFTER)
    ended = {"state": Job.State.FAILED, "data": None, "finished_at": moment, "updated_at": moment}
    lost = Job.objects.filter(state=Job.State.RUNNING, started_at__lt=limit).update(
        result={"failure": WORKER_LOST}, **ended
    )
    waited = Job.objects.filter(state=Job.State.QUEUED, created_at__lt=limit).update(
        result={"failure": NOT_PICKED_UP}, **ended
    )
    return lost + waited


def is_stale(job: Job) -> bool:
    """Whether the job is one `fail_stale_jobs` will fail (its page says so before that)."""
    limit = now() - timedelta(seconds=settings.JOB_STALE_AFTER)
    if job.state == Job.State.RUNNING:
        return job.started_at is not None and job.started_at < limit
    return job.state == Job.State.QUEUED and job.created_at < limit
