"""Site-wide pages that belong to no app (the home page is the matches app's): the health check,
and what makes the site an installable web app that keeps a match's phone pages working without
signal (docs/offline.md): its manifest and its service worker."""

import hashlib
import json
from functools import cache

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

# What the service worker's cache name depends on: a change to any of them is a new cache (the
# old one is dropped when the new worker takes over).
OFFLINE_FILES = ("js/sw.js", "js/outbox-db.js", "js/offline.js", "js/app.js", "css/app.css")
THEME_LIGHT, THEME_DARK = "#14532d", "#163a26"


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


def _read(name: str) -> bytes:
    path = finders.find(name)
    if not isinstance(path, str):
        return b""
    with open(path, "rb") as file:
        return file.read()


@cache
def service_worker_source() -> str:
    """static/js/sw.js with its cache version (a hash of the files the offline pages run) and
    the outbox's address (a hashed name in production)."""
    digest = hashlib.sha256(b"".join(_read(name) for name in OFFLINE_FILES)).hexdigest()[:12]
    source = _read("js/sw.js").decode().replace("__CACHE_VERSION__", digest)
    return source.replace("__OUTBOX_URL__", static("js/outbox-db.js"))


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """The service worker at the site's root (`/sw.js`), so that its scope is the whole site;
    checked by the browser on each visit (no-cache)."""
    response = HttpResponse(service_worker_source(), content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
@cache_control(max_age=3600)
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: name, icons, colours (the dark theme's colour is the pages'
    `theme-color` meta for `prefers-color-scheme: dark`, which a manifest cannot say)."""
    icons = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("icons/icon-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    data = {
        "name": _("Belote & Coinche score keeper"),
        "short_name": _("Belote score"),
        "id": "/",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_LIGHT,
        "background_color": THEME_LIGHT,
        "icons": icons,
    }
    body = json.dumps(data, ensure_ascii=False)
    return HttpResponse(body, content_type="application/manifest+json; charset=utf-8")
