"""The stream: `GET /live/?t=<signed topic>&v=<topic>=<version>` answers Server-Sent Events,
one `data: <topic> <version>` a change, each with an id holding every version the page now holds.

Served by the ASGI server only (uvicorn: scorekeeper/asgi.py; the proxy routes /live/ to it, or
LIVE_PORT names its port in `make run` and `make hall`). Reached through gunicorn's sync workers
(WSGI) it answers 204 at once: a browser's EventSource then stops asking and the page goes on
polling, so a stream can never hold a worker. Bounded its own way: LIVE_STREAM_SECONDS (with a
tenth of jitter) after which the browser reconnects, a comment every LIVE_HEARTBEAT_SECONDS of
silence (proxies keep it open, a dead client is noticed), LIVE_STREAMS_PER_ADDRESS per address
and process (over it: 429, the page polls)."""

import asyncio
import random
from collections.abc import AsyncIterator

from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.request import split_domain_port, validate_host
from django.views.decorators.http import require_safe

from ..throttle import client_ip
from . import hub as hubs
from .topics import MAX_TOPICS, format_id, parse_versions, unsign


def _allow_origin[R: HttpResponse | StreamingHttpResponse](request: HttpRequest, response: R) -> R:
    """A page on another port of one of our hosts (LIVE_PORT) may read the stream. No cookie
    is sent or read: the signed topics are the only capability."""
    origin = request.headers.get("Origin", "")
    host = origin.partition("://")[2]
    domain, _port = split_domain_port(host)
    allowed = settings.ALLOWED_HOSTS or [".localhost", "127.0.0.1", "[::1]"]
    if domain and validate_host(domain, allowed):
        response["Access-Control-Allow-Origin"] = origin
        response["Vary"] = "Origin"
    return response


async def _events(
    hub: hubs.Hub, sub: hubs.Subscription, held: dict[str, str]
) -> AsyncIterator[str]:
    """The stream's text: a retry delay, then each topic whose version moves from what the page
    holds (a kind of LIVE_SPACING_SECONDS at most once in that many seconds: the first change
    at once, the last of a burst when the time is up), a heartbeat after each silence, until
    the stream's lifetime is over (the browser then reconnects with its Last-Event-ID)."""
    loop = asyncio.get_running_loop()
    spacing = settings.LIVE_SPACING_SECONDS
    deadline = loop.time() + settings.LIVE_STREAM_SECONDS * (1 + random.random() / 10)
    sent_at: dict[str, float] = {}
    deferred: dict[str, str] = {}
    wrote = loop.time()
    try:
        yield f"retry: {settings.LIVE_RETRY_MS}\n\n"
        while (now := loop.time()) < deadline:
            wait = min(wrote + settings.LIVE_HEARTBEAT_SECONDS, deadline) - now
            if deferred:
                wait = min(wait, min(sent_at[t] + spacing[t[0]] for t in deferred) - now)
            offered = {**deferred, **await sub.next(max(wait, 0))}
            now, deferred, news = loop.time(), {}, {}
            for topic, version in offered.items():
                if held.get(topic) == version:
                    continue
                if now < sent_at.get(topic, -1e9) + spacing.get(topic[0], 0):
                    deferred[topic] = version
                    continue
                news[topic], sent_at[topic] = version, now
            if news:
                held.update(news)
                event_id = format_id(held)
                yield "".join(f"id: {event_id}\ndata: {t} {v}\n\n" for t, v in news.items())
                wrote = now
            elif now >= wrote + settings.LIVE_HEARTBEAT_SECONDS:
                yield ":\n\n"  # heartbeat: proxies keep the stream, a gone client is noticed
                wrote = now
    finally:
        hub.unsubscribe(sub)


@require_safe
async def stream(request: HttpRequest) -> HttpResponse | StreamingHttpResponse:
    if not isinstance(request, ASGIRequest):  # gunicorn's sync workers hold no stream
        return _allow_origin(request, HttpResponse(status=204))
    topics = [t for t in (unsign(v) for v in request.GET.getlist("t")[:MAX_TOPICS]) if t]
    if not topics:
        return _allow_origin(request, HttpResponse(status=400))
    last_event = request.headers.get("Last-Event-ID")
    held = parse_versions([last_event] if last_event else request.GET.getlist("v"))
    hub = hubs.hub()
    sub = hub.subscribe(topics, client_ip(request) or "")
    if sub is None:
        response = HttpResponse(status=429)
        response["Retry-After"] = str(settings.LIVE_STREAM_SECONDS)
        return _allow_origin(request, response)
    # Each event is sent as it comes: no compression (GZipMiddleware would keep a compressor,
    # about 256 KB, per open stream), no buffering by a proxy (nginx reads X-Accel-Buffering).
    request.META.pop("HTTP_ACCEPT_ENCODING", None)
    events = StreamingHttpResponse(_events(hub, sub, held), content_type="text/event-stream")
    # A stream never begun (the client gone first) is forgotten when Django closes the response,
    # from a thread: the hub is the loop's.
    closers = events._resource_closers  # type: ignore[attr-defined]
    closers.append(lambda: hub.loop.call_soon_threadsafe(hub.unsubscribe, sub))
    events["Cache-Control"] = "no-store"
    events["X-Accel-Buffering"] = "no"
    return _allow_origin(request, events)
