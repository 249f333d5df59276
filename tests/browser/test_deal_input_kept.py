"""Issue 11, "nothing typed is ever lost" and "previews that tell the whole truth", at a real
table on a 360 px phone: Enter saves, the card-points helper comes back with everything filled
in, switching language keeps the deal, capot says what happens to the points, the phone shows
the keypad, the preview includes the litige reserve, and nothing promises a live score without
JavaScript."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.matches.models import Deal, Match

from .conftest import (
    NewPhone,
    Shot,
    chip,
    expect_totals,
    fill_deal,
    page_errors,
    start_match,
    tap_card,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

BOARD = re.compile(r"/score/[^/]+/$")
PROMISE = "The score appears here as you fill in the deal."
NO_JS_HINT = "Tap Preview to see the score before saving."


def test_enter_in_the_card_points_saves_the_deal(
    phone: Page, live_server: LiveServer, shot: Shot
) -> None:
    page = phone
    token = start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    expect(page.locator("#preview .js-only")).to_have_text(PROMISE)  # live with JavaScript
    expect(page.locator("#preview .js-only")).to_be_visible()
    expect(page.locator("#preview .no-js")).to_be_hidden()
    chip(page, "taker", "0")
    chip(page, "contract", "80")
    chip(page, "trump", "spades")
    points = page.get_by_label("Takers' card points")
    points.fill("100")
    for name in ("taker_points", "defence_points"):
        field = page.locator(f"input[name={name}]")
        expect(field).to_have_attribute("inputmode", "numeric")
        expect(field).to_have_attribute("autocomplete", "off")
    shot(page, "01-typed")
    points.press("Enter")  # "Go" on the phone's keypad
    page.wait_for_url(BOARD)
    expect_totals(page, 180, 60)
    row = Deal.objects.get(match__scorer_token=token)
    assert (row.taker_points, row.contract) == (100, "80")

    # The note too: Enter saves.
    page.get_by_role("link", name="Record a deal").click()
    fill_deal(page, taker="1", contract="90", trump="hearts", points="120")
    page.get_by_label("Note").fill("Ben dealt")
    page.get_by_label("Note").press("Enter")
    page.wait_for_url(BOARD)
    assert Deal.objects.filter(match__scorer_token=token).count() == 2
    assert page_errors(page) == []


def test_the_card_counter_does_not_offer_a_total_of_nothing(
    phone: Page, live_server: LiveServer, shot: Shot
) -> None:
    page = phone
    start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "0")
    page.get_by_role("button", name="Count card points").click()
    page.wait_for_url(re.compile(r"/count/\?"))
    use = page.get_by_role("button", name="Use these points in the deal")
    expect(use).to_be_disabled()
    expect(page.locator("#count-total")).to_contain_text("No card chosen yet")
    shot(page, "01-nothing-counted")
    tap_card(page, "7-hearts")  # worth nothing: said so
    expect(page.get_by_role("link", name="Use 0 points in the deal")).to_be_visible()
    expect(page.locator("#count-total")).to_contain_text("These cards are worth 0 points")
    tap_card(page, "A-hearts")
    expect(page.get_by_role("link", name="Use these points in the deal")).to_be_visible()
    shot(page, "02-counted")
    assert page_errors(page) == []


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_back_from_the_card_counter_everything_is_filled_in(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot, javascript: bool
) -> None:
    page = new_phone(javascript=javascript)
    start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "0")
    chip(page, "contract", "80")
    chip(page, "trump", "hearts")
    page.get_by_role("button", name="Count card points").click()
    page.wait_for_url(re.compile(r"/count/\?"))
    for key in ("J-hearts", "9-hearts", "A-spades", "10-spades", "A-clubs"):  # 20+14+11+10+11
        tap_card(page, key)
    if not javascript:
        page.get_by_role("button", name="Count", exact=True).click()
    expect(page.locator(".total-line strong")).to_have_text("66")
    page.get_by_role("link", name="Use these points in the deal").click()

    expect(page.get_by_role("heading", name="Deal 1")).to_be_visible()
    expect(page.get_by_label("Takers' card points")).to_have_value("66")
    expect(page.get_by_label("Defence's card points")).to_have_value("96")
    preview = page.locator("#preview")  # at once, with nothing else changed
    expect(preview.locator(".preview-outcome")).to_have_text("Failed")
    expect(preview.locator(".preview-scores .t1 strong")).to_have_text("+240")
    expect(page.locator("#preview-line")).to_contain_text("+240")
    shot(page, "01-back-on-the-deal")
    assert page_errors(page) == []


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "nojs"])
def test_switching_language_keeps_the_deal_being_typed(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot, javascript: bool
) -> None:
    page = new_phone(javascript=javascript)
    start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "1")
    chip(page, "contract", "100")
    chip(page, "trump", "diamonds")
    chip(page, "coinche", "coinche")
    page.get_by_label("Takers' card points").fill("110")
    page.get_by_label("Note").fill("Ben dealt")
    shot(page, "01-typed")
    page.get_by_role("button", name="Français").click()

    expect(page.get_by_role("heading", name="Donne 1")).to_be_visible()
    for name, value in (("taker", "1"), ("contract", "100"), ("trump", "diamonds")):
        expect(page.locator(f"input[name={name}][value='{value}']")).to_be_checked()
    expect(page.locator("input[name=coinche][value=coinche]")).to_be_checked()
    expect(page.locator("input[name=taker_points]")).to_have_value("110")
    expect(page.locator("input[name=note]")).to_have_value("Ben dealt")
    expect(page.locator("#preview .preview-outcome")).to_have_text("Fait")
    shot(page, "02-in-french")
    page.get_by_role("button", name="Enregistrer la donne").click()
    page.wait_for_url(BOARD)
    row = Deal.objects.get()
    assert (row.taker, row.contract, row.coinche, row.taker_points) == (1, "100", "coinche", 110)
    assert page_errors(page) == []


def test_capot_greys_the_typed_points_and_says_why(
    phone: Page, live_server: LiveServer, shot: Shot
) -> None:
    page = phone
    start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "0")
    chip(page, "contract", "120")
    chip(page, "trump", "spades")
    points = page.get_by_label("Takers' card points")
    points.fill("100")
    chip(page, "capot", "0")
    # Greyed, still typed in (issue 41: a point field never refuses typing), the note says why.
    for field in (points, page.get_by_label("Defence's card points")):
        expect(field).to_have_class(re.compile(r"\bis-left-out\b"))
        expect(field).to_be_editable()
    expect(page.locator(".capot-note")).to_be_visible()
    expect(page.locator("#preview")).to_contain_text("left out because of the capot")
    shot(page, "01-capot-after-points")
    chip(page, "capot", "")  # not a capot after all: the points come back
    expect(points).not_to_have_class(re.compile(r"\bis-left-out\b"))
    expect(points).to_have_value("100")
    expect(page.locator(".capot-note")).to_be_hidden()
    chip(page, "capot", "0")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)
    expect(page.locator("#scoreboard")).to_contain_text("left out because of the capot")
    row = Deal.objects.get()
    assert (row.capot, row.taker_points) == (0, None)

    # The capot contract preselects the takers' capot.
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "1")
    chip(page, "contract", "capot")
    expect(page.locator("input[name=capot][value='1']")).to_be_checked()
    chip(page, "taker", "0")  # the other takers after all
    expect(page.locator("input[name=capot][value='0']")).to_be_checked()
    # No card points typed: nothing is left out, so the note stays hidden (issue 22).
    expect(page.locator(".capot-note")).to_be_hidden()
    shot(page, "02-capot-contract")
    assert page_errors(page) == []


def test_capot_without_javascript_the_preview_says_the_points_are_left_out(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page = new_phone(javascript=False)
    start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    expect(page.locator("#preview .js-only")).to_be_hidden()  # no live score promised
    expect(page.locator("#preview .no-js")).to_have_text(NO_JS_HINT)
    expect(page.locator("#preview .no-js")).to_be_visible()
    fill_deal(page, taker="0", contract="120", trump="spades", points="100")
    chip(page, "capot", "0")
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("#preview")).to_contain_text(
        "The card points typed (100) are left out because of the capot"
    )
    shot(page, "01-preview")


def test_every_number_field_shows_the_keypad(phone: Page, live_server: LiveServer) -> None:
    page = phone
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="New match").click()
    for name in ("target", "deals_limit"):
        field = page.locator(f"input[name={name}]")
        expect(field).to_have_attribute("inputmode", "numeric")
        expect(field).to_have_attribute("autocomplete", "off")
    start_match(page, live_server.url)
    page.get_by_role("link", name="Manual score").click()
    for name in ("score0", "score1"):
        field = page.locator(f"input[name={name}]")
        expect(field).to_have_attribute("inputmode", "numeric")
        expect(field).to_have_attribute("autocomplete", "off")


def test_a_failed_save_lists_everything_missing_at_once(
    phone: Page, live_server: LiveServer, shot: Shot
) -> None:
    page = phone
    start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "0")
    page.get_by_role("button", name="Save the deal").click()
    problems = page.locator("#preview ul.error")
    for label in ("Contract", "Trump", "Takers' card points"):
        expect(problems).to_contain_text(label)
    shot(page, "01-all-missing")
    assert not Deal.objects.exists()


def test_the_preview_includes_the_reserve_and_a_final_reserve_is_not_awarded(
    phone: Page, live_server: LiveServer, shot: Shot
) -> None:
    page = phone
    token = start_match(page, live_server.url, preset="belote", settings={"target": "300"})
    preview, line = page.locator("#preview"), page.locator("#preview-line")

    def deal(taker: str, points: str) -> None:
        page.get_by_role("link", name="Record a deal").click()
        fill_deal(page, taker=taker, trump="spades", points=points)

    deal("0", "81")  # litige: Them 81, Us' 81 held
    expect(preview.locator(".preview-outcome")).to_have_text("Litige")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)

    deal("1", "90")  # Them make 90 and receive the 81 held: +171
    expect(preview.locator(".preview-scores .t1 strong")).to_have_text("+171")
    expect(preview.locator(".preview-scores .t1")).to_contain_text("90 + 81 from the last litige")
    expect(preview).to_contain_text("The 81 held in reserve go to Them")
    expect(line.locator(".t1")).to_contain_text("+171")
    shot(page, "01-reserve-in-the-preview")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)
    expect_totals(page, 72, 252)
    expect(page.locator(".deals > li").first.locator(".t1")).to_have_text("171")

    deal("0", "81")  # a second litige: Them 252 + 81 = 333 win, Us' 81 stay held
    expect(preview).to_contain_text("this ends the match")
    expect(preview).to_contain_text("81 points held in reserve, not awarded")
    shot(page, "02-final-litige-preview")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)
    reserve = page.locator("#scoreboard .reserve")
    expect(reserve).to_have_text("Litige: 81 points held in reserve, not awarded")
    shot(page, "03-board")
    match = Match.objects.get(scorer_token=token)
    assert match.is_finished and match.reserve == 81
    page.goto(live_server.url + reverse("history:review", args=[match.view_token]))
    expect(page.locator("main")).to_contain_text("81 points held in reserve, not awarded")
    shot(page, "04-review")
    assert page_errors(page) == []
