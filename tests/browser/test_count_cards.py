"""The card-counting helper opened from the deal form: the deal typed so far survives the trip,
and the total lands in the card points of the team that won the cards."""

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from .conftest import Shot, chip, page_errors, start_match, tap_card

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]


def test_count_the_defence_cards_from_the_deal_form(
    phone: Page, live_server: LiveServer, shot: Shot
) -> None:
    page = phone
    start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "1")
    chip(page, "contract", "100")
    chip(page, "trump", "diamonds")
    chip(page, "coinche", "coinche")
    page.get_by_label("Note").fill("Ben dealt")
    page.get_by_role("button", name="Count card points").click()

    page.wait_for_url(re.compile(r"/count/\?"))
    expect(page.locator("input[name=trump][value=diamonds]")).to_be_checked()  # the deal's trump
    expect(page.locator("input[name=won_by][value='1']")).to_be_checked()  # the takers, first
    chip(page, "won_by", "0")  # counting the defence's cards instead
    for key in ("J-diamonds", "9-diamonds", "A-spades"):  # 20 + 14 + 11
        tap_card(page, key)
    page.get_by_label("They won the last trick (dix de der, +10)").check()
    expect(page.locator(".total-line strong")).to_have_text("55")
    shot(page, "01-counted")
    page.get_by_role("link", name="Use these points in the deal").click()

    expect(page.get_by_role("heading", name="Deal 1")).to_be_visible()
    for name, value in (("taker", "1"), ("contract", "100"), ("trump", "diamonds")):
        expect(page.locator(f"input[name={name}][value='{value}']")).to_be_checked()
    expect(page.locator("input[name=coinche][value=coinche]")).to_be_checked()
    expect(page.get_by_label("Note")).to_have_value("Ben dealt")
    expect(page.get_by_label("Defence's card points")).to_have_value("55")
    page.get_by_role("button", name="Preview").click()
    # Them took 100 coinché with 162 - 55 = 107 card points: made, 2 × (160 + 100) = 520.
    expect(page.locator("#preview .preview-outcome")).to_have_text("Made")
    expect(page.locator("#preview .preview-scores .t1 strong")).to_have_text("+520")
    shot(page, "02-back-on-the-deal")
    assert page_errors(page) == []
