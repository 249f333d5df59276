"""Helpers of the club's public page tests: finished concours whose final ranking is chosen
(each team's paper total), played through the real services (create, register, draw, paper
totals, close, finish), attached to a club and published."""

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from django.contrib.auth.models import User

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club, Season
from scorekeeper.concours import services
from scorekeeper.concours.models import Tournament
from scorekeeper.engine.season import rule_from_dict, rule_to_dict
from tests.factories import TournamentFactory

# Three final rankings of four teams (their paper totals): Rois, then Dames twice.
A = {"Rois": 900, "Dames": 800, "Valets": 700, "As": 600}
B = {"Dames": 900, "Rois": 800, "Valets": 700, "As": 600}
C = {"Dames": 900, "As": 800, "Valets": 700, "Rois": 600}


def played(
    owner: User,
    club: Club | None,
    name: str,
    when: date,
    points: Mapping[str, int],
    *,
    players: Mapping[str, tuple[str, str]] | None = None,
    melee: bool = False,
    published: bool = True,
    prizes: dict[int, str] | None = None,
    finish: bool = True,
) -> Tournament:
    """A concours of one round between the entrants of `points` (team name, or mêlée player ->
    its paper total): each table's totals are its sides' (a mêlée side: its first player's).
    Teams' players: `players[name]`, else "<name> A" and "<name> B". With points alone a team's
    place is its rank by points; equal points at two tables, each won, share a place."""
    pairs = players or {}
    tournament = TournamentFactory.create(
        owner=owner,
        name=name,
        preset="melee" if melee else "belote",
        overrides={"rounds": 1, "seed": 7},
        date=when,
        prizes=prizes,
        teams=[(team, *pairs.get(team, (f"{team} A", f"{team} B"))) for team in points],
        club=club,  # attached before the draw
    )
    round_ = services.draw_round(tournament=tournament)
    points = {" ".join(name.split()): value for name, value in points.items()}
    for table in round_.tables.order_by("number"):
        sides: list[list[str]] = [[], []]
        for place in table.places.select_related("entrant").order_by("seat"):
            assert place.side is not None
            sides[place.side].append(place.entrant.name)
        services.record_paper_totals(table=table, totals=(points[sides[0][0]], points[sides[1][0]]))
    if finish:
        services.close_round(round_=round_)
        services.finish(tournament=tournament)
    if club is not None and published:
        club_services.publish(club=club, tournament=tournament, published=True)
    tournament.refresh_from_db()
    return tournament


def season(
    club: Club,
    name: str = "2025-2026",
    start: date = date(2025, 9, 1),
    end: date = date(2026, 6, 30),
    published: bool = True,
    **rule: Any,
) -> Season:
    return Season.objects.create(
        club=club,
        name=name,
        start=start,
        end=end,
        rule=rule_to_dict(rule_from_dict(rule)),
        published=published,
    )


def ranking_names(rows: Sequence[dict[str, Any]]) -> list[tuple[int, str]]:
    return [(int(row["rank"]), str(row["name"])) for row in rows]


def final(tournament: Tournament) -> dict[str, Any]:
    """The stored final ranking (`Tournament.final_standings`), present."""
    stored = tournament.final_standings
    assert isinstance(stored, dict)
    return stored
