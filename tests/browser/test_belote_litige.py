"""Classic belote: a litige (81–81) and the reserve going to the next deal's winners."""

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


def test_litige_then_the_reserve(phone: Page, live_server: LiveServer, shot: Shot) -> None:
    page = phone
    token = start_match(page, live_server.url, preset="belote")
    match = Match.objects.get(scorer_token=token)
    assert match.game == "belote"
    expect(page.locator(".target")).to_contain_text("Target 1000")

    # Deal 1: Us take ♠ and make exactly 81: litige. Them score 81, Us' 81 are held.
    page.get_by_role("link", name="Record a deal").click()
    expect(page.locator("input[name=contract]")).to_have_count(0)  # no bidding in classic belote
    expect(page.locator("input[name=trump][value=no_trump]")).to_have_count(0)  # no SA/TA
    fill_deal(page, taker="0", trump="spades", points="81")
    expect(page.get_by_label("Defence's card points")).to_have_value("81")
    preview = page.locator("#preview")
    expect(preview.locator(".preview-outcome")).to_have_text("Litige")
    expect(preview.locator(".preview-scores .t0 strong")).to_have_text("+0")
    expect(preview.locator(".preview-scores .t1 strong")).to_have_text("+81")
    shot(page, "01-litige-preview")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)

    expect_totals(page, 0, 81)
    reserve = page.locator("#scoreboard .reserve")
    expect(reserve).to_have_text("Litige: 81 points held in reserve for the next deal's winners")
    expect(page.locator(".deals > li").first).to_have_class(re.compile("outcome-litige"))
    shot(page, "02-board-with-reserve")
    match.refresh_from_db()
    assert (match.total0, match.total1, match.reserve) == (0, 81, 81)

    # Deal 2: Them take ♥ and make 100: they score 100 + the 81 held; Us 62.
    page.get_by_role("link", name="Record a deal").click()
    fill_deal(page, taker="1", trump="hearts", points="100")
    expect(preview.locator(".preview-outcome")).to_have_text("Made")
    expect(preview).to_contain_text("Then: 62 – 262")
    shot(page, "03-reserve-preview")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)

    expect_totals(page, 62, 262)
    expect(page.locator("#scoreboard .reserve")).to_have_count(0)
    shot(page, "04-reserve-paid")
    match.refresh_from_db()
    assert (match.total0, match.total1, match.reserve) == (62, 262, 0)
    assert page_errors(page) == []
