"""The club of the clubs tests: Ann's (a file may override `ann`, e.g. signed in)."""

from collections.abc import Callable
from datetime import date

import pytest
from django.contrib.auth.models import User

from scorekeeper.clubs.models import Club
from scorekeeper.concours.models import Tournament
from tests.factories import ClubFactory

from .public_support import A, B, C, played


@pytest.fixture
def ann(make_user: Callable[[str], User]) -> User:
    return make_user("ann")


@pytest.fixture
def club(ann: User) -> Club:
    return ClubFactory.create(organiser=ann)


@pytest.fixture
def three(ann: User, club: Club) -> list[Tournament]:
    """Three team concours of the 2025-2026 season, published, the first with a prize."""
    return [
        played(ann, club, "Octobre", date(2025, 10, 1), A, prizes={1: "Un jambon"}),
        played(ann, club, "Novembre", date(2025, 11, 1), B),
        played(ann, club, "Décembre", date(2025, 12, 1), C),
    ]
