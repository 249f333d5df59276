from django.urls import path
from django.views.generic import RedirectView

from . import views

app_name = "matches"

urlpatterns = [
    path("new/", views.new_match, name="new"),
    path("import/", views.import_match, name="import"),
    path("score/<str:token>/", views.scoreboard, name="scoreboard"),
    path("score/<str:token>/deal/", views.deal_new, name="deal_new"),
    path("score/<str:token>/deal/<int:seq>/", views.deal_edit, name="deal_edit"),
    path("score/<str:token>/deal/<int:seq>/delete/", views.deal_delete, name="deal_delete"),
    path("score/<str:token>/deal/<int:seq>/log/", views.deal_log, name="deal_log"),
    # The deal log's former address ("history" now means the history app: past matches).
    path(
        "score/<str:token>/deal/<int:seq>/history/",
        RedirectView.as_view(pattern_name="matches:deal_log", permanent=True, query_string=True),
    ),
    path("score/<str:token>/passed/", views.deal_passed, name="deal_passed"),
    path("score/<str:token>/manual/", views.deal_manual, name="deal_manual"),
    path("score/<str:token>/deal/<int:seq>/manual/", views.deal_manual, name="deal_manual_edit"),
    path("score/<str:token>/undo/", views.undo, name="undo"),
    path("score/<str:token>/redo/", views.redo, name="redo"),
    path("score/<str:token>/count/", views.count_cards, name="count"),
    path("score/<str:token>/share/", views.share, name="share"),
    path("score/<str:token>/share/renew/", views.regenerate_links, name="regenerate_links"),
    path("score/<str:token>/share/unlink/<int:pk>/", views.unlink_player, name="unlink_player"),
    path("score/<str:token>/qr/<str:kind>.svg", views.qr_code, name="qr"),
    path("score/<str:token>/match.json", views.export_scorer, name="export"),
    path("score/<str:token>/rematch/", views.rematch, name="rematch"),
    path("score/<str:token>/manage/", views.manage, name="manage"),
    path("score/<str:token>/manage/delete/", views.delete_match, name="delete_match"),
    path("score/<str:token>/manage/abandon/", views.abandon, name="abandon"),
    path("score/<str:token>/manage/resume/", views.resume, name="resume"),
    path("view/<str:token>/", views.viewer, name="viewer"),
    path("view/<str:token>/match.json", views.export_viewer, name="export_viewer"),
]
