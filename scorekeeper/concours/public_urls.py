"""The public pages of a concours, under /c/<public token>/."""

from django.urls import path

from .views import public, register, share

app_name = "concours_public"

# Tokens are secrets.token_urlsafe (new_token): a slug's letters [A-Za-z0-9_-]. <slug:token> makes
# anything else (a NUL, which PostgreSQL refuses even in a query: a 500) a 404 before any lookup.
urlpatterns = [
    path("<slug:token>/", public.standings_page, name="standings"),
    path("<slug:token>/projector/", public.projector, name="projector"),
    path("<slug:token>/qr.svg", public.qr_code, name="qr"),
    # Issue 45: teams registering themselves; the image of the page's link preview.
    path("<slug:token>/register/", register.register, name="register"),
    path("<slug:token>/card.png", share.card_image, name="card"),
]
