"""A club's public pages, under /club/<slug>/ (the organisers' own pages are under /clubs/)."""

from django.urls import path

from . import public_views

app_name = "club_public"

urlpatterns = [
    path("<slug:slug>/", public_views.club_page, name="club"),
    path("<slug:slug>/concours/<int:pk>/", public_views.concours_page, name="concours"),
    path("<slug:slug>/season/<int:pk>/", public_views.season_page, name="season"),
    path("<slug:slug>/season/<int:pk>/print/", public_views.season_print, name="season_print"),
    path("<slug:slug>/season/<int:pk>/ranking.csv", public_views.season_csv, name="season_csv"),
    path("<slug:slug>/record/<int:pk>/", public_views.record_page, name="record"),
    path("<slug:slug>/archive.zip", public_views.archive, name="archive"),
    path("<slug:slug>/restore/", public_views.restore, name="restore"),
]
