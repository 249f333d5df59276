"""Rate limits counted in the database (web.RateLimit), so every gunicorn worker and every app server
behind the proxy agree: `hit(key=..., limit=..., window=...)` counts one use (or `cost` uses) of
a key in fixed windows of `window` seconds and answers None, or the seconds to wait when the limit
is reached (nothing is counted then). Rows of windows that are over are deleted on the way."""

import hashlib
import math
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.timezone import now as _now

from .models import RateLimit

MAX_KEY = 200  # RateLimit.key's max_length: longer keys are hashed


def hit(*, key: str, limit: int, window: int, cost: int = 1) -> int | None:
    """Count `cost` uses of `key` (at most `limit` per window of `window` seconds, the window
    starting at the key's first use). None: counted, go ahead. A number: the seconds until the
    window ends; nothing was counted. `cost=0` only checks that the limit is not reached yet."""
    if len(key) > MAX_KEY:
        key = "sha256:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    now = _now()
    with transaction.atomic():
        RateLimit.objects.filter(expires_at__lte=now).delete()
        row, _ = RateLimit.objects.select_for_update().get_or_create(
            key=key,
            defaults={"window_start": now, "expires_at": now + timedelta(seconds=window)},
        )
        if row.count >= limit or row.count + cost > limit:
            return max(1, math.ceil((row.expires_at - now).total_seconds()))
        if cost:
            RateLimit.objects.filter(pk=row.pk).update(count=F("count") + cost)
    return None


def wait_minutes(seconds: int) -> int:
    """A wait in whole minutes, rounded up (at least 1), as pages say it."""
    return max(1, math.ceil(seconds / 60))


def too_many_requests(request: HttpRequest, *, seconds: int, reason: str) -> HttpResponse:
    """The 429 page: what is limited (`reason`, in the page's language), how long to wait, and a
    Retry-After header."""
    context = {"reason": reason, "minutes": wait_minutes(seconds)}
    return retry_after(render(request, "429.html", context, status=429), seconds)


def retry_after(response: HttpResponse, seconds: int | None) -> HttpResponse:
    """A refusal over a limit (429: a form's page saying the wait in its own words) carries the
    wait in seconds as Retry-After too (None: no wait to say)."""
    if seconds is not None:
        response["Retry-After"] = str(max(1, seconds))
    return response


def client_ip(request: HttpRequest) -> str | None:
    """The browser's address: REMOTE_ADDR, or behind TRUSTED_PROXIES proxies that each append to
    X-Forwarded-For, the address the outermost of them saw (the entries before it are whatever the
    browser sent, so never trusted)."""
    proxies = settings.TRUSTED_PROXIES
    remote = request.META.get("REMOTE_ADDR")
    if proxies <= 0:
        return remote
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [part for part in forwarded if part]
    return forwarded[-proxies] if len(forwarded) >= proxies else remote
