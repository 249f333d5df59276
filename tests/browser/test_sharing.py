"""Several phones on one match: a second scorer through the scorer link, a read-only viewer."""

import json
import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.matches.models import Match

from .conftest import NewPhone, Shot, chip, expect_totals, page_errors, start_match

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]


def test_second_scorer_and_read_only_viewer(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    first = new_phone()
    token = start_match(first, live_server.url)
    match = Match.objects.get(scorer_token=token)

    first.get_by_role("link", name="Share / QR codes").click()
    expect(first.get_by_role("heading", name="Share the match")).to_be_visible()
    links = first.locator("input.copy")
    expect(links).to_have_count(2)
    view_link = first.get_by_label("Read-only link").input_value()
    scorer_link = first.get_by_label("Scorer link").input_value()
    assert view_link == f"{live_server.url}/view/{match.view_token}/"
    assert scorer_link == f"{live_server.url}/score/{token}/" == first.url.replace("share/", "")
    expect(first.locator("img.qr")).to_have_count(2)
    shot(first, "01-share")
    first.get_by_role("link", name="← Scoreboard").click()
    expect_totals(first, 0, 0)  # the first phone now waits on the scoreboard (10 s poll)

    # A second phone (its own session) scores through the scorer link.
    second = new_phone()
    second.goto(scorer_link)
    expect_totals(second, 0, 0)
    second.get_by_role("link", name="Record a deal").click()
    chip(second, "taker", "1")
    chip(second, "contract", "90")
    chip(second, "trump", "diamonds")
    second.get_by_label("Takers' card points").fill("100")  # Them 100 + 90 = 190; Us 62 → 60
    expect(second.locator("#preview")).to_contain_text("Then: 60 – 190")
    second.get_by_role("button", name="Save the deal").click()
    second.wait_for_url(re.compile(r"/score/[^/]+/$"))
    expect_totals(second, 60, 190)
    shot(second, "02-second-phone")
    match.refresh_from_db()
    assert (match.deal_count, match.total0, match.total1) == (1, 60, 190)

    # A third phone opens the read-only link: the scores, and nothing to change them with.
    viewer = new_phone()
    viewer.goto(view_link)
    expect_totals(viewer, 60, 190)
    expect(viewer.locator(".deals > li")).to_have_count(1)
    expect(viewer.get_by_text("Read-only view: the scores update by themselves.")).to_be_visible()
    viewer.locator(".deals > li summary").first.click()
    expect(viewer.locator(".deals .breakdown li").first).to_be_visible()
    for name in ("Record a deal", "Edit", "Delete", "History", "Manual score", "Share / QR codes"):
        expect(viewer.get_by_role("link", name=name)).to_have_count(0)
    for name in ("Undo", "All passed", "Rematch"):
        expect(viewer.get_by_role("button", name=name)).to_have_count(0)
    assert token not in viewer.content()  # the scorer token never reaches a viewer
    # The only POST form left on the page is the language switch.
    actions = viewer.locator("form[method=post]").evaluate_all(
        "forms => forms.map(f => new URL(f.action).pathname)"
    )
    assert actions == ["/i18n/setlang/"]
    shot(viewer, "03-viewer")

    # Forcing a POST from the viewer page (with its CSRF token) changes nothing.
    csrf = json.loads(viewer.locator("body").get_attribute("hx-headers") or "{}")["X-CSRFToken"]
    statuses = viewer.evaluate(
        """async ([csrf, urls]) => {
            const out = [];
            for (const url of urls) {
                const body = new URLSearchParams({taker: "0", trump: "spades", contract: "80",
                    taker_points: "100", coinche: "none", belote0: "0", belote1: "0"});
                const r = await fetch(url, {method: "POST", body, headers: {"X-CSRFToken": csrf}});
                out.push(r.status);
            }
            return out;
        }""",
        [
            csrf,
            [
                f"/view/{match.view_token}/",
                f"/score/{match.view_token}/deal/",
                f"/score/{match.view_token}/passed/",
                f"/score/{match.view_token}/undo/",
            ],
        ],
    )
    assert statuses == [405, 404, 404, 404]
    page_errors(viewer).clear()  # Chromium logs those refusals
    match.refresh_from_db()
    assert (match.deal_count, match.version) == (1, 1)

    # Back on the first phone, the 10 s htmx poll brings the new deal without a reload.
    expect(first.locator("#scoreboard .team-1 .total")).to_have_text("190", timeout=15_000)
    expect_totals(first, 60, 190)
    expect(first.locator(".deals > li")).to_have_count(1)
    shot(first, "04-first-phone-polled")
    for page in (first, second, viewer):
        assert page_errors(page) == []


def test_share_page(phone: Page, live_server: LiveServer, shot: Shot) -> None:
    """The Share page's own look: its title and its two QR codes."""
    page = phone
    start_match(page, live_server.url)
    page.get_by_role("link", name="Share / QR codes").click()
    expect(page.locator("img.qr")).to_have_count(2)
    page.wait_for_load_state("load")
    shot(page, "share")
    problems = []

    title = page.title()
    if title != "Share the match · Us 0–0 Them · Belote score":
        problems.append(
            f"the tab title is {title[:70]!r}...: share.html's {{% block title %}} is not closed "
            "before the 'Revoke the links' section, so that section's markup (with its form "
            "and CSRF token) becomes the tab title's text"
        )

    sizes = page.locator("img.qr").evaluate_all(
        "imgs => imgs.map(i => [i.complete, i.naturalWidth])"
    )
    response = page.request.get(
        live_server.url + (page.locator("img.qr").first.get_attribute("src") or "")
    )
    assert response.ok and response.headers["content-type"] == "image/svg+xml"
    if not all(done and width > 0 for done, width in sizes):
        problems.append(
            f"the QR code images do not render ({sizes}): the server sends "
            f"{response.text()[:40]!r}..., an <svg> without xmlns='http://www.w3.org/2000/svg' "
            "(segno's svg_inline), which a browser cannot show as a standalone image/svg+xml file"
        )
    assert not problems, "\n".join(problems)


def test_share_page_copies_a_link(phone: Page, live_server: LiveServer) -> None:
    """Without a share sheet (a desktop browser, headless Chromium here), the button copies the
    link; a tap on a link's box selects it for copying by hand."""
    page = phone
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    start_match(page, live_server.url)
    page.get_by_role("link", name="Share / QR codes").click()
    page.evaluate("() => { delete Navigator.prototype.share; }")  # as on a browser without one
    view_link = page.get_by_label("Read-only link").input_value()
    button = page.get_by_role("button", name="Send or copy the link").first
    button.click()
    expect(page.get_by_role("button", name="Link copied")).to_have_count(1)
    assert page.evaluate("() => navigator.clipboard.readText()") == view_link
    scorer = page.get_by_label("Scorer link")
    scorer.click()
    selected = scorer.evaluate("e => e.value.slice(e.selectionStart, e.selectionEnd)")
    assert selected == scorer.input_value() and "/score/" in selected


def test_revoking_the_links_asks_first(phone: Page, live_server: LiveServer) -> None:
    page = phone
    start_match(page, live_server.url)
    old = Match.objects.get()
    page.get_by_role("link", name="Share / QR codes").click()
    revoke = page.get_by_role("button", name="Revoke and make new links")
    revoke.click()  # the box is not ticked: the browser asks for it, nothing is sent
    expect(page.locator("input[name=confirm]:invalid")).to_have_count(1)
    assert Match.objects.get().scorer_token == old.scorer_token
    page.get_by_label("Yes: the old links stop working, for everyone").check()
    revoke.click()
    expect(page.locator(".messages")).to_contain_text("New links made")
    new = Match.objects.get()
    assert new.scorer_token != old.scorer_token and new.scorer_token in page.url
