"""Helpers of the club tests: a club with its organiser, concours with entrants made through the
real services."""

from collections.abc import Sequence
from datetime import date

from django.contrib.auth.models import User

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club
from scorekeeper.concours import services as tournament_services
from scorekeeper.concours.models import Tournament


def make_club(user: User, name: str = "Belote Club de Rouen", town: str = "Rouen") -> Club:
    return club_services.create_club(user=user, name=name, town=town)


def make_concours(
    owner: User,
    name: str = "Concours de mars",
    teams: Sequence[tuple[str, str, str]] = (),
    players: Sequence[str] = (),
    club: Club | None = None,
    when: date | None = None,
) -> Tournament:
    """A concours of `owner` (à la mêlée when `players` are given), attached to `club`."""
    tournament = tournament_services.create_tournament(
        owner=owner, name=name, preset="melee" if players else "belote", date=when
    )
    for team, p1, p2 in teams:
        tournament_services.add_entrant(tournament=tournament, name=team, players=(p1, p2))
    for player in players:
        tournament_services.add_entrant(tournament=tournament, name=player)
    if club is not None:
        club_services.attach(club=club, tournament=tournament, user=owner)
        tournament.refresh_from_db()
    return tournament
