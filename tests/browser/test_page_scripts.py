"""The pages' own scripts (issue 41): app.js and clock.js are ES modules, so none of their names is
a global of the page (a name another script, or an extension, could overwrite or call)."""

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

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
