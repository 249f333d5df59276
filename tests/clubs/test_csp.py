"""Every HTML page of the clubs app, the organisers' (/clubs/...) and the public ones
(/club/...), keeps the strict Content-Security-Policy and has no inline script, style or
handler for it to block: as the concours pages (tests/concours/test_privacy.py). The routes
are read from the resolver (the `clubs` and `club_public` namespaces), so a new page is covered
as soon as it exists: `test_every_club_url_is_given_its_arguments` fails until ARGUMENTS knows
it. Pages are read as the club's organiser and as a stranger, redirects followed (the messages
after a change), and the forms sent wrong."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper.clubs import services
from scorekeeper.clubs.models import Club, Person, Season
from tests.factories import ClubFactory, TournamentFactory
from tests.routes import Route, assert_strict_csp, site_routes

from .public_support import A, B, played, season

pytestmark = pytest.mark.django_db

NAMESPACES = ("clubs", "club_public")


def routes() -> list[Route]:
    return [r for r in site_routes() if r.name.split(":")[0] in NAMESPACES]


@dataclass
class Setting:
    club: Club
    season: Season
    concours: int  # a published finished concours
    person: Person  # a team of it
    twin: Person  # another spelling of a player, for the merge's confirm page
    twin_of: Person
    organiser: Client
    stranger: Client


# Each route's arguments and query strings (each query string is one more page).
ARGUMENTS: dict[str, Callable[[Setting], list[tuple[dict[str, Any], str]]]] = {
    "clubs:list": lambda s: [({}, "")],
    "clubs:join": lambda s: [({"token": s.club.invite_token}, "")],
    "clubs:desk": lambda s: [({"pk": s.club.pk}, "")],
    "clubs:edit": lambda s: [({"pk": s.club.pk}, "")],
    "clubs:invite_new": lambda s: [({"pk": s.club.pk}, "")],
    "clubs:leave": lambda s: [({"pk": s.club.pk}, "")],
    "clubs:attach": lambda s: [({"pk": s.club.pk}, "")],
    "clubs:detach": lambda s: [({"pk": s.club.pk}, "")],
    "clubs:publish": lambda s: [({"pk": s.club.pk}, "")],
    "clubs:season_new": lambda s: [({"pk": s.club.pk}, "")],
    "clubs:season_edit": lambda s: [({"pk": s.club.pk, "season": s.season.pk}, "")],
    "clubs:season_delete": lambda s: [({"pk": s.club.pk, "season": s.season.pk}, "")],
    "clubs:people": lambda s: [({"pk": s.club.pk}, "")],
    "clubs:merge": lambda s: [
        ({"pk": s.club.pk}, f"?keep={s.twin_of.pk}&merge={s.twin.pk}"),
        ({"pk": s.club.pk}, f"?keep={s.person.pk}&merge={s.twin.pk}"),  # refused: the message
    ],
    "clubs:find_pair": lambda s: [
        ({"pk": s.club.pk}, "?kind=team&keep=Rois&merge=Nobody"),  # not found: the message
    ],
    "club_public:club": lambda s: [
        ({"slug": s.club.slug}, ""),
        ({"slug": s.club.slug}, "?q=Rois"),
        ({"slug": s.club.slug}, "?q=Nobody"),
    ],
    "club_public:concours": lambda s: [({"slug": s.club.slug, "pk": s.concours}, "")],
    "club_public:season": lambda s: [
        ({"slug": s.club.slug, "pk": s.season.pk}, f"?sort={sort}")
        for sort in ("rank", "wins", "played", "name")
    ],
    "club_public:season_print": lambda s: [({"slug": s.club.slug, "pk": s.season.pk}, "")],
    "club_public:season_csv": lambda s: [({"slug": s.club.slug, "pk": s.season.pk}, "")],
    "club_public:record": lambda s: [
        ({"slug": s.club.slug, "pk": s.person.pk}, ""),
        ({"slug": s.club.slug, "pk": s.twin_of.pk}, ""),
    ],
    "club_public:archive": lambda s: [({"slug": s.club.slug}, "")],
    "club_public:restore": lambda s: [({"slug": s.club.slug}, "")],
}

# Forms sent wrong: the page shown again with its errors (or the desk, with a message).
BAD_POSTS: list[tuple[str, Callable[[Setting], dict[str, Any]], dict[str, str]]] = [
    ("clubs:list", lambda s: {}, {"name": " "}),
    ("clubs:edit", lambda s: {"pk": s.club.pk}, {"name": ""}),
    ("clubs:season_new", lambda s: {"pk": s.club.pk}, {"name": "", "start": "not a date"}),
    (
        "clubs:season_edit",
        lambda s: {"pk": s.club.pk, "season": s.season.pk},
        {"name": "S", "start": "2026-09-01", "end": "2025-09-01", "table": "x"},
    ),
    ("club_public:restore", lambda s: {"slug": s.club.slug}, {}),
]


@pytest.fixture
def setting(make_user: Callable[[str], User]) -> Setting:
    ann = make_user("ann")
    club = ClubFactory.create(organiser=ann)
    played(ann, club, "Octobre", date(2025, 10, 1), A, prizes={1: "Un jambon"})
    last = played(
        ann, club, "Novembre", date(2025, 11, 1), B, players={"Rois": ("Rene Dupont", "Rois B")}
    )
    coming = TournamentFactory.create(
        owner=ann, name="Janvier", date=date(2026, 1, 9), prizes={1: "Un jambon"}, club=club
    )
    services.publish(club=club, tournament=coming, published=True)
    this = season(club, rank="teams")
    organiser = Client()
    organiser.force_login(ann)
    organiser.get(reverse("clubs:people", args=[club.pk]))  # the club's people recorded
    return Setting(
        club=club,
        season=this,
        concours=last.pk,
        person=Person.objects.get(club=club, kind="team", name="Rois"),
        twin=Person.objects.get(club=club, kind="player", name="Rene Dupont"),
        twin_of=Person.objects.get(club=club, kind="player", name="Rois A"),
        organiser=organiser,
        stranger=Client(),
    )


def test_every_club_url_is_given_its_arguments() -> None:
    found = {route.name for route in routes()}
    assert found, "no URL found: the walk is broken"
    assert sorted(found - ARGUMENTS.keys()) == [], "give these URLs their ARGUMENTS"
    assert sorted(ARGUMENTS.keys() - found) == [], "ARGUMENTS names a URL that is gone"


def test_every_page_keeps_the_strict_content_security_policy(setting: Setting) -> None:
    pages: set[str] = set()
    for route in routes():
        for kwargs, query in ARGUMENTS[route.name](setting):
            address = reverse(route.name, kwargs=kwargs) + query
            for who, client in (("organiser", setting.organiser), ("stranger", setting.stranger)):
                response = client.get(address, follow=True)
                if response.status_code != 200 or "text/html" not in response["Content-Type"]:
                    continue
                assert_strict_csp(
                    response["Content-Security-Policy"],
                    response.content.decode(),
                    f"{who} {address}",
                )
                pages.add(route.name)
    for name, kwargs_of, data in BAD_POSTS:
        address = reverse(name, kwargs=kwargs_of(setting))
        response = setting.organiser.post(address, data, follow=True)
        assert response.status_code == 200, name  # shown again with its errors, or a message
        assert "error" in response.content.decode(), name
        assert_strict_csp(
            response["Content-Security-Policy"], response.content.decode(), f"bad {name}"
        )
    # The list, the desk, a new season and one edited, the people, a merge (and, followed,
    # the invite link and Find), the club, a concours, a season and its print, a record, the
    # restore form.
    assert len(pages) >= 14, sorted(pages)
