"""Site-wide pages that belong to no app (the home page is the matches app's): the health check,
and what makes the site an installable web app that keeps a match's phone pages working without
signal (docs/offline.md): its manifest and its service worker; and the in-browser engine's
manifest, zip and worker script (docs/offline-engine.md)."""

import hashlib
import json
from functools import cache

from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_safe

from . import offline_engine

# What the service worker's cache name depends on: a change to any of them is a new cache (the
# old one is dropped when the new worker takes over).
OFFLINE_FILES = ("js/sw.js", "js/outbox-db.js", "js/offline.js", "js/app.js", "css/app.css")
THEME_LIGHT, THEME_DARK = "#14532d", "#163a26"


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


@require_safe
def offline_engine_manifest(request: HttpRequest) -> JsonResponse:
    """What a phone preparing for offline use fetches (static/js/offline-engine.js): whether the
    runtime is installed, its files, and the engine's zip under its content hash
    (docs/offline-engine.md). Revalidated on every use: a new deploy names a new zip."""
    pack = offline_engine.engine_pack()
    version = offline_engine.runtime_version()
    runtime = None
    if version is not None:
        runtime = {
            "version": version,
            "url": offline_engine.runtime_url(),
            "files": list(offline_engine.RUNTIME_FILES),
        }
    response = JsonResponse(
        {
            "available": runtime is not None,
            "runtime": runtime,
            "engine": {
                "url": reverse("offline_engine_zip", args=[pack.digest]),
                "hash": pack.digest,
                "bytes": len(pack.data),
            },
            "worker": reverse(
                "offline_engine_worker", args=[offline_engine.worker_script().digest]
            ),
        }
    )
    patch_cache_control(response, no_cache=True)
    return response


@require_safe
def offline_engine_zip(request: HttpRequest, digest: str) -> HttpResponse:
    """The engine's zip, built from the server's own source; its name is its hash, so it is
    cached for good (an old hash after a deploy: 404, the phone asks the manifest again)."""
    pack = offline_engine.engine_pack()
    if digest != pack.digest:
        raise Http404("no such engine")
    response = HttpResponse(pack.data, content_type="application/zip")
    patch_cache_control(response, public=True, max_age=365 * 24 * 3600, immutable=True)
    return response


@require_safe
@csp_override(offline_engine.WORKER_CSP)
def offline_engine_worker(request: HttpRequest, digest: str) -> HttpResponse:
    """The engine's worker script (static/js/offline-engine-worker.js) under its hash, beside the
    zip: with its own policy, which allows what Pyodide needs (compiling WebAssembly) to the
    worker alone, and cached with the rest of the engine by the offline pages."""
    script = offline_engine.worker_script()
    if digest != script.digest:
        raise Http404("no such worker")
    response = HttpResponse(script.data, content_type="text/javascript; charset=utf-8")
    patch_cache_control(response, public=True, max_age=365 * 24 * 3600, immutable=True)
    return response


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
