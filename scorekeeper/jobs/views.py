"""A job's page (its progress, then its result or why it failed) and the list of recent jobs.

The page works without JavaScript (a Refresh link while the job runs); with htmx its detail
(`#job-detail`: the progress bar, the result) asks again every 2 s, saying what it shows
(`?shown=`, the fragment's tag: the job's state and progress, the language): answered 204 while
that holds (htmx leaves the page as it is), else the new detail with the progress words for the
page's one lasting live region (`#job-words`, swapped out of band: a screen reader hears each new
state once). A poll without `shown` is answered 304 while its ETag holds."""

import hashlib
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scorekeeper.web.htmx import wants_partial

from . import selectors, services
from .models import Job

# The fragment depends on the job and the language (Accept-Language or the language cookie).
VARY = ("HX-Request", "Accept-Language", "Cookie")


def failure_words(result: dict[str, Any]) -> str:
    """Why a job failed, in the page's language."""
    failure = result.get("failure")
    minutes = max(1, round(settings.JOB_STALE_AFTER / 60))
    if failure == services.TIME_LIMIT:
        limit = max(1, round(int(result.get("limit", settings.JOB_TIME_LIMIT)) / 60))
        return ngettext(
            "It was stopped: it took longer than %(minutes)s minute, the most a job may take.",
            "It was stopped: it took longer than %(minutes)s minutes, the most a job may take.",
            limit,
        ) % {"minutes": limit}
    if failure == services.WORKER_LOST:
        return _(
            "It stopped midway: the server's worker stopped while running it. It is not "
            "started again by itself: start it again if need be."
        )
    if failure == services.NOT_PICKED_UP:
        return ngettext(
            "No worker started it within %(minutes)s minute: the server's worker process may "
            "not be running. Try again later.",
            "No worker started it within %(minutes)s minutes: the server's worker process may "
            "not be running. Try again later.",
            minutes,
        ) % {"minutes": minutes}
    return _("It failed because of an error on the server (the error was logged).")


def _shown_state(job: Job) -> tuple[str, dict[str, Any]]:
    """The state the page shows, and the failure's result: a job its worker left (stale) shows
    as failed before `fail_stale_jobs` writes it (a page only reads)."""
    if job.active and services.is_stale(job):
        failure = services.WORKER_LOST if job.state == Job.State.RUNNING else services.NOT_PICKED_UP
        return Job.State.FAILED, {"failure": failure}
    return job.state, job.result


def _digest(job: Job, state: str) -> str:
    """What the page shows of the job: its state and progress, in its language."""
    parts = [str(job.pk), state, str(job.done), str(job.total), str(job.updated_at)]
    parts.append(get_language() or "")
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:32]


def _etag(digest: str) -> str:
    return f'W/"{digest}"'


def _not_modified(request: HttpRequest, tag: str) -> bool:
    header = request.headers.get("If-None-Match", "")
    opaque = tag.removeprefix("W/")
    return bool(header) and any(t.removeprefix("W/") == opaque for t in parse_etags(header))


def _mark(response: HttpResponse, tag: str | None) -> HttpResponse:
    """The poll's answers are tagged and kept only to be revalidated; the page itself (`tag`
    None) is not kept at all (web/headers.py: private, no-store)."""
    if tag is not None:
        response["ETag"] = tag
        patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, VARY)
    return response


def job_context(job: Job) -> dict[str, Any]:
    state, result = _shown_state(job)
    kind = services.kind_of(job.kind)
    context: dict[str, Any] = {
        "job": job,
        "state": state,
        "title": kind.title(),
        "active": state in Job.ACTIVE,
    }
    if state == Job.State.DONE:
        context |= {"result_template": kind.template, "outcome": kind.result_context(result)}
    elif state == Job.State.FAILED:
        context["failure"] = failure_words(result)
    return context


@require_safe
def job(request: HttpRequest, pk: int) -> HttpResponse:
    """The job's page (its owner only: 404 for anyone else); htmx's poll gets the detail and
    the progress words, or 204 while it shows what is (304 while its ETag holds)."""
    found = selectors.job_for(request, pk)
    state, _result = _shown_state(found)
    digest = _digest(found, state)
    tag = _etag(digest)
    partial = wants_partial(request)
    if partial and request.GET.get("shown") == digest:
        return _mark(HttpResponse(status=204), tag)
    if partial and _not_modified(request, tag):
        return _mark(HttpResponse(status=304), tag)
    template = "jobs/job.html#job-detail" if partial else "jobs/job.html"
    context = job_context(found) | {"shown": digest, "poll": partial}
    return _mark(render(request, template, context), tag if partial else None)


@require_safe
def jobs(request: HttpRequest) -> HttpResponse:
    """This browser's and account's recent jobs, to come back to one."""
    rows = [
        {"job": j, "title": services.kind_of(j.kind).title(), "state": _shown_state(j)[0]}
        for j in selectors.recent_jobs(request)
    ]
    response = render(request, "jobs/jobs.html", {"rows": rows})
    patch_vary_headers(response, ("Cookie",))
    return response
