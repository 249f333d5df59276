"""Issue 42: what broke each tie, seen where a ranking is read. A concours ranked by wins, head
to head, opponents' points, opponents' opponents' wins and lots (tests/concours/tie_support.py):
the public page and the desk on a 360 px phone, at the usual text size and at 200 % (a card a
team, every figure named, nothing sideways, no figure split), the print at 200 %, and the
projector at 1920x1080 and 1280x720 with long names (one screen, every name whole, its type
still read from the back of the room)."""

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.concours import services
from scorekeeper.concours.models import Tournament
from tests.concours.tie_support import NAMES, RANKING, tied_concours

from . import test_large_text
from .conftest import (
    NewPhone,
    Shot,
    layout_problems,
    page_errors,
    save_screenshot,
    sign_in,
    text_problems,
)
from .test_concours_public import _CUT_JS, _SHOW_JS, _TYPE_JS

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]
big_phone = test_large_text.big_phone  # its fixture: a phone with larger text

LONG_NAMES = [
    "Les Joyeux Compagnons du Vieux Moulin de Saint-Martin-la-Mer",  # 60: the most a name has
    "Association Sportive et Culturelle des Cheminots de Bordeaux",
    *NAMES[2:],
]


def card(page: Page, name: str) -> Locator:
    """The standings row of team `name` (a card on a phone)."""
    return page.locator("tr", has=page.get_by_role("rowheader", name=name, exact=False))


def checked(page: Page, row: Locator, step: str) -> None:
    """At 200 % text: what shot() checks (nothing sideways, no small target) and what it could
    not (no figure split, no text over a cell's edge), and the screen around `row` saved. Not
    shot(): its full-page picture sets the phone's text size back to the usual (Chromium forgets
    `setFontSizes` when Playwright resizes the viewport to the page's height)."""
    assert layout_problems(page) == [], step
    assert text_problems(page) == [], step
    row.scroll_into_view_if_needed()
    save_screenshot(page, f"concours-tie-breaks-{step}.png")


def check_the_cards(page: Page, shot: Shot | None, step: str) -> None:
    """The public page's cards: Les Rois du Pique after Les As on opponents' points, its
    figures each after its title; nothing sideways (shot), no figure split or overlapping."""
    rois = card(page, "Les Rois du Pique")
    expect(rois).to_contain_text("Tie broken by opponents' points")
    expect(rois.locator('td[data-label="Opp. pts"]')).to_have_text("9300")
    expect(rois.locator('td[data-label="H2H"]')).to_have_text("0.5")
    expect(card(page, "Carreau Magique")).to_contain_text("Tie broken by drawing of lots")
    expect(card(page, "Pique Dame")).not_to_contain_text("Tie broken")
    if shot is None:
        checked(page, rois, step)
        return
    assert text_problems(page) == [], step
    rois.scroll_into_view_if_needed()
    shot(page, step)


def test_the_public_page_and_the_desk_on_a_phone(
    live_server: LiveServer,
    new_phone: NewPhone,
    big_phone: Callable[..., Page],
    shot: Shot,
    make_user: Callable[[str], User],
) -> None:
    owner = make_user("organiser")
    tournament = tied_concours(owner)
    base = live_server.url
    public = f"{base}/c/{tournament.public_token}/"
    phone = new_phone()
    phone.goto(public)
    check_the_cards(phone, shot, "01-public")
    large = big_phone(2.0)
    large.goto(public)
    assert test_large_text.root_font_px(large) == pytest.approx(34, abs=0.5)  # 200 %
    check_the_cards(large, None, "02-public-200")
    # The desk and the print, at 200 % text: the criteria and the tie-breaks in each card.
    sign_in(large, base, owner)
    large.goto(f"{base}/concours/{tournament.pk}/")
    rois = large.locator("#standings tr", has_text="Les Rois du Pique")
    expect(rois.locator('td[data-label="Opponents\' points"]')).to_have_text("9300")
    expect(rois.locator('td[data-label="Tie broken by"]')).to_have_text("opponents' points")
    checked(large, rois, "03-desk-200")
    large.goto(f"{base}/concours/{tournament.pk}/print/ranking/")
    rois = large.locator(".ranking-table tr", has_text="Les Rois du Pique")
    expect(rois.locator(".ranking-tie-break")).to_have_text("opponents' points")
    checked(large, rois, "04-print-200")
    assert not page_errors(phone) and not page_errors(large)


@pytest.mark.parametrize(("width", "height"), [(1920, 1080), (1280, 720)])
def test_the_projector_shows_what_broke_each_tie(
    browser: Browser,
    live_server: LiveServer,
    make_user: Callable[[str], User],
    width: int,
    height: int,
) -> None:
    tournament = tied_concours(make_user("organiser"), LONG_NAMES)
    context = browser.new_context(viewport={"width": width, "height": height}, locale="fr-FR")
    wall = context.new_page()
    errors: list[str] = []
    wall.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    wall.on("pageerror", lambda error: errors.append(str(error)))
    wall.clock.install()  # the pages turn only when the test says so
    try:
        wall.goto(f"{live_server.url}/c/{tournament.public_token}/projector/")
        heads = wall.locator(".proj-table thead th")
        # Parties played, wins, points, then only what ranks; no column of its own for the
        # tie-break: the figure that broke it is underlined in its cell.
        titles = "# Équipe J. V Pts |Pts adv.|Adv. adv.|Conf.|Tirage"
        expect(heads).to_have_text([*titles.split("|")[0].split(), *titles.split("|")[1:]])
        rois = wall.locator(".proj-table tbody tr", has_text="Les Rois du Pique")
        expect(rois.locator(".proj-broke")).to_have_text("9300 (a départagé de la ligne du dessus)")
        expect(wall.locator(".proj-table .proj-broke")).to_have_count(5)
        expect(wall.locator(".proj-legend")).to_be_visible()
        save_screenshot(wall, f"concours-projector-tie-breaks-{width}.png")
        assert wall.evaluate(_CUT_JS) == []
        assert text_problems(wall) == []
        assert wall.evaluate("document.documentElement.scrollHeight") <= height
        assert wall.evaluate("document.documentElement.scrollWidth") <= width
        assert wall.evaluate(_TYPE_JS) >= 0.75 * 2.3  # still read from the back of the room
        # A full page of long names (20 teams, 16 a page), every tie broken by lot.
        wall.goto(
            f"{live_server.url}/c/{twenty_long_names(tournament.owner).public_token}/projector/"
        )
        pages = wall.locator(".proj-page")
        expect(pages).to_have_count(2)
        for index in range(2):
            wall.evaluate(_SHOW_JS, index)  # page `index` alone, fitted again
            expect(pages.nth(index)).to_be_visible()
            save_screenshot(wall, f"concours-projector-tie-breaks-{width}-long-{index + 1}.png")
            assert wall.evaluate(_CUT_JS) == [], index
            assert text_problems(wall) == [], index
            assert wall.evaluate("document.documentElement.scrollHeight") <= height
            assert wall.evaluate(_TYPE_JS) >= 0.75 * 2.3, index
        assert not errors
    finally:
        context.close()


def twenty_long_names(owner: User) -> Tournament:
    """Twenty teams, two of them with the longest names, ranked as tie_support's concours;
    round 1 played on paper, every table 1000 to 900: ten winners level until the lots."""
    tournament = services.create_tournament(
        owner=owner,
        name="Concours de la Saint-Martin",
        preset="belote",
        overrides={"seed": 1111, "rounds": 1, "ranking": RANKING},
    )
    lines = [f"{name}; Joueur {2 * i}; Joueur {2 * i + 1}"
             for i, name in enumerate([*LONG_NAMES[:2], *(f"Équipe {i}" for i in range(18))])]  # fmt: skip
    services.add_entrants_from_text(tournament=tournament, text="\n".join(lines))
    round_ = services.draw_round(tournament=tournament)
    for table in round_.tables.order_by("number"):
        services.record_paper_totals(table=table, totals=(1000, 900))
    return tournament


def test_the_desk_on_a_laptop(
    browser: Browser, live_server: LiveServer, make_user: Callable[[str], User]
) -> None:
    """At 1280 px, in French: the usual ranking's standings are a table, one line a team, its
    tie-break column too; a ranking with criteria of its own (four more columns than 80rem
    hold) keeps its cards, two a row. Nothing sideways, no text over a cell's edge."""
    owner = make_user("organiser")
    usual = tied_concours(owner, LONG_NAMES, ["points", "wins", "difference", "best_partie"])
    tied = tied_concours(owner, LONG_NAMES)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    laptop = context.new_page()
    try:
        sign_in(laptop, live_server.url, owner)
        for name, tournament, heads in (("usual", usual, 15), ("tied", tied, 19)):
            laptop.goto(f"{live_server.url}/concours/{tournament.pk}/")
            standings = laptop.locator("#standings table")
            # 13, the ranking's own criteria, the tie-break and the prize
            expect(standings.locator("thead th")).to_have_count(heads)
            display = standings.locator("tbody").evaluate("(e) => getComputedStyle(e).display")
            assert display == ("table-row-group" if name == "usual" else "grid"), name
            standings.scroll_into_view_if_needed()
            save_screenshot(laptop, f"concours-tie-breaks-05-desk-1280-{name}.png")
            assert laptop.evaluate("document.documentElement.scrollWidth") <= 1280, name
            assert text_problems(laptop) == [], name
        rois = standings.locator("tr", has_text="Les Rois du Pique")
        expect(rois.locator(".desk-tie-break")).to_have_text("points des adversaires")
    finally:
        context.close()
