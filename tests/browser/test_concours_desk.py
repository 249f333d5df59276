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

from scorekeeper.concours.models import Round, Tournament
from scorekeeper.matches.models import Match
from tests.factories import PASSWORD, UserFactory

from .conftest import NewPhone, Shot, page_errors, save_screenshot

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
    page.get_by_label("Place", exact=True).fill("Salle des fêtes")  # not "third place"
    page.get_by_label("Prizes").fill("1: A ham\n2: Two bottles")
    shot(page, "01-new")
    page.get_by_role("button", name="Create the concours").click()
    page.wait_for_url(re.compile(r"/concours/\d+/$"))
    expect(page.get_by_role("heading", name="Concours de la Saint-Martin")).to_be_visible()
    # No team yet: the draw would be refused, so its button is disabled and says why.
    expect(page.get_by_role("button", name="Draw round 1")).to_be_disabled()
    expect(page.get_by_role("button", name="Draw round 1")).to_have_accessible_description(
        "0 active entrants: a round needs at least 2"
    )
    shot(page, "02-empty-desk")

    page.get_by_text("Paste a list").click()
    page.locator("textarea[name=text]").fill(TEAMS)
    page.get_by_role("button", name="Add the list").click()
    expect(page.locator(".messages")).to_contain_text("9 added.")
    expect(page.locator(".entrant")).to_have_count(9)
    expect(page.get_by_role("button", name="Draw round 1")).to_be_enabled()
    # Each team's row: its name, then its buttons on one line under it (on a phone).
    for row in page.locator(".entrant").all():
        name, actions = row.locator(".entrant-name"), row.locator(".entrant-actions")
        buttons = [b.bounding_box() for b in actions.locator(".btn").all()]
        name_box = name.bounding_box()
        assert name_box and len(buttons) == 3 and all(buttons)
        assert all(b["y"] >= name_box["y"] + name_box["height"] - 1 for b in buttons if b)
        assert len({round(b["y"]) for b in buttons if b}) == 1, buttons
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
    names = Match.objects.get(
        concours_table__round__tournament__owner=user, concours_table__number=1
    ).team_names
    first.get_by_label(f"{names[0]}: points", exact=True).fill(
        "1100"
    )  # each field named after its team
    first.get_by_label(f"{names[1]}: points", exact=True).fill("844")
    first.get_by_label("Belotes").fill("1")
    first.get_by_role("button", name="Save table 1").click()
    expect(page.locator(".messages")).to_contain_text("20 missing: a belote?")
    expect(page.locator("#table-1 .board-state")).to_have_text("typed by hand")
    shot(page, "05-paper-warning")

    for number in (2, 3, 4):
        table = page.locator(f"#table-{number}")
        table.get_by_text("Type the paper sheet's totals").click()
        table.locator(f"input[name=t{number}-points0]").fill("1000")
        table.locator(f"input[name=t{number}-points1]").fill("944")
        table.get_by_role("button", name=f"Save table {number}").click()
        expect(page.locator(".messages")).to_contain_text(f"Table {number}: totals saved.")
    page.get_by_role("button", name="Close round 1").click()
    expect(page.get_by_role("heading", name="Standings after round 1")).to_be_visible()
    expect(page.locator(".desk-standings tbody tr")).to_have_count(9)
    shot(page, "06-standings")
    # On the phone each team's standing is a card: the column titles are hidden.
    thead_position = "getComputedStyle(document.querySelector('.desk-standings thead')).position"
    assert page.evaluate(thead_position) == "absolute"
    # A small laptop: the fourteen columns would not fit (about 1,200 px in French), so the cards
    # stand side by side, and nothing scrolls sideways.
    page.set_viewport_size({"width": 1024, "height": 768})
    assert page.evaluate(thead_position) == "absolute"
    assert page.evaluate("document.documentElement.scrollWidth") <= 1024
    card1, card2 = (
        row.bounding_box() for row in page.locator(".desk-standings tbody tr").all()[:2]
    )
    assert card1 and card2 and abs(card1["y"] - card2["y"]) < 1  # two cards a row
    page.set_viewport_size({"width": 1280, "height": 800})  # the organiser's laptop
    laptop = f"test_create_a_concours_and_draw_rounds_{'js' if javascript else 'no-js'}-07-laptop"
    save_screenshot(page, f"{laptop}.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    # The desk uses the laptop's width, and its standings are a table: the column titles show,
    # each team is one line whose figures sit under their titles.
    main = page.locator("main").bounding_box()
    assert main and main["width"] > 1100
    standings = page.locator(".desk-standings")
    for title in ("Team", "Points", "Wins", "Played", "Difference", "Opponents' wins",
                  "Tie broken by"):  # fmt: skip
        expect(standings.get_by_role("columnheader", name=title, exact=True)).to_be_visible()
    titles = standings.locator("thead th").all()
    rows = standings.locator("tbody tr").all()
    assert len(rows) == 9
    for row in rows:
        cells = row.locator("th, td").all()
        assert len(cells) == len(titles) == 14  # 13 figures and names, and the tie-break
        boxes = [cell.bounding_box() for cell in cells]
        assert all(boxes) and len({round(b["y"]) for b in boxes if b}) == 1  # one line
        for column, box in zip(titles, boxes, strict=True):
            title_box = column.bounding_box()
            assert title_box and box and abs(title_box["x"] - box["x"]) < 1  # in its column
    points = standings.get_by_role("columnheader", name="Points", exact=True).bounding_box()
    assert points and points["height"] < 40  # a title, not a card
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


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_signed_in_top_bar_is_one_row_on_a_phone(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot, language: str
) -> None:
    """Signed in on a 360 px phone (My matches, Concours, Log out), in English and French: the
    top bar is one row of 44 px targets, and the home link is still named after the site."""
    user: User = UserFactory.create(username="organiser")
    page = new_phone(locale="fr-FR" if language == "fr" else "en-GB")
    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("input[name=username]").fill(user.username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_load_state("load")
    page.goto(f"{live_server.url}/concours/")
    site = {"en": "Belote score", "fr": "Score belote"}[language]
    expect(page.locator(".topbar").get_by_role("link", name=site)).to_be_visible()
    targets = page.locator(".topbar a, .topbar button").all()
    assert len(targets) == 4  # the site, My matches, Concours, Log out
    boxes = [target.bounding_box() for target in targets]
    assert all(box and box["width"] >= 44 and box["height"] >= 44 for box in boxes), boxes
    assert len({round(box["y"]) for box in boxes if box}) == 1, boxes  # one row
    bar = page.locator(".topbar").bounding_box()
    assert bar and bar["height"] < 50 and bar["width"] <= 360
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, f"top-bar-{language}")
