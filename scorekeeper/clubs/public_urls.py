"""A club's public pages, under /club/<slug>/ (the organisers' own pages are under /clubs/)."""

from django.urls import path

from .views import public

app_name = "club_public"

urlpatterns = [
    path("<slug:slug>/", public.club_page, name="club"),
    path("<slug:slug>/concours/<int:pk>/", public.concours_page, name="concours"),
    path("<slug:slug>/season/<int:pk>/", public.season_page, name="season"),
    path("<slug:slug>/season/<int:pk>/print/", public.season_print, name="season_print"),
    path("<slug:slug>/season/<int:pk>/ranking.csv", public.season_csv, name="season_csv"),
    path("<slug:slug>/record/<int:pk>/", public.record_page, name="record"),
    path("<slug:slug>/archive.zip", public.archive, name="archive"),
    path("<slug:slug>/restore/", public.restore, name="restore"),
]
