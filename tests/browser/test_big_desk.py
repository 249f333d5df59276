"""Issue 23, a big concours's desk on a 360 px phone: 120 teams, round 3 under way. The search
box finds a team (its table on the board, its line in the registration), "Show everyone" brings
the lists back, and the registration is paged through (Next, Previous); with JavaScript a pager
swaps its list alone (htmx) and keeps the address, without it the links are plain links. Every
screen photographed and checked for sideways scrolling and small targets."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from tests.concours.test_big_desk import big, team
from tests.factories import PASSWORD, UserFactory

from .conftest import SHOTS, NewPhone, Shot, layout_problems, page_errors, save_screenshot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]


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
    expect(page).to_have_url(re.compile(r"\?registration=2(#registration)?$"))
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
