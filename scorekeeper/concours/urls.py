from django.urls import path

from .views import (
    desk,
    entrants,
    prints,
    records,
    register,
    registrations,
    rounds,
    table_phone,
    tables,
)

app_name = "concours"

# Tokens are secrets.token_urlsafe (new_token): a slug's letters [A-Za-z0-9_-]. <slug:token> makes
# anything else (a NUL, which PostgreSQL refuses even in a query: a 500) a 404 before any lookup.
urlpatterns = [
    path("concours/", desk.concours_list, name="list"),
    path("concours/<int:pk>/", desk.desk, name="desk"),
    path("concours/<int:pk>/settings/", desk.edit_settings, name="settings"),
    path("concours/<int:pk>/add/", entrants.add_team, name="add"),
    path("concours/<int:pk>/paste/", entrants.paste, name="paste"),
    path("concours/<int:pk>/import-csv/", entrants.import_csv, name="import_csv"),
    path(
        "concours/<int:pk>/entrant/<int:number>/edit/", entrants.edit_entrant, name="edit_entrant"
    ),
    path("concours/<int:pk>/entrant/<int:number>/check-in/", entrants.check_in, name="check_in"),
    path("concours/<int:pk>/entrant/<int:number>/withdraw/", entrants.withdraw, name="withdraw"),
    path("concours/<int:pk>/draw/", rounds.draw, name="draw"),
    path("concours/<int:pk>/round/<int:round>/close/", rounds.close_round, name="close"),
    path(
        "concours/<int:pk>/round/<int:round>/table/<int:table>/paper/",
        tables.paper,
        name="paper",
    ),
    path(
        "concours/<int:pk>/round/<int:round>/table/<int:table>/time/",
        tables.call_time,
        name="call_time",
    ),
    path(
        "concours/<int:pk>/round/<int:round>/table/<int:table>/correct/",
        tables.correct,
        name="correct",
    ),
    path(
        "concours/<int:pk>/round/<int:round>/table/<int:table>/deals/",
        tables.table_deals,
        name="table_deals",
    ),
    path("concours/<int:pk>/round/<int:round>/redraw/", rounds.redraw, name="redraw"),
    path("concours/<int:pk>/round/<int:round>/clock/", rounds.start_clock, name="start_clock"),
    path("concours/<int:pk>/round/<int:round>/time-all/", rounds.call_time_all, name="time_all"),
    path("concours/<int:pk>/round/<int:round>/swap/", rounds.swap, name="swap"),
    path("concours/<int:pk>/round/<int:round>/tables/", rounds.round_tables, name="round_tables"),
    path("concours/<int:pk>/finish/", desk.finish, name="finish"),
    # Paper (views/prints.py): the draw poster, the score sheets of a round, the ranking.
    path(
        "concours/<int:pk>/round/<int:round>/print/draw/",
        prints.draw_poster,
        name="print_draw",
    ),
    path(
        "concours/<int:pk>/round/<int:round>/print/sheets/",
        prints.score_sheets,
        name="print_sheets",
    ),
    path("concours/<int:pk>/print/ranking/", prints.ranking, name="print_ranking"),
    path("concours/<int:pk>/print/bracket/", prints.bracket, name="print_bracket"),
    path("concours/import/", records.import_file, name="import"),
    path("concours/<int:pk>/concours.json", records.export_file, name="export"),
    path("concours/<int:pk>/standings.csv", records.standings_csv, name="standings_csv"),
    path("concours/<int:pk>/delete/", records.delete, name="delete"),
    # A table's phone (views/table_phone.py): its link, its QR code; the desk's "New link" for it.
    path("t/<slug:token>/", table_phone.table_phone, name="table"),
    path("t/<slug:token>/qr.svg", table_phone.table_qr, name="table_qr"),
    path("t/<slug:token>/clock/", table_phone.table_clock, name="table_clock"),
    path(
        "concours/<int:pk>/round/<int:round>/table/<int:table>/new-link/",
        tables.new_link,
        name="table_link",
    ),
    # Teams registering themselves (issue 45): the desk's side (views/registrations.py) and the
    # team's private link (views/register.py; the Register form is under /c/<public token>/).
    path("concours/<int:pk>/registration/", registrations.opening, name="opening"),
    path(
        "concours/<int:pk>/registrations/<int:number>/accept/",
        registrations.accept,
        name="registration_accept",
    ),
    path(
        "concours/<int:pk>/registrations/<int:number>/refuse/",
        registrations.refuse,
        name="registration_refuse",
    ),
    path(
        "concours/<int:pk>/registrations/<int:number>/edit/",
        registrations.edit,
        name="registration_edit",
    ),
    path("concours/<int:pk>/check-in/", registrations.check_in, name="check_in_code"),
    path("r/<slug:token>/", register.registration, name="registration"),
    path("r/<slug:token>/withdraw/", register.withdraw, name="registration_withdraw"),
    path("r/<slug:token>/qr.svg", register.registration_qr, name="registration_qr"),
    path("concours/co/<slug:token>/", desk.co_link, name="co"),
    path("concours/<int:pk>/co/qr.svg", desk.co_qr, name="co_qr"),
    path("concours/<int:pk>/co/new/", desk.co_new, name="co_new"),
]
