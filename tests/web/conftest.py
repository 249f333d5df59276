"""Fixtures of the web tests: matches made through the services, browsers (test clients) that are
the match's creator or another phone, and a snapshot of the whole state of the matches app to prove
that a refused request changed nothing."""

from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.test import Client

from scorekeeper.matches import access, services
from scorekeeper.matches.models import Deal, DealChange, Match, Player, Seat
from scorekeeper.scoring import Deal as EngineDeal
from scorekeeper.scoring import Rules, get_preset

from .support import CREATOR, OWNER_KEY

MakeMatch = Callable[..., Match]
Snapshot = Callable[[], dict[str, Any]]


@pytest.fixture
def make_match(db: None) -> MakeMatch:
    """A match created by OWNER_KEY with these deals recorded one by one through the services."""

    def make(
        rules: Rules | str = "coinche",
        deals: Sequence[EngineDeal] = (),
        *,
        team_names: tuple[str, str] = ("Nous", "Eux"),
        players: Sequence[str | None] = ("Alice", "Chloé", "Bruno", "David"),
        first_dealer: int = 0,
    ) -> Match:
        match = services.create_match(
            owner_key=OWNER_KEY,
            rules=get_preset(rules) if isinstance(rules, str) else rules,
            team_names=team_names,
            players=players,
            first_dealer=first_dealer,
        )
        for deal in deals:
            services.record_deal(
                match_id=match.pk, expected_version=None, deal=deal, author=CREATOR
            )
        match.refresh_from_db()
        return match

    return make


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
