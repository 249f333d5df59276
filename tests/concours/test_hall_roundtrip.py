"""After a concours run on the organiser's laptop (hall mode, docs/hall.md), its results reach the
club's hosted site without retyping: the desk's concours file, downloaded on the laptop and
imported on the site by another account, gives the same concours: its standings, rounds, tables
(who sat where, results, totals typed from paper, time called) and every table's deals, scored
again by the site's engine to the same points."""

import datetime
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scorekeeper.concours import selectors, services
from scorekeeper.concours.models import Entrant, Place, Table, Tournament
from scorekeeper.matches.models import Deal, Match
from tests.factories import TournamentFactory

from .support import play_deals, play_out

pytestmark = pytest.mark.django_db

TEAMS = [
    ("Les As", "Alice", "Bruno"),
    ("Pique Dame", "Chloé", "David"),
    ("Trèfle", "Emma", "Farid"),
    ("Carreau", "Gilles", "Hana"),
    ("Cœur", "Inès", "Jules"),
    ("Belote", "Karim", "Léa"),
    ("Rebelote", "Marc", "Nina"),
]
DEAL_FIELDS = [
    "seq", "kind", "taker", "contract", "trump", "coinche", "taker_points", "capot", "generale",
    "belote0", "belote1", "announcements", "announcements_to", "manual0", "manual1", "note",
    "taker_player", "coinche_player", "number", "outcome", "score0", "score1", "total0",
    "total1", "reserve_after", "dealer",
]  # fmt: skip
TABLE_FIELDS = [
    "number", "paper0", "paper1", "ended", "finished", "points0", "points1", "winner",
    "reserve_lost", "deal_count",
]  # fmt: skip
MATCH_FIELDS = ["status", "total0", "total1", "deal_count", "first_dealer", "team_names"]


def run_on_the_laptop(owner: User, *, finish: bool) -> Tournament:
    """Seven teams (a bye each round), three rounds: round 1 played on the phones but one table
    typed from its paper sheet and one whose time was called after 4 deals; a team withdraws
    after round 1; round 2 played out; round 3 (if `finish`) played out and the concours
    finished, else left under way with a table half played."""
    tournament = TournamentFactory.create(
        owner=owner,
        overrides={"rounds": 3, "seed": 11},
        date=datetime.date(2026, 11, 28),
        teams=TEAMS,
    )
    round_ = services.draw_round(tournament=tournament)
    tables = list(round_.tables.order_by("number"))
    services.record_paper_totals(table=tables[0], totals=(1240, 980))
    play_deals(tables[1], 4, seed=1)
    services.call_time(table=tables[1])
    for table in tables[2:]:
        play_out(table, seed=1)
    services.close_round(round_=round_)
    services.withdraw(entrant=Entrant.objects.get(tournament=tournament, name="Cœur"))
    round_ = services.draw_round(tournament=tournament)
    for table in round_.tables.all():
        play_out(table, seed=2)
    services.close_round(round_=round_)
    round_ = services.draw_round(tournament=tournament)
    tables = list(round_.tables.order_by("number"))
    if finish:
        for table in tables:
            play_out(table, seed=3)
        services.close_round(round_=round_)
        services.finish(tournament=tournament)
    else:
        play_out(tables[0], seed=3)
        play_deals(tables[1], 3, seed=3)
    tournament.refresh_from_db()
    return tournament


def what_it_holds(tournament: Tournament) -> dict[str, Any]:
    """Everything the site must show the same: standings after each round, the entrants (with
    their withdrawals), the rounds, each table with its places, result and (scored on the
    phones) its match's deals."""
    tables: list[dict[str, Any]] = []
    for table in Table.objects.filter(round__tournament=tournament).order_by(
        "round__number", "number"
    ):
        places = list(
            Place.objects.filter(table=table)
            .order_by("side", "seat")
            .values_list("side", "seat", "entrant__number")
        )
        held: dict[str, Any] = {
            "round": table.round.number,
            **{field: getattr(table, field) for field in TABLE_FIELDS},
            "places": places,
        }
        if table.paper is None:  # typed from paper: the phone's deals (if any) do not count
            match = Match.objects.get(concours_table=table)
            held["match"] = {field: getattr(match, field) for field in MATCH_FIELDS}
            held["players"] = list(
                match.seat_rows.order_by("position").values_list("position", "player__name")
            )
            held["deals"] = list(
                Deal.objects.filter(match=match).order_by("seq").values(*DEAL_FIELDS)
            )
        tables.append(held)
    rounds = list(tournament.rounds.order_by("number"))
    return {
        "status": tournament.status,
        "settings": tournament.settings,
        "name": tournament.name,
        "date": tournament.date,
        "entrants": list(
            tournament.entrants.order_by("number").values_list(
                "number", "name", "player1", "player2", "withdrawn_before_round"
            )
        ),
        "rounds": [(r.number, r.is_closed) for r in rounds],
        "byes": list(
            Place.objects.filter(round__tournament=tournament, table__isnull=True)
            .order_by("round__number")
            .values_list("round__number", "entrant__number")
        ),
        "tables": tables,
        "standings": [
            [{k: v for k, v in row.items() if k != "prize"} for row in rows]
            for rows in (
                selectors.standings_rows(tournament, after) for after in range(1, len(rounds) + 1)
            )
        ],
        "final": selectors.standings_rows(tournament) if tournament.status == "finished" else None,
    }


@pytest.mark.parametrize("finish", [True, False], ids=["finished", "under-way"])
def test_the_laptop_s_concours_imports_on_the_site_identical(
    make_user: Callable[[str], User], finish: bool
) -> None:
    laptop = Client()
    organiser = make_user("organiser")
    laptop.force_login(organiser)
    tournament = run_on_the_laptop(organiser, finish=finish)
    download = laptop.get(reverse("concours:export", args=[tournament.pk]))
    assert download.status_code == 200

    site = Client()
    site_account = make_user("club-secretary")
    site.force_login(site_account)
    upload = SimpleUploadedFile("concours.json", download.content, "application/json")
    response = site.post(reverse("concours:import"), {"file": upload})
    assert response.status_code == 302
    copy = Tournament.objects.exclude(pk=tournament.pk).get()
    assert copy.owner == site_account

    before, after = what_it_holds(tournament), what_it_holds(copy)
    # What is compared holds each case: a paper table, time called, a withdrawal, deals.
    first = before["tables"][0]
    assert (first["paper0"], first["paper1"]) == (1240, 980) and "deals" not in first
    assert before["tables"][1]["ended"] and len(before["tables"][1]["deals"]) == 4
    assert sum(len(t.get("deals", ())) for t in before["tables"]) > 40
    assert [e[4] for e in before["entrants"]].count(2) == 1
    assert before["status"] == ("finished" if finish else "playing")
    for key in before:
        assert after[key] == before[key], key
    # The table matches are the site account's, held by the concours.
    matches = Match.objects.filter(concours_table__round__tournament=copy)
    assert set(matches.values_list("owner", flat=True)) == {site_account.pk}
    assert all(m.in_concours for m in matches)
