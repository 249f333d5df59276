"""Issue 42: on a club computer, Back after logging out must not show the account's pages again.
Every page is `private, no-store` (scorekeeper/web/headers.py): the browser neither keeps it in
its back-forward cache nor in its HTTP cache, and asks the server again, which no longer knows
the account. Nor does htmx keep copies of the pages it changed (its history cache, in the
tab's sessionStorage, is off: `historyCacheSize` 0)."""

import re

import pytest
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.engine.scoring import PassedDeal
from tests.factories import MatchFactory, UserFactory

from .conftest import HTMX_IDLE, NewPhone, page_errors, sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]


def test_back_after_logout_shows_nothing_of_the_account(
    live_server: LiveServer, new_phone: NewPhone
) -> None:
    marie = UserFactory.create(username="marie")
    MatchFactory.create(
        owner=marie, team_names=("Les Secrets de Marie", "Eux"), deals=[PassedDeal()]
    )
    page = new_phone()
    sign_in(page, live_server.url, marie)
    page.goto(f"{live_server.url}/history/")
    expect(page.locator("main")).to_contain_text("Les Secrets de Marie")
    # A filter typed: htmx swaps the list and pushes its address (it kept a copy of the page in
    # the tab's sessionStorage for Back).
    page.get_by_label("Search a team or a player").fill("Secrets")
    page.wait_for_url(re.compile(r"q=Secrets"))
    page.wait_for_function(HTMX_IDLE, polling=50)
    expect(page.locator("main")).to_contain_text("Les Secrets de Marie")
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_text("You are logged out.")).to_be_visible()

    # Back, again and again to the page as first loaded: each asked of the server again.
    for _ in range(4):
        page.go_back()
        expect(page).to_have_url(re.compile(r"/history/"))
        expect(page.locator("main")).not_to_contain_text("Les Secrets de Marie")
        expect(page.get_by_role("button", name="Log out")).to_have_count(0)
        if page.url.endswith("/history/"):
            break
    assert page.url.endswith("/history/"), page.url
    assert page.evaluate("sessionStorage.getItem('htmx-history-cache')") is None
    assert page_errors(page) == []
