from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from scorekeeper.matches.views import home

handler500 = "scorekeeper.web.errors.server_error"  # no database; 503 when the database is gone

urlpatterns = [
    path("i18n/", include("django.conf.urls.i18n")),
    path(settings.ADMIN_URL, admin.site.urls),
    path("", home, name="home"),  # the matches app's, named without its namespace
    path("accounts/", include("scorekeeper.accounts.urls")),
    path("", include("scorekeeper.matches.urls")),
    path("", include("scorekeeper.history.urls")),
    path("", include("scorekeeper.concours.urls")),  # the organiser's desk
    path("clubs/", include("scorekeeper.clubs.urls")),  # a club's organisers
    path("jobs/", include("scorekeeper.jobs.urls")),  # restores and big imports, in the background
    path("", include("scorekeeper.web.urls")),
    path("c/", include("scorekeeper.concours.public_urls")),  # a concours's public pages
    path("club/", include("scorekeeper.clubs.public_urls")),  # a club's public pages
]
