"""Test data with factory-boy: accounts, matches, concours and clubs made through the real services
(so the engine scores every deal and draws every round, as in the app). The fixtures `make_match` and
`make_user` (tests/conftest.py) are built on these; a test may also call them directly."""

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from factory.base import Factory
from factory.declarations import Sequence as Numbered
from factory.declarations import SubFactory
from factory.django import DjangoModelFactory, Password

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import Club
from scorekeeper.concours import services as concours_services
from scorekeeper.concours.models import Entrant, Tournament
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


# Concours ----------------------------------------------------------------------------------------

Teams = str | Iterable[tuple[str, str, str]] | Iterable[str]


class TournamentFactory(Factory[Tournament]):
    """A concours made by concours.services.create_tournament: `owner`'s (an account made by
    UserFactory unless given), from `preset` with `overrides` (no seed among them: the services
    draw one), with its `date`, `place` and `prizes`; then `teams` registered in order
    (add_teams), the concours attached to `club` if given (clubs.services.attach, by its owner:
    the teams' names become the club's people) and, if `drawn`, the first round drawn (not
    played: tests/concours/support.py's play_out and play_rounds play them)."""

    class Meta:
        model = Tournament

    owner: Any = SubFactory(UserFactory)  # type: ignore[no-untyped-call]
    name = "Concours de la Saint-Martin"
    preset = "belote"
    overrides: Any = None
    date: Any = None
    place = ""
    prizes: Any = None
    teams: Any = ()
    club: Any = None
    drawn = False

    @classmethod
    def _create(
        cls,
        model_class: type[Tournament],
        *args: Any,
        teams: Teams,
        club: Club | None,
        drawn: bool,
        **kwargs: Any,
    ) -> Tournament:
        tournament = concours_services.create_tournament(**kwargs)
        add_teams(tournament, teams)
        if club is not None:
            club_services.attach(club=club, tournament=tournament, user=tournament.owner)
            tournament.refresh_from_db()
        if drawn:
            concours_services.draw_round(tournament=tournament)
        return tournament

    @classmethod
    def _build(cls, model_class: type[Tournament], *args: Any, **kwargs: Any) -> Tournament:
        raise NotImplementedError("a concours is made by the services: use TournamentFactory()")


def add_teams(tournament: Tournament, teams: Teams) -> list[Entrant]:
    """Registers `teams` in order: a pasted list ("Team; Player 1; Player 2" a line, as the desk's
    Paste a list reads it), or (name, player 1, player 2) triples, or à la mêlée players' names
    (a triple's players are left out there)."""
    if isinstance(teams, str):
        return concours_services.add_entrants_from_text(tournament=tournament, text=teams)
    added = []
    for team in teams:
        if isinstance(team, str):
            name, players = team, ("", "")
        else:
            name, first, second = team
            players = ("", "") if tournament.melee else (first, second)
        added.append(
            concours_services.add_entrant(tournament=tournament, name=name, players=players)
        )
    return added


# Clubs -------------------------------------------------------------------------------------------


class ClubFactory(Factory[Club]):
    """A club made by clubs.services.create_club, its first organiser `organiser` (an account
    made by UserFactory unless given)."""

    class Meta:
        model = Club

    organiser: Any = SubFactory(UserFactory)  # type: ignore[no-untyped-call]
    name = "Belote Club de Rouen"
    town = "Rouen"

    @classmethod
    def _create(cls, model_class: type[Club], *args: Any, organiser: User, **kwargs: Any) -> Club:
        return club_services.create_club(user=organiser, **kwargs)

    @classmethod
    def _build(cls, model_class: type[Club], *args: Any, **kwargs: Any) -> Club:
        raise NotImplementedError("a club is made by the services: use ClubFactory()")
