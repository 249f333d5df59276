"""Issue 26, the round clock in a browser: a table phone at 360 px and the projector at
1920x1080, each with a device clock hours off (the page counts from the server's time it was
sent, so the time left is still right), counting down from the end stored on the round;
Playwright's clock (`clock.install`, `clock.run_for`) takes them to zero without waiting real
time: "Last deal" on the phone, "Time!" on the projector, said once to screen readers. Without
JavaScript the phone shows the end time the server computed. Every screen photographed."""

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.concours import services
from scorekeeper.concours.models import Round, Table, Tournament
from tests.concours.support import play_deals
from tests.factories import PASSWORD, UserFactory

from .conftest import NewPhone, Shot, count_swaps, page_errors, save_screenshot, wait_for_swaps

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

TEAMS = "Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\nCarreau; Gilles; Hana"
WRONG = timedelta(hours=-3, minutes=-17)  # the device's own clock, hours off
RUNNING = re.compile(r"^(45:00|44:5\d)$")


def concours() -> tuple[Tournament, Round]:
    organiser: User = UserFactory.create(username="organiser")
    tournament = services.create_tournament(
        owner=organiser,
        name="Concours de la Saint-Martin",
        overrides={
            "minutes": 45,
            "partie": {"preset": "belote", "deals_limit": 12, "target": None},
        },
    )
    services.add_entrants_from_text(tournament=tournament, text=TEAMS)
    return tournament, services.draw_round(tournament=tournament)


def seconds_left(round_: Round, seconds: int) -> None:
    """The round's clock set (in the DB, as a start long ago would) to end in `seconds`."""
    assert round_.clock_minutes is not None
    start = timezone.now() + timedelta(seconds=seconds) - timedelta(minutes=round_.clock_minutes)
    Round.objects.filter(pk=round_.pk).update(clock_started_at=start)


# What the clock's status regions said, in order, across every swap (an init script: each region
# is replaced by the polls; what a screen reader is told is each text written into one).
_HEARD = """
window.__heard = [];
new MutationObserver((mutations) => {
  for (const mutation of mutations) {
    const target = mutation.target instanceof Element ? mutation.target : mutation.target.parentElement;
    if (target && target.matches("[data-clock-status]") && target.textContent) {
      window.__heard.push(target.textContent);
    }
  }
}).observe(document, { childList: true, subtree: true, characterData: true });
"""


def test_a_table_phone_counts_down_to_last_deal(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot
) -> None:
    _tournament, round_ = concours()
    table = Table.objects.get(round=round_, number=1)
    phone = new_phone()
    count_swaps(phone)
    phone.add_init_script(_HEARD)
    phone.clock.install(time=timezone.now() + WRONG)
    phone.goto(f"{live_server.url}/t/{table.token}/")
    clock = phone.locator("#round-clock")
    time = clock.locator("[data-clock-time]")
    expect(time).to_have_text(RUNNING)  # right, though the phone's clock is 3 h 17 off
    expect(clock.locator("[data-clock-end]")).to_have_text(re.compile(r"^ends at \d\d:\d\d$"))
    expect(clock.locator("[role=status]")).to_have_text("")
    shot(phone, "01-running")
    seconds_left(round_, 8)
    phone.reload()  # the clock is the server's: a reload shows the same end
    expect(time).to_have_text(re.compile(r"^00:0[5-8]$"))
    phone.clock.run_for(9_000)
    expect(time).to_have_text("Last deal")
    expect(clock).to_have_class(re.compile(r"\bis-up\b"))
    expect(clock.locator("[role=status]")).to_have_text("Last deal")  # said once, at zero
    expect(clock.locator("[data-clock-end]")).to_be_hidden()
    shot(phone, "02-last-deal")
    # Its own refresh (every 30 s) brings a new clock element: still "Last deal", said once.
    phone.clock.run_for(30_000)
    wait_for_swaps(phone, 1)
    assert time.inner_text() == "Last deal"
    assert phone.evaluate("window.__heard") == ["Last deal"]
    assert page_errors(phone) == []


def test_a_table_phone_without_javascript_shows_the_end_time(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot
) -> None:
    _tournament, round_ = concours()
    table = Table.objects.get(round=round_, number=2)
    phone = new_phone(javascript=False)
    phone.goto(f"{live_server.url}/t/{table.token}/")
    round_.refresh_from_db()
    assert round_.clock_ends_at is not None
    ends = timezone.localtime(round_.clock_ends_at).strftime("%H:%M")
    expect(phone.locator("#round-clock [data-clock-time]")).to_have_text(f"ends at {ends}")
    shot(phone, "01-no-js")
    seconds_left(round_, -60)
    phone.reload()
    expect(phone.locator("#round-clock [data-clock-time]")).to_have_text("Last deal")
    shot(phone, "02-no-js-last-deal")


def test_the_projector_counts_down_to_time(live_server: LiveServer, browser: Browser) -> None:
    tournament, round_ = concours()
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    wall: Page = context.new_page()
    errors: list[str] = []
    wall.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    wall.on("pageerror", lambda error: errors.append(str(error)))
    wall.clock.install(time=timezone.now() + WRONG)
    wall.goto(f"{live_server.url}/c/{tournament.public_token}/projector/")
    clock = wall.locator(".proj-clock")
    time = clock.locator("[data-clock-time]")
    expect(time).to_have_text(RUNNING)
    box = time.bounding_box()
    assert box is not None and box["height"] >= 70  # readable across a hall
    assert wall.evaluate("document.documentElement.scrollWidth") <= 1920
    save_screenshot(wall, "round-clock-projector-01-running.png")
    seconds_left(round_, 8)
    wall.reload()
    expect(time).to_have_text(re.compile(r"^00:0[5-8]$"))
    wall.clock.run_for(9_000)
    expect(time).to_have_text("Time!")
    expect(clock).to_have_class(re.compile(r"\bis-up\b"))
    expect(clock.locator("[role=status]")).to_have_text("Time!")
    save_screenshot(wall, "round-clock-projector-02-time.png")
    assert not errors  # no script error, no CSP refusal
    context.close()


def test_the_projector_clock_stays_right_through_a_304_near_zero(
    live_server: LiveServer, browser: Browser
) -> None:
    """Issue 42: the wall's clock ran backwards at each refresh answered 304 (htmx was handed the
    cached fragment with the server's time it carried then), counted down again after zero and
    said "Time!" at every refresh. Near zero, through a refresh answered 200 and two answered
    304: "Time!" stays, said once."""
    tournament, round_ = concours()
    seconds_left(round_, 8)
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    wall: Page = context.new_page()
    errors: list[str] = []
    wall.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    wall.on("pageerror", lambda error: errors.append(str(error)))
    # What the server answered each poll, as Chromium's network layer saw it (a 304 is served
    # to htmx from the browser's cache as the 200 it revalidated).
    asked: list[str] = []
    status: dict[str, int] = {}
    cdp = wall.context.new_cdp_session(wall)
    cdp.send("Network.enable")

    def sent(event: dict[str, Any]) -> None:
        headers = {name.lower() for name in event["request"]["headers"]}
        if "/projector/" in event["request"]["url"] and "hx-request" in headers:
            asked.append(event["requestId"])

    cdp.on("Network.requestWillBeSent", sent)
    cdp.on(
        "Network.responseReceivedExtraInfo",
        lambda event: status.__setitem__(event["requestId"], event["statusCode"]),
    )
    count_swaps(wall)
    wall.add_init_script(_HEARD)
    wall.clock.install(time=timezone.now() + WRONG)
    wall.goto(f"{live_server.url}/c/{tournament.public_token}/projector/")
    clock = wall.locator(".proj-clock")
    time = clock.locator("[data-clock-time]")
    expect(time).to_have_text(re.compile(r"^00:0[5-8]$"))
    wall.clock.run_for(9_000)
    expect(time).to_have_text("Time!")
    for polls in (1, 2, 3):  # every 10 s: the first answered 200, then 304 (nothing changed)
        wall.clock.run_for(10_000 if polls > 1 else 1_500)
        wait_for_swaps(wall, polls)
        # Read at once, not waited for: the swap's own tick has run (the script's listener).
        assert time.inner_text() == "Time!", (polls, time.inner_text())
        expect(clock).to_have_class(re.compile(r"\bis-up\b"))
    for _ in range(100):  # Chromium's word on the last poll may come after its swap
        if len([id_ for id_ in asked if id_ in status]) >= 3:
            break
        wall.wait_for_timeout(50)
    assert [status[id_] for id_ in asked if id_ in status] == [200, 304, 304], (asked, status)
    wall.clock.run_for(5_000)
    expect(time).to_have_text("Time!")  # never counting down again
    assert wall.evaluate("window.__heard") == ["Time!"]  # said once, not at each refresh
    assert not errors
    context.close()


def test_a_stale_page_is_put_right_by_the_next_answer_s_server_time(
    live_server: LiveServer, browser: Browser
) -> None:
    """The offset comes from fresh answers: a projector page whose server time is a minute old
    (a copy from a cache) shows a minute too much until the next htmx answer, whose Server-Time
    header puts it right."""
    tournament, round_ = concours()
    seconds_left(round_, 120)
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    wall: Page = context.new_page()
    address = f"{live_server.url}/c/{tournament.public_token}/projector/"

    def a_minute_old(route: Any) -> None:
        page = route.fetch()
        now = re.search(r'data-clock-now="(\d+)"', page.text())
        assert now is not None
        body = page.text().replace(now[0], f'data-clock-now="{int(now[1]) - 60_000}"')
        route.fulfill(response=page, body=body)

    wall.route(address, a_minute_old)  # the page itself, not its polls (their own address)
    wall.goto(address)
    time = wall.locator(".proj-clock [data-clock-time]")
    expect(time).to_have_text(re.compile(r"^(03:00|02:5\d)$"))  # a minute too much
    wall.unroute(address)
    with wall.expect_response(lambda r: r.url == address and r.status == 200):
        wall.evaluate(
            "htmx.ajax('GET', location.pathname, {target: '#projector', swap: 'outerHTML'})"
        )
    expect(time).to_have_text(re.compile(r"^(02:00|01:5\d)$"))
    context.close()


def test_the_desk_calls_time_at_every_table(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot
) -> None:
    """The organiser's desk at 360 px: the clock and its Start again; before zero, Call time at
    every table behind a confirmation; at zero one button, and every table with a deal ends."""
    tournament, round_ = concours()
    for table in Table.objects.filter(round=round_):
        play_deals(table, 2)
    page = new_phone()
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("Username").fill("organiser")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/concours/{tournament.pk}/")
    clock = page.locator("#clock")
    expect(clock.locator("[data-clock-time]")).to_have_text(RUNNING)
    expect(clock.get_by_text("Call time at every table…")).to_be_visible()
    shot(page, "01-desk-running")
    seconds_left(round_, -5)
    page.reload()
    expect(clock.locator("[data-clock-time]")).to_have_text("Time!")
    clock.get_by_role("button", name="Call time at every table").click()
    expect(page.get_by_text("Time called at 2 tables: 1, 2.")).to_be_visible()
    assert Table.objects.filter(round=round_, ended=True, finished=True).count() == 2
    shot(page, "02-desk-time-called")
    assert page_errors(page) == []
