"""The club of the clubs tests: Ann's (a file may override `ann`, e.g. signed in)."""

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from scorekeeper.clubs.models import Club

from .support import make_club


@pytest.fixture
def ann(make_user: Callable[[str], User]) -> User:
    return make_user("ann")


@pytest.fixture
def club(ann: User) -> Club:
    return make_club(ann)
