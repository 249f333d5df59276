"""Issue 45, teams registering themselves, end to end on 360 px phones: the organiser opens
registration (at most 3 teams, a note), three teams register on their own phones (the third on
the waiting list, in French), one changes its name, one withdraws and the waiting team moves
up, the desk accepts the new ones (marked new, their contacts shown to the owner) and checks a
team in by the short code its phone shows; and the QR scanner where the browser has a barcode
reader (a stand-in reader and camera here: headless Chromium on Linux has neither). Every
screen photographed and checked for sideways scrolling and small targets."""

import re
from datetime import date

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.concours import services
from scorekeeper.concours.models import Entrant, Registration, Tournament
from tests.factories import TournamentFactory, UserFactory

from .conftest import NewPhone, Shot, page_errors, sign_in
from .test_axe import _AXE_JS, _HEADINGS_JS, AXE, heading_problems

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

TEAM_PAGE = re.compile(r"/r/[\w-]+/$")


def audit(page: Page) -> list[str]:
    """axe-core's violations and heading-level problems on the page as it is."""
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found = [f"{v['id']} [{v['impact']}] {v['targets']}" for v in page.evaluate(_AXE_JS)]
    return found + heading_problems(page.evaluate(_HEADINGS_JS))


def concours(user: User) -> Tournament:
    return TournamentFactory.create(
        owner=user,
        name="Concours de la Saint-Martin",
        date=date(2026, 11, 11),
        place="Salle des fêtes",
        teams=[("Pique", "Eve", "Félix")],
    )


def register(
    new_phone: NewPhone,
    url: str,
    tournament: Tournament,
    team: tuple[str, str, str, str],
    *,
    fr: bool = False,
) -> Page:
    """A team's phone registers it on the public page: then its own page."""
    phone = new_phone(locale="fr-FR" if fr else "en-GB")
    phone.goto(f"{url}/c/{tournament.public_token}/")
    name, first, second, contact = team
    phone.get_by_label("Nom de l’équipe" if fr else "Team name").fill(name)
    phone.get_by_label("Joueur 1" if fr else "Player 1").fill(first)
    phone.get_by_label("Joueur 2" if fr else "Player 2").fill(second)
    phone.get_by_label(
        "Téléphone ou e-mail, pour l’organisateur seulement"
        if fr
        else "Phone or e-mail, for the organiser only"
    ).fill(contact)
    phone.get_by_role("button", name="S’inscrire" if fr else "Register", exact=True).click()
    phone.wait_for_url(TEAM_PAGE)
    return phone


def test_teams_register_wait_change_withdraw_are_accepted_and_checked_in(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot
) -> None:
    url = live_server.url
    user: User = UserFactory.create(username="organiser")
    tournament = concours(user)
    owner = new_phone()
    sign_in(owner, url, user)

    # The organiser opens registration: at most 3 teams (Pique, typed at the desk, is one).
    owner.goto(f"{url}/concours/{tournament.pk}/")
    owner.get_by_role("link", name="Open registration on the public page").click()
    owner.get_by_label("Teams may register on the public page").check()
    owner.get_by_label("At most this many teams (optional; then a waiting list)").fill("3")
    owner.get_by_label("A note above the form (optional)").fill("Inscription : 10 € par équipe")
    shot(owner, "01-opening")
    assert audit(owner) == []
    owner.get_by_role("button", name="Save").click()
    expect(owner.locator(".messages")).to_contain_text("Registration is open on the public page.")

    # Two teams register; the public page says the note and the places left.
    first = register(new_phone, url, tournament, ("Les As", "Alice", "Bruno", "06 11 22 33 44"))
    expect(first.locator("#state")).to_contain_text(
        "Registered: waiting for the organiser's answer."
    )
    code = first.locator(".reg-code").inner_text()
    shot(first, "02-registered")
    second = new_phone()
    second.goto(f"{url}/c/{tournament.public_token}/")
    expect(second.locator("#register")).to_contain_text("Inscription : 10 € par équipe")
    expect(second.locator("#register")).to_contain_text("1 place left.")
    shot(second, "03-public-page-register-form")
    assert audit(second) == []
    second.close()
    second = register(new_phone, url, tournament, ("Trèfle", "Chloé", "David", "chloe@example.org"))

    # The third is told it waits, in French on a French phone.
    third = register(
        new_phone, url, tournament, ("Carreau", "Emma", "Farid", "07 55 66 77 88"), fr=True
    )
    expect(third.locator("#state")).to_contain_text("Sur la liste d’attente : numéro 1.")
    shot(third, "04-waiting-list-fr")
    assert audit(third) == []

    # The second team changes its name; a name already there is refused as at the desk.
    second.get_by_label("Team name").fill("PIQUE")
    second.get_by_role("button", name="Save the changes").click()
    expect(second.locator("#error-summary")).to_contain_text("“PIQUE” is already registered.")
    shot(second, "05-change-refused")
    assert audit(second) == []
    second.get_by_label("Team name").fill("Trèfle Noir")
    second.get_by_role("button", name="Save the changes").click()
    expect(second.locator(".messages")).to_contain_text("Your registration is saved.")
    expect(second.get_by_role("heading", name="Registration of Trèfle Noir")).to_be_visible()

    # The first withdraws (confirmed): the waiting team moves up, and its page says so.
    first.locator("#withdraw summary").click()
    shot(first, "06-withdraw-confirm")
    first.get_by_role("button", name="Yes, withdraw").click()
    expect(first.locator("#state")).to_contain_text("Withdrawn.")
    third.reload()
    expect(third.locator("#state")).to_contain_text(
        "Une place s’est libérée : vous êtes sortis de la liste d’attente."
    )

    # The desk: the new ones marked new, their contacts the owner's; both accepted.
    owner.goto(f"{url}/concours/{tournament.pk}/")  # (it shows #sign-ups: a new load)
    section = owner.locator("#sign-ups")
    expect(section.locator(".reg.is-new")).to_have_count(2)
    expect(section).to_contain_text("chloe@example.org")
    expect(section).to_contain_text("07 55 66 77 88")
    shot(owner, "07-desk-new-registrations")
    assert audit(owner) == []
    owner.get_by_role("button", name="Accept Trèfle Noir").click()
    expect(owner.locator(".messages")).to_contain_text("“Trèfle Noir” is accepted")
    owner.get_by_role("button", name="Accept Carreau").click()
    expect(owner.locator(".messages")).to_contain_text("“Carreau” is accepted")
    expect(owner.locator("#registration .entrant")).to_have_count(3)

    # Check-in at the door by the code the team's phone shows (typed as said: lower case).
    third.reload()
    expect(third.locator("#state")).to_contain_text("Acceptée : vous êtes inscrits.")
    said = third.locator(".reg-code").inner_text().lower()
    assert said != code.lower()
    owner.get_by_label("The team's code").fill(said)
    shot(owner, "08-check-in-by-code")
    owner.get_by_role("button", name="Check in", exact=True).click()
    expect(owner.locator(".messages")).to_contain_text("“Carreau” is checked in: present.")
    assert Entrant.objects.get(tournament=tournament, name="Carreau").present is True
    third.reload()
    expect(third.locator("#state")).to_contain_text("Pointée : présente.")
    shot(third, "09-checked-in-fr")
    states = dict(Registration.objects.values_list("name", "state"))
    assert states == {"Les As": "withdrawn", "Trèfle Noir": "accepted", "Carreau": "accepted"}
    for page in (owner, first, second, third):
        assert page_errors(page) == []


# A stand-in camera and barcode reader: the reader "sees" the code the test puts in
# window.__seen, the camera is a canvas's stream.
FAKE_READER = """
window.BarcodeDetector = class {
  constructor(options) { this.options = options; }
  async detect() { return window.__seen ? [{ rawValue: window.__seen }] : []; }
};
navigator.mediaDevices.getUserMedia = async () => {
  const canvas = document.createElement("canvas");
  canvas.width = 64; canvas.height = 48;
  canvas.getContext("2d").fillRect(0, 0, 64, 48);
  return canvas.captureStream(5);
};
"""


def test_the_desk_scans_a_team_s_qr_code_where_the_browser_can(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot
) -> None:
    url = live_server.url
    user: User = UserFactory.create(username="organiser")
    tournament = concours(user)
    services.set_registration(tournament=tournament, opened=True)
    registration = services.register(
        tournament=tournament, name="Les As", players=("Alice", "Bruno"), contact="0611223344"
    )
    services.accept_registration(registration=registration)
    # Without a reader: no scan button, the code is typed.
    plain = new_phone()
    sign_in(plain, url, user)
    plain.goto(f"{url}/concours/{tournament.pk}/")
    expect(plain.get_by_label("The team's code")).to_be_visible()
    expect(plain.get_by_role("button", name="Scan a QR code with the camera")).to_be_hidden()
    # With one: the button films, reads the team's link and checks it in.
    owner = new_phone()
    owner.context.add_init_script(FAKE_READER)
    sign_in(owner, url, user)
    owner.goto(f"{url}/concours/{tournament.pk}/")
    owner.get_by_role("button", name="Scan a QR code with the camera").click()
    expect(owner.locator("[data-scan-status]")).to_contain_text("Hold the team’s QR code")
    shot(owner, "01-scanning")
    owner.evaluate("link => { window.__seen = link; }", f"{url}/r/{registration.token}/")
    expect(owner.locator(".messages")).to_contain_text("“Les As” is checked in: present.")
    assert Entrant.objects.get(tournament=tournament, name="Les As").present is True
    for page in (plain, owner):
        assert page_errors(page) == []
