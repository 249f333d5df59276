from django.urls import path

from . import views

app_name = "history"

urlpatterns = [
    path("history/", views.history, name="history"),
    path("history/deals.csv", views.history_csv, name="history_csv"),
    path("history/backup.zip", views.backup, name="backup"),
    path("history/restore/", views.restore, name="restore"),
    path("history/restore/done/", views.restore_done, name="restore_done"),
    path("history/deleted/", views.deleted, name="deleted"),
    path("history/deleted/<str:token>/restore/", views.undelete, name="undelete"),
    path("view/<str:token>/review/", views.review, name="review"),
    path("view/<str:token>/deals.csv", views.match_csv, name="match_csv"),
    path("players/<int:pk>/", views.player, name="player"),
    path("players/<int:pk>/me/", views.this_is_me, name="this_is_me"),
]
