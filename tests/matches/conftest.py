"""Fixtures of the web tests: matches made through the services, browsers (test clients) that are
the match's creator or another phone, and a snapshot of the whole state of the matches app to prove
that a refused request changed nothing."""

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from scorekeeper.matches import access
from scorekeeper.matches.models import Deal, DealChange, Match, Player, Seat
from tests import factories

from .support import OWNER_KEY

MakeMatch = factories.MakeMatch
Snapshot = Callable[[], dict[str, Any]]


# make_match (a match created by OWNER_KEY, its deals recorded by the services) is the suite's
# (tests/conftest.py, built on tests/factories.py).


def client_with_device(key: str) -> Client:
    client = Client()
    session = client.session
    session[access.DEVICE_KEY] = key
    session.save()
    return client


@pytest.fixture
def owner_client(db: None) -> Client:
    """The browser that created the matches of `make_match`."""
    return client_with_device(OWNER_KEY)


@pytest.fixture
def other_client(db: None) -> Client:
    """Another phone: its own session, no match of its own."""
    return client_with_device("another-phone-key")


@pytest.fixture
def snapshot(db: None) -> Snapshot:
    """Every row of the matches app, as plain values (to compare before and after)."""

    def take() -> dict[str, Any]:
        return {
            "matches": list(Match.objects.order_by("pk").values()),
            "deals": list(Deal.objects.order_by("pk").values()),
            "changes": list(DealChange.objects.order_by("pk").values()),
            "players": list(Player.objects.order_by("pk").values()),
            "seats": list(Seat.objects.order_by("pk").values()),
        }

    return take
