"""Issue 23, a big concours's desk on a 360 px phone: 120 teams, round 3 under way. The search
box finds a team (its table on the board, its line in the registration), "Show everyone" brings
the lists back, and the registration is paged through (Next, Previous); with JavaScript a pager
swaps its list alone (htmx) and keeps the address, without it the links are plain links. Every
screen photographed and checked for sideways scrolling and small targets. Issue 42: the pager
keeps the keyboard's focus (on the list's heading, which says the page) and each pager has a
name of its own."""

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.concours.test_big_desk import big, team
from tests.factories import PASSWORD, UserFactory

from . import test_large_text
from .conftest import (
    SHOTS,
    NewPhone,
    Shot,
    layout_problems,
    page_errors,
    save_screenshot,
    sign_in,
    text_problems,
)
from .test_axe import _AXE_JS, AXE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]
big_phone = test_large_text.big_phone  # its fixture: a phone with larger text


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_find_a_team_and_page_through_a_big_desk(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot, javascript: bool
) -> None:
    user: User = UserFactory.create(username="organiser")
    tournament = big(user)
    page = new_phone(javascript=javascript)
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/concours/{tournament.pk}/")
    expect(page.get_by_role("heading", name="Round 3: tables")).to_be_visible()
    board = page.locator("#board")
    expect(board.locator(".board-table")).to_have_count(50)
    expect(board.locator(".pager-where").first).to_have_text("Page 1 of 2 (1–50 of 60)")
    registration = page.locator("#registration")
    expect(registration.locator(".entrant")).to_have_count(50)
    look(page, javascript, "01-big-desk")

    # Find a team: folded (no accent, any case); its table alone on the board.
    page.get_by_label("Find a team").fill("EQUIPE 117")
    page.get_by_role("button", name="Find", exact=True).click()
    expect(page.locator(".desk-found")).to_contain_text("1 found for “EQUIPE 117”")
    expect(board.locator(".board-table")).to_have_count(1)
    expect(board).to_contain_text(team(117))
    look(page, javascript, "02-found-top")
    expect(registration.locator(".entrant")).to_have_count(1)
    expect(registration.locator(".entrant")).to_contain_text(team(117))
    page.locator("#find").scroll_into_view_if_needed()
    shot(page, "02-found")

    # Everyone again, then the registration's page 2 and back.
    page.get_by_role("link", name="Show everyone").click()
    expect(registration.locator(".entrant")).to_have_count(50)
    registration.get_by_role("link", name="Next →").first.click()
    expect(registration.locator(".pager-where").first).to_have_text("Page 2 of 3 (51–100 of 120)")
    expect(registration.locator("#entrant-51")).to_be_visible()
    expect(registration.locator("#entrant-50")).to_have_count(0)
    expect(page).to_have_url(re.compile(r"\?registration=2(#registration-title)?$"))
    expect(board.locator(".board-table")).to_have_count(50)  # the board kept
    registration.scroll_into_view_if_needed()
    look(page, javascript, "03-registration-page-2")
    registration.get_by_role("link", name="← Previous").first.click()
    expect(registration.locator("#entrant-1")).to_be_visible()
    assert page_errors(page) == []


def look(page: Page, javascript: bool, step: str) -> None:
    """The screen as the phone shows it (the whole big desk is too long a photo to take in
    time), checked as `shot` checks a page: no sideways scrolling, no small targets."""
    SHOTS.mkdir(exist_ok=True)
    save_screenshot(page, f"test_big_desk_{'js' if javascript else 'no-js'}-{step}.png")
    problems = layout_problems(page)
    assert not problems, f"{step}: {problems}"


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_standings_pager_keeps_the_focus_and_says_the_page(
    live_server: LiveServer, new_phone: NewPhone, javascript: bool
) -> None:
    """Issue 42: Next under the standings, pressed with the keyboard, left the focus on <body>
    (the swapped list took the link away; without JavaScript a new page) and said nothing of the
    page. The focus is now on the list's heading, which names the page ("page 2 of 3"), with
    htmx and without; Tab goes on into the list. Each of its two pagers is named by it."""
    user: User = UserFactory.create(username="organiser")
    tournament = big(user)
    page = new_phone(javascript=javascript)
    sign_in(page, live_server.url, user)
    page.goto(f"{live_server.url}/concours/{tournament.pk}/")
    standings = page.locator("#standings")
    heading = page.locator("#standings-title")
    expect(heading).to_have_accessible_name("Standings after round 2 (page 1 of 3)")
    nav = standings.get_by_role("navigation")
    expect(nav).to_have_count(2)
    nav.last.get_by_role("link", name="Next →").focus()  # the list read to its end
    page.keyboard.press("Enter")
    expect(standings.locator(".pager-where").first).to_have_text("Page 2 of 3 (51–100 of 120)")
    if not javascript:
        expect(page).to_have_url(re.compile(r"\?standings=2#standings-title$"))
    expect(heading).to_be_focused()
    heading_name = "Standings after round 2 (page 2 of 3)"
    expect(heading).to_have_accessible_name(heading_name)
    for name in ("Pages:", "Pages (end of the list):"):
        named = standings.get_by_role("navigation", name=f"{name} {heading_name}", exact=True)
        expect(named).to_have_count(1)
    save_screenshot(page, f"test_big_desk_{'js' if javascript else 'no-js'}-standings-page-2.png")
    page.keyboard.press("Tab")  # on into the list: the link under its heading
    expect(standings.get_by_role("link", name="Print the standings")).to_be_focused()
    assert page_errors(page) == []


def test_each_pager_of_a_big_desk_has_a_name_of_its_own(
    live_server: LiveServer, new_phone: NewPhone, big_phone: Callable[..., Page]
) -> None:
    """Issue 42: the desk's pagers (a list's above it and under it: the board, the standings,
    the registration) were navigation landmarks all named "Pages" (axe: landmark-unique). Each
    is named by its list's heading, the one under the list said to be so; axe finds nothing."""
    user: User = UserFactory.create(username="organiser")
    tournament = big(user)
    page = new_phone()
    sign_in(page, live_server.url, user)
    page.goto(f"{live_server.url}/concours/{tournament.pk}/")
    page.evaluate(AXE.read_text(encoding="utf-8"))
    assert page.evaluate(_AXE_JS) == []
    names = [nav.get_attribute("aria-labelledby") for nav in page.locator("nav.pager").all()]
    assert len(names) == 6 and len(set(names)) == 6, names
    expect(page.get_by_role("navigation", name="Pages: Teams (120) (page 1 of 3)")).to_be_attached()
    # A past round's own page: its tables' two pagers, named by the list's heading too.
    page.goto(f"{live_server.url}/concours/{tournament.pk}/round/1/tables/")
    expect(page.get_by_role("heading", name="Tables (page 1 of 2)")).to_be_visible()
    page.evaluate(AXE.read_text(encoding="utf-8"))
    assert page.evaluate(_AXE_JS) == []
    save_screenshot(page, "test_big_desk-round-tables.png")
    assert page_errors(page) == []
    large = big_phone(2.0)  # its new heading at 200 % text, in dark mode
    sign_in(large, live_server.url, user)
    large.emulate_media(color_scheme="dark")
    large.goto(f"{live_server.url}/concours/{tournament.pk}/round/1/tables/?page=2")
    large.locator("#round-tables-title").scroll_into_view_if_needed()
    assert layout_problems(large) + text_problems(large) == []
    save_screenshot(large, "test_big_desk-round-tables-200-dark.png")
