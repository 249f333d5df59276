"""The deal form's live preview is said aloud through one live region that stays in the page:
each update replaces #preview, but only the words of #preview-status, so a screen reader hears
every new outcome ("Made · Us +180 · Them +60"), not the whole breakdown."""

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from .conftest import Shot, fill_deal, page_errors, start_match

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

# Marks the live region and the preview (JS properties survive only on the same nodes) and
# counts removals of the live region from the page.
_MARK = """() => {
    const status = document.getElementById("preview-status");
    status.keptNode = "yes";
    document.getElementById("preview").keptNode = "yes";
    window.statusRemoved = 0;
    new MutationObserver((records) => {
        for (const record of records) {
            for (const node of record.removedNodes) if (node === status) window.statusRemoved += 1;
        }
    }).observe(document.body, { childList: true, subtree: true });
}"""
_LIVE = """() => [...document.querySelectorAll("[aria-live], [role=status], [role=log]")]
    .map((el) => el.id)"""


def test_one_live_region_says_each_new_outcome(
    phone: Page, live_server: LiveServer, shot: Shot
) -> None:
    page = phone
    start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    status = page.locator("#preview-status")
    expect(status).to_be_attached()  # the deal page has loaded (the click does not wait for it)
    # One live region, outside the preview that every update replaces; polite, read whole.
    assert page.evaluate(_LIVE) == ["preview-status"]
    expect(status).to_have_attribute("aria-live", "polite")
    expect(status).to_have_attribute("aria-atomic", "true")
    assert page.locator("#preview #preview-status").count() == 0
    expect(status).to_be_empty()
    page.evaluate(_MARK)

    fill_deal(page, taker="0", contract="80", trump="hearts", points="100")
    expect(status).to_have_text("Made · Us +180 · Them +60")
    first = status.text_content()
    shot(page, "01-made")

    page.get_by_label("Takers' card points").fill("70")
    expect(status).to_have_text("Failed · Us +0 · Them +240")
    assert status.text_content() != first
    shot(page, "02-failed")

    # The same node all along, never taken out; the preview itself was replaced.
    assert status.evaluate("(el) => el.keptNode") == "yes"
    assert page.evaluate("() => window.statusRemoved") == 0
    assert page.locator("#preview").evaluate("(el) => el.keptNode") is None
    assert page.evaluate(_LIVE) == ["preview-status"]
    # What it says is short: the outcome, not the breakdown the preview shows.
    assert len(status.text_content() or "") < len(page.locator("#preview").inner_text()) / 2

    # A wrong field: the region says what to correct.
    page.get_by_label("Takers' card points").fill("170")
    expect(status).to_contain_text("To see the score, correct this:")
    expect(status).to_contain_text("162")
    assert status.evaluate("(el) => el.keptNode") == "yes"
    assert page_errors(page) == []
