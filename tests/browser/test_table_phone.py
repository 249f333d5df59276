"""Issue 22, at the table on a 360 px phone: the générale bid preselects what makes it (with and
without JavaScript) and a générale failed for an unticked box says so; the summary beside Save
says what the preview says (the reserve, "this ends the match", "not awarded") with names that
can be told apart; the capot note shows only when there are points to leave out; Save, the card
counter's button and the New match settings fit; a language switch keeps the place on the page."""

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.matches.models import Deal

from .conftest import (
    NewPhone,
    Shot,
    chip,
    expect_totals,
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
TEAMS = ("Les Rouges", "Les Roses")


def summary(page: Page) -> str:
    return " ".join(page.locator("#preview-line").inner_text().split())


def test_the_generale_contract_preselects_what_makes_it(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    for scheme in ("light", "dark"):
        page = new_phone(color_scheme=scheme)
        start_match(page, live_server.url, teams=TEAMS)
        page.get_by_role("link", name="Record a deal").click()
        chip(page, "taker", "0")
        chip(page, "contract", "generale")
        expect(page.locator("input[name=capot][value='0']")).to_be_checked()
        expect(page.get_by_label("Générale: one player won every trick")).to_be_checked()
        chip(page, "trump", "hearts")
        expect(page.locator("#preview .preview-outcome")).to_have_text("Made")
        expect(page.locator("#preview-line")).to_contain_text("Made")
        expect(page.locator("#preview-line")).to_contain_text("Les Rouges +750")
        shot(page, f"01-generale-preselected-{scheme}")
        # Two players shared the tricks: the box unticked, the preview says what is missing.
        page.get_by_label("Générale: one player won every trick").uncheck()
        expect(page.locator("#preview .preview-outcome")).to_have_text("Failed")
        expect(page.locator("#preview")).to_contain_text(
            "Failed because “Générale: one player won every trick” is not ticked"
        )
        expect(page.locator("#preview-line")).to_contain_text("“Générale” not ticked")
        shot(page, f"02-generale-unticked-{scheme}")
        # Another contract takes back what the générale preselected.
        chip(page, "contract", "120")
        expect(page.locator("input[name=capot][value='']")).to_be_checked()
        expect(page.get_by_label("Générale: one player won every trick")).not_to_be_checked()
        chip(page, "contract", "generale")
        expect(page.get_by_label("Générale: one player won every trick")).to_be_checked()
        page.get_by_role("button", name="Save the deal").click()
        page.wait_for_url(BOARD)
        expect_totals(page, 750, 0)
        assert page_errors(page) == []
    row = Deal.objects.filter(match__team0_name="Les Rouges").order_by("pk").last()
    assert row is not None
    assert (row.contract, row.capot, row.generale, row.outcome) == ("generale", 0, True, "made")


def test_without_javascript_the_generale_contract_preselects_too(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page = new_phone(javascript=False)
    start_match(page, live_server.url, teams=TEAMS)
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "1")
    chip(page, "contract", "generale")
    chip(page, "trump", "spades")
    page.get_by_role("button", name="Preview").click()
    expect(page.locator("input[name=capot][value='1']")).to_be_checked()
    expect(page.get_by_label("Générale: one player won every trick")).to_be_checked()
    expect(page.locator("#preview .preview-outcome")).to_have_text("Made")
    shot(page, "01-no-js-preview")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)
    expect_totals(page, 0, 750)
    row = Deal.objects.get()
    assert (row.capot, row.generale, row.outcome) == (1, True, "made")


def test_the_summary_beside_save_says_what_the_preview_says(
    phone: Page, live_server: LiveServer, shot: Shot
) -> None:
    page = phone
    start_match(page, live_server.url, preset="belote", teams=TEAMS, settings={"target": "300"})
    names = page.locator("#preview-line .nm")

    def record(taker: str, points: str, step: str, *expected: str) -> None:
        page.get_by_role("link", name="Record a deal").click()
        fill_deal(page, taker=taker, trump="spades", points=points)
        # Both names whole ("Les Ro…" twice named nobody), and the bar in sight.
        expect(names).to_have_text(list(TEAMS))
        for name in names.all():
            assert name.evaluate("e => e.scrollWidth <= e.clientWidth"), name.inner_text()
        for words in expected:
            expect(page.locator("#preview-line")).to_contain_text(words)
        bar = page.locator(".savebar").bounding_box()
        assert bar is not None and bar["y"] + bar["height"] <= 740, bar
        shot(page, step)
        page.get_by_role("button", name="Save the deal").click()
        page.wait_for_url(BOARD)

    record("0", "81", "01-litige", "Litige", "81 kept for the next deal")
    record("1", "90", "02-reserve-received", "Les Roses +171", "90 + 81 from the last litige")
    record("0", "81", "03-ends", "this ends the match", "81 in reserve, not awarded")
    expect_totals(page, 72, 333)
    assert page_errors(page) == []


@pytest.mark.parametrize("language", ["en", "fr"])
def test_save_stays_on_one_line(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot, language: str
) -> None:
    token = start_match(new_phone(), live_server.url)
    page = new_phone(locale="fr-FR" if language == "fr" else "en-GB")  # the scorer link's phone
    page.goto(f"{live_server.url}/score/{token}/deal/")
    save = page.locator(".savebar .btn-primary")
    expect(save).to_have_text({"en": "Save the deal", "fr": "Enregistrer la donne"}[language])
    words = save.evaluate(
        """e => { const r = document.createRange(); r.selectNodeContents(e);
                  return r.getClientRects().length; }"""
    )
    assert words == 1  # one line of words
    shot(page, f"save-{language}")


def test_the_capot_note_shows_only_with_points_to_leave_out(
    phone: Page, live_server: LiveServer, shot: Shot
) -> None:
    page = phone
    start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "0")
    chip(page, "contract", "capot")
    expect(page.locator("input[name=capot][value='0']")).to_be_checked()
    chip(page, "trump", "hearts")
    expect(page.locator("#preview .preview-outcome")).to_have_text("Made")
    expect(page.locator(".capot-note")).to_be_hidden()  # no points were typed
    shot(page, "01-capot-no-points")
    chip(page, "capot", "")
    page.get_by_label("Takers' card points").fill("100")
    chip(page, "capot", "0")
    expect(page.locator(".capot-note")).to_be_visible()
    assert page_errors(page) == []


def test_the_card_counters_button_keeps_room_around_its_words(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    token = start_match(new_phone(), live_server.url, teams=TEAMS)
    french = new_phone(locale="fr-FR")  # another phone of the table, through the scorer link
    french.goto(f"{live_server.url}/score/{token}/count/?taker=0&card=J-hearts&card=A-spades")
    use = french.get_by_role("link", name="Reporter ces points dans la donne")
    expect(use).to_be_visible()
    box = use.evaluate(
        """e => { const r = document.createRange(); r.selectNodeContents(e);
                  const words = r.getBoundingClientRect(), box = e.getBoundingClientRect();
                  return [words.top - box.top, box.bottom - words.bottom,
                          words.left - box.left, box.right - words.right]; }"""
    )
    assert min(box) >= 6, box  # words never touch the button's edges
    shot(french, "count-fr")


def test_the_chosen_rule_settings_show_whole(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    for locale in ("en-GB", "fr-FR"):
        page = new_phone(locale=locale)
        page.goto(f"{live_server.url}/new/")
        page.locator("details.settings > summary").click()
        choice = page.locator("input[name=coinched_scores][value=points]")
        choice.check()
        label = page.locator("label:has(input[name=coinched_scores][value=points])")
        expect(label).to_contain_text(
            "the takers' points (score apps)" if locale == "en-GB" else "applis"
        )
        for words in page.locator(".setting label").all():
            assert words.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), words.inner_text()
        label.scroll_into_view_if_needed()
        shot(page, f"settings-{locale}")


def test_a_language_switch_keeps_the_place_on_the_page(
    phone: Page, live_server: LiveServer, shot: Shot
) -> None:
    page = phone
    start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "0")
    note = page.get_by_label("Note")
    note.fill("Ben a mal donné")
    note.scroll_into_view_if_needed()
    page.get_by_role("button", name="Français").click()
    expect(page.locator("h1")).to_have_text("Donne 1")
    expect(page.get_by_label("Remarque")).to_have_value("Ben a mal donné")
    expect(page.get_by_label("Remarque")).to_be_in_viewport()
    assert page.evaluate("window.scrollY") > 200
    shot(page, "after-switch")
    assert page_errors(page) == []
