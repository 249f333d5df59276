from django.urls import path

from . import views

urlpatterns = [
    path("healthz", views.healthz, name="healthz"),
    # The in-browser engine (docs/offline-engine.md): its manifest, and its zip by content hash.
    path("offline/engine/", views.offline_engine_manifest, name="offline_engine"),
    path("offline/engine/<str:digest>.zip", views.offline_engine_zip, name="offline_engine_zip"),
]
