from django.urls import path
from django.views.generic import RedirectView

from . import views

app_name = "matches"

# Tokens are secrets.token_urlsafe (new_token): a slug's letters [A-Za-z0-9_-]. <slug:token> makes
# anything else (a NUL, which PostgreSQL refuses even in a query: a 500) a 404 before any lookup.
urlpatterns = [
    path("new/", views.new_match, name="new"),
    path("import/", views.import_match, name="import"),
    path("score/<slug:token>/", views.scoreboard, name="scoreboard"),
    path("score/<slug:token>/deal/", views.deal_new, name="deal_new"),
    path("score/<slug:token>/deal/<int:seq>/", views.deal_edit, name="deal_edit"),
    path("score/<slug:token>/deal/<int:seq>/delete/", views.deal_delete, name="deal_delete"),
    path("score/<slug:token>/deal/<int:seq>/log/", views.deal_log, name="deal_log"),
    # The deal log's former address ("history" now means the history app: past matches).
    path(
        "score/<slug:token>/deal/<int:seq>/history/",
        RedirectView.as_view(pattern_name="matches:deal_log", permanent=True, query_string=True),
    ),
    path("score/<slug:token>/passed/", views.deal_passed, name="deal_passed"),
    path("score/<slug:token>/manual/", views.deal_manual, name="deal_manual"),
    path("score/<slug:token>/deal/<int:seq>/manual/", views.deal_manual, name="deal_manual_edit"),
    # A phone's outbox, sent when the signal comes back (docs/offline.md).
    path("score/<slug:token>/outbox/", views.outbox, name="outbox"),
    path("score/<slug:token>/offline.json", views.offline_words, name="offline_words"),
    path("score/<slug:token>/undo/", views.undo, name="undo"),
    path("score/<slug:token>/redo/", views.redo, name="redo"),
    path("score/<slug:token>/count/", views.count_cards, name="count"),
    path("score/<slug:token>/share/", views.share, name="share"),
    path("score/<slug:token>/share/renew/", views.regenerate_links, name="regenerate_links"),
    path("score/<slug:token>/share/unlink/<int:pk>/", views.unlink_player, name="unlink_player"),
    path("score/<slug:token>/qr/<slug:kind>.svg", views.qr_code, name="qr"),
    path("score/<slug:token>/match.json", views.export_scorer, name="export"),
    path("score/<slug:token>/rematch/", views.rematch, name="rematch"),
    path("score/<slug:token>/manage/", views.manage, name="manage"),
    path("score/<slug:token>/manage/delete/", views.delete_match, name="delete_match"),
    path("score/<slug:token>/manage/abandon/", views.abandon, name="abandon"),
    path("score/<slug:token>/manage/resume/", views.resume, name="resume"),
    path("view/<slug:token>/", views.viewer, name="viewer"),
    path("view/<slug:token>/match.json", views.export_viewer, name="export_viewer"),
    # A finished match's link preview image (issue 45).
    path("view/<slug:token>/card.png", views.card_image, name="card"),
]
