"""A whole coinche match on one phone, from the New match page to the winner banner."""

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.matches.models import Deal, Match

from .conftest import (
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


def open_deal_form(page: Page, number: int) -> None:
    page.get_by_role("link", name="Record a deal").click()
    expect(page.get_by_role("heading", name=f"Deal {number}")).to_be_visible()
    expect(page.locator("#preview")).to_contain_text("The score appears here")


def expect_preview(page: Page, outcome: str, first: str, second: str, then: str) -> None:
    preview = page.locator("#preview")
    expect(preview.locator(".preview-outcome")).to_have_text(outcome)
    expect(preview.locator(".preview-scores .t0 strong")).to_have_text(first)
    expect(preview.locator(".preview-scores .t1 strong")).to_have_text(second)
    expect(preview).to_contain_text(f"Then: {then}")


def save_deal(page: Page) -> None:
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(re.compile(r"/score/[^/]+/$"))


def test_whole_coinche_match_to_the_winner(
    phone: Page, live_server: LiveServer, shot: Shot
) -> None:
    page = phone
    token = start_match(
        page, live_server.url, settings={"target": "1000"}, on_the_page=True, shot=shot
    )
    match = Match.objects.get(scorer_token=token)
    assert match.game == "coinche" and match.rules["target"] == 1000
    assert match.rules["sa_ta"] is True  # still the official preset, only the target changed
    expect_totals(page, 0, 0)
    expect(page.locator(".target")).to_contain_text("Target 1000")
    expect(page.locator(".turn")).to_contain_text("Anna deals, Ben speaks first")
    expect(page.locator("#scoreboard .empty")).to_have_text("No deal yet.")
    shot(page, "01-empty-board")

    # Deal 1 (worked example 1): Us bid 100 ♠, 83 card points + a tierce (20) = 103 vs 79:
    # made. 103 + 100 = 203 → 200; 79 → 80.
    open_deal_form(page, 1)
    fill_deal(page, taker="0", contract="100", trump="spades", points="83")
    # app.js fills the other team's points (162 in all)
    expect(page.get_by_label("Defence's card points")).to_have_value("79")
    # Without the tierce, 83 < 100: failed, the defence scores 160 + 100.
    expect_preview(page, "Failed", "+0", "+260", "0 – 260")
    page.locator("details.announcements > summary").click()
    page.locator("select[name=ann0_0_kind]").select_option("tierce")
    expect_preview(page, "Made", "+200", "+80", "200 – 80")
    expect(page.locator("#preview")).to_contain_text("Announcements counted for Us: tierce")
    shot(page, "02-deal1-announcement-preview")
    assert not Deal.objects.filter(match=match).exists()  # the preview saves nothing
    save_deal(page)
    expect_totals(page, 200, 80)
    expect(page.locator(".deals > li")).to_have_count(1)
    expect(page.locator(".deals > li").first.locator(".what")).to_have_text("100 ♠ · Us · made")

    # Deal 2: Us bid 110 ♥, coinché, 120 card points + belote: 2 × (160 + 110 + 20) = 580.
    open_deal_form(page, 2)
    expect(page.locator("a.back")).to_have_text("← Us 200 – 80 Them")
    chip(page, "taker", "0")
    chip(page, "contract", "110")
    chip(page, "trump", "hearts")
    chip(page, "coinche", "coinche")
    # Only tout atout has more than one belote: the chips for 2 to 4 show with that trump alone.
    more = page.locator("label.chip:has(input[name=belote0][value='2'])")
    expect(more).to_be_hidden()
    chip(page, "trump", "all_trump")
    expect(more).to_be_visible()
    chip(page, "trump", "hearts")
    expect(more).to_be_hidden()
    chip(page, "belote0", "1")
    page.get_by_label("Takers' card points").fill("120")
    expect_preview(page, "Made", "+580", "+0", "780 – 80")
    shot(page, "03-deal2-coinche-preview")
    save_deal(page)
    expect_totals(page, 780, 80)
    expect(page.locator(".deals > li").first.locator(".what")).to_have_text(
        "110 ♥ coinché · Us · made"
    )

    # Deal 3: Us bid 80 ♠ and win every trick (unbid capot); Them hold the belote:
    # 252 + 80 = 332 → 330 for Us, 20 for Them: Us pass 1000.
    open_deal_form(page, 3)
    chip(page, "taker", "0")
    chip(page, "contract", "80")
    chip(page, "trump", "spades")
    chip(page, "capot", "0")
    chip(page, "belote1", "1")
    expect_preview(page, "Made", "+330", "+20", "1110 – 100")
    expect(page.locator("#preview")).to_contain_text("this ends the match")
    shot(page, "04-deal3-capot-preview")
    save_deal(page)

    expect_totals(page, 1110, 100)
    banner = page.locator(".banner")
    expect(banner).to_contain_text("Winner: Us")
    expect(banner).to_contain_text("1110 – 100")
    expect(page.locator(".team-0")).to_have_class(re.compile(r"\bis-winner\b"))
    expect(page.get_by_role("link", name="Record a deal")).to_have_count(0)
    expect(page.get_by_role("button", name="All passed")).to_have_count(0)
    expect(page.locator(".deals > li")).to_have_count(3)
    expect(page.locator(".deals > li").first.locator(".what")).to_have_text(
        "80 ♠ · Us · made · capot"
    )
    shot(page, "05-winner")

    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.FINISHED, 0)
    assert (match.total0, match.total1, match.deal_count) == (1110, 100, 3)
    rows = list(match.deals.in_order())
    assert [(r.contract, r.trump, r.coinche, r.capot) for r in rows] == [
        ("100", "spades", "none", None),
        ("110", "hearts", "coinche", None),
        ("80", "spades", "none", 0),
    ]
    assert (rows[1].belote0, rows[2].belote1) == (1, 1)
    # The tierce's top card was left at "–": kept as not said (issue 22).
    assert rows[0].announcements == [[{"kind": "tierce", "high": "9", "high_said": False}], []]

    # Rematch: a new match with the same teams and rules, empty.
    rematch = banner.get_by_role("button", name="Rematch")
    expect(rematch).to_be_visible()
    rematch.click()
    page.wait_for_url(lambda url: token not in url and "/score/" in url)
    expect_totals(page, 0, 0)
    expect(page.locator(".team-0 .team-name")).to_have_text("Us")
    expect(page.get_by_role("link", name="Record a deal")).to_be_visible()
    new = Match.objects.get(scorer_token=page.url.rstrip("/").rsplit("/", 1)[-1])
    assert new.rematch_of_id == match.pk and new.rules == match.rules
    shot(page, "06-rematch")
    assert page_errors(page) == []


def test_deal_with_an_announcement(phone: Page, live_server: LiveServer, shot: Shot) -> None:
    """Worked example 1: 100 ♠, takers 83 card points + a tierce (20) = 103 vs 79: made.
    Takers 103 + 100 = 203 → 200; defence 79 → 80."""
    page = phone
    token = start_match(page, live_server.url)
    open_deal_form(page, 1)
    fill_deal(page, taker="0", contract="100", trump="spades", points="83")
    # without the tierce, 83 < 100: failed, the defence scores 160 + 100
    expect_preview(page, "Failed", "+0", "+260", "0 – 260")
    page.locator("details.announcements > summary").click()
    shot(page, "01-announcements-open")
    kind = page.locator("select[name=ann0_0_kind]")
    assert kind.count() == 1, (
        "the Announcements section shows no announcement inputs: deal_form.html loops over "
        "form.announcement_rows, one list of slots per team"
    )
    kind.select_option("tierce")
    expect_preview(page, "Made", "+200", "+80", "200 – 80")
    shot(page, "02-tierce-preview")
    save_deal(page)
    expect_totals(page, 200, 80)
    row = Match.objects.get(scorer_token=token).deals.get()
    assert row.announcements[0] and not row.announcements[1]


def test_long_team_names_keep_the_scores_in_sight(
    phone: Page, live_server: LiveServer, shot: Shot
) -> None:
    page = phone
    start_match(page, live_server.url, teams=("Les Invincibles du Dimanche", "Les Rois du Bar"))
    page.get_by_role("link", name="Record a deal").click()
    fill_deal(page, taker="0", contract="80", trump="hearts", points="100")
    line = page.locator("#preview-line")
    expect(line).to_contain_text("+60")
    for team, score in ((".t0", "+180"), (".t1", "+60")):
        part = line.locator(team)
        expect(part).to_contain_text(score)
        # Its name's box and its points, measured as text: the team's <span> draws no box of
        # its own (issue 12: display: contents, so that the longer name shrinks first).
        right = part.evaluate(
            "el => { const r = document.createRange(); r.selectNodeContents(el.lastChild);"
            " return Math.max(r.getBoundingClientRect().right,"
            " el.querySelector('.nm').getBoundingClientRect().right); }"
        )
        assert 0 < right <= 360, (team, right)
    shot(page, "long-names")
