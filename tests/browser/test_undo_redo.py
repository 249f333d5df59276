"""Undo you can trust, on a 360 px phone: the buttons say what they undo and redo, a finished
match asks before its result changes (in place with htmx, on a page without JavaScript), Redo
walks forward in order, and Undo is never beside Rematch."""

import re

import pytest
from django.utils import translation
from playwright.sync_api import Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.matches.models import DealChange, Match

from .conftest import (
    NewPhone,
    Shot,
    expect_totals,
    page_errors,
    save_screenshot,
    start_match,
)

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
    page.wait_for_url(BOARD)


def undo_button(page: Page) -> Locator:
    # Under the buttons, or beside "Deal 5: all passed." (issue 41): shown once, either way.
    return page.locator("#scoreboard button").filter(has_text=re.compile("^Undo"))


def redo_button(page: Page) -> Locator:
    return page.locator("#scoreboard .undo-redo button").filter(has_text=re.compile("^Redo"))


def box(locator: Locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None
    return {"top": found["y"], "bottom": found["y"] + found["height"]}


def test_undo_and_redo_say_what_they_do(phone: Page, live_server: LiveServer, shot: Shot) -> None:
    page = phone
    token = start_match(page, live_server.url, preset="belote", settings={"target": "300"})
    page.get_by_role("button", name="All passed").click()
    expect(undo_button(page)).to_have_text("Undo: deal 1 recorded (all passed)")
    manual_score(page, "40", "")
    manual_score(page, "", "60")
    expect_totals(page, 40, 60)
    expect(undo_button(page)).to_have_text("Undo: deal 3 recorded (manual score)")
    expect(redo_button(page)).to_have_count(0)
    shot(page, "01-undo-names-the-deal")

    # Undo twice (htmx, in place): each time Redo names what comes back.
    page.evaluate("window.stillHere = true")  # no page reload below
    undo_button(page).click()
    expect(page.locator(".messages")).to_contain_text("Undone: deal 3 recorded (manual score).")
    expect_totals(page, 40, 0)
    expect(redo_button(page)).to_have_text("Redo: deal 3 recorded (manual score)")
    undo_button(page).click()
    expect_totals(page, 0, 0)
    expect(undo_button(page)).to_have_text("Undo: deal 1 recorded (all passed)")
    expect(redo_button(page)).to_have_text("Redo: deal 2 recorded (manual score)")
    shot(page, "02-undo-and-redo")
    # Side by side in one row at 360 px, each a full fingertip high.
    undo, redo = box(undo_button(page)), box(redo_button(page))
    assert undo["top"] == redo["top"]

    # Redo walks forward in order: deal 2, then deal 3; then nothing left to redo.
    redo_button(page).click()
    expect(page.locator(".messages")).to_contain_text("Redone: deal 2 recorded (manual score).")
    expect_totals(page, 40, 0)
    redo_button(page).click()
    expect_totals(page, 40, 60)
    expect(redo_button(page)).to_have_count(0)
    expect(undo_button(page)).to_have_text("Undo: deal 3 recorded (manual score)")
    assert page.evaluate("window.stillHere") is True

    # A new change ends what can be redone.
    undo_button(page).click()
    expect(redo_button(page)).to_be_visible()
    manual_score(page, "10", "")
    expect(redo_button(page)).to_have_count(0)
    expect(undo_button(page)).to_have_text("Undo: deal 3 recorded (manual score)")
    shot(page, "03-new-change-no-redo")

    match = Match.objects.get(scorer_token=token)
    assert (match.total0, match.total1, match.deal_count) == (50, 0, 3)
    assert DealChange.objects.filter(match=match, undoes__isnull=False).count() == 5
    assert page_errors(page) == []


def test_a_finished_match_asks_before_undo(
    phone: Page, live_server: LiveServer, shot: Shot
) -> None:
    page = phone
    token = start_match(page, live_server.url, preset="belote", settings={"target": "300"})
    manual_score(page, "120", "")
    manual_score(page, "", "320")
    expect(page.locator(".banner-title")).to_have_text("★ Winner: Them")
    rematch = page.get_by_role("button", name="Rematch")
    expect(undo_button(page)).to_have_text("Undo: deal 2 recorded (manual score)")
    # Never side by side: the whole deal list stands between Rematch (above) and Undo (below).
    deals = box(page.locator("ol.deals"))
    assert box(rematch)["bottom"] < deals["top"] and deals["bottom"] < box(undo_button(page))["top"]
    shot(page, "01-finished")
    page.set_viewport_size({"width": 1024, "height": 768})  # a tablet or a laptop: the same
    deals = box(page.locator("ol.deals"))
    assert box(rematch)["bottom"] < deals["top"] and deals["bottom"] < box(undo_button(page))["top"]
    save_screenshot(page, "test_a_finished_match_asks_before_undo-01b-wide.png")
    page.set_viewport_size({"width": 360, "height": 740})

    page.evaluate("window.stillHere = true")
    undo_button(page).click()
    question = page.locator(".undo-confirm")
    expect(question).to_contain_text("The match is over.")
    expect(question).to_contain_text("The final score and the winner may change.")
    expect(undo_button(page)).to_have_count(0)
    shot(page, "02-asks-first")
    page.get_by_role("link", name="Keep the result").click()
    expect(question).to_have_count(0)
    expect(undo_button(page)).to_be_visible()
    assert Match.objects.get(scorer_token=token).is_finished

    undo_button(page).click()
    page.get_by_role("button", name="Yes, undo: deal 2 recorded (manual score)").click()
    expect(page.locator(".messages")).to_contain_text("Undone: deal 2 recorded (manual score).")
    expect_totals(page, 120, 0)
    expect(page.get_by_role("link", name="Record a deal")).to_be_visible()
    expect(page.get_by_role("button", name="Rematch")).to_have_count(0)
    expect(redo_button(page)).to_have_text("Redo: deal 2 recorded (manual score)")
    assert page.evaluate("window.stillHere") is True  # all in place, no reload
    shot(page, "03-reopened")
    # Redo finishes it again (it brings back the result that was just there).
    redo_button(page).click()
    expect(page.locator(".banner-title")).to_have_text("★ Winner: Them")
    assert Match.objects.get(scorer_token=token).is_finished
    assert page_errors(page) == []


def test_without_javascript_undo_of_a_finished_match_has_a_confirmation_page(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page = new_phone(javascript=False)
    token = start_match(page, live_server.url, preset="belote", settings={"target": "300"})
    manual_score(page, "350", "")
    undo_button(page).click()
    expect(
        page.get_by_role("heading", name="Undo: deal 1 recorded (manual score)?")
    ).to_be_visible()
    shot(page, "01-confirm-page")
    assert Match.objects.get(scorer_token=token).deal_count == 1
    page.get_by_role("button", name="Yes, undo").click()
    page.wait_for_url(BOARD)
    expect(page.locator(".messages")).to_contain_text("Undone: deal 1 recorded (manual score).")
    expect_totals(page, 0, 0)
    redo_button(page).click()
    page.wait_for_url(BOARD)
    expect_totals(page, 350, 0)
    shot(page, "02-redone")
    assert Match.objects.get(scorer_token=token).is_finished


def test_in_french_undo_is_defaire(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page = new_phone(locale="fr-FR")
    with translation.override("fr"):
        page.goto(f"{live_server.url}/new/")
        page.locator("input[name=preset][value='belote']").check()
        page.locator("input[name=team0_name]").fill("Nous")
        page.locator("input[name=team1_name]").fill("Eux")
        page.locator("form button[type=submit].btn-primary").click()
        page.wait_for_url(BOARD)
        page.locator("#scoreboard .actions form button").click()  # Tous passent
        # Défaire beside "Donne 1 : tous passent." (issue 41), Refaire under the buttons.
        beside = page.locator("#scoreboard .msg-with-undo button")
        expect(beside).to_have_text(["Défaire\u00a0: donne 1 enregistrée (tous passent)"])
        beside.click()
        expect(page.locator(".messages")).to_contain_text("Défait\u00a0: donne 1")
        buttons = page.locator("#scoreboard .undo-redo button")
        expect(buttons).to_have_text(["Refaire\u00a0: donne 1 enregistrée (tous passent)"])
        expect(page.locator("body")).not_to_contain_text("Annuler")
        shot(page, "01-refaire")
