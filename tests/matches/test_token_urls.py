"""A token in a URL that cannot be a token (a NUL, a dot, a space) is a 404 from the URL itself,
on every route of the site that takes a token or any other word: PostgreSQL refuses a NUL even
in a query (a 500). Tokens are secrets.token_urlsafe (matches.models.new_token), a slug's letters,
so every such route says <slug:...>; the routes are read from the resolver, so a new one is
covered (and a new <str:...> fails `test_no_route_takes_a_free_string`). Search boxes read
from the query string hold a NUL without a 500 too."""

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.urls.converters import IntConverter, SlugConverter
from django.urls.resolvers import RoutePattern

from scorekeeper.matches.models import new_token
from tests.factories import ClubFactory, TournamentFactory
from tests.routes import Route, site_routes

pytestmark = pytest.mark.django_db

CAPTURE = re.compile(r"<(?:(?P<converter>[^>:]+):)?(?P<name>[^>]+)>")


@dataclass(frozen=True)
class WordRoute:
    route: Route
    words: tuple[str, ...]  # its captures that are not numbers
    free: tuple[str, ...]  # those of them that take any string (not a slug)

    @property
    def name(self) -> str:
        return self.route.name

    @property
    def pattern(self) -> str:
        return self.route.pattern


def routes() -> list[WordRoute]:
    """Every route of the site (Django's admin aside) that takes a word: a token, a slug."""
    found = []
    for route in site_routes():
        if not isinstance(route.view.pattern, RoutePattern):
            continue
        converters = route.view.pattern.converters
        words = tuple(n for n, c in converters.items() if not isinstance(c, IntConverter))
        free = tuple(n for n in words if not isinstance(converters[n], SlugConverter))
        if words:
            found.append(WordRoute(route, words, free))
    return found


def url(route: WordRoute, word: str) -> str:
    """The route's URL with `word` for each of its words and 1 for each number."""

    def fill(capture: re.Match[str]) -> str:
        return word if capture["name"] in route.words else "1"

    return "/" + CAPTURE.sub(fill, route.pattern)


def test_the_walk_finds_the_token_routes() -> None:
    found = {route.name for route in routes()}
    expected = {
        "matches:scoreboard",
        "matches:qr",
        "history:review",
        "history:undelete",
        "concours:table",
        "concours:co",
        "concours_public:standings",
        "clubs:join",
        "club_public:club",
    }
    assert expected <= found, sorted(expected - found)


def test_no_route_takes_a_free_string() -> None:
    """<str:...> or a bare <name> takes any character a URL can carry, a NUL included."""
    free = {route.name: route.free for route in routes() if route.free}
    assert free == {}, free


@pytest.fixture
def signed_in(make_user: Callable[[str], User]) -> Client:
    """A signed-in browser: the views that want an account reach their lookup."""
    client = Client()
    client.force_login(make_user("ann"))
    return client


MALFORMED = [
    "ab%00cd",  # a NUL: PostgreSQL's "A string literal cannot contain NUL characters"
    "%00",
    f"{new_token()[:12]}%00{new_token()[:12]}",  # a real token's length and letters, and a NUL
    "ab.cd",
    "ab%20cd",
    "%C3%A9t%C3%A9",  # letters outside the token's: été
]


@pytest.mark.parametrize("route", routes(), ids=lambda route: route.pattern)
def test_a_malformed_token_is_404_not_500(route: WordRoute, signed_in: Client) -> None:
    for word in MALFORMED:
        target = url(route, word)
        assert signed_in.get(target).status_code == 404, target
        assert signed_in.post(target).status_code == 404, target
        assert Client().get(target).status_code == 404, target


def test_a_nul_in_a_search_box_is_no_server_error(
    signed_in: Client, make_user: Callable[[str], User]
) -> None:
    """What the search boxes read from the query string (My matches' search and player, a
    club's Find a player, a concours's Find my table) holds a NUL: found nowhere, no 500."""
    owner = make_user("organiser")
    club = ClubFactory.create(organiser=owner, name="Belote Club de Rouen", town="Rouen")
    concours = TournamentFactory.create(
        owner=owner,
        name="Concours de mars",
        date=date(2026, 3, 6),
        teams=[("Les As", "Ann", "Bob")],
    )
    pages = [
        reverse("history:history"),
        reverse("club_public:club", args=[club.slug]),
        reverse("concours_public:standings", args=[concours.public_token]),
    ]
    for page in pages:
        for query in ("q=%00", "q=Les%00As", "player=%00", "q=%00&player=A%00n"):
            assert signed_in.get(f"{page}?{query}").status_code == 200, (page, query)
