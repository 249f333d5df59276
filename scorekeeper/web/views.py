"""Site-wide pages that belong to no app (the home page is the matches app's)."""

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.csp import csp_override
from django.views.decorators.http import require_safe

from . import offline_engine


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
