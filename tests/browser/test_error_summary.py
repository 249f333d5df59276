"""A form sent with mistakes comes back with one error summary at its top (role="alert") that has
the focus, so a screen reader says at once what went wrong; each of its links puts the focus on
the field to correct (a chip group's first radio). With and without JavaScript, at 360 px, on the
deal form (new and edit), New match, Import, Restore, Sign up, Log in and the manual score."""

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import FilePayload, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.matches.models import Deal, Match

from .conftest import (
    PHONE,
    NewPhone,
    Shot,
    chip,
    page_errors,
    save_screenshot,
    start_match,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

PASSWORD = "Dix-de-der-2024"
BOARD = re.compile(r"/score/[^/]+/(#.*)?$")
BOTH = pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])

_FOCUSED = "() => document.activeElement && document.activeElement.id"
_LINKS = """() => [...document.querySelectorAll("#error-summary a")].map((a) => ({
    target: a.getAttribute("href").slice(1), text: a.textContent,
    exists: Boolean(document.getElementById(a.getAttribute("href").slice(1))),
}))"""

# From the top of a field's label (a chip group's legend) to the bottom of the control.
_SPAN = """(el) => {
    const group = el.closest("fieldset");
    const label = group && el.type === "radio" ? group.querySelector("legend")
        : document.querySelector(`label[for="${el.id}"]`) || el;
    const control = (el.type === "radio" && el.closest("label")) || el;
    return [label.getBoundingClientRect().top, control.getBoundingClientRect().bottom];
}"""


_AXE = Path(__file__).parent / "vendor" / "axe.min.js"
_AXE_RUN = """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
    .map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", "))"""


def summary_links(page: Page) -> list[dict[str, Any]]:
    """Checks the summary is there, an alert, focused, and that axe-core finds nothing wrong
    with the page; returns the summary's links."""
    summary = page.locator("#error-summary")
    expect(summary).to_have_count(1)
    expect(summary).to_have_attribute("role", "alert")
    expect(summary).to_be_focused()
    assert page.evaluate(_FOCUSED) == "error-summary"
    assert summary.is_visible()
    # axe-core needs the page's timers: only where scripts run (app.js marks <html> with "js").
    if page.evaluate("() => document.documentElement.classList.contains('js')"):
        if page.evaluate("typeof axe") == "undefined":
            page.evaluate(_AXE.read_text(encoding="utf-8"))
        assert page.evaluate(_AXE_RUN) == []
        expect(summary).to_be_focused()  # (axe left the focus where it was)
    links: list[dict[str, Any]] = page.evaluate(_LINKS)
    for link in links:
        assert link["exists"], link
    return links


def follow_each_link(page: Page, links: list[dict[str, Any]], screen: str = "") -> None:
    """Each link puts the focus on its field, which is then on the screen with its label (the
    first one's screen, not the whole page, saved as `screen`.png)."""
    for n, link in enumerate(links):
        page.locator("#error-summary").focus()
        page.locator("#error-summary a").get_by_text(link["text"], exact=True).click()
        page.wait_for_function(f"() => document.activeElement.id === {link['target']!r}")
        top, bottom = page.locator(f"#{link['target']}").evaluate(_SPAN)
        assert top >= 0 and bottom <= PHONE["height"], link
        if screen and n == 0:
            save_screenshot(page, f"{screen}.png")


@BOTH
def test_a_deal_saved_with_nothing_filled_in(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot, javascript: bool
) -> None:
    page = new_phone(javascript=javascript)
    token = start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_load_state()
    links = summary_links(page)
    targets = ["id_taker_0", "id_contract_0", "id_trump_0", "id_taker_points"]
    assert [link["target"] for link in links] == targets
    assert [link["text"] for link in links] == [
        "Takers",
        "Contract",
        "Trump",
        "Takers' card points",
    ]
    expect(page.locator("#error-summary")).to_contain_text("Correct the fields marked below:")
    # The chip groups' radios point at their group's message.
    for name in ("taker", "contract", "trump"):
        radios = page.locator(f"input[name={name}]")
        for i in range(radios.count()):
            expect(radios.nth(i)).to_have_attribute("aria-describedby", f"id_{name}_error")
        expect(page.locator(f"#id_{name}_error")).to_have_text("This field is required.")
    shot(page, "01-summary")
    follow_each_link(page, links, f"test_error_summary-deal-takers-focused-{javascript}")
    assert not Deal.objects.filter(match__scorer_token=token).exists()

    # Corrected, it saves.
    chip(page, "taker", "0")
    chip(page, "contract", "80")
    chip(page, "trump", "hearts")
    page.locator("input[name=taker_points]").fill("100")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)  # (the redirect keeps the link's #fragment)
    assert Deal.objects.filter(match__scorer_token=token).count() == 1
    assert page_errors(page) == []


@BOTH
def test_an_edit_with_a_wrong_field(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot, javascript: bool
) -> None:
    page = new_phone(javascript=javascript)
    token = start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "0")
    chip(page, "contract", "80")
    chip(page, "trump", "hearts")
    page.locator("input[name=taker_points]").fill("100")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(re.compile(r"/score/[^/]+/$"))
    deal = Deal.objects.get(match__scorer_token=token)
    page.goto(f"{live_server.url}/score/{token}/deal/{deal.seq}/")
    page.locator("input[name=defence_points]").fill("")  # (the script empties both)
    page.locator("input[name=taker_points]").fill("170")
    page.get_by_role("button", name="Save the changes").click()
    page.wait_for_load_state()
    links = summary_links(page)
    assert [link["target"] for link in links] == ["id_taker_points"]
    expect(page.locator("#id_taker_points")).to_have_attribute(
        "aria-describedby", "id_taker_points_error"
    )
    expect(page.locator("#id_taker_points_error")).to_contain_text("162")
    shot(page, "01-summary")
    follow_each_link(page, links)
    points = page.locator("#id_taker_points")
    expect(points).to_be_focused()
    if javascript:  # corrected, it no longer says it is wrong, nor reads out the old message
        points.fill("100")
        points.blur()
        expect(points).not_to_have_attribute("aria-invalid", "true")
        expect(points).not_to_have_attribute("aria-describedby", re.compile("_error"))
    assert page_errors(page) == []


@BOTH
def test_new_match_with_two_players_of_one_name(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot, javascript: bool
) -> None:
    page = new_phone(javascript=javascript)
    page.goto(f"{live_server.url}/new/")
    page.get_by_label("Team 1", exact=True).fill("")
    page.locator("input[name=seat0]").fill("Anna")
    page.locator("input[name=seat1]").fill("anna")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_load_state()
    links = summary_links(page)
    assert [link["target"] for link in links] == ["id_team0_name", "id_seat1"]
    shot(page, "01-summary")
    follow_each_link(page, links, f"test_error_summary-new-match-team-focused-{javascript}")
    assert not Match.objects.exists()
    assert page_errors(page) == []


@BOTH
def test_import_without_a_file(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot, javascript: bool
) -> None:
    page = new_phone(javascript=javascript)
    page.goto(f"{live_server.url}/import/")
    page.get_by_role("button", name="Import").click()
    page.wait_for_load_state()
    links = summary_links(page)
    assert [link["target"] for link in links] == ["id_file"]
    shot(page, "01-summary")
    follow_each_link(page, links)
    # A file that is no match file: said in the summary too.
    nope: FilePayload = {"name": "m.json", "mimeType": "application/json", "buffer": b"{nope"}
    page.locator("input[name=file]").set_input_files(files=nope)
    page.get_by_role("button", name="Import").click()
    page.wait_for_load_state()
    summary_links(page)
    expect(page.locator("#error-summary")).to_contain_text("cannot be imported")
    assert page_errors(page) == []


@BOTH
def test_sign_up_and_log_in_with_mistakes(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot, javascript: bool
) -> None:
    page = new_phone(javascript=javascript)
    User.objects.create_user("taken", password=PASSWORD)
    page.goto(f"{live_server.url}/accounts/signup/")
    page.locator("input[name=username]").fill("taken")
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD + "!")
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_load_state()
    links = summary_links(page)  # before the user name, which Django's form also autofocuses
    assert [link["target"] for link in links] == ["id_username", "id_password2"]
    shot(page, "01-sign-up")
    follow_each_link(page, links)

    page.goto(f"{live_server.url}/accounts/login/")
    page.locator("input[name=username]").fill("taken")
    page.locator("input[name=password]").fill("wrong password")
    page.get_by_role("button", name="Log in").last.click()
    page.wait_for_load_state()
    assert summary_links(page) == []
    expect(page.locator("#error-summary")).to_contain_text("Please enter a correct username")
    shot(page, "02-log-in")
    assert page_errors(page) == []


@BOTH
def test_restore_without_a_file(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot, javascript: bool
) -> None:
    page = new_phone(javascript=javascript)
    User.objects.create_user("zoe", password=PASSWORD)
    page.goto(f"{live_server.url}/accounts/login/?next=/history/restore/")
    page.locator("input[name=username]").fill("zoe")
    page.locator("input[name=password]").fill(PASSWORD)
    page.get_by_role("button", name="Log in").last.click()
    page.wait_for_url(re.compile(r"/history/restore/$"))
    page.get_by_role("button", name="Restore").click()
    page.wait_for_load_state()
    links = summary_links(page)
    assert [link["target"] for link in links] == ["id_file"]
    shot(page, "01-summary")
    follow_each_link(page, links)
    assert page_errors(page) == []


@BOTH
def test_a_manual_score_of_nothing(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot, javascript: bool
) -> None:
    page = new_phone(javascript=javascript)
    token = start_match(page, live_server.url)
    page.goto(f"{live_server.url}/score/{token}/manual/")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_load_state()
    assert summary_links(page) == []
    expect(page.locator("#error-summary")).to_have_text(
        "Nothing to record: enter the points of at least one team."
    )
    page.locator("input[name=score0]").fill("-5")
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_load_state()
    links = summary_links(page)
    assert [link["target"] for link in links] == ["id_score0"]
    shot(page, "01-summary")
    follow_each_link(page, links)
    assert not Deal.objects.filter(match__scorer_token=token).exists()
    assert page_errors(page) == []


def test_the_summary_on_a_french_phone(new_phone: NewPhone, live_server: LiveServer) -> None:
    page = new_phone(locale="fr-FR")
    page.goto(f"{live_server.url}/new/")
    page.locator("input[name=team0_name]").fill("")
    page.get_by_role("button", name="Commencer la partie").click()
    page.wait_for_load_state()
    links = summary_links(page)
    assert [link["target"] for link in links] == ["id_team0_name"]
    expect(page.locator("#error-summary")).to_contain_text("Corrigez les champs signalés")
    save_screenshot(page, "test_error_summary-french-new-match.png")
    follow_each_link(page, links)
    assert page_errors(page) == []


@BOTH
def test_a_tap_on_preview_puts_the_focus_on_the_score(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot, javascript: bool
) -> None:
    """Without the live preview (no script), Preview sends the form: the page comes back with
    the focus on the score, so a screen reader says it. With the script it is the same page."""
    page = new_phone(javascript=javascript)
    start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "0")
    chip(page, "contract", "80")
    chip(page, "trump", "hearts")
    page.locator("input[name=taker_points]").fill("100")
    page.get_by_role("button", name="Preview").click()
    page.wait_for_load_state()
    preview = page.locator("#preview")
    expect(preview).to_be_focused()
    expect(preview.locator(".preview-outcome")).to_have_text("Made")
    expect(page.locator("#error-summary")).to_have_count(0)
    save_screenshot(page, f"test_error_summary-preview-focused-{javascript}.png")
    assert page_errors(page) == []
