"""Whose jobs a request may see: its account's, and its browser's (the device key the matches app
keeps in the session, read through settings.JOB_BROWSER_KEY: the jobs app imports no app)."""

from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest
from django.utils.module_loading import import_string

from .models import Job

RECENT = 20  # jobs listed on /jobs/


@cache
def _browser_key() -> Callable[[HttpRequest], str | None]:
    found: Callable[[HttpRequest], str | None] = import_string(settings.JOB_BROWSER_KEY)
    return found


def visible_jobs(request: HttpRequest) -> QuerySet[Job]:
    """The jobs of this browser and of its account (none for a browser without a key nor an
    account: looking creates no session)."""
    condition = Q(pk__in=[])
    if (key := _browser_key()(request)) is not None:
        condition |= Q(owner_key=key)
    if request.user.is_authenticated:
        condition |= Q(owner_id=request.user.pk)
    return Job.objects.filter(condition)


def job_for(request: HttpRequest, pk: int) -> Job:
    """The job if this browser or account asked for it; 404 for anyone else."""
    job = visible_jobs(request).defer("data").filter(pk=pk).first()
    if job is None:
        raise Http404
    return job


def recent_jobs(request: HttpRequest) -> list[Job]:
    return list(visible_jobs(request).defer("data").order_by("-created_at", "-pk")[:RECENT])
