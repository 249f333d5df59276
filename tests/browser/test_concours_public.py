"""The public side of a concours in a browser: the projector at 1920x1080 (the ranking a page at
a time, the tables still playing, updated by its poll, 304 while nothing changes) and the public
page on a phone at 360 px with Find my table."""

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.concours import services
from scorekeeper.concours.models import Round, Tournament

from ..concours.support import play_deals, play_out
from .conftest import Shot, count_swaps, page_errors, save_screenshot, wait_for_swaps
from .test_axe import _AXE_JS, _HEADINGS_JS, AXE, heading_problems

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]


def accessibility_problems(page: Page) -> list[str]:
    """axe-core's violations and skipped heading levels (as tests/browser/test_axe.py)."""
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found = [f"{v['id']} [{v['impact']}] {v['targets']}" for v in page.evaluate(_AXE_JS)]
    return found + heading_problems(page.evaluate(_HEADINGS_JS))


def concours(owner: User, teams: int) -> tuple[Tournament, Round]:
    """A concours of `teams` teams in round 1: the first tables finished, one under way."""
    tournament = services.create_tournament(
        owner=owner,
        name="Concours de la Saint-Martin",
        preset="belote",
        overrides={"seed": 1111},
        place="Salle des fêtes",
        prizes={1: "A ham"},
    )
    names = ["Les As", "Pique Dame", "Trèfle", "Carreau", "Cœur", "Atout", "Belote", "Rebelote"]
    lines = [
        f"{names[i % 8]} {i // 8 + 1}; Player {2 * i}; Player {2 * i + 1}" for i in range(teams)
    ]
    services.add_entrants_from_text(tournament=tournament, text="\n".join(lines))
    round_ = services.draw_round(tournament=tournament)
    tables = list(round_.tables.order_by("number"))
    for table in tables[: len(tables) // 2]:
        play_out(table, seed=1)
    play_deals(tables[-2], 3)
    return tournament, round_


@pytest.fixture
def wall(browser: Browser) -> Iterator[Page]:
    """The projector: a 1920x1080 screen."""
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    assert not errors  # no script error, no CSP refusal
    context.close()


def test_the_projector_pages_and_polls(
    wall: Page, live_server: LiveServer, make_user: Callable[[str], User]
) -> None:
    tournament, round_ = concours(make_user("organiser"), teams=40)
    # What the server answered each poll, as Chromium's network layer saw it (a 304 is then
    # served to htmx from the browser's cache as the 200 it revalidated).
    asked: list[str] = []  # the polls' request ids, in order
    status: dict[str, int] = {}  # what the server answered each request (may come first)
    cdp = wall.context.new_cdp_session(wall)
    cdp.send("Network.enable")

    def sent(event: dict[str, Any]) -> None:
        request = event["request"]
        headers = {name.lower() for name in request["headers"]}
        if "/projector/" in request["url"] and "hx-request" in headers:
            asked.append(event["requestId"])

    def answered(event: dict[str, Any]) -> None:
        status[event["requestId"]] = event["statusCode"]

    def polls() -> list[int]:
        return [status[id_] for id_ in asked if id_ in status]

    def ten_seconds_later(answers: int) -> None:
        """The page's clock runs 10 s: the ranking turns a page and the poll goes; wait for its
        answer's swap (real time) and for the network layer's word on it before the clock runs
        again."""
        wall.clock.run_for(10_000)
        wait_for_swaps(wall, answers)
        for _ in range(100):
            if len(polls()) >= answers:
                break
            wall.wait_for_timeout(50)  # Chromium's events come in while Playwright waits

    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.responseReceivedExtraInfo", answered)
    count_swaps(wall)
    wall.clock.install()
    wall.goto(f"{live_server.url}/c/{tournament.public_token}/projector/")
    pages = wall.locator(".proj-page")
    expect(pages).to_have_count(3)  # 40 teams, 16 a page
    expect(pages.nth(0)).to_be_visible()
    expect(pages.nth(1)).to_be_hidden()
    expect(wall.get_by_text("Round 1 of 4")).to_be_visible()
    expect(wall.get_by_text("10 tables still playing")).to_be_visible()
    # One screen, nothing to scroll.
    assert wall.evaluate("document.documentElement.scrollHeight") <= 1080
    assert wall.evaluate("document.documentElement.scrollWidth") <= 1920
    save_screenshot(wall, "concours-projector-01-page1.png")
    # Read from the back of the room: a table's state and the QR code's caption are big.
    size = "(s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize)"
    assert wall.evaluate(size, ".proj-deals") >= 28
    assert wall.evaluate(size, ".proj-qr figcaption") >= 30

    # Ten seconds later: the next page of the ranking; the poll after it is answered 304 (no
    # change; htmx gets the fragment from the browser's cache).
    wall.clock.run_for(500)
    ten_seconds_later(1)
    expect(pages.nth(1)).to_be_visible()
    expect(pages.nth(0)).to_be_hidden()
    expect(wall.get_by_text("Page 2 of 3")).to_be_visible()
    ten_seconds_later(2)
    expect(pages.nth(2)).to_be_visible()
    save_screenshot(wall, "concours-projector-02-page3.png")
    # The last page has 8 rows: they share the screen's height (bigger rows, bigger type).
    last_rows = pages.nth(2).locator("tbody tr")
    expect(last_rows).to_have_count(8)
    bottom = last_rows.last.bounding_box()
    assert bottom and bottom["y"] + bottom["height"] > 900, bottom
    first_row = pages.nth(2).locator("tbody tr").first.bounding_box()
    assert first_row and first_row["height"] > 80, first_row
    assert wall.evaluate(size, ".proj-page:not([hidden]) tbody td") > 40
    assert wall.evaluate("document.documentElement.scrollHeight") <= 1080

    # A table scores its first deal: the next poll brings it.
    table = round_.tables.order_by("number").last()
    assert table is not None
    play_deals(table, 1, seed=5)
    ten_seconds_later(3)
    expect(wall.locator(".proj-playing li").last).to_contain_text("1 deal")
    # Still on a page of the ranking after the swap (the rotation goes on: page 1 again).
    expect(wall.locator(".proj-page:visible")).to_have_count(1)
    wall.clock.resume()
    assert accessibility_problems(wall) == []
    answers = polls()
    assert answers[:2] == [200, 304] and answers[-1] == 200, (answers, asked)


def test_the_public_page_on_a_phone(
    phone: Page, live_server: LiveServer, shot: Shot, make_user: Callable[[str], User]
) -> None:
    tournament, round_ = concours(make_user("organiser"), teams=9)
    phone.goto(f"{live_server.url}/c/{tournament.public_token}/")
    expect(phone.get_by_role("heading", name="Concours de la Saint-Martin")).to_be_visible()
    expect(phone.get_by_text("Round 1 of 4")).to_be_visible()
    expect(phone.locator("table.pub-standings tbody tr")).to_have_count(9)
    shot(phone, "01-standings")

    place = round_.places.filter(table__number=2, side=1).get()
    opponent = round_.places.filter(table__number=2, side=0).get().entrant
    phone.get_by_label("Find my table: your team or your name").fill(place.entrant.player1)
    phone.get_by_role("button", name="Find").click()
    mine = phone.locator(".pub-mine")
    expect(mine).to_contain_text("Round 1: table 2")
    expect(mine).to_contain_text(f"Against: {opponent.name}")
    expect(mine).to_contain_text("Place so far:")
    shot(phone, "02-my-table")
    assert accessibility_problems(phone) == []
    assert not page_errors(phone)


# Issue 22: the projector cut long team names ---------------------------------------------------

LONG = "Les Joyeux Compagnons du Vieux Moulin de Saint-Martin-la-Mer"  # 60: the most a name has

# Every name, tag and prize of the ranking: shown whole (nothing wider than its box, no
# ellipsis, inside the screen).
_CUT_JS = """() => {
    const cut = [];
    for (const el of document.querySelectorAll(
            '.proj-page:not([hidden]) .proj-name, .proj-page:not([hidden]) .proj-name *')) {
        const style = getComputedStyle(el);
        const box = el.getBoundingClientRect();
        if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1
                || style.textOverflow === 'ellipsis' && style.overflow !== 'visible'
                || box.right > window.innerWidth || box.bottom > window.innerHeight) {
            cut.push(`${el.className}: ${el.textContent.trim().slice(0, 40)}`);
        }
    }
    return cut;
}"""


_SHOW_JS = """(index) => {
    document.querySelectorAll('.proj-page').forEach((page, n) => { page.hidden = n !== index; });
    window.dispatchEvent(new Event('resize'));
}"""
# The visible ranking's type, in rem (2.3 unless a page too tall made it smaller).
_TYPE_JS = """() => parseFloat(getComputedStyle(
        document.querySelector('.proj-page:not([hidden]) .proj-table')).fontSize)
    / parseFloat(getComputedStyle(document.documentElement).fontSize)"""


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_the_projector_wraps_long_names_whole(
    browser: Browser,
    live_server: LiveServer,
    make_user: Callable[[str], User],
    width: int,
    height: int,
) -> None:
    """A 60-character team name on a full page of the ranking (16 rows), and at the end with a
    tie on a prize (ex æquo, the prizes to share) beside it: every name whole, wrapped onto a
    second line, on one screen, at 1920x1080 and on a 1280x720 projector."""
    owner = make_user("organiser")
    tournament = services.create_tournament(
        owner=owner,
        name="Concours de la Saint-Martin",
        preset="belote",
        overrides={"seed": 1111, "rounds": 1},
        prizes={1: "Un jambon de Bayonne", 2: "Deux bouteilles de cidre", 3: "Un panier garni"},
    )
    lines = [f"{LONG if i == 0 else f'Équipe {i}'}; Joueur {2 * i}; Joueur {2 * i + 1}"
             for i in range(20)]  # fmt: skip
    lines[1] = "Association Sportive et Culturelle des Cheminots de Bordeaux; A; B"
    services.add_entrants_from_text(tournament=tournament, text="\n".join(lines))
    round_ = services.draw_round(tournament=tournament)
    for table in round_.tables.order_by("number"):
        services.record_paper_totals(table=table, totals=(1000, 900))
    context = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
    wall = context.new_page()
    errors: list[str] = []
    wall.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    wall.on("pageerror", lambda error: errors.append(str(error)))
    wall.clock.install()  # the pages turn only when the test says so
    url = f"{live_server.url}/c/{tournament.public_token}/projector/"
    try:
        for state in ("playing", "finished"):
            wall.goto(url)
            pages = wall.locator(".proj-page")
            expect(pages.first).to_be_visible()
            seen = []
            for index in range(pages.count()):
                # Page `index` alone (as the script shows it), fitted again (its resize handler).
                wall.evaluate(_SHOW_JS, index)
                expect(pages.nth(index)).to_be_visible()
                shot = f"concours-projector-long-{width}-{state}-{index + 1}.png"
                save_screenshot(wall, shot)
                seen += pages.nth(index).locator(".proj-who").all_inner_texts()
                assert wall.evaluate(_CUT_JS) == [], (state, index)
                assert wall.evaluate("document.documentElement.scrollHeight") <= height
                assert wall.evaluate("document.documentElement.scrollWidth") <= width
                # Still read from the back of the room: its type at least 3/4 of the usual.
                assert wall.evaluate(_TYPE_JS) >= 0.75 * 2.3, (state, index)
            assert len(seen) == 20 and LONG in seen, seen
            if state == "playing":
                services.close_round(round_=round_)
                services.finish(tournament=tournament)
        expect(wall.locator(".proj-tie")).to_have_count(10)  # ten tied firsts: ex æquo
        assert not errors  # no script error, no CSP refusal (the type is set through the CSSOM)
    finally:
        context.close()
