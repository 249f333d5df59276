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
- `run_job(job_id)` (worker.py): what the task calls: runs the job's kind once. Never twice: a
  job found already running (its worker died and the task came again) is failed, not re-run.
- A kind (`settings.JOB_KINDS = {kind: "dotted.path.Class"}`, built with no argument; the jobs
  app imports none of them) implements `JobKind`:
  `run(*, job, data, progress) -> dict`: does the work and returns the result (JSON: counts,
  refusals as code, params and path, links), which the job's page passes back to
  `result_context(result) -> dict`, the words in the page's language, rendered with the kind's
  `template` (a partial included in the job's page as `outcome`; `jobs/result.html` shows a
  `summary`, `lines` and `links` [{label, url}]); `title()`: what the job is, in words.
  Write in short transactions (one per match...): a job holds no transaction open.
- `Progress`, given to `run`: `progress.set_total(n)` then `progress.advance()` after each step.
  It saves the count at most every `worker.PROGRESS_EVERY` seconds, and raises `TimeLimitReached` past
  `settings.JOB_TIME_LIMIT` seconds (the job fails saying so; what was written stays).

A job ends `done` (its kind's result) or `failed`, `result = {"failure": code, ...}` with a code
of FAILURES: the time limit, a worker that died (found still running JOB_STALE_AFTER seconds after
it started: failed by the next `start_job` or `run_job`; its page says so meanwhile, reading
only), a job no worker picked up within JOB_STALE_AFTER, or an error in the kind (logged)."""

from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q

from .models import Job
from .tasks import run_job_task
from .worker import (
    CRASHED,
    FAILURES,
    NOT_PICKED_UP,
    TIME_LIMIT,
    WORKER_LOST,
    JobKind,
    Progress,
    TimeLimitReached,
    fail_stale_jobs,
    is_stale,
    kind_of,
    run_job,
)

__all__ = [  # the worker's side (worker.py), part of the API: a kind's Progress, run_job...
    "CRASHED",
    "FAILURES",
    "NOT_PICKED_UP",
    "TIME_LIMIT",
    "WORKER_LOST",
    "JobKind",
    "JobRefused",
    "Progress",
    "TimeLimitReached",
    "active_job",
    "fail_stale_jobs",
    "is_stale",
    "kind_of",
    "run_job",
    "start_job",
]


class JobRefused(Exception):
    """The account or the browser already has a job queued or running (`active`; None if it
    ended in the meantime): nothing was started."""

    def __init__(self, active: Job | None) -> None:
        super().__init__("a job is already queued or running")
        self.active = active


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
    run_job_task.enqueue(job_id)
