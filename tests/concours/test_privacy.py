"""Privacy of a concours, per role, on EVERY URL of the concours app (issue 15: "organisers see
everything; a table link sees its table; the public link sees standings and results only;
strangers nothing").

The URL patterns are read from the resolver (the `tournaments` and `concours_public` namespaces,
and any pattern whose view lives in `scorekeeper.concours`), so a new page is covered as soon
as it exists: `test_every_url_is_classified` fails until it is given a kind in KIND below.

Roles: the organiser (owner), a browser that opened the co-organiser link, a browser that
opened table 1's phone link, a browser that opened the public standings, another account, a
stranger. Kinds:
- "desk": the organiser and a co-organiser; 404 for everyone else, nothing changed;
- "owner": the organiser alone (a co-organiser gets 404 too);
- "account": pages of the signed-in organiser's own concours (the list, Import), no concours in
  the URL: a stranger is sent to log in, another account sees only its own;
- "public" (by the public token), "table" (by a table's token), "co" (by the co-organiser
  token), "team" (a registration's private link, issue 45): whoever holds the token; any other
  token, of another kind included, is 404."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper.concours import services
from scorekeeper.concours.models import (
    Entrant,
    Registration,
    ResultChange,
    Round,
    Table,
    Tournament,
)
from scorekeeper.matches.models import Match
from tests.factories import TournamentFactory, UserFactory
from tests.routes import Route, assert_strict_csp, site_routes
from tests.shared_data import SharedClient, shared_data

from .support import play_deals

NAMESPACES = ("concours", "concours_public")

KIND: dict[str, str] = {
    "concours:list": "account",
    "concours:import": "account",
    "concours:desk": "desk",
    "concours:add": "desk",
    "concours:paste": "desk",
    "concours:import_csv": "desk",
    "concours:edit_entrant": "desk",
    "concours:check_in": "desk",
    "concours:withdraw": "desk",
    "concours:draw": "desk",
    "concours:close": "desk",
    "concours:paper": "desk",
    "concours:call_time": "desk",
    "concours:correct": "desk",
    "concours:table_deals": "desk",
    "concours:redraw": "desk",
    "concours:start_clock": "desk",
    "concours:time_all": "desk",
    "concours:swap": "desk",
    "concours:round_tables": "desk",
    "concours:finish": "desk",
    "concours:table_link": "desk",
    "concours:print_draw": "desk",
    "concours:print_sheets": "desk",
    "concours:print_ranking": "desk",
    "concours:print_bracket": "desk",
    "concours:export": "desk",
    "concours:standings_csv": "desk",
    "concours:co_qr": "desk",
    "concours:delete": "owner",
    "concours:co_new": "owner",
    "concours:settings": "owner",
    "concours:table": "table",
    "concours:table_qr": "table",
    "concours:table_clock": "table",
    "concours:co": "co",
    "concours_public:standings": "public",
    "concours_public:projector": "public",
    "concours_public:qr": "public",
    # Issue 45: teams registering themselves.
    "concours:opening": "owner",
    "concours:registration_accept": "desk",
    "concours:registration_refuse": "desk",
    "concours:registration_edit": "desk",
    "concours:check_in_code": "desk",
    "concours:registration": "team",
    "concours:registration_withdraw": "team",
    "concours:registration_qr": "team",
    "concours_public:register": "public",
    "concours_public:card": "public",
}

# What an allowed role posts to a POST-only page (without it the page answers 404 or refuses
# for the data, not for the role).
POST_DATA: dict[str, dict[str, str]] = {
    "concours:check_in": {"present": "1"},
    "concours:check_in_code": {"code": "ZZZZZZ"},
}


def routes() -> list[Route]:
    """Every URL of the concours app: its namespaces, or a view of its modules."""
    return [
        route
        for route in site_routes()
        if route.name.split(":")[0] in NAMESPACES or route.module.startswith("scorekeeper.concours")
    ]


def test_every_url_is_classified() -> None:
    found = {route.name for route in routes()}
    assert found, "no URL found: the walk is broken"
    unclassified = sorted(found - KIND.keys())
    assert unclassified == [], f"give these URLs a kind in KIND: {unclassified}"
    assert sorted(KIND.keys() - found) == [], "KIND names a URL that is gone"


def named(kind: str) -> list[str]:
    return sorted(name for name, k in KIND.items() if k == kind)


# A concours under way: five teams, round 1 drawn (two tables and a bye), table 1 at deal 2.


@dataclass
class Setting:
    tournament: Tournament
    table: Table  # table 1
    other_table: Table  # table 2
    clients: dict[str, Client]


TEAMS = "Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\n"
TEAMS += "Carreau; Gilles; Hana\nCœur; Inès; Jules"
ROLES = ("stranger", "other", "public", "table", "co", "owner")
CONTACT = "06 55 44 33 22"


@shared_data
def setting() -> Setting:
    """Built once for the module (tests/shared_data.py): each test gets its own copy, clients
    included, and its writes roll back."""
    organiser = UserFactory.create(username="organiser")
    tournament = TournamentFactory.create(
        owner=organiser, name="Concours de la Saint-Martin", overrides={"seed": 3}, teams=TEAMS
    )
    # A team registered on the public page before the draw (issue 45): its own link, its
    # contact the owner's alone.
    Registration.objects.create(
        tournament=tournament, name="Pique Libre", player1="Kim", player2="Luc", contact=CONTACT
    )
    round_ = services.draw_round(tournament=tournament)
    table, other_table = round_.tables.order_by("number")
    play_deals(table, 2)
    clients: dict[str, Client] = {role: SharedClient() for role in ROLES}
    clients["owner"].force_login(organiser)
    clients["other"].force_login(UserFactory.create(username="someone-else"))
    opened = clients["co"].get(reverse("concours:co", args=[tournament.co_token]))
    assert opened.status_code == 302
    assert clients["table"].get(reverse("concours:table", args=[table.token])).status_code == 302
    public = reverse("concours_public:standings", args=[tournament.public_token])
    assert clients["public"].get(public).status_code == 200
    tournament.refresh_from_db()
    return Setting(tournament, table, other_table, clients)


def url(name: str, setting: Setting, token: str | None = None) -> str:
    """The URL of `name` for the setting's concours (its round 1, table 1, entrant 1); token
    URLs take the token of their kind unless one is given."""
    route = next(r for r in routes() if r.name == name)
    kwargs: dict[str, Any] = {}
    registration = Registration.objects.filter(tournament=setting.tournament).first()
    number = registration.pk if name.startswith("concours:registration_") and registration else 1
    for key, value in (
        ("pk", setting.tournament.pk),
        ("round", 1),
        ("table", 1),
        ("number", number),
    ):
        if f"<int:{key}>" in route.pattern:
            kwargs[key] = value
    if "<slug:token>" in route.pattern:
        own = {
            "public": setting.tournament.public_token,
            "table": setting.table.token,
            "co": setting.tournament.co_token,
            "team": registration.token if registration else "nope",
        }
        kwargs["token"] = token or own[KIND[name]]
    return reverse(name, kwargs=kwargs)


def state(tournament: Tournament) -> tuple[Any, ...]:
    """What a refused request must leave as it was."""
    return (
        Tournament.objects.filter(pk=tournament.pk).values_list("version", "co_token").first(),
        Entrant.objects.filter(tournament=tournament).count(),
        Round.objects.filter(tournament=tournament).count(),
        list(Table.objects.filter(round__tournament=tournament).values_list("token", "match_id")),
        ResultChange.objects.count(),
        Match.objects.filter(deleted_at__isnull=True).count(),
        list(Registration.objects.filter(tournament=tournament).values()),
    )


def ask(client: Client, name: str, address: str) -> int:
    """GET the page; a POST-only page (405) is posted to."""
    response = client.get(address)
    if response.status_code == 405:
        response = client.post(address, POST_DATA.get(name, {}))
    return response.status_code


@pytest.mark.parametrize("name", named("desk") + named("owner"))
def test_the_desk_is_the_organisers(setting: Setting, name: str) -> None:
    allowed = ("co", "owner") if KIND[name] == "desk" else ("owner",)
    address = url(name, setting)
    before = state(setting.tournament)
    for role in ROLES:  # the refused roles first: nothing may have changed before them
        if role in allowed:
            continue
        assert ask(setting.clients[role], name, address) == 404, (role, address)
        assert state(setting.tournament) == before, role
    for role in allowed:
        assert ask(setting.clients[role], name, address) != 404, (role, address)


@pytest.mark.parametrize("name", named("desk") + named("owner"))
def test_another_concours_is_404_even_to_an_organiser(
    setting: Setting, name: str, make_user: Callable[[str], User]
) -> None:
    """The organiser (and the co-organiser) of one concours gets nothing of another's desk."""
    theirs = TournamentFactory.create(
        owner=make_user("rival"), name="Concours du voisin", teams=TEAMS, drawn=True
    )
    other = Setting(theirs, setting.table, setting.other_table, setting.clients)
    address = url(name, other)
    for role in ("owner", "co"):
        assert ask(setting.clients[role], name, address) == 404, (role, address)


@pytest.mark.parametrize("name", named("public"))
def test_the_public_link_shows_standings_to_whoever_holds_it(setting: Setting, name: str) -> None:
    for role in ROLES:
        assert setting.clients[role].get(url(name, setting)).status_code == 200, role
    # Any other token, the co-organiser's and a table's included, is unknown here.
    for token in ("nope", setting.tournament.co_token, setting.table.token):
        assert Client().get(url(name, setting, token)).status_code == 404, token


def test_the_public_page_shows_no_desk_link(setting: Setting) -> None:
    html = setting.clients["public"].get(url("concours_public:standings", setting)).content
    text = html.decode()
    assert reverse("concours:desk", args=[setting.tournament.pk]) not in text
    assert setting.tournament.co_token not in text
    assert str(setting.table.token) not in text
    assert Match.objects.get(concours_table=setting.table).scorer_token not in text


@pytest.mark.parametrize("name", named("table"))
def test_a_table_link_opens_its_table_only(setting: Setting, name: str) -> None:
    for role in ROLES:
        assert setting.clients[role].get(url(name, setting)).status_code != 404, role
    for token in ("nope", setting.tournament.public_token, setting.tournament.co_token):
        assert Client().get(url(name, setting, token)).status_code == 404, token
    # A new link (the desk's) retires the old one at once.
    old = setting.table.token
    assert old is not None
    services.regenerate_table_link(table=setting.table)
    assert Client().get(url(name, setting, old)).status_code == 404


def test_a_table_phone_scores_its_table_and_no_other(setting: Setting) -> None:
    phone = setting.clients["table"]
    response = phone.get(url("concours:table", setting))
    mine = Match.objects.get(concours_table=setting.table)
    theirs = Match.objects.get(concours_table=setting.other_table)
    assert response["Location"] == reverse("matches:scoreboard", args=[mine.scorer_token])
    assert phone.get(response["Location"]).status_code == 200
    # The other table's pages need that table's own link, which this phone never saw.
    html = phone.get(response["Location"]).content.decode()
    assert theirs.scorer_token not in html and theirs.view_token not in html
    assert str(setting.other_table.token) not in html
    assert setting.tournament.co_token not in html


@pytest.mark.parametrize("name", named("team"))
def test_a_team_link_opens_its_registration_only(setting: Setting, name: str) -> None:
    """Whoever holds a registration's link sees it (issue 45); any other token is 404; the
    contact is on no page of any role but the owner's desk."""
    for role in ROLES:
        assert ask(setting.clients[role], name, url(name, setting)) != 404, role
    for token in ("nope", setting.tournament.public_token, setting.tournament.co_token):
        assert ask(Client(), name, url(name, setting, token)) == 404, token


def test_a_contact_shows_on_the_owners_desk_alone(setting: Setting) -> None:
    for route in routes():
        kind = KIND[route.name]
        for role in ROLES:
            response = setting.clients[role].get(url(route.name, setting))
            if response.status_code != 200 or "text/html" not in response["Content-Type"]:
                continue
            shown = CONTACT in response.content.decode()
            assert shown is (role == "owner" and route.name == "concours:desk"), (route, role)
        assert kind


def test_the_co_link_grants_the_desk_until_a_new_one(setting: Setting) -> None:
    desk = url("concours:desk", setting)
    assert setting.clients["co"].get(desk).status_code == 200
    for token in ("nope", setting.tournament.public_token, setting.table.token):
        assert Client().get(url("concours:co", setting, token)).status_code == 404, token
    old = setting.tournament.co_token
    assert setting.clients["owner"].post(url("concours:co_new", setting)).status_code == 302
    assert setting.clients["co"].get(desk).status_code == 404  # its grant died with the link
    assert Client().get(url("concours:co", setting, old)).status_code == 404


def test_account_pages_are_each_accounts_own(setting: Setting) -> None:
    for name in named("account"):
        address = url(name, setting)
        response = setting.clients["stranger"].get(address)
        assert response.status_code == 302, name
        assert response["Location"].startswith(reverse("accounts:login")), name
        for role in ("other", "public", "table"):
            response = setting.clients[role].get(address)
            if response.status_code == 200:
                assert "Concours de la Saint-Martin" not in response.content.decode(), (name, role)
        owner = setting.clients["owner"].get(address)
        assert owner.status_code == 200, name
    listed = setting.clients["owner"].get(url("concours:list", setting)).content.decode()
    assert "Concours de la Saint-Martin" in listed


def test_every_page_keeps_the_strict_content_security_policy(setting: Setting) -> None:
    """Every HTML page of the app (desk, prints, settings, public pages, the table's read-only
    page) as the role that may see it: the strict policy, and no inline script, style or
    handler for it to block."""
    over = setting.other_table  # a table whose partie is over shows its read-only page
    services.record_paper_totals(table=over, totals=(900, 720))
    pages = 0
    for route in routes():
        kind = KIND[route.name]
        role = {"desk": "owner", "owner": "owner", "account": "owner"}.get(kind, "stranger")
        token = over.token if kind == "table" else None
        response = setting.clients[role].get(url(route.name, setting, token))
        if response.status_code != 200 or "text/html" not in response["Content-Type"]:
            continue
        pages += 1
        assert_strict_csp(response["Content-Security-Policy"], response.text, route.name)
    assert pages >= 12, pages  # list, import, desk, settings, team, delete, 3 prints, 3 public
