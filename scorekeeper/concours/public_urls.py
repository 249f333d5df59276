"""The public pages of a concours, under /c/<public token>/."""

from django.urls import path

from . import public_views

app_name = "concours_public"

# Tokens are secrets.token_urlsafe (new_token): a slug's letters [A-Za-z0-9_-]. <slug:token> makes
# anything else (a NUL, which PostgreSQL refuses even in a query: a 500) a 404 before any lookup.
urlpatterns = [
    path("<slug:token>/", public_views.standings_page, name="standings"),
    path("<slug:token>/projector/", public_views.projector, name="projector"),
    path("<slug:token>/qr.svg", public_views.qr_code, name="qr"),
]
