"""The outbox with the real in-browser engine (docs/offline.md, docs/offline-engine.md): deals
saved without signal show running totals computed on the phone by the server's own engine run
in Pyodide, again after a reload without signal (the engine started from the phone's cache), and
once they are sent the server's totals are the ones the phone showed. Skipped where the runtime
was not fetched (scripts/fetch_pyodide.py)."""

import json
import re
from pathlib import Path

import pytest
from django.test import Client
from playwright.sync_api import Page, Playwright, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.matches.models import Match
from tests.offline_matches import server_output

from .conftest import Shot, fill_deal, start_match, totals
from .test_offline import (  # noqa: F401 (playwright: the fixture)
    BOARD,
    keep_offline,
    offline_deal,
    open_profile,
    page_errors_of,
    playwright,
)
from .test_offline_engine import PREPARE_TIMEOUT, needs_runtime

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
    needs_runtime,
]
COMPUTED = "totals computed on this phone, not sent yet"


def runs(page: Page) -> list[tuple[int, int]]:
    """The running totals shown beside each deal not sent yet."""
    texts = page.locator("#outbox .outbox-item .run").all_inner_texts()
    pairs = [re.fullmatch(r"(-?\d+) – (-?\d+)", text.strip()) for text in texts]
    assert all(pairs), texts
    return [(int(p[1]), int(p[2])) for p in pairs if p]


def test_deals_saved_offline_show_the_totals_the_server_then_gives(
    playwright: Playwright,  # noqa: F811
    live_server: LiveServer,
    tmp_path: Path,
    shot: Shot,
) -> None:
    context = open_profile(playwright, tmp_path / "phone")
    page = context.new_page()
    token = start_match(page, live_server.url)
    page.get_by_role("button", name="All passed").click()  # a deal already on the server
    expect(page.locator("#scoreboard ol.deals > li")).to_have_count(1)
    keep_offline(page)
    # Kept, the phone stores the engine's pack; online with nothing waiting, the engine itself
    # (a whole Python runtime) is not started: the server scores.
    expect(page.locator("#offline[data-engine-state='stored']")).to_be_attached(
        timeout=PREPARE_TIMEOUT
    )
    assert page.evaluate("window.OfflineEngine.ready()") is False

    context.set_offline(True)  # the engine starts, from the phone's cache
    expect(page.locator("#offline[data-engine-state='ready']")).to_be_attached(
        timeout=PREPARE_TIMEOUT
    )
    # The deal form's live preview without signal: the engine's, as the server's page shows it.
    page.get_by_role("link", name="Record a deal").click()
    fill_deal(page, taker="0", contract="80", trump="spades", points="90")
    preview = page.locator("#preview")
    expect(preview.locator(".preview-outcome")).to_have_text("Made", timeout=PREPARE_TIMEOUT)
    expect(preview).to_contain_text("Computed on this phone, without signal.")
    previewed = [
        int(n.strip("+")) for n in preview.locator(".preview-scores strong").all_inner_texts()
    ]
    lines = preview.locator(".breakdown li").all_inner_texts()
    assert lines, "the breakdown's lines"
    shot(page, "00-offline-preview")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)
    offline_deal(page, "1", "90", "hearts", "100")
    offline_deal(page, "0", "100", "clubs", "60")  # a failed contract
    expect(page.locator("#outbox")).to_contain_text(COMPUTED, timeout=PREPARE_TIMEOUT)
    shown, shown_runs = totals(page), runs(page)
    assert len(shown_runs) == 3 and shown_runs[-1] == shown
    shot(page, "01-offline-totals")

    page.reload()  # no signal: the pages, the runtime and the engine come from the phone's cache
    expect(page.locator("#outbox")).to_contain_text(COMPUTED, timeout=PREPARE_TIMEOUT)
    assert (totals(page), runs(page)) == (shown, shown_runs)

    context.set_offline(False)
    expect(page.locator("#outbox")).to_have_count(0)
    expect(page.locator("#scoreboard ol.deals > li")).to_have_count(4)
    match = Match.objects.get(scorer_token=token)
    assert (match.total0, match.total1) == shown
    # Deal by deal: the server's own scoring of its match file after each deal sent.
    exported = Client().get(f"/score/{token}/match.json")
    scored = server_output(json.dumps(exported.json()), "en")
    assert [tuple(deal["totals"]) for deal in scored["deals"][1:]] == shown_runs
    # The preview's scores and words were the server's for that deal.
    assert scored["deals"][1]["scores"] == previewed
    assert scored["deals"][1]["breakdown"] == lines
    assert not page_errors_of(page)
    context.close()
