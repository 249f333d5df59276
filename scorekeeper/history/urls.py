from django.urls import path

from . import views

app_name = "history"

# Tokens are secrets.token_urlsafe (new_token): a slug's letters [A-Za-z0-9_-]. <slug:token> makes
# anything else (a NUL, which PostgreSQL refuses even in a query: a 500) a 404 before any lookup.
urlpatterns = [
    path("history/", views.history, name="history"),
    path("history/deals.csv", views.history_csv, name="history_csv"),
    path("history/backup.zip", views.backup, name="backup"),
    path("history/restore/", views.restore, name="restore"),
    path("history/restore/done/", views.restore_done, name="restore_done"),
    path("history/deleted/", views.deleted, name="deleted"),
    path("history/deleted/<slug:token>/restore/", views.undelete, name="undelete"),
    path("view/<slug:token>/review/", views.review, name="review"),
    path("view/<slug:token>/deals.csv", views.match_csv, name="match_csv"),
    path("players/<int:pk>/", views.player, name="player"),
    path("players/<int:pk>/me/", views.this_is_me, name="this_is_me"),
]
