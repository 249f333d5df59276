from django.urls import path

from . import print_views, record_views, table_views, views

app_name = "concours"

# Tokens are secrets.token_urlsafe (new_token): a slug's letters [A-Za-z0-9_-]. <slug:token> makes
# anything else (a NUL, which PostgreSQL refuses even in a query: a 500) a 404 before any lookup.
urlpatterns = [
    path("concours/", views.concours_list, name="list"),
    path("concours/<int:pk>/", views.desk, name="desk"),
    path("concours/<int:pk>/settings/", views.edit_settings, name="settings"),
    path("concours/<int:pk>/add/", views.add_team, name="add"),
    path("concours/<int:pk>/paste/", views.paste, name="paste"),
    path("concours/<int:pk>/import-csv/", views.import_csv, name="import_csv"),
    path("concours/<int:pk>/entrant/<int:number>/edit/", views.edit_entrant, name="edit_entrant"),
    path("concours/<int:pk>/entrant/<int:number>/check-in/", views.check_in, name="check_in"),
    path("concours/<int:pk>/entrant/<int:number>/withdraw/", views.withdraw, name="withdraw"),
    path("concours/<int:pk>/draw/", views.draw, name="draw"),
    path("concours/<int:pk>/round/<int:round>/close/", views.close_round, name="close"),
    path(
        "concours/<int:pk>/round/<int:round>/table/<int:table>/paper/",
        views.paper,
        name="paper",
    ),
    path(
        "concours/<int:pk>/round/<int:round>/table/<int:table>/time/",
        views.call_time,
        name="call_time",
    ),
    path(
        "concours/<int:pk>/round/<int:round>/table/<int:table>/correct/",
        views.correct,
        name="correct",
    ),
    path(
        "concours/<int:pk>/round/<int:round>/table/<int:table>/deals/",
        views.table_deals,
        name="table_deals",
    ),
    path("concours/<int:pk>/round/<int:round>/redraw/", views.redraw, name="redraw"),
    path("concours/<int:pk>/round/<int:round>/swap/", views.swap, name="swap"),
    path("concours/<int:pk>/round/<int:round>/tables/", views.round_tables, name="round_tables"),
    path("concours/<int:pk>/finish/", views.finish, name="finish"),
    # Paper (print_views): the draw poster, the score sheets of a round, the ranking.
    path(
        "concours/<int:pk>/round/<int:round>/print/draw/",
        print_views.draw_poster,
        name="print_draw",
    ),
    path(
        "concours/<int:pk>/round/<int:round>/print/sheets/",
        print_views.score_sheets,
        name="print_sheets",
    ),
    path("concours/<int:pk>/print/ranking/", print_views.ranking, name="print_ranking"),
    path("concours/import/", record_views.import_file, name="import"),
    path("concours/<int:pk>/concours.json", record_views.export_file, name="export"),
    path("concours/<int:pk>/standings.csv", record_views.standings_csv, name="standings_csv"),
    path("concours/<int:pk>/delete/", record_views.delete, name="delete"),
    # A table's phone (table_views): its link, its QR code, the desk's "New link".
    path("t/<slug:token>/", table_views.table_phone, name="table"),
    path("t/<slug:token>/qr.svg", table_views.table_qr, name="table_qr"),
    path(
        "concours/<int:pk>/round/<int:round>/table/<int:table>/new-link/",
        table_views.new_link,
        name="table_link",
    ),
    path("concours/co/<slug:token>/", views.co_link, name="co"),
    path("concours/<int:pk>/co/qr.svg", views.co_qr, name="co_qr"),
    path("concours/<int:pk>/co/new/", views.co_new, name="co_new"),
]
