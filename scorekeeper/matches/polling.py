"""Cheap answers to the scoreboard fragment that phones poll every 10 seconds.

The fragment (`#scoreboard`, asked by htmx) depends only on: the match's version (every change
moves it, new links included), who asks (the scorer link shows the buttons, the read-only link
does not), the language, this build of the app (templates, code, translations), and for the
scorer link the browser's CSRF cookie (its forms carry a token made from it). It shows no time and
nothing of the session but the messages of a change just made. The Undo and Redo buttons' words
come from the match's change rows, which are only written in the transaction that moves its
version (the question before undoing a finished match is only ever a POST's answer, never
polled). So its ETag is a digest of those,
and a poll whose If-None-Match still holds is answered 304 after one query (the version), without
loading the session: the link's token is the capability. A browser with a message waiting (its
`messages` cookie) takes the full path, which shows and clears it.

The tag is weak: two renders of one version are equivalent, not byte-identical (the CSRF token's
mask and the "All passed" form's one-time id change each time)."""

import functools
import hashlib
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language

from .models import Match

SCORER, VIEWER = "scorer", "viewer"
# Vary: htmx asks for the fragment, the language comes from Accept-Language or the language
# cookie, and the scorer's fragment from the CSRF cookie.
VARY = ("HX-Request", "Accept-Language", "Cookie")


@functools.cache
def build() -> str:
    """This build of the app: its templates, code and compiled translations (the same on every
    worker and every server running one deploy; a new deploy changes every tag). Read once per
    process, on first use rather than at import: hashing every file is a tenth of a process's
    start, and most processes (commands, tests) never tag a page."""
    base = Path(settings.BASE_DIR)
    digest = hashlib.sha256()
    files = [
        *sorted((base / "templates").rglob("*.html")),
        *sorted((base / "scorekeeper").rglob("*.py")),
        *sorted((base / "scorekeeper").rglob("*.mo")),
    ]
    for path in files:
        digest.update(str(path.relative_to(base)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def version_of(**token: str) -> int:
    """The version of the match of this link (one query; 404 for a link that is not, or no
    longer, one: revoked links and deleted matches answer like unknown ones)."""
    version = Match.objects.alive().filter(**token).values_list("version", flat=True).first()
    if version is None:
        raise Http404
    return version


def etag(request: HttpRequest, *, version: int, role: str) -> str:
    # The CSRF secret the fragment's tokens are made from: the cookie's (CsrfViewMiddleware
    # reads it), or the one a render just made for a browser without it.
    csrf = str(request.META.get("CSRF_COOKIE", "")) if role == SCORER else ""
    parts = [build(), role, str(version), get_language() or "", csrf]
    return 'W/"{}"'.format(hashlib.sha256("|".join(parts).encode()).hexdigest()[:32])


def message_waiting(request: HttpRequest) -> bool:
    """Whether this browser may have a message to show (kept in the messages cookie)."""
    return bool(request.COOKIES.get(getattr(settings, "MESSAGE_COOKIE_NAME", "messages")))


def not_modified(request: HttpRequest, tag: str) -> bool:
    """If-None-Match holds this tag (weak comparison, RFC 9110 13.1.2)."""
    header = request.headers.get("If-None-Match", "")
    if not header:
        return False
    opaque = tag.removeprefix("W/")
    return any(t == "*" or t.removeprefix("W/") == opaque for t in parse_etags(header))


def mark(response: HttpResponse, tag: str | None = None) -> HttpResponse:
    """The headers of a polled page's answers (its fragment's 200, 204 and 304, and the page
    itself): what it varies on; a tagged fragment is kept by the browser only to be revalidated
    each time (`private, no-cache`), never in a shared cache. Anything else is not kept at all
    (web/headers.py: `private, no-store`)."""
    if tag is not None:
        response["ETag"] = tag
        patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, VARY)
    return response


def not_modified_response(tag: str) -> HttpResponse:
    return mark(HttpResponse(status=304), tag)
