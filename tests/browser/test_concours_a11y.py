"""Issue 27: the concours and club pages under the match pages' accessibility promise.

- 200 % text at 360 px (as test_large_text.py: the browser's own font-size setting), English and
  French, every role (organiser, co-organiser, table phone, public) and state (registration,
  round under way, finished), the prints' HTML: nothing scrolls sideways, no control under
  44 px, and no text escapes its table cell, runs over its neighbour or breaks a word apart
  (conftest's text_problems).

One seeded world (concours_world.build) per test; every page of a role in one browser page."""

from collections.abc import Callable
from typing import Literal

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.concours import services
from tests.concours.support import play_deals

from . import concours_world
from .concours_world import PASSWORD, World
from .conftest import (
    PHONE,
    SCREENSHOTS,
    NewPhone,
    count_swaps,
    layout_problems,
    page_errors,
    save_screenshot,
    sign_in,
    text_problems,
    wait_for_swaps,
    watch,
)
from .test_axe import AXE, SITE, Audit
from .test_concours_public import concours as projector_concours
from .test_large_text import _OVERFLOW_JS
from .test_large_text import big_phone as big_phone  # a fixture

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

# What squeezed at large text on main (issue 27): photographed alone with SCREENSHOTS=1.
PARTS = ("main table", ".pub-playing", ".pub-mine", ".poster-list", ".desk-board")


def large_text_problems(page: Page) -> list[str]:
    # Folded content too (a table's paper form, the format), as a reader may open it.
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    page.evaluate("Promise.all(document.getAnimations().map((a) => a.finished))")
    found: list[str] = layout_problems(page)
    found += page.evaluate(_OVERFLOW_JS)
    return found + text_problems(page)


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_concours_and_club_pages_at_200_percent_text(
    big_phone: Callable[..., Page],
    live_server: LiveServer,
    make_user: Callable[[str], User],
    locale: str,
) -> None:
    owner = make_user("organiser")
    owner.set_password(PASSWORD)
    owner.save()
    world: World = concours_world.build(owner)
    base = live_server.url
    language = locale[:2]
    problems: dict[str, list[str]] = {}

    def look(page: Page, pages: list[tuple[str, str]]) -> None:
        for name, path in pages:
            response = page.goto(f"{base}{path}")
            assert response is not None and response.status == 200, (name, path)
            page.wait_for_load_state("load")
            found = large_text_problems(page)
            if found:
                problems[name] = found
            # A desk at 200 % text is some 30,000 px tall: its screen only, and its parts.
            tall = page.evaluate("document.documentElement.scrollHeight") > 8000
            save_screenshot(page, f"large-{language}-{name}.png", full_page=not tall)
            if SCREENSHOTS:  # the parts that squeezed, each on its own for a person to look at
                for n, part in enumerate(PARTS):
                    if page.locator(part).count():
                        save_screenshot(
                            page.locator(part).first, f"large-{language}-{name}-{n}.png"
                        )

    public = big_phone(2.0, locale=locale)
    look(public, concours_world.public_pages(world))
    look(public, concours_world.co_organiser_pages(world))
    assert page_errors(public) == []
    organiser = big_phone(2.0, locale=locale)
    sign_in(organiser, base, owner)
    look(organiser, concours_world.organiser_pages(world))
    assert page_errors(organiser) == []
    assert not problems, "\n".join(
        f"{step}:\n  " + "\n  ".join(found) for step, found in problems.items()
    )


FOCUSED_JS = """() => {
    const el = document.activeElement;
    return {id: el.id, role: el.getAttribute("role") || "", text: el.innerText.trim()};
}"""


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_every_desk_action_lands_on_its_result(
    new_phone: NewPhone,
    live_server: LiveServer,
    make_user: Callable[[str], User],
    javascript: bool,
) -> None:
    """After paper totals (a sheet that does not add up: an alert), other paper totals, Close
    round and Draw, the desk comes back focused on the result message at its top, so that a
    screen reader says it (the audit found the focus on the page's body). Without JavaScript
    autofocus does it, except where the address points at the table just typed (#table-N: the
    browser then skips autofocus and shows the table); the message is still at the top, an
    alert for a warning. From the result a few Tabs reach the desk's "Go to: Close round 1",
    whose Enter focuses the button (the audit counted 25 Tabs with 4 tables)."""
    owner = make_user("organiser")
    owner.set_password(PASSWORD)
    owner.save()
    tournament = concours_world._concours(owner, "Concours du jeudi", 2)
    services.draw_round(tournament=tournament)
    page = new_phone(javascript=javascript)
    base = live_server.url
    sign_in(page, base, owner)
    page.goto(f"{base}/concours/{tournament.pk}/")
    result = page.locator("main > .messages:first-child")

    def landed(text: str, role: str = "status") -> None:
        expect(result).to_contain_text(text)
        expect(result).to_have_attribute("role", role)
        if javascript or "#" not in page.url:
            expect(result).to_be_focused()
        assert page.evaluate("document.activeElement.closest('#messages') !== null") or (
            not javascript and "#" in page.url
        )

    def typed(number: int, points: tuple[str, str], belotes: str = "") -> None:
        table = page.locator(f"#table-{number}")
        table.get_by_text("Type the paper sheet's totals").click()
        table.locator(f"input[name=t{number}-points0]").fill(points[0])
        table.locator(f"input[name=t{number}-points1]").fill(points[1])
        if belotes:
            table.locator(f"input[name=t{number}-belotes]").fill(belotes)
        table.get_by_role("button", name=f"Save table {number}").click()

    typed(1, ("1100", "844"), belotes="1")
    landed("Table 1: totals saved. Check the sheet: 20 missing: a belote?", role="alert")
    for number in (2, 3, 4):
        typed(number, ("1000", "944"))
        landed(f"Table {number}: totals saved.")
    if javascript:  # by keyboard from the result: a few Tabs, not 25 (the audit's count)
        tabs = 0
        while page.evaluate("document.activeElement.innerText") != "Go to: Close round 1":
            page.keyboard.press("Tab")
            tabs += 1
            assert tabs <= 6, page.evaluate("document.activeElement.outerHTML")
        page.keyboard.press("Enter")
        expect(page.get_by_role("button", name="Close round 1")).to_be_focused()
        page.keyboard.press("Enter")
    else:
        page.get_by_role("button", name="Close round 1").click()
    landed("Round 1 is closed.")
    if javascript:
        page.get_by_role("link", name="Go to: Draw round 2").click()
        expect(page.get_by_role("button", name="Draw round 2")).to_be_focused()
        page.keyboard.press("Enter")
    else:
        page.get_by_role("button", name="Draw round 2").click()
    landed("Round 2 is drawn.")
    assert page_errors(page) == []


# What Tab stops at inside an element: its visible focusable controls (a closed <details> keeps
# all but its summary out of the way).
# (Chromium keeps boxes for a closed <details>'s content: folded is asked of the markup.)
TAB_STOPS_JS = """(root) => {
    const folded = (e) => {
        for (let d = e.closest("details:not([open])"); d;
             d = d.parentElement && d.parentElement.closest("details:not([open])")) {
            const summary = d.querySelector(":scope > summary");
            if (!(summary && summary.contains(e))) return true;
        }
        return false;
    };
    return [...root.querySelectorAll("a[href], button, input, select, textarea, summary")]
        .filter((e) => e.getClientRects().length && !e.disabled && e.tabIndex >= 0 && !folded(e))
        .map((e) => e.innerText.trim() || e.getAttribute("aria-label") || e.tagName);
}"""


def test_a_desk_table_is_a_few_tab_stops_and_its_folded_tools_work(
    new_phone: NewPhone, live_server: LiveServer, make_user: Callable[[str], User]
) -> None:
    """Each table of the round under way: its scoreboard, then three folds (its phone link and
    sheet, paper totals, call time), its QR code in sight to scan but no Tab stop (the audit
    counted seven stops a table); unfolded, its phone page, a new link and its sheet."""
    owner = make_user("organiser")
    owner.set_password(PASSWORD)
    owner.save()
    tournament = concours_world._concours(owner, "Concours du jeudi", 2)
    services.draw_round(tournament=tournament)
    play_deals(tournament.rounds.get().tables.get(number=1), 1)
    page = new_phone()
    sign_in(page, live_server.url, owner)
    page.goto(f"{live_server.url}/concours/{tournament.pk}/")
    first = page.locator("#table-1")
    expect(first.locator("img.table-qr")).to_be_visible()
    assert first.evaluate(TAB_STOPS_JS) == [
        "Open its scoreboard",
        "Table 1's phone link and sheet",
        "Type the paper sheet's totals",
        "Call time…",
    ]
    first.get_by_text("Table 1's phone link and sheet").click()
    expect(first.get_by_role("link", name="Open table 1's phone page")).to_be_visible()
    expect(first.get_by_role("link", name="Print table 1's sheet")).to_be_visible()
    old = first.get_by_role("link", name="Open table 1's phone page").get_attribute("href")
    first.get_by_role("button", name="New link").click()
    expect(page.locator("#messages")).to_contain_text("Table 1")
    first = page.locator("#table-1")
    first.get_by_text("Table 1's phone link and sheet").click()
    renewed = first.get_by_role("link", name="Open table 1's phone page").get_attribute("href")
    assert renewed and renewed != old
    assert page_errors(page) == []


SMALL_TABLE_LINKS_JS = """() => [...document.querySelectorAll("main table a[href]")]
    .filter((a) => a.getClientRects().length && a.getBoundingClientRect().height < 43.5)
    .map((a) => `${Math.round(a.getBoundingClientRect().height)} px tall: "${a.innerText}"`)"""

AXE_COMBINATIONS: list[tuple[str, Literal["light", "dark"]]] = [("en", "light"), ("fr", "dark")]


@pytest.mark.parametrize(
    ("language", "scheme"), AXE_COMBINATIONS, ids=[f"{lang}-{s}" for lang, s in AXE_COMBINATIONS]
)
def test_no_axe_violation_on_concours_and_club_pages(
    browser: Browser,
    live_server: LiveServer,
    make_user: Callable[[str], User],
    language: str,
    scheme: Literal["light", "dark"],
) -> None:
    """axe-core, headings and titles (as test_axe.py) on every concours and club page: public
    (every state, Find my table, a table's phone, the club's pages), co-organiser, organiser
    (desks in the three states, their forms and prints, the club's desk), the projector at
    1920x1080 and 1280x720; English in light, French in dark (both languages' words, both
    schemes' colours, in two runs rather than four); a link in a table (a name) 44 px tall, as
    the audit found them 18-20 px on the club's pages. A page in another state of the same page
    (name with "+") may share its title; every other title is its own."""
    owner = make_user("organiser")
    owner.set_password(PASSWORD)
    owner.save()
    world = concours_world.build(owner)
    base = live_server.url
    locale = "fr-FR" if language == "fr" else "en-GB"
    found: list[str] = []
    titles: dict[str, str] = {}
    seen = 0

    def audit(viewport: ViewportSize, pages: list[tuple[str, str]], user: User | None) -> None:
        nonlocal seen
        context = browser.new_context(
            viewport=viewport, locale=locale, color_scheme=scheme, device_scale_factor=1
        )
        context.add_init_script(path=str(AXE))  # as test_axe.py does
        try:
            page = context.new_page()
            page.on("pageerror", lambda error: found.append(f"{page.url}: pageerror {error}"))
            if user is not None:
                sign_in(page, base, user)
            check = Audit(page=page, base=base, combination=f"concours-{language}-{scheme}")
            for name, path in pages:
                check.visit(name, path)
                # A name in a table is a target of its own (not a word in a sentence): 44 px.
                for link in page.evaluate(SMALL_TABLE_LINKS_JS):
                    found.append(f"{name}: a link in a table is {link}")
            found.extend(check.found)
            titles.update(check.titles)
            seen += check.seen
        finally:
            context.close()

    audit(
        PHONE, concours_world.public_pages(world) + concours_world.co_organiser_pages(world), None
    )
    audit(PHONE, concours_world.organiser_pages(world), owner)
    for width, height in ((1920, 1080), (1280, 720)):
        screen: ViewportSize = {"width": width, "height": height}
        wall = [(f"{name}+{width}", path) for name, path in concours_world.projector_pages(world)]
        audit(screen, wall, None)

    problems = "\n".join(found)
    assert not found, f"{len(found)} problems on {seen} pages:\n{problems}"
    suffix = f" · {SITE[language]}"
    wrong = {name: title for name, title in titles.items() if not title.endswith(suffix)}
    assert not wrong, f"titles not ending with {suffix!r}: {wrong}"
    by_title: dict[str, list[str]] = {}
    for name, title in titles.items():
        by_title.setdefault(title, []).append(name.split("+")[0])
    same = {title: names for title, names in by_title.items() if len(set(names)) > 1}
    assert not same, f"pages sharing a title: {same}"


def test_the_projector_page_turn_can_be_paused(
    browser: Browser, live_server: LiveServer, make_user: Callable[[str], User]
) -> None:
    """The projector turns its ranking's page every 10 s; the P key or its Pause button stops
    that (WCAG 2.2.2), a status says so, and the same key starts it again. On main there was
    no way to stop it."""
    tournament, _ = projector_concours(make_user("organiser"), teams=40)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    try:
        wall = watch(context.new_page())
        count_swaps(wall)
        wall.clock.install()
        wall.goto(f"{live_server.url}/c/{tournament.public_token}/projector/")
        pages = wall.locator(".proj-page")
        expect(pages).to_have_count(3)
        expect(pages.nth(0)).to_be_visible()
        pause = wall.get_by_role("button", name="Pause the pages (P)")
        expect(pause).to_have_attribute("aria-pressed", "false")
        wall.keyboard.press("p")
        expect(pause).to_have_attribute("aria-pressed", "true")
        expect(wall.get_by_role("status")).to_have_text("The pages are paused.")
        wall.clock.run_for(25_000)
        wait_for_swaps(wall, 2)  # the polls of 10 s and 20 s, swapped in
        expect(pages.nth(0)).to_be_visible()  # still the first page
        pause.click()
        expect(pause).to_have_attribute("aria-pressed", "false")
        expect(wall.get_by_role("status")).to_have_text("The pages turn every 10 seconds.")
        wall.clock.run_for(10_000)
        expect(pages.nth(1)).to_be_visible()
        assert page_errors(wall) == []
    finally:
        context.close()
