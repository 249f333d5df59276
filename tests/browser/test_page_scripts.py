"""The pages' own scripts (issue 41): app.js and clock.js are ES modules, so none of their names is
a global of the page (a name another script, or an extension, could overwrite or call); and what
they apply of the rules comes from the server: the deal form's card points fill the other
team's from the total the form carries (the engine's TOTAL_CARD_POINTS), not from a copy."""

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.engine.scoring.cards import TOTAL_CARD_POINTS

from .conftest import chip, page_errors, start_match

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

# Top-level names of app.js (each a page global while it was a classic script) and of clock.js.
SCRIPT_NAMES = (
    "showCapot",
    "bidKey",
    "preselect",
    "errorSummary",
    "result",
    "focusResult",
    "PLACE",
    "lastField",
    "installPrompt",
    "installButton",
    "offlineRoot",
    "format",
    "timeLeft",
    "tick",
)


def open_deal_form(page: Page, base_url: str) -> None:
    token = start_match(page, base_url)
    page.goto(f"{base_url}/score/{token}/deal/")
    expect(page.get_by_role("heading", name="Deal 1")).to_be_visible()
    # app.js has run: it marks the page as scripted, and shows the capot note's state.
    expect(page.locator("html")).to_have_class(re.compile(r"\bjs\b"))


def test_the_page_scripts_leave_no_global_names(phone: Page, live_server: LiveServer) -> None:
    open_deal_form(phone, live_server.url)
    # `typeof name` in the page's global scope: "undefined" unless a script declared it there
    # (a classic script's top-level function, const or let).
    kinds = phone.evaluate("[" + ", ".join(f"typeof {name}" for name in SCRIPT_NAMES) + "]")
    leaked = {
        name: kind for name, kind in zip(SCRIPT_NAMES, kinds, strict=True) if kind != "undefined"
    }
    assert leaked == {}
    # Still working as a module: the other team's points are filled in.
    chip(phone, "taker", "0")
    phone.get_by_label("Takers' card points").fill("100")
    expect(phone.get_by_label("Defence's card points")).to_have_value("62")
    assert page_errors(phone) == []


def test_the_card_points_total_comes_from_the_server(phone: Page, live_server: LiveServer) -> None:
    open_deal_form(phone, live_server.url)
    form = phone.locator("#deal-form")
    assert form.get_attribute("data-card-points") == str(TOTAL_CARD_POINTS)
    takers, defence = (
        phone.get_by_label("Takers' card points"),
        phone.get_by_label("Defence's card points"),
    )
    takers.fill("90")
    expect(defence).to_have_value(str(TOTAL_CARD_POINTS - 90))
    defence.fill("100")
    expect(takers).to_have_value(str(TOTAL_CARD_POINTS - 100))
    # The script computes with the form's number, whatever it is: no 162 of its own.
    form.evaluate("f => { f.dataset.cardPoints = '200'; }")
    takers.fill("90")
    expect(defence).to_have_value("110")
    takers.fill("180")
    expect(defence).to_have_value("20")
    assert page_errors(phone) == []
    # A form without it (the server's mistake) fills nothing rather than a guess, and says so in
    # the console, where a browser test sees it.
    form.evaluate("f => { delete f.dataset.cardPoints; }")
    takers.fill("50")
    expect(defence).to_have_value("20")
    assert page_errors(phone) == [
        "console: The deal form has no data-card-points: the other team's points are not filled."
    ]
