"""Changing a recorded deal from the deal list, then undoing the change."""

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.matches.models import Match

from .conftest import Shot, expect_totals, fill_deal, page_errors, start_match

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

BOARD = re.compile(r"/score/[^/]+/$")


def record(page: Page, taker: str, contract: str, trump: str, points: str) -> None:
    page.get_by_role("link", name="Record a deal").click()
    fill_deal(page, taker=taker, contract=contract, trump=trump, points=points)
    expect(page.locator("#preview .preview-outcome")).to_be_visible()
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)


def test_edit_a_deal_then_undo(phone: Page, live_server: LiveServer, shot: Shot) -> None:
    page = phone
    token = start_match(page, live_server.url)
    record(page, "0", "80", "spades", "83")  # Us 83 + 80 = 163 → 160; Them 79 → 80
    expect_totals(page, 160, 80)
    record(page, "1", "90", "hearts", "100")  # Them 100 + 90 = 190; Us 62 → 60
    expect_totals(page, 220, 270)

    # The deal list is newest first: deal 1 is the last row. Open it, then Edit.
    first = page.locator(".deals > li").last
    expect(first.locator(".num")).to_have_text("1")
    expect(first.get_by_role("link", name="Edit")).to_be_hidden()
    first.locator("summary").click()
    expect(first.locator(".breakdown li").first).to_be_visible()
    shot(page, "01-deal-open")
    first.get_by_role("link", name="Edit").click()

    expect(page.get_by_role("heading", name="Edit deal 1")).to_be_visible()
    points = page.get_by_label("Takers' card points")
    expect(points).to_have_value("83")
    expect(page.locator("label.chip input[name=contract][value='80']")).to_be_checked()
    points.fill("120")  # Us 120 + 80 = 200; Them 42 → 40
    preview = page.locator("#preview")
    expect(preview.locator(".preview-scores .t0 strong")).to_have_text("+200")
    expect(preview.locator(".preview-scores .t1 strong")).to_have_text("+40")
    expect(preview).to_contain_text("Then: 260 – 230")
    shot(page, "02-edit-preview")
    page.get_by_role("button", name="Save the changes").click()
    page.wait_for_url(BOARD)

    expect(page.locator(".messages")).to_contain_text("Deal 1 changed.")
    expect_totals(page, 260, 230)
    expect(page.locator(".deals > li").last.locator(".pts")).to_have_text("200 · 40")
    match = Match.objects.get(scorer_token=token)
    assert match.deals.get(number=1).taker_points == 120
    assert (match.total0, match.total1) == (260, 230)
    shot(page, "03-edited")

    # Undo (an htmx POST that swaps the scoreboard in place) puts the old deal 1 back.
    page.get_by_role("button", name="Undo").click()
    expect(page.locator(".messages")).to_contain_text("Undone: deal 1")
    expect_totals(page, 220, 270)
    match.refresh_from_db()
    assert match.deals.get(number=1).taker_points == 83
    assert (match.total0, match.total1) == (220, 270)
    shot(page, "04-undone")

    # Deal 1's history: added, edited (83 → 120 marked), then the undo, newest first.
    first = page.locator(".deals > li").last
    first.locator("summary").click()
    first.get_by_role("link", name="History").click()
    expect(page.get_by_role("heading", name="History of deal 1")).to_be_visible()
    entries = page.locator(".history > li")
    expect(entries).to_have_count(3)
    expect(entries.nth(0)).to_contain_text("Undone")
    expect(entries.nth(1)).to_contain_text("Edited")
    expect(entries.nth(2)).to_contain_text("Added")
    expect(entries.nth(1).locator("mark")).to_have_text(["83 card points", "120 card points"])
    expect(entries.nth(1)).to_contain_text("by the phone that created the match")
    shot(page, "04b-deal-history")
    page.get_by_role("link", name="Scoreboard").click()
    page.wait_for_url(BOARD)

    # Delete deal 2 (newest, first row), then Undo brings it back.
    newest = page.locator(".deals > li").first
    newest.locator("summary").click()
    newest.get_by_role("link", name="Delete").click()
    expect(page.get_by_role("heading", name="Delete deal 2?")).to_be_visible()
    shot(page, "05-delete-confirm")
    page.get_by_role("button", name="Delete").click()
    page.wait_for_url(BOARD)
    expect(page.locator(".messages")).to_contain_text("Deal 2 deleted. Undo brings it back.")
    expect_totals(page, 160, 80)
    expect(page.locator(".deals > li")).to_have_count(1)
    match.refresh_from_db()
    assert match.deal_count == 1
    page.get_by_role("button", name="Undo").click()
    expect_totals(page, 220, 270)
    expect(page.locator(".deals > li")).to_have_count(2)
    match.refresh_from_db()
    assert match.deal_count == 2
    assert page_errors(page) == []
