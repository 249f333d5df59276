"""With JavaScript off every page still works as plain forms (POST, redirect, GET)."""

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.matches.models import Deal, Match

from .conftest import NewPhone, Shot, chip, expect_totals, fill_deal, start_match

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

BOARD = re.compile(r"/score/[^/]+/$")


def test_whole_flow_without_javascript(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page: Page = new_phone(javascript=False)
    token = start_match(page, live_server.url, players=None, on_the_page=True, shot=shot)
    match = Match.objects.get(scorer_token=token)
    expect_totals(page, 0, 0)
    shot(page, "01-board")

    page.get_by_role("link", name="Record a deal").click()
    expect(page.get_by_role("heading", name="Deal 1")).to_be_visible()
    fill_deal(page, taker="1", contract="90", trump="clubs", points="100")
    # no script: the other team's points stay empty (the server works them out)
    expect(page.get_by_label("Defence's card points")).to_have_value("")

    # "Preview" posts the form and shows the score without saving it.
    page.get_by_role("button", name="Preview").click()
    page.wait_for_load_state()
    preview = page.locator("#preview")
    expect(preview.locator(".preview-outcome")).to_have_text("Made")
    expect(preview.locator(".preview-scores .t0 strong")).to_have_text("+60")
    expect(preview.locator(".preview-scores .t1 strong")).to_have_text("+190")
    expect(preview).to_contain_text("Then: 60 – 190")
    assert re.search(r"/deal/$", page.url)
    assert not Deal.objects.filter(match=match).exists()
    # the form kept every input
    expect(page.locator("input[name=taker][value='1']")).to_be_checked()
    expect(page.locator("input[name=contract][value='90']")).to_be_checked()
    expect(page.get_by_label("Takers' card points")).to_have_value("100")
    shot(page, "02-preview")

    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)
    expect_totals(page, 60, 190)
    expect(page.locator(".deals > li")).to_have_count(1)
    expect(page.locator(".deals > li .what")).to_have_text("90 ♣ · Them · made")
    assert Deal.objects.filter(match=match).count() == 1
    shot(page, "03-saved")

    # All passed: a plain POST, then back to the scoreboard.
    page.get_by_role("button", name="All passed").click()
    page.wait_for_url(BOARD)
    expect(page.locator(".deals > li")).to_have_count(2)
    expect(page.locator(".deals > li").first.locator(".what")).to_have_text("All passed")
    expect_totals(page, 60, 190)
    match.refresh_from_db()
    assert [d.kind for d in match.deals.in_order()] == [Deal.Kind.PLAYED, Deal.Kind.PASSED]
    shot(page, "04-passed")

    # Undo: the passed deal goes away.
    page.get_by_role("button", name="Undo").click()
    page.wait_for_url(BOARD)
    expect(page.locator(".messages")).to_contain_text("Undone: deal 2")
    expect(page.locator(".deals > li")).to_have_count(1)
    expect_totals(page, 60, 190)
    match.refresh_from_db()
    assert match.deal_count == 1
    shot(page, "05-undone")

    # Details open without script too: edit deal 1 to a failed contract.
    page.locator(".deals > li summary").first.click()
    page.get_by_role("link", name="Edit").click()
    page.get_by_label("Takers' card points").fill("80")
    page.get_by_label("Defence's card points").fill("")
    page.get_by_role("button", name="Save the changes").click()
    page.wait_for_url(BOARD)
    expect_totals(page, 250, 0)  # failed: Us score 160 + 90
    shot(page, "06-edited")

    # Sharing without script: a second phone (no script either) scores through the scorer link,
    # a third opens the read-only link and finds nothing to change the match with.
    page.get_by_role("link", name="Share / QR codes").click()
    scorer_link = page.get_by_label("Scorer link").input_value()
    view_link = page.get_by_label("Read-only link").input_value()
    expect(page.locator("button[data-link]")).to_have_count(2)
    expect(page.locator("button[data-link]").first).to_be_hidden()  # needs the script
    second: Page = new_phone(javascript=False)
    second.goto(scorer_link)
    expect_totals(second, 250, 0)
    second.get_by_role("link", name="Record a deal").click()
    chip(second, "taker", "0")
    chip(second, "contract", "80")
    chip(second, "trump", "spades")
    second.get_by_label("Defence's card points").fill("62")  # Us 100 + 80 = 180; Them 62 → 60
    second.get_by_role("button", name="Save the deal").click()
    second.wait_for_url(BOARD)
    expect_totals(second, 430, 60)
    shot(second, "07-second-phone")
    viewer: Page = new_phone(javascript=False)
    viewer.goto(view_link)
    expect_totals(viewer, 430, 60)
    expect(viewer.get_by_text("Read-only view")).to_be_visible()
    for control in ("Record a deal", "Edit", "Delete", "Share / QR codes"):
        expect(viewer.get_by_role("link", name=control)).to_have_count(0)
    for control in ("All passed", "Undo", "Rematch"):
        expect(viewer.get_by_role("button", name=control)).to_have_count(0)
    # Forcing a scorer URL with the read-only token gets nothing.
    response = viewer.request.post(
        view_link.replace("/view/", "/score/") + "passed/", fail_on_status_code=False
    )
    assert response.status in (403, 404)
    shot(viewer, "08-viewer")
    match.refresh_from_db()
    assert (match.deal_count, match.total0, match.total1) == (2, 430, 60)
