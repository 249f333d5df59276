"""Issue 11, matches people can manage, on a 360 px phone: the new match on the home list with
its time and players, the manual score that starts empty and refuses 0-0, abandoning and resuming,
deleting after typing the word, Recently deleted and restoring; the same delete and restore
without JavaScript, and the Manage page in French. Every screen is photographed and checked for
sideways scrolling and small targets."""

import re

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.matches.models import Match

from .conftest import NewPhone, Shot, expect_totals, page_errors, start_match

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

BOARD = re.compile(r"/score/[^/]+/$")


def manual_score(page: Page, first: str, second: str) -> None:
    page.get_by_role("link", name="Manual score").click()
    page.locator("input[name=score0]").fill(first)
    page.locator("input[name=score1]").fill(second)
    page.get_by_role("button", name="Save").click()


def delete_and_restore(page: Page, url: str, token: str, shot: Shot, prefix: str) -> None:
    """From the scoreboard: Manage, a wrong word (refused), the word, Recently deleted, Restore."""
    page.get_by_role("link", name="Abandon or delete").click()
    field = page.get_by_label("Type delete to confirm")
    field.fill("yes")
    page.get_by_role("button", name="Delete the match").click()
    expect(page.locator(".form-errors")).to_have_text(
        "Type delete to confirm: nothing was deleted."
    )
    shot(page, f"{prefix}-delete-refused")
    page.get_by_label("Type delete to confirm").fill("Delete ")  # a phone's capital and space
    page.get_by_role("button", name="Delete the match").click()
    page.wait_for_url(f"{url}/history/deleted/")
    expect(page.locator(".messages")).to_contain_text("You can restore it here for 30 days.")
    expect(page.locator(".deleted-list .teams")).to_have_text(["Us – Them"])
    shot(page, f"{prefix}-recently-deleted")
    assert Match.objects.get(scorer_token=token).deleted_at is not None
    # Its links are gone meanwhile, for this phone too.
    assert page.request.get(f"{url}/score/{token}/").status == 404
    page.get_by_role("button", name="Restore").click()
    page.wait_for_url(f"{url}/score/{token}/")
    assert Match.objects.get(scorer_token=token).deleted_at is None


def test_manage_a_match_on_a_phone(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page = new_phone()
    url = live_server.url
    token = start_match(page, url)

    # The match just created is on the home page, with its time and players (not in My matches
    # until it has a deal).
    page.goto(f"{url}/")
    row = page.locator(".match-row", has_text="Us – Them")
    expect(row.locator(".players")).to_have_text("Anna & Chloé – Ben & David")
    expect(row.locator(".meta")).to_contain_text("No deal yet")
    expect(row.locator("time")).to_have_text(re.compile(r"^\d{1,2} \w{3} \d{4}, \d\d:\d\d$"))
    shot(page, "01-home-new-match")
    row.click()
    page.wait_for_url(f"{url}/score/{token}/")

    # Manual score: empty fields; nothing typed is refused, then 50 for Them.
    page.get_by_role("link", name="Manual score").click()
    expect(page.locator("input[name=score0]")).to_have_value("")
    expect(page.locator("input[name=score1]")).to_have_value("")
    page.get_by_role("button", name="Save").click()
    expect(page.locator(".form-errors")).to_contain_text(
        "Nothing to record: enter the points of at least one team."
    )
    shot(page, "02-manual-nothing")
    page.locator("input[name=score1]").fill("50")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(BOARD)
    expect_totals(page, 0, 50)

    # Abandon: marked, no more deals; My matches marks it and opens its review.
    page.get_by_role("link", name="Abandon or delete").click()
    expect(page.get_by_role("heading", name="Manage the match")).to_be_visible()
    shot(page, "03-manage")
    page.get_by_role("button", name="Abandon the match").click()
    page.wait_for_url(f"{url}/score/{token}/")
    expect(page.locator(".banner-abandoned")).to_contain_text("Abandoned")
    expect(page.get_by_role("link", name="Record a deal")).to_have_count(0)
    expect(page.get_by_role("link", name="Manual score")).to_have_count(0)
    shot(page, "04-abandoned")
    page.get_by_role("link", name="My matches").click()
    row = page.locator("#results .match-row", has_text="Us – Them")
    expect(row.locator(".meta")).to_contain_text("Abandoned")
    expect(row).to_have_attribute("href", re.compile(r"/review/$"))
    shot(page, "05-history-abandoned")
    row.click()
    expect(page.locator("#main")).to_contain_text("Abandoned")

    # Resume it from the scoreboard.
    page.goto(f"{url}/score/{token}/")
    page.locator(".banner-abandoned").get_by_role("link", name="Resume it").click()
    page.get_by_role("button", name="Resume the match").click()
    page.wait_for_url(f"{url}/score/{token}/")
    expect(page.get_by_role("link", name="Record a deal")).to_be_visible()

    delete_and_restore(page, url, token, shot, "06")
    expect_totals(page, 0, 50)
    assert page_errors(page) == []


def test_delete_and_restore_without_javascript(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page = new_phone(javascript=False)
    url = live_server.url
    token = start_match(page, url)
    manual_score(page, "20", "")
    page.wait_for_url(BOARD)
    delete_and_restore(page, url, token, shot, "nojs")
    expect_totals(page, 20, 0)


def test_the_manage_page_in_french(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page = new_phone(locale="fr-FR")
    url = live_server.url
    match_url = f"{url}/score/{{}}/manage/"
    with translation.override("fr"):
        page.goto(f"{url}/new/")
        page.locator("input[name=preset][value='coinche']").check()
        page.locator("input[name=team0_name]").fill("Nous")
        page.locator("input[name=team1_name]").fill("Eux")
        page.locator("select[name=first_dealer]").select_option("0")
        page.locator("form button[type=submit].btn-primary").click()
        page.wait_for_url(BOARD)
        token = page.url.rstrip("/").rsplit("/", 1)[-1]
        page.goto(match_url.format(token))
        expect(page.locator("label[for=confirm]")).to_have_text("Tapez supprimer pour confirmer")
        shot(page, "fr-manage")
        page.locator("#confirm").fill("supprimer")
        page.locator("#delete button[type=submit]").click()
        page.wait_for_url(f"{url}/history/deleted/")
        expect(page.locator("h1")).to_have_text("Supprimées récemment")
        shot(page, "fr-recently-deleted")
