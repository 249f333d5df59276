"""Issue 15, a table's phone at 360 px: the QR code's address opened (as a scan does), the
table's header on its scoreboard, two deals scored through it (a partie of two deals, set in
the concours's settings), the partie ending itself with "Result sent to the organiser", the
table link read-only with the round's standings, the old scorer page sending it there; another
table's phone taken to its read-only table link when time is called (by its poll, or its next
tap without JavaScript); the organiser's desk shows the tables finished with their QR code and
New link. Every screen photographed."""

import re
from collections.abc import Callable
from datetime import datetime, timedelta

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, Route, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.concours import services
from scorekeeper.concours.models import Table
from scorekeeper.matches.models import Match
from tests.concours.support import play_out
from tests.factories import PASSWORD, TournamentFactory, UserFactory

from .conftest import (
    HTMX_IDLE,
    NewPhone,
    Shot,
    fill_deal,
    layout_problems,
    page_errors,
    save_screenshot,
)
from .test_large_text import _OVERFLOW_JS as OVERFLOW_JS
from .test_large_text import big_phone as phone_at_200  # noqa: F401 (the fixture, by this name)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

TEAMS = "Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\nCarreau; Gilles; Hana"
BOARD = re.compile(r"/score/[^/]+/$")
# The partie's last deal ends the phone's scorer link: its Save lands on the read-only board.
LANDING = re.compile(r"/(score|view)/[^/]+/$")


def score(page: Page, taker: str, points: str) -> None:
    page.get_by_role("link", name="Record a deal").click()
    fill_deal(page, taker=taker, trump="hearts", points=points)
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(LANDING)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_table_phone_scores_its_partie_and_sends_the_result(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot, javascript: bool
) -> None:
    organiser: User = UserFactory.create(username="organiser")
    tournament = services.create_tournament(
        owner=organiser,
        name="Concours de la Saint-Martin",
        overrides={"partie": {"preset": "belote", "deals_limit": 2, "target": None}},
    )
    services.add_entrants_from_text(tournament=tournament, text=TEAMS)
    services.draw_round(tournament=tournament)
    table = Table.objects.select_related("match").get(round__tournament=tournament, number=1)
    assert table.match is not None and table.token
    teams = " – ".join(table.match.team_names)

    # The phone scans the table's QR code: its address is the table link.
    phone = new_phone(javascript=javascript)
    phone.goto(f"{live_server.url}/t/{table.token}/")
    phone.wait_for_url(BOARD)
    header = phone.locator(".board-note")
    expect(header).to_have_text(f"Table 1 · round 1 · {teams} · a partie of 2 deals")
    shot(phone, "01-table-phone")
    scorer_page = phone.url

    score(phone, "0", "100")
    expect(header).to_have_text(f"Table 1 · round 1 · {teams} · deal 1 of 2")
    shot(phone, "02-first-deal")
    score(phone, "1", "120")
    board = phone.locator("#scoreboard")
    expect(board.locator(".banner")).to_contain_text("Result sent to the organiser")
    expect(header).to_have_text(f"Table 1 · round 1 · {teams} · deal 2 of 2")
    expect(phone.get_by_role("link", name="Record a deal")).to_have_count(0)
    expect(phone.get_by_role("button", name="Rematch")).to_have_count(0)
    shot(phone, "03-result-sent")
    match = Match.objects.get(pk=table.match.pk)
    assert match.is_finished and match.deal_count == 2

    # The table link now shows the table read-only, with the round's standings so far.
    phone.get_by_role("link", name="See the round's standings").click()
    phone.wait_for_url(re.compile(r"/t/[^/]+/$"))
    expect(phone.get_by_role("heading", level=1)).to_have_text(
        f"Table 1 · round 1 · {teams} · deal 2 of 2"
    )
    expect(phone.get_by_role("status")).to_contain_text("Result sent to the organiser")
    expect(phone.locator(".table-standing")).to_have_count(4)
    expect(phone.locator(".table-standing.is-ours")).to_have_count(2)
    shot(phone, "04-read-only-standings")
    # The scorer page the phone used is gone: going back to it lands on the table link.
    phone.goto(scorer_page)
    phone.wait_for_url(re.compile(r"/t/[^/]+/$"))
    expect(phone.get_by_role("status")).to_contain_text("Result sent to the organiser")
    assert page_errors(phone) == []

    # Table 2's phone is on its scoreboard when the organiser calls time: its next poll (with
    # JavaScript) or its next tap (without) takes it to the table link, read-only.
    second = Table.objects.select_related("match").get(round__tournament=tournament, number=2)
    other = new_phone(javascript=javascript)
    other.goto(f"{live_server.url}/t/{second.token}/")
    other.wait_for_url(BOARD)
    score(other, "0", "90")
    services.call_time(table=Table.objects.get(pk=second.pk))
    if not javascript:
        other.get_by_role("link", name="Record a deal").click()
    other.wait_for_url(re.compile(r"/t/[^/]+/$"), timeout=15_000)
    expect(other.get_by_role("status")).to_contain_text("Result sent to the organiser")
    expect(other.get_by_role("status")).to_contain_text("Time was called")
    shot(other, "05-time-called")
    assert page_errors(other) == []

    # The organiser's desk: the tables finished, no QR code or New link left (their phones are
    # done); the scoreboard and the correction still there.
    desk = new_phone(javascript=javascript)
    desk.goto(f"{live_server.url}/accounts/login/")
    desk.get_by_label("Username").fill(organiser.username)
    desk.get_by_label("Password").fill(PASSWORD)
    desk.get_by_role("button", name="Log in").click()
    desk.goto(f"{live_server.url}/concours/{tournament.pk}/#table-1")
    first = desk.locator("#table-1")
    expect(first.locator(".board-state")).to_have_text("finished")
    expect(desk.locator("#table-2 .board-state")).to_have_text("finished")
    expect(desk.locator("img.table-qr")).to_have_count(0)
    expect(desk.get_by_role("button", name="New link")).to_have_count(0)
    expect(first.get_by_role("link", name="Open its scoreboard")).to_be_visible()
    expect(first.get_by_text("Correct the result")).to_be_visible()
    shot(desk, "06-desk")
    table.refresh_from_db()
    phone.goto(f"{live_server.url}/t/{table.token}/")
    expect(phone.get_by_role("status")).to_contain_text("Result sent to the organiser")
    assert page_errors(desk) == []


LONG_TEAMS = (
    "Les Invincibles de la Canebière; Benoît-Alexandre; Marie-Christine\n"
    "Pique Dame; Chloé; David\nTrèfle; Emma; Farid\nCarreau; Gilles; Hana"
)


def test_a_table_phone_with_large_text_and_in_dark_mode(
    live_server: LiveServer, new_phone: NewPhone, request: pytest.FixtureRequest
) -> None:
    """200 % text and dark mode on the table's scoreboard (its header) and its read-only page,
    with a long team name: nothing scrolls sideways or runs out of its box."""
    organiser: User = UserFactory.create(username="organiser")
    tournament = services.create_tournament(
        owner=organiser,
        name="Concours",
        overrides={"partie": {"preset": "belote", "deals_limit": 2, "target": None}},
    )
    services.add_entrants_from_text(tournament=tournament, text=LONG_TEAMS)
    services.draw_round(tournament=tournament)
    done, playing = Table.objects.filter(round__tournament=tournament).order_by("number")
    play_out(done)
    base = live_server.url
    big_phone: Callable[..., Page] = request.getfixturevalue("phone_at_200")
    big = big_phone(2.0)
    dark = new_phone(color_scheme="dark")
    for page, name in ((big, "large"), (dark, "dark")):
        page.goto(f"{base}/t/{playing.token}/")
        page.wait_for_url(BOARD)
        expect(page.locator(".board-note")).to_contain_text("Table 2 · round 1 · ")
        assert layout_problems(page) == [], name
        assert page.evaluate(OVERFLOW_JS) == [], name
        save_screenshot(page, f"table-phone-{name}-scoreboard.png", full_page=True)
        page.goto(f"{base}/t/{done.token}/")
        expect(page.get_by_role("status")).to_contain_text("Result sent to the organiser")
        assert layout_problems(page) == [], name
        assert page.evaluate(OVERFLOW_JS) == [], name
        save_screenshot(page, f"table-phone-{name}-read-only.png", full_page=True)
        assert page_errors(page) == []


def test_a_save_tapped_while_a_live_preview_is_on_its_way_drops_its_answer(
    live_server: LiveServer, new_phone: NewPhone
) -> None:
    """The card points typed and Save tapped at once: the tap takes the focus (the points'
    change sends a live preview) and saves. After a table's last deal the save ends the page's
    link, so that preview, answered after the save, was refused, and its answer (go to the
    table's page) took the phone away from the board the save leads to (met under CI's load).
    The page now drops a preview's answer once Save is tapped, and sends none after it. Here the
    order is made certain: the preview is held on its way, the save kept on the page, the link
    ended as the save would end it (time called renews it the same way), and the page's clock
    paused (the typed points' own preview, 400 ms after typing, waits for it)."""
    tournament = TournamentFactory.create(
        overrides={"partie": {"preset": "belote", "deals_limit": 1, "target": None}},
        teams=TEAMS,
        drawn=True,
    )
    table = Table.objects.get(round__tournament=tournament, number=1)
    phone = new_phone()
    phone.goto(f"{live_server.url}/t/{table.token}/")
    phone.wait_for_url(BOARD)
    phone.get_by_role("link", name="Record a deal").click()
    form_url = re.compile(r"/score/[^/]+/deal/$")
    phone.wait_for_url(form_url)
    # The typed points send their preview 400 ms after the typing (htmx's delay, a timer no
    # class shows): waited for by its answer, so that it cannot be sent after WATCH_THE_FORM
    # (CI met it: two previews counted where one was tapped).
    with phone.expect_response(
        lambda r: (
            r.request.method == "POST"
            and "hx-request" in r.request.headers
            and "taker_points=100" in (r.request.post_data or "")
        )
    ):
        fill_deal(phone, taker="0", trump="hearts", points="100")
    phone.wait_for_function(HTMX_IDLE, polling=50)
    phone.evaluate(WATCH_THE_FORM)
    # The previews held on their way (on the context: the page's service worker sends them).
    held: list[Route] = []
    phone.context.route(
        form_url,
        lambda route: (
            held.append(route) if "hx-request" in route.request.headers else route.continue_()
        ),
    )
    phone.clock.install()
    phone.clock.pause_at(datetime.now() + timedelta(hours=1))  # the typed points' delay waits
    points = phone.get_by_label("Takers' card points")
    points.fill("120")
    # The tap takes the focus from the points: their change sends a preview, then Save submits.
    phone.get_by_role("button", name="Save the deal").click()
    assert phone.evaluate("window.__sent") == 1
    # The preview reaching the route: a bounded wait on that condition (the route's handler runs
    # while Playwright waits).
    for _ in range(200):
        if held:
            break
        phone.wait_for_timeout(50)
    assert len(held) == 1
    services.call_time(table=Table.objects.get(pk=table.pk))  # the link ended, as by the save
    for route in held:
        route.continue_()
    phone.wait_for_function("() => window.__answers.length === 1", polling=50)
    assert phone.evaluate("window.__answers") == ["dropped"]
    phone.clock.run_for(1_000)  # the typed points' preview would go now
    assert phone.evaluate("window.__sent") == 1
    assert form_url.search(phone.url)
    assert page_errors(phone) == []


# Saves kept on the page (a listener after the app's own), the live previews sent and their
# answers taken or dropped by the page counted.
WATCH_THE_FORM = """() => {
    window.__sent = 0;
    window.__answers = [];
    window.addEventListener("submit", (event) => event.preventDefault());
    document.addEventListener("htmx:beforeRequest", () => { window.__sent += 1; });
    document.addEventListener("htmx:beforeOnLoad", (event) => {
        window.__answers.push(event.defaultPrevented ? "dropped" : "taken");
    });
}"""
