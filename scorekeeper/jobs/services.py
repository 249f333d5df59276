"""Background jobs: heavy work (a backup restore, a big import) runs in a worker process through
Django's Tasks framework (`django.tasks`; in production the database backend of django-tasks-db
and its `manage.py db_worker`), while the browser shows its progress on the job's page
(`jobs:job`, /jobs/<id>/) and may leave and come back (/jobs/ lists them).

The API (everything an app needs; keyword-only):

- `start_job(*, kind, owner, owner_key, data=b"", params=None, total=0) -> Job`: records a queued
  job and hands it to the worker (`tasks.run_job_task`); redirect the browser to
  `reverse("jobs:job", args=[job.pk])`. `kind`: a key of `settings.JOB_KINDS`; `owner`: the
  account (None: a browser without one); `owner_key`: the browser's device key
  (`matches.access.device_key(request)`); `data`: the input (an upload, bounded by the caller's
  upload limit), deleted when the job ends; `params`: small JSON options for the kind; `total`:
  the steps, if known. Raises `JobRefused` (its `active`: the job in the way) when the account
  or the browser already has a job queued or running: one job at a time.
- `active_job(*, owner, owner_key) -> Job | None`: that job, to refuse before counting a rate
  limit (the hourly limits count when a job is started, as they did for the request).
- `run_job(job_id)`: what the task calls: runs the job's kind once. Never twice: a job found
  already running (its worker died and the task came again) is failed, not re-run.
- A kind (`settings.JOB_KINDS = {kind: "dotted.path.Class"}`, built with no argument; the jobs
  app imports none of them) implements `JobKind`:
  `run(*, job, data, progress) -> dict`: does the work and returns the result (JSON: counts,
  refusals as code, params and path, links), which the job's page passes back to
  `result_context(result) -> dict`, the words in the page's language, rendered with the kind's
  `template` (a partial included in the job's page as `outcome`; `jobs/result.html` shows a
  `summary`, `lines` and `links` [{label, url}]); `title()`: what the job is, in words.
  Write in short transactions (one per match...): a job holds no transaction open.
- `Progress`, given to `run`: `progress.set_total(n)` then `progress.advance()` after each step.
  It saves the count at most every PROGRESS_EVERY seconds, and raises `TimeLimitReached` past
  `settings.JOB_TIME_LIMIT` seconds (the job fails saying so; what was written stays).

A job ends `done` (its kind's result) or `failed`, `result = {"failure": code, ...}` with a code
of FAILURES: the time limit, a worker that died (found still running JOB_STALE_AFTER seconds after
it started: failed by the next `start_job` or `run_job`; its page says so meanwhile, reading
only), a job no worker picked up within JOB_STALE_AFTER, or an error in the kind (logged)."""

import logging
import time
from collections.abc import Callable
from datetime import timedelta
from functools import cache
from typing import Any, Protocol

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
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


class JobRefused(Exception):
    """The account or the browser already has a job queued or running (`active`; None if it
    ended in the meantime): nothing was started."""

    def __init__(self, active: Job | None) -> None:
        super().__init__("a job is already queued or running")
        self.active = active


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


def _owned_by(owner: User | None, owner_key: str) -> Q:
    condition = Q(owner_key=owner_key)
    if owner is not None:
        condition |= Q(owner=owner)
    return condition


def active_job(*, owner: User | None, owner_key: str) -> Job | None:
    """The account's or the browser's job queued or running, if any (one at a time)."""
    return (
        Job.objects.filter(_owned_by(owner, owner_key), state__in=Job.ACTIVE)
        .order_by("-created_at")
        .first()
    )


def start_job(
    *,
    kind: str,
    owner: User | None,
    owner_key: str,
    data: bytes = b"",
    params: dict[str, Any] | None = None,
    total: int = 0,
) -> Job:
    """A queued job, handed to the worker (see the module's docstring); JobRefused when the
    account or the browser has one queued or running already."""
    kind_of(kind)  # an unknown kind is the caller's mistake: raised here, not in the worker
    if not owner_key:
        raise ValueError("a job needs the browser's key")
    fail_stale_jobs()
    try:
        with transaction.atomic():
            if (active := active_job(owner=owner, owner_key=owner_key)) is not None:
                raise JobRefused(active)
            job = Job.objects.create(
                kind=kind,
                owner=owner,
                owner_key=owner_key,
                data=data,
                params=params or {},
                total=total,
            )
    except IntegrityError:  # another request started one between the check and the insert
        raise JobRefused(active_job(owner=owner, owner_key=owner_key)) from None
    _enqueue(job.pk)
    return job


def _enqueue(job_id: int) -> None:
    # tasks.py imports this module (its task calls run_job): imported when first needed.
    from .tasks import run_job_task

    run_job_task.enqueue(job_id)


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
