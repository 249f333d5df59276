"""Test data with factory-boy: accounts, and matches made through the real services (so the
engine scores every deal, as in the app). The fixtures `make_match` and `make_user`
(tests/conftest.py) are built on these; a test may also call them directly."""

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from factory.base import Factory
from factory.declarations import Sequence as Numbered
from factory.django import DjangoModelFactory, Password

from scorekeeper.engine.scoring import Deal as EngineDeal
from scorekeeper.engine.scoring import Rules, get_preset
from scorekeeper.matches import services
from scorekeeper.matches.models import Match

PASSWORD = "a-long-enough-password-42"
OWNER_KEY = "owner-device-key"  # the creating browser's key (tests/matches/support.py's)

MakeMatch = Callable[..., Match]  # the make_match fixture


class UserFactory(DjangoModelFactory[User]):
    """An account whose password is PASSWORD."""

    class Meta:
        model = User

    username = Numbered(lambda n: f"user{n}")  # type: ignore[no-untyped-call]
    password = Password(PASSWORD)  # type: ignore[no-untyped-call]


class MatchFactory(Factory[Match]):
    """A match created by the browser `owner_key` (and owned by the account `owner`, if any),
    its `deals` recorded one by one by that browser. `rules`: a preset's name or Rules."""

    class Meta:
        model = Match

    rules: Any = "coinche"
    deals: Any = ()
    owner_key = OWNER_KEY
    owner: Any = None
    team_names = ("Nous", "Eux")
    players: Any = ("Alice", "Chloé", "Bruno", "David")
    first_dealer = 0
    created_at: Any = None

    @classmethod
    def _create(cls, model_class: type[Match], *args: Any, **kwargs: Any) -> Match:
        return create_match(**kwargs)

    @classmethod
    def _build(cls, model_class: type[Match], *args: Any, **kwargs: Any) -> Match:
        raise NotImplementedError("a match is made by the services: use MatchFactory()")


def create_match(
    *,
    rules: Rules | str,
    deals: Sequence[EngineDeal],
    owner_key: str,
    owner: User | None,
    team_names: tuple[str, str],
    players: Sequence[str | None],
    first_dealer: int,
    created_at: datetime | None,
) -> Match:
    match = services.create_match(
        owner_key=owner_key,
        rules=get_preset(rules) if isinstance(rules, str) else rules,
        team_names=team_names,
        players=players,
        first_dealer=first_dealer,
    )
    creator = services.Author(key=owner_key, label="creator")
    for deal in deals:
        services.record_deal(match_id=match.pk, expected_version=None, deal=deal, author=creator)
    updates: dict[str, Any] = {}
    if owner is not None:
        updates["owner"] = owner
    if created_at is not None:
        updates["created_at"] = created_at
    if updates:
        Match.objects.filter(pk=match.pk).update(**updates)
    match.refresh_from_db()
    return match
