"""Issue 15, the organiser's desk on a 360 px phone: signed in, Concours from the top bar, a
new concours from a ready format, a pasted list of nine teams, round 1 drawn: the board of
tables with their scoreboard links, paper totals (one with the paper check's warning), the
round closed, its standings (phone and laptop), round 2 drawn and a table's scoreboard. Every
screen photographed and checked for sideways scrolling and small targets; the same without
JavaScript (every form is a plain form)."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.tournaments.models import Round, Tournament
from tests.factories import PASSWORD, UserFactory

from .conftest import SHOTS, NewPhone, Shot, page_errors

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

TEAMS = "\n".join(
    f"{name}; {a}; {b}"
    for name, a, b in [
        ("Les As", "Alice", "Bruno"),
        ("Pique Dame", "Chloé", "David"),
        ("Trèfle", "Emma", "Farid"),
        ("Carreau", "Gilles", "Hana"),
        ("Cœur", "Inès", "Jules"),
        ("Atout", "Karim", "Léa"),
        ("Belote", "Marc", "Nina"),
        ("Rebelote", "Omar", "Paula"),
        ("Dix de der", "Quentin", "Rose"),
    ]
)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_create_a_concours_and_draw_rounds(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot, javascript: bool
) -> None:
    user: User = UserFactory.create(username="organiser")
    url = live_server.url
    page = new_phone(javascript=javascript)
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Concours").click()
    expect(page.get_by_role("heading", name="New concours")).to_be_visible()
    page.get_by_text("Belote: 4 parties of 12 deals, ranked by points").click()
    page.get_by_label("Name").fill("Concours de la Saint-Martin")
    page.get_by_label("Place").fill("Salle des fêtes")
    page.get_by_label("Prizes").fill("1: A ham\n2: Two bottles")
    shot(page, "01-new")
    page.get_by_role("button", name="Create the concours").click()
    page.wait_for_url(re.compile(r"/concours/\d+/$"))
    expect(page.get_by_role("heading", name="Concours de la Saint-Martin")).to_be_visible()
    shot(page, "02-empty-desk")

    page.get_by_text("Paste a list").click()
    page.locator("textarea[name=text]").fill(TEAMS)
    page.get_by_role("button", name="Add the list").click()
    expect(page.locator(".messages")).to_contain_text("9 added.")
    expect(page.locator(".entrant")).to_have_count(9)
    shot(page, "03-registered")

    page.get_by_role("button", name="Draw round 1").click()
    expect(page.locator(".messages")).to_contain_text("Round 1 is drawn.")
    expect(page.locator(".board-table")).to_have_count(4)
    expect(page.locator(".board-state").first).to_have_text("not started")
    shot(page, "04-round-1")
    page.get_by_text("Swap two teams").click()
    expect(page.get_by_label("with this one")).to_be_visible()
    shot(page, "04b-swap")

    first = page.locator("#table-1")
    first.get_by_text("Type the paper sheet's totals").click()
    first.get_by_label("Points, side 1").fill("1100")
    first.get_by_label("Points, side 2").fill("844")
    first.get_by_label("Belotes").fill("1")
    first.get_by_role("button", name="Save table 1").click()
    expect(page.locator(".messages")).to_contain_text("20 missing: a belote?")
    expect(page.locator("#table-1 .board-state")).to_have_text("typed by hand")
    shot(page, "05-paper-warning")

    for number in (2, 3, 4):
        table = page.locator(f"#table-{number}")
        table.get_by_text("Type the paper sheet's totals").click()
        table.get_by_label("Points, side 1").fill("1000")
        table.get_by_label("Points, side 2").fill("944")
        table.get_by_role("button", name=f"Save table {number}").click()
        expect(page.locator(".messages")).to_contain_text(f"Table {number}: totals saved.")
    page.get_by_role("button", name="Close round 1").click()
    expect(page.get_by_role("heading", name="Standings after round 1")).to_be_visible()
    expect(page.locator(".desk-standings tbody tr")).to_have_count(9)
    shot(page, "06-standings")
    page.set_viewport_size({"width": 1280, "height": 800})  # the organiser's laptop
    laptop = f"test_create_a_concours_and_draw_rounds_{'js' if javascript else 'no-js'}-07-laptop"
    page.screenshot(path=str(SHOTS / f"{laptop}.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    page.set_viewport_size({"width": 360, "height": 740})
    page.get_by_role("button", name="Draw round 2").click()
    expect(page.locator(".messages")).to_contain_text("Round 2 is drawn.")

    tournament = Tournament.objects.get(owner=user)
    assert Round.objects.get(tournament=tournament, number=1).tables.count() == 4
    assert tournament.prizes == {"1": "A ham", "2": "Two bottles"}
    page.locator("#table-2").get_by_role("link", name="Open its scoreboard").click()
    page.wait_for_url(re.compile(r"/score/[^/]+/$"))
    shot(page, "08-round-2-table-2-scoreboard")
    assert page_errors(page) == []
