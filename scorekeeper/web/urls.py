from django.urls import path

from . import views
from .live import views as live

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    # Live pages' streams (web/live): served by the ASGI server; the proxy routes /live/ to it.
    path("live/", live.stream, name="live"),
    # The in-browser engine (docs/offline-engine.md): its manifest, its zip and its worker's
    # script, each of the last two by content hash.
    path("offline/engine/", views.offline_engine_manifest, name="offline_engine"),
    path("offline/engine/<slug:digest>.zip", views.offline_engine_zip, name="offline_engine_zip"),
    path(
        "offline/engine/worker-<slug:digest>.js",
        views.offline_engine_worker,
        name="offline_engine_worker",
    ),
    # The installable app (docs/offline.md): at the root, so that the worker's scope is the site.
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
]
