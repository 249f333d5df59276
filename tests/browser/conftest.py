"""Browser tests: the real app served by pytest-django's live_server, driven by headless Chromium
(the Debian build: Playwright's own browser download does not work here).

Every test gets phones (browser contexts) sized 360x740; `shot()` checks each screen a test looks at
(no sideways scrolling, no small targets) and, with SCREENSHOTS=1 in the environment, saves it as a
full-page screenshot, <repo>/screenshots/<test>-<step>.png, for a human to look at (`make
screenshots`). Without it no picture is taken: the checks are the same, the run is faster."""

import os
import re
import secrets
import shutil
from collections.abc import Callable, Generator, Iterator
from importlib import import_module
from pathlib import Path
from typing import Literal

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client

from scorekeeper.matches import access
from scorekeeper.matches.forms.new_match import NewMatchForm
from scorekeeper.matches.services import create_match

# Playwright's sync API runs an asyncio loop in this thread; Django's ORM refuses to run in a
# thread with a running loop unless told it is safe (here it is: one thread, no async code).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import (
    Browser,
    BrowserContext,
    CDPSession,
    ConsoleMessage,
    Locator,
    Page,
    Playwright,
    ViewportSize,
    expect,
    sync_playwright,
)

Shot = Callable[[Page, str], None]
NewPhone = Callable[..., Page]
_PAGE_ERRORS: dict[Page, list[str]] = {}
# A large-text phone's DevTools session and the default font sizes it set (test_large_text.py's
# big_phone), given again after a picture (save_screenshot).
FONT_SIZES: dict[Page, tuple[CDPSession, dict[str, int]]] = {}

# Debian's Chromium builds: `chromium-headless-shell`, Chromium's headless build (the same Blink
# and V8 as the whole browser, `chromium`; what Playwright itself runs headless), which opens a
# phone in a quarter of the whole browser's CPU on this 2-core machine, so the tests drive it when
# it is installed, else the whole browser. BROWSER_TESTS_CHROMIUM=<path> runs them on that build
# (e.g. /usr/bin/chromium).
CHROMIUM = (
    os.environ.get("BROWSER_TESTS_CHROMIUM")
    or shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or ""
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE: ViewportSize = {"width": 360, "height": 740}
HARMLESS_CONSOLE = ("htmx:afterRequest", "htmx:sendAbort")
REPO = Path(__file__).resolve().parents[2]
SHOTS = REPO / "screenshots"
# Pictures for a human to look at, taken only when asked: SCREENSHOTS=1 (no test reads them back).
SCREENSHOTS = os.environ.get("SCREENSHOTS", "") not in ("", "0")

expect.set_options(timeout=8_000)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if not CHROMIUM:
        skip = pytest.mark.skip(reason="no Chromium: apt-get install chromium-headless-shell")
        for item in items:
            if item.get_closest_marker("browser"):
                item.add_marker(skip)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failed browser test's report says where each of its phones was and what it showed: a
    failure met only under CI's load can then be read from CI's output (its pages are gone)."""
    report = yield
    if report.failed and call.when == "call" and _PAGE_ERRORS:
        for number, page in enumerate(list(_PAGE_ERRORS), 1):
            report.sections.append((f"phone {number}: {page.url}", page_text(page)))
    return report


def page_text(page: Page) -> str:
    try:
        return page.locator("body").inner_text(timeout=2_000)[:3_000]
    except Exception as error:  # a closed or hung page: say so, the test's own error matters more
        return f"(its text could not be read: {error})"


@pytest.fixture(scope="session")
def playwright_session() -> Iterator[Playwright]:
    """One Playwright for the worker's whole session: its sync API runs an event loop in this
    thread, and a second one started beside it is refused ("Sync API inside the asyncio loop")."""
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_session: Playwright) -> Iterator[Browser]:
    browser = playwright_session.chromium.launch(
        executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
    )
    yield browser
    browser.close()


@pytest.fixture
def new_phone(browser: Browser) -> Iterator[NewPhone]:
    """Opens a phone: a fresh browser context (its own cookies, so its own session) and a page."""
    contexts: list[BrowserContext] = []

    def open_phone(
        *,
        locale: str = "en-GB",
        javascript: bool = True,
        color_scheme: Literal["light", "dark", "no-preference"] = "light",
    ) -> Page:
        context = browser.new_context(
            viewport=PHONE,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            locale=locale,
            java_script_enabled=javascript,
            color_scheme=color_scheme,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return watch(context.new_page())

    yield open_phone
    close_phones(contexts)


def watch(page: Page) -> Page:
    """Keeps the problems `page` meets for `page_errors`: script errors, htmx errors, server
    errors (5xx). htmx logs an aborted request (a tap on Save while a preview is still loading,
    the page navigates) as an error too: that one is harmless and not kept."""
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))

    def on_console(msg: ConsoleMessage) -> None:
        if msg.type == "error" and not msg.text.startswith(HARMLESS_CONSOLE):
            errors.append(f"console: {msg.text}")

    page.on("console", on_console)
    page.on(
        "response",
        lambda r: errors.append(f"HTTP {r.status} {r.url}") if r.status >= 500 else None,
    )
    _PAGE_ERRORS[page] = errors
    return page


def close_phones(contexts: list[BrowserContext]) -> None:
    for context in contexts:
        for page in context.pages:
            _PAGE_ERRORS.pop(page, None)
        context.close()


@pytest.fixture
def phone(new_phone: NewPhone) -> Page:
    return new_phone()


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Shot:
    """shot(page, "step"): the screen checked, and saved as a full-page screenshot named after the
    test and the step when SCREENSHOTS=1."""
    test = re.sub(r"[^\w-]+", "_", request.node.name).strip("_")

    def take(page: Page, step: str) -> None:
        save_screenshot(page, f"{test}-{step}.png", full_page=True)
        # Every screen a test looks at is also checked for what a phone must not do.
        problems = layout_problems(page)
        assert not problems, f"{step}: {problems}"

    return take


def save_screenshot(target: Page | Locator, name: str, *, full_page: bool = False) -> None:
    """Saves a screenshot of a page (its screen, or the whole page) or of one element as
    screenshots/`name`, when SCREENSHOTS=1; otherwise only scrolls the element into view (and
    waits until it shows), as taking its picture would have."""
    if not SCREENSHOTS:
        if isinstance(target, Locator):  # as its screenshot would: the element is shown
            target.scroll_into_view_if_needed()
        return
    SHOTS.mkdir(exist_ok=True)
    if isinstance(target, Page):
        target.screenshot(path=str(SHOTS / name), full_page=full_page)
    else:
        target.screenshot(path=str(SHOTS / name))
    # A picture of an element or of the whole page resizes the phone's screen for a moment, and
    # Chromium then forgets the font sizes a large-text phone was given (until its next page):
    # they are given again, or the next step is measured and pictured at the usual size.
    page = target if isinstance(target, Page) else target.page
    if page in FONT_SIZES:
        session, sizes = FONT_SIZES[page]
        session.send("Page.setFontSizes", {"fontSizes": sizes})


# Helpers shared by the tests ------------------------------------------------------------------


def page_errors(page: Page) -> list[str]:
    """What went wrong in the page so far: script errors, htmx errors, 5xx responses."""
    return _PAGE_ERRORS[page]


def start_match(
    page: Page,
    base_url: str,
    *,
    preset: str = "coinche",
    teams: tuple[str, str] = ("Us", "Them"),
    players: tuple[str, str, str, str] | None = ("Anna", "Ben", "Chloé", "David"),
    settings: dict[str, str] | None = None,
    on_the_page: bool = False,
    shot: Shot | None = None,
) -> str:
    """Starts a match on this phone and opens its scoreboard; returns the scorer token.

    `on_the_page`: the New match page filled in and Start tapped, for the tests about that page
    (test_coinche_match.py, test_no_javascript.py, test_history.py; `shot` photographs it).
    Otherwise, two page loads fewer (about 0.35 CPU-s of the machine per match): the page's own
    form and service (matches/views/new.py) make the same match for this phone's browser, as if
    it had tapped Start (its key in its session, the account it is signed in with)."""
    if on_the_page:
        return _start_match_on_the_page(page, base_url, preset, teams, players, settings, shot)
    assert shot is None, "nothing to photograph: the New match page is not opened"
    data = {"preset": preset, "team0_name": teams[0], "team1_name": teams[1], "first_dealer": "0"}
    data |= {f"seat{seat}": name for seat, name in enumerate(players or ("", "", "", ""))}
    form = NewMatchForm(data | (settings or {}))
    assert form.is_valid() and form.rules is not None, form.errors
    # This phone's session, as the page's POST would find or make it.
    store = import_module(django_settings.SESSION_ENGINE).SessionStore
    name = django_settings.SESSION_COOKIE_NAME
    cookie = next((c["value"] for c in page.context.cookies(base_url) if c["name"] == name), None)
    session = store(session_key=cookie)
    key = session.setdefault(access.DEVICE_KEY, secrets.token_urlsafe(24))
    user_id = session.get(SESSION_KEY)
    session.save()
    if session.session_key != cookie:
        page.context.add_cookies([{"name": name, "value": session.session_key, "url": base_url}])
    match = create_match(
        owner_key=key,
        owner=User.objects.get(pk=user_id) if user_id else None,
        rules=form.rules,
        team_names=(form.cleaned_data["team0_name"], form.cleaned_data["team1_name"]),
        players=form.players(),
        first_dealer=form.first_dealer_value(),
    )
    page.goto(f"{base_url}/score/{match.scorer_token}/")
    return match.scorer_token


def _start_match_on_the_page(
    page: Page,
    base_url: str,
    preset: str,
    teams: tuple[str, str],
    players: tuple[str, str, str, str] | None,
    settings: dict[str, str] | None,
    shot: Shot | None,
) -> str:
    page.goto(f"{base_url}/")
    page.get_by_role("link", name="New match").click()
    expect(page.get_by_role("heading", name="New match")).to_be_visible()
    page.locator(f"input[name=preset][value='{preset}']").check()
    page.get_by_label("Team 1", exact=True).fill(teams[0])
    page.get_by_label("Team 2", exact=True).fill(teams[1])
    if players:
        for seat, name in enumerate(players):
            page.locator(f"input[name=seat{seat}]").fill(name)
    page.locator("select[name=first_dealer]").select_option("0")
    if settings:
        page.locator("details.settings > summary").click()
        for name, value in settings.items():
            field = page.locator(f"[name={name}]")
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)
    if shot:
        shot(page, "new-match")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(re.compile(r"/score/[^/]+/$"))
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def sign_in(page: Page, base_url: str, user: User) -> None:
    """The phone signed in as `user` without the Log in page (Django's `force_login`: a session
    of that account, its cookie given to the phone), for the tests not about signing in; the
    Log in page itself is driven by test_accounts.py, test_claims.py, test_large_text.py and
    test_concours_e2e.py."""
    client = Client()
    client.force_login(user)
    name = django_settings.SESSION_COOKIE_NAME
    page.context.add_cookies([{"name": name, "value": client.cookies[name].value, "url": base_url}])


def chip(page: Page, name: str, value: str) -> None:
    """Taps the chip of radio `name` with `value` (the radio itself is invisible)."""
    label = page.locator(f"label.chip:has(input[name='{name}'][value='{value}'])")
    label.click()
    expect(label.locator("input")).to_be_checked()


def fill_deal(
    page: Page, *, taker: str, trump: str, points: str, contract: str | None = None
) -> None:
    """Fills in a played deal on the open deal form as a scorer does: taps who took, the contract
    (a coinche's; none for a belote) and the trump, then types the takers' card points."""
    chip(page, "taker", taker)
    if contract is not None:
        chip(page, "contract", contract)
    chip(page, "trump", trump)
    page.get_by_label("Takers' card points").fill(points)


# No htmx request on its way, nor an answer being swapped in or settling.
HTMX_IDLE = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


def tap_card(page: Page, key: str) -> None:
    """Taps a card on the card counter (`key` as "A-clubs") and waits for the page's answer, as
    a player sees the total change before tapping the next card: under load, a tap landing while
    the previous tap's answer was swapped in could be lost, and the test failed by timing."""
    chip(page, "card", key)
    page.wait_for_function(HTMX_IDLE, polling=50)
    expect(page.locator(f"input[name=card][value='{key}']")).to_be_checked()  # in its answer too


# Each htmx swap counted in the page, so that a test waits for a poll's swap itself rather than
# for a guess of how long it takes (the page's clock may be Playwright's: htmx's own timers then
# wait for it, the counter does not).
_COUNT_SWAPS = """document.addEventListener("htmx:afterSwap", () => {
    window.__swaps = (window.__swaps || 0) + 1;
});"""


def count_swaps(page: Page) -> None:
    """Counts the htmx swaps of every document `page` opens from now on (`wait_for_swaps`)."""
    page.add_init_script(_COUNT_SWAPS)


def wait_for_swaps(page: Page, count: int) -> None:
    """Waits until the page's document has swapped in `count` htmx answers (`count_swaps`)."""
    page.wait_for_function("(n) => (window.__swaps || 0) >= n", arg=count, polling=50)


def totals(page: Page) -> tuple[int, int]:
    board = page.locator("#scoreboard")
    return (
        int(board.locator(".team-0 .total").inner_text()),
        int(board.locator(".team-1 .total").inner_text()),
    )


def expect_totals(page: Page, first: int, second: int) -> None:
    board = page.locator("#scoreboard")
    expect(board.locator(".team-0 .total")).to_have_text(str(first))
    expect(board.locator(".team-1 .total")).to_have_text(str(second))


# What a phone screen must not do: scroll sideways, or offer a control smaller than a fingertip.
# `width` is the phone's, not window.innerWidth: a mobile browser widens its layout viewport to
# fit content that sticks out, which would hide the very overflow looked for.
_LAYOUT_JS = """(width) => {
    const problems = [];
    const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
        + (el.classList.length ? "." + [...el.classList].join(".") : "")
        + ` "${(el.innerText || el.value || el.getAttribute("aria-label") || "").trim().slice(0, 30)}"`;
    if (document.documentElement.scrollWidth > width) {
        problems.push(`the page is ${document.documentElement.scrollWidth}px wide`);
    }
    for (const el of document.querySelectorAll("body *")) {
        const box = el.getBoundingClientRect();
        // Inside a visually hidden element (.sr-only: clipped to 1 px) nothing shows, whatever
        // its box's size; nor inside a closed <details> (Chromium keeps its content's boxes,
        // from a layout it may not have redone since: a help line once measured 374 px there).
        const folded = el.parentElement && el.parentElement.closest("details:not([open])")
            && !el.closest("summary");
        if (box.width && box.right > width + 0.5 && !el.closest(".skip, .sr-only") && !folded) {
            problems.push(`${name(el)} sticks out: right edge at ${Math.round(box.right)}px`);
        }
    }
    const controls = "a[href], button, input:not([type=hidden]), select, textarea, summary";
    for (const el of document.querySelectorAll(controls)) {
        if (el.closest(".skip")) continue;
        const style = getComputedStyle(el);
        // A link inside a sentence is sized by the text around it (WCAG 2.5.8 exception).
        if (el.tagName === "A" && style.display === "inline"
            && el.parentElement.innerText.trim() !== el.innerText.trim()) continue;
        // A control inside its label (a chip, a check box) is tapped through the label.
        const target = el.closest("label") || el;
        const box = target.getBoundingClientRect();
        if (!box.width || style.visibility === "hidden") continue;
        if (box.height < 43.5) {
            problems.push(`${name(el)} is ${Math.round(box.width)}x${Math.round(box.height)}px`);
        }
    }
    return problems;
}"""


def layout_problems(page: Page) -> list[str]:
    """Horizontal overflow and tap targets under 44 px on the current screen."""
    # Measured once the page has loaded: a page whose text is in but whose stylesheet is still
    # on its way (a form answered after a click, under load) measures unstyled controls.
    page.wait_for_load_state("load")
    problems: list[str] = page.evaluate(_LAYOUT_JS, PHONE["width"])
    return problems


# Text that does not read as text (issue 27): a table cell whose content runs out of its box, two
# neighbouring cells whose text overlaps (the page need not scroll sideways for that: at 200 %
# text the public standings printed "4370 1810" as "43781013050525"), and words squeezed apart,
# a column narrower than its longest word: a number or a short word (a column title, "Pts")
# broken over lines inside a table cell, or any word anywhere cut into three lines or more of a
# letter or two ("one letter per line"). A long name broken in two where the line ends is fine,
# and so is a break after a hyphen.
_TEXT_JS = """() => {
    const problems = [];
    // Not shown: inside a visually hidden box (clipped to 1 px: .sr-only, a table's column
    // titles kept for screen readers while its rows are cards) or a closed <details>.
    const clipped = (el) => {
        for (let a = el; a; a = a.parentElement) {
            if (getComputedStyle(a).clip !== "auto") return true;
        }
        return false;
    };
    const shown = (el) => el.getClientRects().length && !el.closest(".sr-only, .skip")
        && !(el.parentElement && el.parentElement.closest("details:not([open])"))
        && !clipped(el);
    const name = (el) => el.tagName.toLowerCase()
        + (el.classList.length ? "." + [...el.classList].join(".") : "")
        + ` "${(el.innerText || "").trim().replace(/\\s+/g, " ").slice(0, 30)}"`;
    // Where a cell's shown text is: the union of its shown text nodes' boxes.
    const textBox = (el) => {
        const box = {left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity};
        const texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
        for (let node = texts.nextNode(); node; node = texts.nextNode()) {
            if (!node.data.trim() || !shown(node.parentElement)) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            for (const r of range.getClientRects()) {
                if (!r.width) continue;
                box.left = Math.min(box.left, r.left);
                box.top = Math.min(box.top, r.top);
                box.right = Math.max(box.right, r.right);
                box.bottom = Math.max(box.bottom, r.bottom);
            }
        }
        return box;
    };
    const cells = [...document.querySelectorAll("main :is(td, th)")].filter(shown);
    for (const cell of cells) {
        const style = getComputedStyle(cell);
        if (cell.clientWidth && style.display !== "inline" && style.overflow === "visible"
            && (cell.scrollWidth > cell.clientWidth + 1
                || cell.scrollHeight > cell.clientHeight + 1)) {
            problems.push(`${name(cell)} holds ${cell.scrollWidth}x${cell.scrollHeight}px`
                + ` in ${cell.clientWidth}x${cell.clientHeight}px`);
        }
    }
    for (const row of document.querySelectorAll("main tr")) {
        const own = [...row.children].filter(shown).filter((c) => c.innerText.trim());
        for (let i = 0; i < own.length; i++) {
            const a = textBox(own[i]);
            for (let j = i + 1; j < own.length; j++) {
                const b = textBox(own[j]);
                const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
                const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
                if (across > 1 && down > 1) {
                    problems.push(`${name(own[i])} and ${name(own[j])} overlap`);
                }
            }
        }
    }
    const walker = document.createTreeWalker(document.querySelector("main") || document.body,
                                             NodeFilter.SHOW_TEXT);
    const seen = new Set();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const el = node.parentElement;
        if (!el || !shown(el) || seen.size > 40) continue;
        const cell = el.closest("td, th");
        // Words and their parts: "2025-2026" or "Benoît-Alexandre" may break after the hyphen.
        for (const match of node.data.matchAll(/[^\\s\\-‐–—\\/]+/g)) {
            const word = match[0];
            if (word.length < 2) continue;
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + word.length);
            const tops = new Set([...range.getClientRects()].filter((r) => r.width)
                .map((r) => Math.round(r.top)));
            const lines = tops.size;
            if (lines < 2) continue;
            const numeric = /^[-+−–.,:()%\\d]+$/.test(word) && /\\d/.test(word);
            const squeezed = lines >= 3 && word.length / lines < 3;
            // A column title split with a hyphen where the browser can (hyphens: auto, the
            // match pages' narrow columns: "mat-ches") reads as a word; a short one does not.
            const hyphenated = getComputedStyle(el).hyphens === "auto" && word.length >= 6;
            if (numeric || squeezed || (cell && word.length <= 8 && !hyphenated)) {
                const where = cell ? name(cell) : name(el);
                const key = `${where}: "${word}"`;
                if (!seen.has(key)) {
                    seen.add(key);
                    problems.push(`"${word}" broken over ${lines} lines in ${where}`);
                }
            }
        }
    }
    return problems;
}"""


def text_problems(page: Page) -> list[str]:
    """Table cells whose text runs out of them or over a neighbour's, and words broken apart."""
    page.wait_for_load_state("load")  # styled, as layout_problems says
    problems: list[str] = page.evaluate(_TEXT_JS)
    return problems
