"""A phone that loses the signal keeps scoring (docs/offline.md): the network cut by Chromium's
own offline emulation, deals go to the phone's outbox (IndexedDB), survive a reload and a
restart of the browser (a persistent profile: its service worker, cache and outbox kept), and
reach the server in order, each once, when the signal is back; a conflict stops the queue and
keeps the deal. Without the in-browser engine (its runtime absent, as here: `no_runtime`)
queued deals show "totals when sent"."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, Playwright, Route, expect
from pytest_django.fixtures import Settings
from pytest_django.live_server_helper import LiveServer

from scorekeeper.matches import services
from scorekeeper.matches.models import Match

from .conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    Shot,
    chip,
    fill_deal,
    page_errors,
    start_match,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

BOARD = re.compile(r"/score/[^/]+/$")


@pytest.fixture(autouse=True)
def no_runtime(settings: Settings) -> None:
    """These tests are about the outbox: the in-browser engine stays unavailable (as where the
    runtime was not fetched), so that "totals when sent" does not depend on whether Pyodide got
    ready first. tests/browser/test_offline_with_engine.py runs the outbox with the real one."""
    settings.OFFLINE_RUNTIME_PATH = "offline/absent/"


@pytest.fixture
def playwright(playwright_session: Playwright) -> Playwright:
    """The session's Playwright (conftest): these tests open their own persistent profiles."""
    return playwright_session


def open_profile(playwright: Playwright, profile: Path) -> BrowserContext:
    """A phone's browser with its profile on disk: closing it and opening it again is a reboot
    (service worker, caches, IndexedDB, cookies kept)."""
    context = playwright.chromium.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        headless=True,
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="en-GB",
        service_workers="allow",
    )
    context.set_default_timeout(10_000)
    return context


def keep_offline(page: Page) -> None:
    """Taps "Keep this match on this phone" and waits until the pages are kept."""
    page.get_by_role("button", name="Keep this match on this phone").click()
    expect(page.locator("#offline[data-kept='1']")).to_be_attached()
    expect(page.get_by_text("This match works without signal on this phone.")).to_be_visible()


def offline_deal(page: Page, taker: str, contract: str, trump: str, points: str) -> None:
    """Records a deal from the kept deal form (no preview without signal) and comes back to the
    kept scoreboard."""
    page.get_by_role("link", name="Record a deal").click()
    expect(page.locator("#deal-form")).to_be_visible()
    fill_deal(page, taker=taker, contract=contract, trump=trump, points=points)
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)


def expect_waiting(page: Page, deals: list[str]) -> None:
    """The scoreboard's deals not sent yet are these (waits for the list to be drawn)."""
    expect(page.locator("#outbox .outbox-item .what")).to_have_text(deals)


def test_five_deals_offline_survive_a_reboot_and_reach_the_server_in_order(
    playwright: Playwright, live_server: LiveServer, tmp_path: Path, shot: Shot
) -> None:
    profile = tmp_path / "phone"
    context = open_profile(playwright, profile)
    page = context.new_page()
    token = start_match(page, live_server.url)
    keep_offline(page)

    context.set_offline(True)
    offline_deal(page, "0", "80", "spades", "90")  # 1
    expect(page.locator("#net-badge")).to_have_text("offline · 1 deal waiting")
    offline_deal(page, "1", "90", "hearts", "100")  # 2
    offline_deal(page, "0", "100", "clubs", "70")  # 3, edited below
    # The last deal not sent yet is edited in place: the form opens filled with it.
    page.locator("#outbox .outbox-item").last.get_by_role("link", name="Edit").click()
    expect(page.locator("label.chip input[name=contract][value='100']")).to_be_checked()
    page.get_by_label("Takers' card points").fill("120")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)
    offline_deal(page, "1", "80", "diamonds", "82")  # 4
    offline_deal(page, "0", "110", "spades", "130")  # 5
    offline_deal(page, "1", "120", "hearts", "140")  # 6, undone below
    expect(page.locator("#net-badge")).to_have_text("offline · 6 deals waiting")
    page.locator("#outbox .outbox-item").last.get_by_role("button", name="Undo").click()
    expect(page.locator("#net-badge")).to_have_text("offline · 5 deals waiting")
    expected = [
        "Us took · 80 · ♠ spades · 90 – 72",
        "Them took · 90 · ♥ hearts · 100 – 62",
        "Us took · 100 · ♣ clubs · 120 – 42",
        "Them took · 80 · ♦ diamonds · 82 – 80",
        "Us took · 110 · ♠ spades · 130 – 32",
    ]
    expect_waiting(page, expected)
    expect(page.locator("#outbox .outbox-item .run").first).to_have_text("totals when sent")
    shot(page, "01-five-deals-waiting")

    page.reload()  # a crash of the page: the outbox stays
    expect(page.locator("#net-badge")).to_have_text("offline · 5 deals waiting")
    expect_waiting(page, expected)
    context.close()  # a reboot of the phone
    assert Match.objects.get(scorer_token=token).deal_count == 0  # nothing sent yet

    context = open_profile(playwright, profile)
    context.set_offline(True)
    page = context.new_page()
    context.set_offline(True)  # again, on the page now open (a new renderer process)
    page.goto(f"{live_server.url}/score/{token}/")
    expect(page.locator("#net-badge")).to_have_text("offline · 5 deals waiting")
    expect_waiting(page, expected)

    context.set_offline(False)  # the signal is back: sent in order, then the server's board
    expect(page.locator("#outbox")).to_have_count(0)
    expect(page.locator("#scoreboard ol.deals > li")).to_have_count(5)
    expect(page.locator("#net-badge")).to_have_text("")
    match = Match.objects.get(scorer_token=token)
    rows = match.deal_rows()
    assert [(r.taker, r.contract, r.trump, r.taker_points) for r in rows] == [
        (0, "80", "spades", 90),
        (1, "90", "hearts", 100),
        (0, "100", "clubs", 120),
        (1, "80", "diamonds", 82),
        (0, "110", "spades", 130),
    ]
    board = page.locator("#scoreboard")
    expect(board.locator(".team-0 .total")).to_have_text(str(match.total0))
    expect(board.locator(".team-1 .total")).to_have_text(str(match.total1))
    assert match.changes.count() == 5  # each deal once
    # Online again, the kept pages save through the service worker as before.
    page.get_by_role("link", name="Record a deal").click()
    fill_deal(page, taker="0", contract="80", trump="hearts", points="100")
    expect(page.locator("#preview .preview-outcome")).to_have_text("Made")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)
    expect(page.locator("#scoreboard ol.deals > li")).to_have_count(6)
    assert Match.objects.get(scorer_token=token).deal_count == 6
    assert not page_errors_of(page)
    context.close()


def page_errors_of(page: Page) -> list[str]:
    """Script errors of a page not opened through the conftest's phones."""
    try:
        return page_errors(page)
    except KeyError:
        return []


def test_a_second_phone_offline_on_the_same_match_sees_a_conflict_and_keeps_its_deal(
    playwright: Playwright, live_server: LiveServer, tmp_path: Path, shot: Shot
) -> None:
    first = open_profile(playwright, tmp_path / "first")
    page = first.new_page()
    token = start_match(page, live_server.url)
    keep_offline(page)
    second = open_profile(playwright, tmp_path / "second")
    other = second.new_page()
    other.goto(f"{live_server.url}/score/{token}/")
    keep_offline(other)

    first.set_offline(True)
    second.set_offline(True)
    offline_deal(page, "0", "80", "spades", "90")
    offline_deal(other, "1", "90", "hearts", "100")

    first.set_offline(False)
    expect(page.locator("#scoreboard ol.deals > li")).to_have_count(1)
    second.set_offline(False)
    stopped = other.locator(".outbox-stopped")
    expect(stopped).to_contain_text("The match changed on another phone meanwhile")
    expect_waiting(other, ["Them took · 90 · ♥ hearts · 100 – 62"])
    expect(other.locator("#net-badge")).to_have_text("1 deal waiting")
    shot(other, "02-conflict")
    assert Match.objects.get(scorer_token=token).deal_count == 1

    # A deal typed meanwhile, with signal, waits behind it: the outbox keeps its order.
    offline_deal(other, "0", "100", "clubs", "110")
    expect_waiting(
        other, ["Them took · 90 · ♥ hearts · 100 – 62", "Us took · 100 · ♣ clubs · 110 – 52"]
    )
    other.get_by_role("button", name="Send it as the next deal").click()
    expect(other.locator("#scoreboard ol.deals > li")).to_have_count(3)
    match = Match.objects.get(scorer_token=token)
    assert [(r.taker, r.trump) for r in match.deal_rows()] == [
        (0, "spades"),
        (1, "hearts"),
        (0, "clubs"),
    ]
    first.close()
    second.close()


def test_a_link_renewed_while_offline_stops_the_queue_and_keeps_the_deals(
    playwright: Playwright, live_server: LiveServer, tmp_path: Path
) -> None:
    context = open_profile(playwright, tmp_path / "phone")
    page = context.new_page()
    token = start_match(page, live_server.url)
    page.goto(f"{live_server.url}/score/{token}/")
    keep_offline(page)
    context.set_offline(True)
    offline_deal(page, "0", "80", "spades", "90")
    offline_deal(page, "1", "90", "hearts", "100")
    match = Match.objects.get(scorer_token=token)
    services.regenerate_links(match_id=match.pk)

    context.set_offline(False)
    stopped = page.locator(".outbox-stopped")
    expect(stopped).to_contain_text("This scorer link no longer works")
    expect(stopped.get_by_role("button", name="Send it as the next deal")).to_have_count(0)
    expect(page.locator("#outbox .outbox-item")).to_have_count(2)
    expect(page.locator("#net-badge")).to_have_text("2 deals waiting")
    # Discard asks first; the next deal is then stopped in its turn, and kept.
    stopped.get_by_role("button", name="Discard it").click()
    page.get_by_role("button", name="Yes, discard it").click()
    expect(page.locator("#net-badge")).to_have_text("1 deal waiting")
    expect(page.locator(".outbox-stopped")).to_contain_text("This scorer link no longer works")
    assert Match.objects.get(pk=match.pk).deal_count == 0
    context.close()


def test_the_outbox_still_shows_when_the_server_refuses_its_words(
    playwright: Playwright, live_server: LiveServer, tmp_path: Path
) -> None:
    """The outbox's words come from the server, else from the copy kept with the pages: a link
    renewed while the phone was offline answers 404 once the signal is back (CI once caught the
    kept page reading its words just then: no outbox, the deals waiting unseen). Here the words'
    address answers 404 on purpose, online; the kept match still shows as kept."""
    context = open_profile(playwright, tmp_path / "phone")
    page = context.new_page()
    start_match(page, live_server.url)
    keep_offline(page)
    refused: list[str] = []

    def not_found(route: Route) -> None:
        refused.append(route.request.url)
        route.fulfill(status=404, body="Not Found")

    context.route("**/offline.json", not_found)
    page.reload()
    expect(page.get_by_text("This match works without signal on this phone.")).to_be_visible()
    expect(page.get_by_role("button", name="Keep this match on this phone")).to_be_hidden()
    assert refused, "the words were asked of the server"
    context.close()


def test_the_card_counter_and_the_deal_form_work_without_signal(
    playwright: Playwright, live_server: LiveServer, tmp_path: Path
) -> None:
    context = open_profile(playwright, tmp_path / "phone")
    page = context.new_page()
    token = start_match(page, live_server.url)
    keep_offline(page)
    context.set_offline(True)
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "1")
    chip(page, "contract", "90")
    # No preview without signal: the form says why.
    expect(page.locator("#preview")).to_contain_text("No signal")
    expect(page.locator("#preview-status")).to_have_text("offline")
    page.get_by_role("button", name="Count card points").click()
    expect(page.get_by_role("heading", name="Count card points")).to_be_visible()
    chip(page, "trump", "hearts")
    page.locator("label.chip:has(input[name=card][value='J-hearts'])").click()  # 20
    page.locator("label.chip:has(input[name=card][value='A-spades'])").click()  # 11
    page.locator("label.chip:has(input[name=card][value='9-hearts'])").click()  # 14
    page.locator("#last_trick").check()  # 10
    expect(page.locator("#count-total strong")).to_have_text("55")
    page.get_by_role("link", name="Use these points in the deal").click()
    expect(page.locator("#deal-form")).to_be_visible()
    # Them took, and won these cards: 55 to them.
    expect(page.locator("input[name=taker][value='1']")).to_be_checked()
    expect(page.locator("input[name=contract][value='90']")).to_be_checked()
    expect(page.locator("input[name=trump][value='hearts']")).to_be_checked()
    expect(page.get_by_label("Takers' card points")).to_have_value("55")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)
    expect_waiting(page, ["Them took · 90 · ♥ hearts · 55 – 107"])
    context.set_offline(False)
    expect(page.locator("#scoreboard ol.deals > li")).to_have_count(1)
    row = Match.objects.get(scorer_token=token).deal_rows()[0]
    assert (row.taker, row.trump, row.taker_points) == (1, "hearts", 55)
    context.close()


def test_a_table_phone_offline_when_its_round_closed_keeps_its_deals(
    playwright: Playwright, live_server: LiveServer, tmp_path: Path, shot: Shot
) -> None:
    from django.contrib.auth.models import User

    from scorekeeper.concours import services as concours_services
    from scorekeeper.concours.models import Table
    from tests.factories import TournamentFactory

    organiser = User.objects.create_user("organiser", password="x")
    tournament = TournamentFactory.create(
        owner=organiser,
        overrides={"partie": {"preset": "belote", "deals_limit": 12, "target": None}},
        teams="Les As; Alice; Bruno\nPique Dame; Chloé; David",
        drawn=True,
    )
    table = Table.objects.select_related("round").get(round__tournament=tournament)
    context = open_profile(playwright, tmp_path / "table")
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{table.token}/")
    page.wait_for_url(BOARD)
    # A table phone keeps its pages by itself: no button to tap.
    expect(page.locator("#offline[data-kept='1']")).to_be_attached()
    expect(page.get_by_role("button", name="Keep this match on this phone")).to_be_hidden()

    context.set_offline(True)
    for taker, trump, points in (("0", "hearts", "100"), ("1", "spades", "90")):
        page.get_by_role("link", name="Record a deal").click()
        expect(page.locator("#deal-form")).to_be_visible()
        fill_deal(page, taker=taker, trump=trump, points=points)
        page.get_by_role("button", name="Save the deal").click()
        page.wait_for_url(BOARD)
    expect(page.locator("#net-badge")).to_have_text("offline · 2 deals waiting")
    # Meanwhile the organiser types the table's paper totals and closes the round.
    concours_services.record_paper_totals(table=table, totals=(500, 300))
    concours_services.close_round(round_=table.round)

    context.set_offline(False)
    stopped = page.locator(".outbox-stopped")
    expect(stopped).to_contain_text("This table's partie is over or its round closed")
    expect(stopped.get_by_role("link", name="Open the table's page")).to_be_visible()
    expect(stopped.get_by_role("button", name="Send it as the next deal")).to_have_count(0)
    expect(page.locator("#outbox .outbox-item")).to_have_count(2)
    expect(page.locator("#net-badge")).to_have_text("2 deals waiting")
    shot(page, "03-round-closed")
    assert Match.objects.get(concours_table=table).deal_count == 0
    context.close()


# A stand-in for the in-browser engine (static/js/offline-engine.js, built apart): the real one
# runs scorekeeper/engine/scoring; this one only shows that the page asks it with the kept match
# file and the waiting deals appended, and shows what it answers. Its "totals": the number of
# deals in the file, and the sum of their takers' points.
FAKE_ENGINE = """
window.OfflineEngine = {
  prepared: false,
  available: async () => true,
  prepare: async () => { window.OfflineEngine.prepared = true; },
  ready: () => window.OfflineEngine.prepared,
  dealFromForm: async (fields) => ({deal: {taker: Number(fields.taker), contract: Number(fields.contract),
    trump: fields.trump, taker_points: Number(fields.taker_points)}}),
  scoreMatch: async (file) => {
    let points = 0;
    const deals = file.deals.map((deal, i) => {
      points += deal.taker_points || 0;
      return {number: i + 1, totals: [i + 1, points]};
    });
    return {deals, totals: [file.deals.length, points], reserve: 0, finished: false, winner: null};
  },
};
"""


def test_the_engine_once_ready_gives_the_totals_of_the_deals_waiting(
    playwright: Playwright, live_server: LiveServer, tmp_path: Path
) -> None:
    context = open_profile(playwright, tmp_path / "phone")
    context.add_init_script(FAKE_ENGINE)
    page = context.new_page()
    token = start_match(page, live_server.url)
    page.get_by_role("button", name="All passed").click()  # a deal in the match file
    expect(page.locator("#scoreboard ol.deals > li")).to_have_count(1)
    keep_offline(page)
    context.set_offline(True)
    offline_deal(page, "0", "80", "spades", "90")
    offline_deal(page, "1", "90", "hearts", "100")
    runs = page.locator("#outbox .outbox-item .run")
    expect(runs).to_have_text(["2 – 90", "3 – 190"])  # the server's deal, then the two waiting
    expect(page.locator("#scoreboard .team-0 .total")).to_have_text("3")
    expect(page.locator("#scoreboard .team-1 .total")).to_have_text("190")
    expect(page.locator("#outbox")).to_contain_text("totals computed on this phone, not sent yet")
    context.set_offline(False)
    expect(page.locator("#outbox")).to_have_count(0)
    assert Match.objects.get(scorer_token=token).deal_count == 3
    context.close()


def test_the_last_deal_edited_without_signal_is_sent_as_an_edit(
    playwright: Playwright, live_server: LiveServer, tmp_path: Path
) -> None:
    context = open_profile(playwright, tmp_path / "phone")
    page = context.new_page()
    token = start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    fill_deal(page, taker="0", contract="80", trump="hearts", points="100")
    expect(page.locator("#preview .preview-outcome")).to_have_text("Made")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)
    keep_offline(page)  # the form editing deal 1 is kept with the pages

    context.set_offline(True)
    last = page.locator("#scoreboard ol.deals > li").first
    last.locator("summary").click()
    last.get_by_role("link", name="Edit").click()
    expect(page.get_by_label("Takers' card points")).to_have_value("100")
    page.get_by_label("Takers' card points").fill("120")
    page.get_by_role("button", name="Save the changes").click()
    page.wait_for_url(BOARD)
    expect_waiting(page, ["Deal 1 changed: Us took · 80 · ♥ hearts · 120 – 42"])
    expect(page.locator("#net-badge")).to_have_text("offline · 1 deal waiting")

    context.set_offline(False)
    expect(page.locator("#outbox")).to_have_count(0)
    match = Match.objects.get(scorer_token=token)
    assert [row.taker_points for row in match.deal_rows()] == [120]
    assert match.changes.count() == 2  # added, then edited once
    context.close()
