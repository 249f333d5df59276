"""Issue 41, at the table with signal, on a 360 px phone (and at 200 % text where the layout
changes): card points typed after a capot or générale contract make a failed bid, never a field
that silently refuses typing; an edited deal opens with its preview; a second litige says what it
receives and what it keeps apart; keeping the match on the phone is offered while it takes deals,
and Safari on an iPhone is told how to install the app; long team names stay whole without
moving the totals; the player page's contracts read as words; the card counter's button fits;
"All passed" shows its Undo beside its result."""

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, FloatRect, Locator, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.engine.scoring import parse_deal
from scorekeeper.matches.models import Deal, Match
from scorekeeper.matches.services import Author, record_deal

from .conftest import (
    PHONE,
    NewPhone,
    Shot,
    chip,
    close_phones,
    expect_totals,
    fill_deal,
    page_errors,
    save_screenshot,
    start_match,
    text_problems,
    watch,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

BOARD = re.compile(r"/score/[^/]+/$")
BID_NOTE = "Card points typed, so no capot: the bid is scored as failed."


def type_points(page: Page, label: str, points: str) -> None:
    """Taps a card-points field and types on its keypad, as a phone does (a read-only field
    takes the tap but no key)."""
    field = page.get_by_label(label)
    field.tap()
    expect(field).to_be_focused()
    expect(field).to_be_editable()
    page.keyboard.type(points)
    expect(field).to_have_value(points)


def test_points_typed_after_a_capot_or_generale_contract_make_a_failed_bid(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    for scheme in ("light", "dark"):
        page = new_phone(color_scheme=scheme)
        start_match(page, live_server.url, teams=("Nous", "Eux"))
        page.get_by_role("link", name="Record a deal").click()
        chip(page, "taker", "1")
        chip(page, "contract", "capot")
        expect(page.locator("input[name=capot][value='1']")).to_be_checked()  # "Capot: Eux"
        chip(page, "trump", "spades")
        expect(page.locator("#preview .preview-outcome")).to_have_text("Made")
        # One trick lost: 140, typed at once.
        type_points(page, "Takers' card points", "140")
        expect(page.locator("input[name=capot][value='']")).to_be_checked()
        expect(page.locator("input[name=contract][value=capot]")).to_be_checked()
        note = page.locator("#bid-note")
        expect(note).to_be_visible()
        expect(note).to_contain_text(BID_NOTE)
        expect(page.locator("#capot-note")).to_be_hidden()
        expect(page.locator("#preview .preview-outcome")).to_have_text("Failed")
        expect(page.locator("#preview-line")).to_contain_text("Failed")
        expect(page.locator("#preview-status")).to_contain_text("card points typed, so no capot")
        shot(page, f"01-capot-bid-failed-{scheme}")
        save_screenshot(page, f"capot-bid-failed-{scheme}-as-seen.png")  # the screen as typed
        page.get_by_role("button", name="Save the deal").click()
        page.wait_for_url(BOARD)
        expect_totals(page, 410, 0)

        # The générale: its box goes with the capot, from the defence's points too.
        page.get_by_role("link", name="Record a deal").click()
        chip(page, "taker", "0")
        chip(page, "contract", "generale")
        chip(page, "trump", "hearts")
        generale = page.get_by_label("Générale: one player won every trick")
        expect(generale).to_be_checked()
        type_points(page, "Defence's card points", "12")
        expect(page.get_by_label("Takers' card points")).to_have_value("150")
        expect(page.locator("input[name=capot][value='']")).to_be_checked()
        expect(generale).not_to_be_checked()
        expect(page.locator("#bid-note")).to_be_visible()
        expect(page.locator("#preview .preview-outcome")).to_have_text("Failed")
        shot(page, f"02-generale-bid-failed-{scheme}")
        # Their capot chosen again by hand: the points typed are left out, greyed (and typing
        # in them takes nothing back), as for any capot chosen after the points.
        chip(page, "capot", "0")
        generale.check()
        for field in ("Takers' card points", "Defence's card points"):
            expect(page.get_by_label(field)).to_have_class(re.compile(r"\bis-left-out\b"))
        expect(page.locator("#capot-note")).to_be_visible()
        expect(page.locator("#bid-note")).to_be_hidden()
        expect(page.locator("#preview .preview-outcome")).to_have_text("Made")
        page.get_by_label("Defence's card points").fill("10")
        expect(page.get_by_label("Takers' card points")).to_have_value("152")
        expect(page.locator("input[name=capot][value='0']")).to_be_checked()
        expect(page.locator("#preview")).to_contain_text(
            "The card points typed (152) are left out because of the capot"
        )
        page.get_by_role("button", name="Save the deal").click()
        page.wait_for_url(BOARD)
        assert page_errors(page) == []
    rows = Deal.objects.filter(match__team0_name="Nous").order_by("pk")
    assert [(r.contract, r.capot, r.generale, r.taker_points, r.outcome) for r in rows] == [
        ("capot", None, False, 140, "failed"),
        ("generale", 0, True, None, "made"),
    ] * 2


def test_without_javascript_points_typed_after_the_preselection_fail_the_bid(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page = new_phone(javascript=False)
    start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "1")
    chip(page, "contract", "capot")
    chip(page, "trump", "spades")
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("input[name=capot][value='1']")).to_be_checked()
    page.get_by_label("Takers' card points").fill("140")
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("input[name=capot][value='']")).to_be_checked()
    expect(page.locator("#bid-note")).to_be_visible()
    expect(page.locator("#preview .preview-outcome")).to_have_text("Failed")
    shot(page, "01-no-js-capot-taken-back")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)
    expect_totals(page, 410, 0)
    row = Deal.objects.get()
    assert (row.contract, row.capot, row.taker_points) == ("capot", None, 140)
    assert row.outcome == "failed"


def test_editing_a_deal_opens_with_its_preview_and_summary(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page = new_phone()
    start_match(page, live_server.url, teams=("Nous", "Eux"))
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "1")
    chip(page, "contract", "100")
    chip(page, "trump", "clubs")
    page.get_by_label("Takers' card points").fill("110")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)
    edit = f"{page.url}deal/1/"
    for javascript in (True, False):
        phone = page if javascript else new_phone(javascript=False)
        phone.goto(edit)
        expect(phone.get_by_role("heading", name="Edit deal 1")).to_be_visible()
        expect(phone.locator("#preview .preview-outcome")).to_have_text("Made")
        expect(phone.locator("#preview .preview-scores")).to_contain_text("Eux +210")
        expect(phone.locator("#preview-line")).to_have_text("Made · Nous +50 · Eux +210")
        expect(phone.locator("#preview-line")).to_be_in_viewport()
        shot(phone, f"edit-{'js' if javascript else 'no-js'}")
        assert page_errors(phone) == []


def test_a_second_litige_in_a_row_says_what_it_receives_and_what_it_keeps(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page = new_phone()
    token = start_match(page, live_server.url, preset="belote", teams=("Nous", "Eux"))
    page.get_by_role("link", name="Record a deal").click()
    fill_deal(page, taker="0", trump="spades", points="81")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)
    for phone, said in (
        (page, ("Eux +162", "81 + 81 from the last litige", "81 kept for the next deal")),
        (new_phone(locale="fr-FR"), ("81 + 81 du litige précédent", "81 gardés pour la donne")),
    ):
        phone.goto(f"{live_server.url}/score/{token}/deal/")
        chip(phone, "taker", "0")
        chip(phone, "trump", "spades")
        phone.locator("input[name=taker_points]").fill("81")
        line = phone.locator("#preview-line")
        for words in said:
            expect(line).to_contain_text(words)
        assert "held" not in line.inner_text() and "réserve" not in line.inner_text()
        shot(phone, f"second-litige-{phone.evaluate('document.documentElement.lang')}")
        assert page_errors(phone) == []


IPHONE_SAFARI = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 "
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1"
)
IPHONE_CHROME = IPHONE_SAFARI.replace("Version/17.5", "CriOS/126.0.6478.54")


def test_safari_on_an_iphone_shows_how_to_install_the_app(
    browser: Browser, live_server: LiveServer, shot: Shot
) -> None:
    """No install event on iOS: the footer gives Safari's own steps, but not in the installed
    app (standalone), nor in another iOS browser, nor where the Install button can show."""
    contexts = []

    def phone(agent: str | None, *, standalone: bool = False) -> Page:
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, user_agent=agent
        )
        contexts.append(context)
        if standalone:  # opened from the Home Screen: Safari's navigator.standalone
            context.add_init_script("Object.defineProperty(navigator, 'standalone', {value: true})")
        page = watch(context.new_page())
        page.goto(f"{live_server.url}/")
        page.wait_for_load_state("load")
        return page

    try:
        steps = "To install the app: tap Share, then “Add to Home Screen”."
        safari = phone(IPHONE_SAFARI)
        expect(safari.locator("#install-ios")).to_have_text(steps)
        expect(safari.locator("#install-ios")).to_be_visible()
        shot(safari, "iphone-install-steps")
        for other in (phone(IPHONE_SAFARI, standalone=True), phone(IPHONE_CHROME), phone(None)):
            expect(other.locator("main")).to_be_visible()
            expect(other.locator("#install-ios")).to_be_hidden()
            assert page_errors(other) == []
        assert page_errors(safari) == []
    finally:
        close_phones(contexts)


def test_keeping_the_match_is_offered_while_it_takes_deals_and_says_what_it_does(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    for locale, words in (("en-GB", "Keep this match on this phone"),
                          ("fr-FR", "Garder cette partie sur ce téléphone")):  # fmt: skip
        page = new_phone(locale=locale)
        start_match(page, live_server.url, settings={"target": "200"})
        keep = page.get_by_role("button", name=words)
        expect(keep).to_be_visible()
        expect(page.locator("#offline-keep-help")).to_be_visible()
        shot(page, f"keep-offered-{locale}")
        page.locator(".actions .btn-primary").click()  # Record a deal
        for name, value in (("taker", "0"), ("contract", "100"), ("trump", "hearts")):
            chip(page, name, value)
        page.locator("input[name=taker_points]").fill("120")
        page.locator(".savebar .btn-primary").click()
        page.wait_for_url(BOARD)
        expect(page.locator(".banner-title")).to_be_visible()  # 220: the match is over
        expect(page.locator("#offline-keep")).to_have_count(0)
        expect(page.locator("#offline-keep-help")).to_have_count(0)
        shot(page, f"finished-{locale}")
        assert page_errors(page) == []


@pytest.fixture
def scaled_phone(browser: Browser) -> Iterator[Callable[[float], Page]]:
    """A 360 px phone whose text is `scale` times the usual size (the browser's default font
    sizes, as test_large_text.py's big_phone)."""
    contexts: list[BrowserContext] = []

    def open_phone(scale: float) -> Page:
        context = browser.new_context(
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        sizes = {"standard": round(16 * scale), "fixed": round(13 * scale)}
        context.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": sizes})
        return watch(page)

    yield open_phone
    close_phones(contexts)


LONG_NAME = "Les Joyeux Compagnons de la Belote du Mardi"  # 43 characters
# The words of an element's text cut over two lines or more.
BROKEN_WORDS = """(el) => {
    const broken = [], texts = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = texts.nextNode(); node; node = texts.nextNode()) {
        for (const m of node.data.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (tops.size > 1) broken.push(m[0]);
        }
    }
    return broken;
}"""


@pytest.mark.parametrize("scale", [1.0, 2.0])
def test_a_long_team_name_shows_whole_and_never_moves_the_totals(
    scaled_phone: Callable[[float], Page], live_server: LiveServer, shot: Shot, scale: float
) -> None:
    page = scaled_phone(scale)
    token = start_match(page, live_server.url, teams=(LONG_NAME, "Nous"))
    match = Match.objects.get(scorer_token=token)
    deal = parse_deal({"taker": 1, "contract": 100, "trump": "spades", "taker_points": 120})
    record_deal(match_id=match.pk, expected_version=None, deal=deal, author=Author("t", "test"))
    page.reload()
    name = page.locator(".team-0 .team-name")
    expect(name).to_have_text(LONG_NAME)
    assert name.evaluate("e => e.scrollHeight <= e.clientHeight + 1"), "the name is cut"
    assert name.evaluate(BROKEN_WORDS) == []
    first, second = (box(page.locator(f".team-{team} .total")) for team in (0, 1))
    if scale == 1:  # side by side: level
        assert abs(first["y"] - second["y"]) <= 1, (first, second)
    else:  # a team a row: one above the other, their right edges in line
        assert second["y"] > first["y"] + first["height"], (first, second)
        assert abs(first["x"] + first["width"] - second["x"] - second["width"]) <= 1
    for total in page.locator(".team .total").all():
        assert total.evaluate("e => e.scrollWidth <= e.clientWidth"), total.inner_text()
    assert text_problems(page) == []
    # The screen itself, first: a whole-page picture drops the larger text (the page is drawn
    # again at the usual size, and stays so).
    save_screenshot(page, f"long-name-board-{scale}-screen.png")
    shot(page, f"board-{scale}")
    assert page_errors(page) == []


def test_a_name_the_summary_has_room_for_shows_whole(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page = new_phone()
    start_match(page, live_server.url, teams=("L'Équipe d'Hélène", "Nous"))
    page.get_by_role("link", name="Record a deal").click()
    fill_deal(page, taker="0", contract="80", trump="hearts", points="100")
    names = page.locator("#preview-line .nm")
    expect(names).to_have_text(["L'Équipe d'Hélène", "Nous"], use_inner_text=True)
    for name in names.all():
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth"), name.inner_text()
    shot(page, "summary")
    assert page_errors(page) == []


def box(locator: Locator) -> FloatRect:
    found = locator.bounding_box()
    assert found is not None
    return found


@pytest.mark.parametrize("scale", [1.0, 2.0])
def test_the_player_page_names_contracts_in_whole_words(
    scaled_phone: Callable[[float], Page], live_server: LiveServer, shot: Shot, scale: float
) -> None:
    page = scaled_phone(scale)
    token = start_match(page, live_server.url)
    match = Match.objects.get(scorer_token=token)
    for deal in (
        {"taker": 0, "contract": "generale", "trump": "spades", "capot": 0, "generale": True},
        {"taker": 0, "contract": "capot", "trump": "hearts", "taker_points": 140},
        {"taker": 0, "contract": 100, "trump": "clubs", "taker_points": 120},
    ):
        record_deal(
            match_id=match.pk, expected_version=None, deal=parse_deal(deal), author=Author("t", "t")
        )
    anna = match.seats[0]
    assert anna is not None
    page.goto(f"{live_server.url}/players/{anna.pk}/")
    contracts = page.locator("table.facts").first.locator("tbody th")
    expect(contracts).to_have_text(["100", "Capot", "Générale"])
    page.locator("table.facts").first.scroll_into_view_if_needed()
    save_screenshot(page, f"player-contracts-{scale}-screen.png")
    for cell in contracts.all():
        assert cell.evaluate(BROKEN_WORDS) == [], cell.inner_text()
    assert text_problems(page) == []
    shot(page, f"player-{scale}")
    assert page_errors(page) == []


# The lines of a box's words, and the room between them and its edges (top, bottom, left, right).
WORDS_IN_BOX = """(e) => {
    const r = document.createRange(); r.selectNodeContents(e);
    const lines = new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
    const words = r.getBoundingClientRect(), box = e.getBoundingClientRect();
    return {lines, room: [words.top - box.top, box.bottom - words.bottom,
                          words.left - box.left, box.right - words.right]};
}"""


@pytest.mark.parametrize("scale", [1.0, 2.0])
def test_the_card_counters_button_fits_the_phone(
    scaled_phone: Callable[[float], Page], live_server: LiveServer, shot: Shot, scale: float
) -> None:
    page = scaled_phone(scale)
    token = start_match(page, live_server.url)
    page.goto(f"{live_server.url}/score/{token}/count/?taker=0&card=J-hearts&card=A-spades")
    use = page.get_by_role("link", name="Use these points in the deal")
    expect(use).to_be_visible()
    found = use.evaluate(WORDS_IN_BOX)
    if scale == 1:
        assert found["lines"] == 1, found  # one line at 360 px
    assert min(found["room"]) >= 6, found  # never touching its edges
    assert use.evaluate(BROKEN_WORDS) == []
    use.scroll_into_view_if_needed()
    save_screenshot(page, f"count-button-{scale}-screen.png")
    shot(page, f"count-{scale}")
    assert page_errors(page) == []


def test_all_passed_shows_its_undo_beside_the_result(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    """One tap records "all passed": its Undo sits in the result's own line (with and without
    JavaScript), the only Undo on the board, and takes it back."""
    for javascript, scheme in ((True, "light"), (False, "dark")):
        page = new_phone(javascript=javascript, color_scheme=scheme)
        token = start_match(page, live_server.url)
        page.get_by_role("button", name="All passed").click()
        result = page.locator("#scoreboard .msg").filter(has_text="Deal 1: all passed.")
        expect(result).to_be_visible()
        undo = result.get_by_role("button", name="Undo: deal 1 recorded (all passed)")
        expect(undo).to_be_visible()
        expect(page.get_by_role("button", name=re.compile("^Undo"))).to_have_count(1)
        line, button = box(result), box(undo)
        assert (
            line["y"] <= button["y"]
            and button["y"] + button["height"] <= line["y"] + line["height"]
        )
        shot(page, f"all-passed-{'js' if javascript else 'no-js'}-{scheme}")
        undo.click()
        expect(page.locator("#scoreboard .messages")).to_contain_text(
            "Undone: deal 1 recorded (all passed)."
        )
        expect(
            page.get_by_role("button", name="Redo: deal 1 recorded (all passed)")
        ).to_be_visible()
        assert Match.objects.get(scorer_token=token).deal_count == 0
        assert page_errors(page) == []
