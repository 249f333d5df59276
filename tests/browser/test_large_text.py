"""Issue 12, large text: with the phone's text size at 200 %, 360 px wide, no page scrolls
sideways, the deal form's sticky Save bar stays small, and keyboard focus never lands under it.

How 200 % text is made: the browser's own default font size goes from 16 px to 32 px (Chromium's
font-size preference, set through the DevTools protocol's `Page.setFontSizes`), which is what
the "font size" setting of a browser, and Chrome's text scaling on Android with
`<meta name="text-scale">`, change. app.css sizes its root font in per cent of that default
(106.25 %: 17 px normally, 34 px here) and everything else in rem/em, so the whole page grows,
as it would for a reader who asked for large text. Nothing is injected into the page."""

import re
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.engine.scoring import parse_deal
from scorekeeper.engine.scoring.rules import PRESETS
from scorekeeper.matches.models import Match
from scorekeeper.matches.services import Author, create_match, record_deal

from .conftest import (
    FONT_SIZES,
    HTMX_IDLE,
    PHONE,
    SHOTS,
    chip,
    close_phones,
    layout_problems,
    page_errors,
    save_screenshot,
    text_problems,
    watch,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

PASSWORD = "Trefle-et-carreau-42"
PLAYERS = ("Anna", "Benoît-Alexandre", "Chloé", "David")
TEAMS = ("Les Invincibles de Marseille", "Kings")
DEALS = (
    {"taker": 0, "contract": 80, "trump": "spades", "taker_points": 83},
    {"taker": 1, "contract": 100, "trump": "clubs", "taker_points": 90},
    {"taker": 1, "contract": 120, "trump": "hearts", "taker_points": 130, "coinche": "coinche"},
)


@pytest.fixture
def big_phone(browser: Browser) -> Iterator[Callable[..., Page]]:
    """Opens a 360x740 phone whose browser is set to `scale` times the usual text size: its
    default font sizes (16 px, 13 px for monospace) times `scale`, set through the DevTools
    protocol's `Page.setFontSizes` before the first page loads, the preference a reader changes
    for larger text (Chromium's webkit.webprefs.default_font_size)."""
    contexts: list[BrowserContext] = []

    def open_phone(scale: float = 2.0, *, locale: str = "en-GB") -> Page:
        """A phone at `scale` times the usual text size, speaking `locale`."""
        context = browser.new_context(
            viewport=PHONE,
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            locale=locale,
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        sizes = {"standard": round(16 * scale), "fixed": round(13 * scale)}
        session = context.new_cdp_session(page)
        session.send("Page.setFontSizes", {"fontSizes": sizes})
        FONT_SIZES[page] = (session, sizes)  # given again after a picture (save_screenshot)
        return watch(page)

    yield open_phone
    for context in contexts:
        for page in context.pages:
            FONT_SIZES.pop(page, None)
    close_phones(contexts)


def root_font_px(page: Page) -> float:
    size: str = page.evaluate("getComputedStyle(document.documentElement).fontSize")
    return float(size.removesuffix("px"))


@pytest.fixture
def account_match(db: None) -> Iterator[tuple[User, Match]]:
    user = User.objects.create_user("grandma", password=PASSWORD)
    match = create_match(
        owner_key="big-text",
        owner=user,
        rules=PRESETS["coinche"],
        team_names=TEAMS,
        players=PLAYERS,
    )
    author = Author("big-text", "test")
    for deal in DEALS:
        record_deal(match_id=match.pk, expected_version=None, deal=parse_deal(deal), author=author)
    match.refresh_from_db()
    yield user, match


# Beyond conftest's layout_problems: the page scrolls sideways, or a box's text runs out of it
# (into its neighbour: a table's column title, a button's word) without scrolling the page. A
# table's column titles clipped to 1 px (kept for screen readers while its rows show as cards)
# are not shown.
_OVERFLOW_JS = """() => {
    const problems = [];
    const root = document.documentElement;
    if (root.scrollWidth > innerWidth) problems.push(`scrolls sideways: ${root.scrollWidth}px`);
    for (const el of document.querySelectorAll("main *, header *")) {
        const style = getComputedStyle(el);
        if (style.overflowX !== "visible" || style.display === "contents" || !el.clientWidth) continue;
        if (el.closest("thead") && getComputedStyle(el.closest("thead")).clip !== "auto") continue;
        if (el.scrollWidth > el.clientWidth + 1) {
            const text = (el.innerText || "").trim().slice(0, 30);
            problems.push(`${el.tagName.toLowerCase()}.${el.className} "${text}" holds`
                + ` ${el.scrollWidth}px in ${el.clientWidth}px`);
        }
    }
    return problems;
}"""


def log_in(page: Page, base: str, next_url: str = "/history/") -> None:
    page.goto(f"{base}/accounts/login/?next={next_url}")
    page.locator("input[name=username]").fill("grandma")
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main button[type=submit]").click()
    page.wait_for_url(f"{base}{next_url}")


def fill_deal(page: Page) -> None:
    """Enough of a deal for the preview (and the Save bar's preview line) to show a score."""
    chip(page, "taker", "0")
    chip(page, "contract", "80")
    chip(page, "trump", "spades")
    page.locator("input[name=taker_points]").fill("100")
    expect(page.locator("#preview-line")).not_to_be_empty()


@pytest.mark.parametrize(
    ("scale", "locale"), [(2.0, "en-GB"), (2.0, "fr-FR"), (1.5, "en-GB"), (1.25, "fr-FR")]
)
def test_every_page_fits_360_px_with_large_text(
    big_phone: Callable[..., Page],
    live_server: LiveServer,
    account_match: tuple[User, Match],
    scale: float,
    locale: str,
    request: pytest.FixtureRequest,
) -> None:
    """Every page of the app with the text at 125 %, 150 % and 200 %, in English and French:
    nothing sticks out of the 360 px screen, nothing scrolls sideways, every control is still
    at least 44 px tall (conftest's layout_problems), no table cell's text runs out of it or
    over its neighbour's, no word is broken apart (conftest's text_problems). Each screen is
    photographed whole."""
    _, match = account_match
    page = big_phone(scale, locale=locale)
    base = live_server.url
    page.goto(f"{base}/accounts/login/")
    assert root_font_px(page) == pytest.approx(17 * scale, abs=0.5)  # the app's 17 px, scaled
    problems: dict[str, list[str]] = {}
    SHOTS.mkdir(exist_ok=True)
    prefix = re.sub(r"[^\w-]+", "_", request.node.name).strip("_")

    def look(step: str, url: str | None = None) -> None:
        if url is not None:
            page.goto(f"{base}{url}")
        page.wait_for_load_state("load")
        # A preview on its way (htmx) is measured once it has landed, not half swapped in.
        page.wait_for_function(HTMX_IDLE)
        # A row just opened turns its chevron (a 0.15 s transition): measured mid-turn, the
        # rotated glyph's box is a few pixels wider than at rest.
        page.evaluate("Promise.all(document.getAnimations().map((a) => a.finished))")
        found = layout_problems(page)
        found += page.evaluate(_OVERFLOW_JS)
        found += text_problems(page)  # a table's figures over each other, words broken apart
        if found:
            problems[step] = found
        save_screenshot(page, f"{prefix}-{step}.png", full_page=True)

    look("01-login")
    look("02-signup", "/accounts/signup/")
    log_in(page, base)
    look("03-history")
    look("04-home", "/")
    look("05-new-match", "/new/")
    page.locator("details.settings > summary").click()
    look("06-new-match-settings")
    look("07-import", "/import/")
    token, view = match.scorer_token, match.view_token
    look("08-scoreboard", f"/score/{token}/")
    page.locator(".deals > li summary").first.click()
    look("09-scoreboard-deal-open")
    look("10-deal-form", f"/score/{token}/deal/")
    page.locator(".savebar .btn-primary").click()  # nothing picked: the errors and their summary
    expect(page.locator(".chipfield.has-error").first).to_be_visible()
    look("10-deal-form-errors")
    fill_deal(page)
    page.locator("details.announcements > summary").click()
    look("11-deal-form-filled")
    look("12-deal-edit", f"/score/{token}/deal/1/")
    look("13-deal-history", f"/score/{token}/deal/1/history/")
    look("14-manual", f"/score/{token}/manual/")
    look("15-count", f"/score/{token}/count/")
    look("16-share", f"/score/{token}/share/")
    look("17-manage", f"/score/{token}/manage/")
    look("18-viewer", f"/view/{view}/")
    look("19-review", f"/view/{view}/review/")
    player = match.seats[1]
    assert player is not None
    look("20-player", f"/players/{player.pk}/")
    look("21-deleted", "/history/deleted/")
    look("22-restore", "/history/restore/")
    assert page_errors(page) == []
    assert not problems, "\n".join(f"{step}: {found}" for step, found in problems.items())


BAR_JS = """() => {
    const bar = document.querySelector(".savebar");
    return {
        height: bar.getBoundingClientRect().height,
        sticky: getComputedStyle(bar).position === "sticky",
        squeezed: [...bar.querySelectorAll("button")]
            .filter(b => b.scrollWidth > b.clientWidth || b.scrollHeight > b.clientHeight)
            .map(b => b.innerText),
    };
}"""


@pytest.mark.parametrize(
    ("scale", "sticky"), [(1.0, True), (1.25, True), (1.5, False), (2.0, False)]
)
def test_save_bar_stays_small(
    big_phone: Callable[..., Page],
    live_server: LiveServer,
    account_match: tuple[User, Match],
    scale: float,
    sticky: bool,
) -> None:
    """The deal form's Save bar, new deal and edit, with a score in its preview line: while it
    sticks to the bottom of the 740 px screen it takes at most a fifth of it (it did 125 px, and
    169 px when editing, at 200 % text); from about 140 % text on it stops sticking and sits at
    the end of the form. Its buttons never hold more than they can show."""
    _, match = account_match
    page = big_phone(scale)
    base = live_server.url
    log_in(page, base)
    for step, url in (("new", "deal/"), ("edit", "deal/1/")):
        page.goto(f"{base}/score/{match.scorer_token}/{url}")
        fill_deal(page)
        bar = page.evaluate(BAR_JS)
        assert bar["sticky"] is sticky, (step, bar)
        assert bar["squeezed"] == [], (step, bar)
        if sticky:
            assert bar["height"] <= PHONE["height"] / 5, (step, bar)
            expect(page.locator("#preview-line")).to_be_visible()
        else:
            expect(page.locator("#preview-line")).to_be_hidden()  # the preview is right above
        page.locator(".savebar").scroll_into_view_if_needed()
        save_screenshot(page, f"test_save_bar-{scale}-{step}.png")
        assert layout_problems(page) == [], step


FOCUS_JS = """() => {
    const el = document.activeElement;
    const bar = document.querySelector(".savebar").getBoundingClientRect();
    const target = el.closest("label.chip, summary") || el;
    const box = target.getBoundingClientRect();
    const what = el.tagName.toLowerCase() + (el.name ? `[name=${el.name}]` : "")
        + (el.value && el.type === "radio" ? `[value=${el.value}]` : "")
        + ` "${(el.innerText || "").trim().slice(0, 20)}"`;
    return {what, top: box.top, bottom: box.bottom, barTop: bar.top,
            inBar: Boolean(el.closest(".savebar")), inForm: Boolean(el.closest("#deal-form")),
            height: innerHeight};
}"""


@pytest.mark.parametrize("scale", [1.0, 1.25])
def test_keyboard_focus_never_under_the_save_bar(
    big_phone: Callable[..., Page],
    live_server: LiveServer,
    account_match: tuple[User, Match],
    scale: float,
) -> None:
    """Tab through the whole deal form (editing deal 1, announcements open) on the phone,
    where the Save bar sticks to the bottom: every focused control (a chip: its whole label)
    is inside the screen and entirely above the bar's top edge. Issue 12 found the coinche and
    belote chips under the bar. Screenshots of the screen as a coinche and a belote chip get
    focus."""
    _, match = account_match
    page = big_phone(scale)
    base = live_server.url
    log_in(page, base)
    page.goto(f"{base}/score/{match.scorer_token}/deal/1/")
    page.locator("details.announcements > summary").click()
    page.locator("h1").click()  # start from the top of the form
    seen: list[str] = []
    problems: list[str] = []
    for _ in range(80):
        page.keyboard.press("Tab")
        focus = page.evaluate(FOCUS_JS)
        if seen and not focus["inForm"]:
            break  # out of the form: past Save
        if not focus["inForm"]:
            continue
        seen.append(focus["what"])
        if focus["top"] < 0 or focus["bottom"] > focus["height"]:
            problems.append(f"{focus['what']} outside the screen: {focus}")
        elif not focus["inBar"] and focus["bottom"] > focus["barTop"]:
            problems.append(f"{focus['what']} under the Save bar: {focus}")
        for name in ("coinche", "belote"):
            if f"[name={name}" in focus["what"]:
                save_screenshot(page, f"test_focus-{scale}-{name}.png")
    assert any("[name=coinche]" in what for what in seen), seen
    assert any("[name=belote" in what for what in seen), seen
    assert any("Save the changes" in what for what in seen), seen
    assert problems == [], problems
