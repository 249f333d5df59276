"""Helpers of the club tests. Clubs and concours are made by tests/factories.py (ClubFactory,
TournamentFactory); make_club stays for tests/browser/test_club_public.py, another session's."""

from django.contrib.auth.models import User

from scorekeeper.clubs.models import Club
from tests.factories import ClubFactory


def make_club(user: User, name: str = "Belote Club de Rouen", town: str = "Rouen") -> Club:
    return ClubFactory.create(organiser=user, name=name, town=town)
