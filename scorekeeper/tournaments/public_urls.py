"""The public pages of a concours, under /c/<public token>/."""

from django.urls import path

from . import public_views

app_name = "concours_public"

urlpatterns = [
    path("<str:token>/", public_views.standings_page, name="standings"),
    path("<str:token>/projector/", public_views.projector, name="projector"),
    path("<str:token>/qr.svg", public_views.qr_code, name="qr"),
]
