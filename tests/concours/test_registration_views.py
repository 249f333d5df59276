"""Teams registering themselves (issue 45) through the pages: the public page's Register form, the
team's private link (see, change, withdraw), the desk's answers and check-in by code; abuse
bounded (per address, per concours, the form's size), a GET writes nothing; and who sees a
contact: the concours's owner alone (not a co-organiser, not the team's own link, not another
team's, not another account, not a stranger)."""

from collections.abc import Callable
from datetime import date
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from scorekeeper.concours import services
from scorekeeper.concours.models import Entrant, Registration, Tournament
from scorekeeper.web.models import RateLimit
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db

State = Registration.State
CONTACT = "06 98 76 54 32"
OTHER_CONTACT = "claire.secret@example.org"


@pytest.fixture
def organiser(make_user: Callable[[str], User]) -> User:
    return make_user("organiser")


@pytest.fixture
def tournament(organiser: User) -> Tournament:
    tournament = TournamentFactory.create(
        owner=organiser, date=date(2026, 11, 11), teams=[("Pique", "Eve", "Félix")]
    )
    services.set_registration(
        tournament=tournament, opened=True, max_teams=3, note="Inscription 10 € par équipe"
    )
    tournament.refresh_from_db()
    return tournament


def public(tournament: Tournament) -> str:
    return reverse("concours_public:standings", args=[tournament.public_token])


def register_url(tournament: Tournament) -> str:
    return reverse("concours_public:register", args=[tournament.public_token])


def team_url(registration: Registration) -> str:
    return reverse("concours:registration", args=[registration.token])


def desk(tournament: Tournament) -> str:
    return reverse("concours:desk", args=[tournament.pk])


def form(name: str, contact: str = CONTACT, **more: str) -> dict[str, str]:
    return {
        "name": name,
        "player1": f"{name} 1",
        "player2": f"{name} 2",
        "contact": contact,
        **more,
    }


def register(client: Client, tournament: Tournament, name: str, **more: str) -> Registration:
    response = client.post(register_url(tournament), form(name, **more))
    assert response.status_code == 302, response.content.decode()[:2000]
    registration = Registration.objects.get(name=name)
    assert response["Location"] == team_url(registration)
    return registration


def test_the_public_page_has_the_register_form_while_open(tournament: Tournament) -> None:
    html = Client().get(public(tournament)).content.decode()
    assert 'id="register"' in html and "Inscription 10 € par équipe" in html
    assert "2 places left." in html and register_url(tournament) in html
    services.set_registration(tournament=tournament, opened=False)
    html = Client().get(public(tournament)).content.decode()
    assert 'id="register"' not in html
    # Its own page says why, and what to do.
    html = Client().get(register_url(tournament)).content.decode()
    assert "Registration is not open for this concours: ask the organiser." in html


def test_a_team_registers_then_waits_then_moves_up_when_one_withdraws(
    tournament: Tournament,
) -> None:
    first = register(Client(), tournament, "Les As")
    second = register(Client(), tournament, "Trèfle")
    third_phone = Client()
    third = register(third_phone, tournament, "Carreau")
    page = third_phone.get(team_url(third)).content.decode()
    assert "On the waiting list: number 1." in page
    assert third.code in page and reverse("concours:registration_qr", args=[third.token]) in page
    assert (
        "Registered: waiting for the organiser's answer."
        in Client().get(team_url(first)).content.decode()
    )
    # The second team withdraws (confirmed): the third moves up, and its page says so.
    phone = Client()
    assert (
        phone.post(reverse("concours:registration_withdraw", args=[second.token])).status_code
        == 302
    )
    assert Registration.objects.get(pk=second.pk).state == State.PENDING  # not confirmed
    phone.post(reverse("concours:registration_withdraw", args=[second.token]), {"confirm": "yes"})
    assert Registration.objects.get(pk=second.pk).state == State.WITHDRAWN
    page = third_phone.get(team_url(third)).content.decode()
    assert "A place was freed: you moved up from the waiting list." in page
    assert "Withdrawn." in phone.get(team_url(second)).content.decode()


def test_the_team_changes_its_registration_and_its_contact_is_never_shown_back(
    tournament: Tournament,
) -> None:
    phone = Client()
    registration = register(phone, tournament, "Les As")
    page = phone.get(team_url(registration)).content.decode()
    assert CONTACT not in page
    response = phone.post(team_url(registration), form("Les Rois", contact=""))
    assert response.status_code == 302
    registration.refresh_from_db()
    assert (registration.name, registration.contact) == ("Les Rois", CONTACT)
    response = phone.post(team_url(registration), form("PIQUE", contact=""))
    assert response.status_code == 200
    assert "“PIQUE” is already registered." in response.content.decode()
    assert Registration.objects.get(pk=registration.pk).name == "Les Rois"


def test_the_form_s_text_rules_and_contact_are_checked(tournament: Tournament) -> None:
    cases = [
        form("Les\u0007As"),  # a control character
        form("   "),
        form("Les As", contact="not a contact"),
        form("Les As", contact="12"),
        form("Les As", player2=""),
        form("x" * 61),
    ]
    for data in cases:
        response = Client().post(register_url(tournament), data)
        assert response.status_code == 200, data
        assert 'id="error-summary"' in response.content.decode()
    assert not Registration.objects.exists()
    register(Client(), tournament, "Les As", contact="Claire@Example.org")


def test_abuse_is_bounded_per_address_and_per_concours(tournament: Tournament) -> None:
    phone = Client(REMOTE_ADDR="203.0.113.7")
    with override_settings(REGISTRATIONS_PER_HOUR_PER_IP=2):
        register(phone, tournament, "Les As")
        register(phone, tournament, "Trèfle")
        response = phone.post(register_url(tournament), form("Carreau"))
        assert response.status_code == 429 and response["Retry-After"]
        assert "Too many registrations" in response.content.decode()
        # Another address may still register.
        register(Client(REMOTE_ADDR="203.0.113.8"), tournament, "Carreau")
    assert Registration.objects.count() == 3
    RateLimit.objects.all().delete()
    with override_settings(REGISTRATIONS_PER_HOUR_PER_CONCOURS=1):
        register(Client(REMOTE_ADDR="198.51.100.1"), tournament, "Cœur")
        response = Client(REMOTE_ADDR="198.51.100.2").post(register_url(tournament), form("Atout"))
        assert response.status_code == 429
    assert Registration.objects.count() == 4


def test_a_form_too_big_is_refused_before_it_is_read(tournament: Tournament) -> None:
    response = Client().post(register_url(tournament), form("Les As", note="x" * 5000))
    assert response.status_code == 413
    assert not Registration.objects.exists()
    assert not RateLimit.objects.exists()


def test_a_get_writes_nothing(tournament: Tournament, organiser: User) -> None:
    registration = register(Client(), tournament, "Les As")
    before = (
        list(Registration.objects.values()),
        list(Entrant.objects.values()),
        Tournament.objects.get(pk=tournament.pk).version,
        RateLimit.objects.count(),
    )
    owner = Client()
    owner.force_login(organiser)
    for client, address in [
        (Client(), public(tournament)),
        (Client(), register_url(tournament)),
        (Client(), team_url(registration)),
        (Client(), reverse("concours:registration_qr", args=[registration.token])),
        (Client(), reverse("concours:registration_withdraw", args=[registration.token])),
        (owner, desk(tournament)),
        (owner, reverse("concours:registration_refuse", args=[tournament.pk, registration.pk])),
        (owner, reverse("concours:registration_edit", args=[tournament.pk, registration.pk])),
        (owner, reverse("concours:registration_accept", args=[tournament.pk, registration.pk])),
        (owner, reverse("concours:check_in_code", args=[tournament.pk])),
        (owner, reverse("concours:opening", args=[tournament.pk])),
    ]:
        assert client.get(address).status_code in (200, 405), address
    after = (
        list(Registration.objects.values()),
        list(Entrant.objects.values()),
        Tournament.objects.get(pk=tournament.pk).version,
        RateLimit.objects.count(),
    )
    assert after == before


def test_the_desk_accepts_refuses_edits_and_checks_in_by_code(
    tournament: Tournament, organiser: User
) -> None:
    owner = Client()
    owner.force_login(organiser)
    accepted = register(Client(), tournament, "Les As")
    refused = register(Client(), tournament, "Trèfle")
    waiting = register(Client(), tournament, "Carreau")
    html = owner.get(desk(tournament)).content.decode()
    assert html.count("reg-tag-new") == 2 and "waiting list: 1" in html
    assert "2 new" in html and "1 on the waiting list" in html
    # Accept: an entrant as if typed at the desk.
    owner.post(reverse("concours:registration_accept", args=[tournament.pk, accepted.pk]))
    entrant = Entrant.objects.get(tournament=tournament, name="Les As")
    assert entrant.player1 == "Les As 1"
    # Refuse, with a reason the team reads; the waiting team moves up, and the desk says so.
    address = reverse("concours:registration_refuse", args=[tournament.pk, refused.pk])
    assert "Refuse Trèfle?" in owner.get(address).content.decode()
    response = owner.post(address, {"reason": "Pas de licence cette année"})
    html = owner.get(response["Location"]).content.decode()
    assert "“Carreau” moves up from the waiting list: a new registration to answer." in html
    assert "Pas de licence cette année" in Client().get(team_url(refused)).content.decode()
    assert Registration.objects.get(pk=waiting.pk).state == State.PENDING
    # Edit a pending registration's names.
    address = reverse("concours:registration_edit", args=[tournament.pk, waiting.pk])
    owner.post(address, form("Carreau d'As", contact=""))
    assert Registration.objects.get(pk=waiting.pk).name == "Carreau d'As"
    assert Registration.objects.get(pk=waiting.pk).contact == CONTACT
    # An accepted one is edited as an entrant.
    address = reverse("concours:registration_edit", args=[tournament.pk, accepted.pk])
    assert owner.get(address)["Location"] == reverse(
        "concours:edit_entrant", args=[tournament.pk, entrant.number]
    )
    # Check-in by code at the door.
    address = reverse("concours:check_in_code", args=[tournament.pk])
    response = owner.post(address, {"code": accepted.code.lower()})
    html = owner.get(response["Location"]).content.decode()
    assert "“Les As” is checked in: present." in html
    assert Entrant.objects.get(pk=entrant.pk).present is True
    html = owner.get(owner.post(address, {"code": waiting.code})["Location"]).content.decode()
    assert "is not accepted yet: accept it first" in html
    assert "Checked in: present." in Client().get(team_url(accepted)).content.decode()


def test_opening_registration_is_the_owners(tournament: Tournament, organiser: User) -> None:
    owner = Client()
    owner.force_login(organiser)
    address = reverse("concours:opening", args=[tournament.pk])
    response = owner.post(
        address, {"opened": "on", "closes_at": "2026-11-10T18:00", "max_teams": "16", "note": "5 €"}
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.registration_max == 16 and tournament.registration_note == "5 €"
    assert tournament.registration_closes_at is not None
    Tournament.objects.filter(pk=tournament.pk).update(date=None)
    response = owner.post(address, {"opened": "on"})
    assert "Give the concours its date first" in response.content.decode()


# Privacy per role: who sees a contact ------------------------------------------------------


@pytest.fixture
def roles(
    tournament: Tournament, organiser: User, make_user: Callable[[str], User]
) -> dict[str, Any]:
    """The owner, a co-organiser (a browser that opened the link), the team (its own link),
    another team (its own link, not this one's), another account, a stranger."""
    team, other_team = Client(), Client()
    mine = register(team, tournament, "Les As", contact=CONTACT)
    theirs = register(other_team, tournament, "Trèfle", contact=OTHER_CONTACT)
    owner = Client()
    owner.force_login(organiser)
    co = Client()
    assert co.get(reverse("concours:co", args=[tournament.co_token])).status_code == 302
    other = Client()
    other.force_login(make_user("someone-else"))
    return {
        "clients": {
            "owner": owner,
            "co": co,
            "team": team,
            "other_team": other_team,
            "other": other,
            "stranger": Client(),
        },
        "mine": mine,
        "theirs": theirs,
    }


def pages_of(tournament: Tournament, mine: Registration, theirs: Registration) -> list[str]:
    return [
        public(tournament),
        register_url(tournament),
        team_url(mine),
        team_url(theirs),
        desk(tournament),
        reverse("concours:registration_edit", args=[tournament.pk, mine.pk]),
        reverse("concours:registration_refuse", args=[tournament.pk, mine.pk]),
        reverse("concours:registration_qr", args=[mine.token]),
        reverse("concours_public:card", args=[tournament.public_token]),
        reverse("concours_public:projector", args=[tournament.public_token]),
    ]


@pytest.mark.parametrize("role", ["owner", "co", "team", "other_team", "other", "stranger"])
def test_no_one_but_the_owner_sees_a_contact(
    tournament: Tournament, roles: dict[str, Any], role: str
) -> None:
    client = roles["clients"][role]
    mine, theirs = roles["mine"], roles["theirs"]
    seen = []
    for address in pages_of(tournament, mine, theirs):
        response = client.get(address, follow=True)
        body = response.content.decode("utf-8", "replace")
        seen += [c for c in (CONTACT, OTHER_CONTACT) if c in body]
    if role == "owner":
        assert sorted(set(seen)) == sorted([CONTACT, OTHER_CONTACT])
    else:
        assert seen == [], role


@pytest.mark.parametrize("role", ["co", "team", "other_team", "other", "stranger"])
def test_the_desks_registration_pages_are_the_organisers(
    tournament: Tournament, roles: dict[str, Any], role: str
) -> None:
    client = roles["clients"][role]
    mine = roles["mine"]
    owner_only = [reverse("concours:opening", args=[tournament.pk])]
    desk_pages = [
        reverse("concours:registration_edit", args=[tournament.pk, mine.pk]),
        reverse("concours:registration_refuse", args=[tournament.pk, mine.pk]),
    ]
    posts = [
        reverse("concours:registration_accept", args=[tournament.pk, mine.pk]),
        reverse("concours:check_in_code", args=[tournament.pk]),
    ]
    allowed = role == "co"
    for address in owner_only:
        assert client.get(address).status_code == 404, address
    for address in desk_pages:
        assert (client.get(address).status_code == 200) is allowed, address
    if not allowed:
        for address in posts + desk_pages:
            assert client.post(address, {"reason": "x", "code": mine.code}).status_code == 404
        assert Registration.objects.get(pk=mine.pk).state == State.PENDING


def test_a_team_link_opens_that_registration_only(
    tournament: Tournament, roles: dict[str, Any]
) -> None:
    mine, theirs = roles["mine"], roles["theirs"]
    page = roles["clients"]["team"].get(team_url(mine)).content.decode()
    assert theirs.token not in page and theirs.code not in page and "Trèfle" not in page
    assert tournament.co_token not in page
    for token in ("nope", tournament.public_token, tournament.co_token):
        assert Client().get(reverse("concours:registration", args=[token])).status_code == 404
    response = roles["clients"]["team"].get(team_url(mine))
    assert response["Cache-Control"] == "private, no-store"
    assert '<meta name="robots" content="noindex">' in page


def test_a_co_organiser_edits_names_but_never_the_contact(
    tournament: Tournament, roles: dict[str, Any]
) -> None:
    mine = roles["mine"]
    co = roles["clients"]["co"]
    address = reverse("concours:registration_edit", args=[tournament.pk, mine.pk])
    assert 'name="contact"' not in co.get(address).content.decode()
    co.post(address, form("Les Rois", contact="01 02 03 04 05"))
    mine.refresh_from_db()
    assert (mine.name, mine.contact) == ("Les Rois", CONTACT)
