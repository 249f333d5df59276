"""Issue 4 on a phone: sign up, claim this browser's matches, filter My matches (htmx), review a
match and its chart, a player's page with "This is me", log out and in again, on this phone and
another one. Every screen is photographed and checked for sideways scrolling and small targets."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.accounts.services import claim_device
from scorekeeper.engine.scoring import parse_deal
from scorekeeper.engine.scoring.rules import PRESETS
from scorekeeper.matches.models import Match, Player
from scorekeeper.matches.services import Author, create_match, record_deal

from .conftest import (
    NewPhone,
    Shot,
    chip,
    expect_totals,
    layout_problems,
    page_errors,
    save_screenshot,
    start_match,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

BOARD = re.compile(r"/score/[^/]+/$")
PASSWORD = "Trefle-et-carreau-42"
PLAYERS = ("Anna", "Ben", "Chloé", "David")  # seats 0 and 2 play for team 1, 1 and 3 for team 2


def record(
    page: Page,
    *,
    taker: str,
    trump: str,
    points: str,
    then: str,
    contract: str | None = None,
    coinche: str | None = None,
    belote: str | None = None,
) -> None:
    """Records one played deal through the deal form, once its preview shows `then`."""
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", taker)
    if contract:
        chip(page, "contract", contract)
    chip(page, "trump", trump)
    if coinche:
        chip(page, "coinche", coinche)
    if belote:
        chip(page, belote, "1")
    page.get_by_label("Takers' card points").fill(points)
    expect(page.locator("#preview")).to_contain_text(f"Then: {then}")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)


def check_screen(page: Page, shot: Shot, step: str) -> None:
    """Photographs the screen, then checks it fits 360 px with fingertip-sized controls."""
    page.wait_for_load_state("load")
    shot(page, step)
    problems = layout_problems(page)
    lines = page.locator("svg.chart polyline").evaluate_all(
        "lines => lines.map(l => l.getAttribute('points').trim().split(/\\s+/).length)"
    )
    problems += [f"a chart line of {n} point(s) draws nothing" for n in lines if n < 2]
    assert not problems, f"{step}: " + "; ".join(problems)
    assert page_errors(page) == [], step


def results(page: Page) -> list[str]:
    return page.locator("#results .match-row .teams").all_inner_texts()


def filter_results(page: Page, count: str, teams: list[str]) -> None:
    expect(page.locator("#results > p.small")).to_have_text(count)
    expect(page.locator("#results .match-row .teams")).to_have_text(teams)


def play_two_matches(page: Page, base_url: str) -> tuple[Match, Match]:
    """A coinche match still in play (3 deals) and a classic belote match to 200, finished."""
    token = start_match(
        page, base_url, teams=("Lions", "Tigers"), players=PLAYERS, on_the_page=True
    )
    record(page, taker="0", contract="80", trump="spades", points="83", then="160 – 80")
    record(page, taker="1", contract="90", trump="diamonds", points="100", then="220 – 270")
    # Coinché 110 ♥ made with the belote: 2 × (160 + 110 + 20) = 580.
    record(
        page,
        taker="0",
        contract="110",
        trump="hearts",
        coinche="coinche",
        belote="belote0",
        points="120",
        then="800 – 270",
    )
    expect_totals(page, 800, 270)
    coinche = Match.objects.get(scorer_token=token)

    token = start_match(
        page,
        base_url,
        preset="belote",
        teams=("Sharks", "Wolves"),
        players=PLAYERS,
        settings={"target": "200"},
        on_the_page=True,
    )
    record(page, taker="0", trump="spades", points="100", then="100 – 62")
    record(page, taker="0", trump="hearts", points="120", then="220 – 104")
    expect_totals(page, 220, 104)
    belote = Match.objects.get(scorer_token=token)
    assert belote.is_finished and belote.winner == 0
    return coinche, belote


def test_sign_up_claim_filter_review_player_log_in_again(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page = new_phone()
    url = live_server.url
    coinche, belote = play_two_matches(page, url)
    assert coinche.owner_id is None and belote.owner_id is None

    # Before signing up, My matches lists this browser's matches, newest first.
    page.get_by_role("link", name="My matches").click()
    expect(page.get_by_role("heading", name="My matches")).to_be_visible()
    filter_results(page, "2 matches", ["Sharks – Wolves", "Lions – Tigers"])
    rows = page.locator("#results .match-row")
    expect(rows.nth(0).locator(".score")).to_have_text("220 – 104")
    expect(rows.nth(0).locator(".meta")).to_contain_text("won by Sharks")
    expect(rows.nth(0).locator(".meta")).to_contain_text("2 deals")
    expect(rows.nth(1).locator(".score")).to_have_text("800 – 270")
    expect(rows.nth(1).locator(".meta")).to_contain_text("In play")
    expect(rows.nth(1).locator(".meta")).to_contain_text("3 deals")
    check_screen(page, shot, "01-history-anonymous")

    # A stranger's phone sees none of them.
    stranger = new_phone()
    stranger.goto(f"{url}/history/")
    filter_results(stranger, "0 matches", [])
    expect(stranger.locator("#results .empty")).to_have_text("No match found.")

    # Sign up from the history page: both matches are claimed, and it comes back to the history.
    page.locator("#main").get_by_role("link", name="Sign up").click()
    expect(page.get_by_role("heading", name="Sign up")).to_be_visible()
    page.locator("input[name=username]").fill("camille")
    page.locator("input[name=password1]").fill(PASSWORD)
    page.locator("input[name=password2]").fill(PASSWORD)
    check_screen(page, shot, "02-sign-up")
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(f"{url}/history/")
    messages = page.locator(".messages")
    expect(messages).to_contain_text("2 matches from this browser are now in your history.")
    expect(messages).to_contain_text("Welcome, camille!")
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    expect(page.locator("#main").get_by_role("link", name="Sign up")).to_have_count(0)
    filter_results(page, "2 matches", ["Sharks – Wolves", "Lions – Tigers"])
    check_screen(page, shot, "03-history-signed-up")
    user = User.objects.get(username="camille")
    assert set(Match.objects.filter(owner=user)) == {coinche, belote}
    assert set(Player.objects.filter(owner=user).values_list("name", flat=True)) == set(PLAYERS)

    # Filters, with htmx: the results are swapped in place (the page itself stays) and the URL
    # follows, so the filtered list can be reloaded or shared.
    page.evaluate("window.stillTheSamePage = true")
    page.locator("details.settings > summary").click()
    page.get_by_label("Game").select_option("belote")
    filter_results(page, "1 match", ["Sharks – Wolves"])
    expect(page).to_have_url(re.compile(r"[?&]game=belote"))
    check_screen(page, shot, "04-filter-game")
    page.get_by_label("Game").select_option("")
    filter_results(page, "2 matches", ["Sharks – Wolves", "Lions – Tigers"])
    page.get_by_label("Rules").select_option("coinche")
    filter_results(page, "1 match", ["Lions – Tigers"])
    page.get_by_label("Rules").select_option("belote")
    filter_results(page, "1 match", ["Sharks – Wolves"])
    page.get_by_label("Rules").select_option("coinche-x3")
    filter_results(page, "0 matches", [])
    page.get_by_label("Rules").select_option("")
    page.get_by_label("Status").select_option("finished")
    filter_results(page, "1 match", ["Sharks – Wolves"])
    page.get_by_label("Status").select_option("playing")
    filter_results(page, "1 match", ["Lions – Tigers"])
    expect(page).to_have_url(re.compile(r"[?&]status=playing"))
    check_screen(page, shot, "05-filter-status")
    page.get_by_label("Status").select_option("")
    filter_results(page, "2 matches", ["Sharks – Wolves", "Lions – Tigers"])
    search = page.get_by_label("Search a team or a player")
    search.fill("tig")  # typed: searched after a short pause, no button needed
    filter_results(page, "1 match", ["Lions – Tigers"])
    expect(page).to_have_url(re.compile(r"[?&]q=tig"))
    check_screen(page, shot, "06-search-team")
    search.fill("WOLV")
    filter_results(page, "1 match", ["Sharks – Wolves"])
    search.fill("chlo")  # a player of both
    filter_results(page, "2 matches", ["Sharks – Wolves", "Lions – Tigers"])
    search.fill("nobody")
    filter_results(page, "0 matches", [])
    expect(page.locator("#results .empty")).to_have_text("No match found.")
    search.fill("")
    filter_results(page, "2 matches", ["Sharks – Wolves", "Lions – Tigers"])
    assert page.evaluate("window.stillTheSamePage") is True

    # The coinche match is in play: its row opens the scoreboard (issue 11); its review has
    # its chart, its facts, every deal.
    page.locator(".match-row", has_text="Lions – Tigers").click()
    page.wait_for_url(f"{url}/score/{coinche.scorer_token}/")
    expect_totals(page, 800, 270)
    page.goto(f"{url}/view/{coinche.view_token}/review/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Lions 800 – 270 Tigers")
    expect(page.locator("#main")).to_contain_text("In play")
    chart = page.locator("svg.chart")
    expect(chart).to_be_visible()
    # Its name: what it shows, then the result in words (issue 12; it was an aria-label).
    expect(chart).to_have_accessible_name(
        re.compile(
            r"^Running totals of both teams, deal by deal Lions ahead 800 to 270 after 3 deals; "
        )
    )
    lines = chart.locator("polyline.series")
    expect(lines).to_have_count(2)
    expect(chart.locator("polyline.series.t0 > title")).to_have_text("Lions")
    expect(chart.locator("polyline.series.t1 > title")).to_have_text("Tigers")
    expect(chart.locator("line.target-line")).to_have_count(1)
    for line in lines.all():  # the start and three deals
        assert len((line.get_attribute("points") or "").split()) == 4
    box = chart.bounding_box()
    assert box and 300 <= box["width"] <= 360 and box["height"] >= 150, box
    # The lines and the dashed target line are drawn in visible colours, not the default.
    strokes = chart.evaluate(
        """svg => [...svg.querySelectorAll('polyline.series, line.target-line')].map(
            e => [e.getAttribute('class'), getComputedStyle(e).stroke, getComputedStyle(e).fill])"""
    )
    assert len({stroke for _, stroke, _ in strokes}) == 3, strokes  # three colours
    assert all(fill == "none" for css, _, fill in strokes if "series" in css), strokes
    # Axis labels at least 10 px high on the phone's screen (the SVG is scaled to the width).
    sizes = chart.evaluate(
        """svg => [...svg.querySelectorAll('text.axis')].map(t =>
            parseFloat(getComputedStyle(t).fontSize)
            * svg.getBoundingClientRect().width / svg.viewBox.baseVal.width)"""
    )
    assert sizes and min(sizes) >= 10, sizes
    legend = page.locator(".legend")
    expect(legend).to_contain_text("Lions")
    expect(legend).to_contain_text("Tigers")
    expect(legend).to_contain_text("target 2000")  # the official preset
    facts = page.locator("table.facts")
    # The corner cell's words are for screen readers only (issue 12).
    expect(facts.locator("thead th")).to_have_text(["Fact", "Lions", "Tigers"])
    expect(facts.locator("thead th .sr-only")).to_have_text("Fact")

    def fact(name: str) -> list[str]:
        header = page.get_by_role("rowheader", name=name, exact=True)
        return facts.locator("tbody tr").filter(has=header).locator("td").all_inner_texts()

    assert fact("Contracts taken") == ["2", "1"]
    assert fact("made") == ["2", "1"]
    assert fact("failed") == ["0", "0"]
    assert fact("Coinches") == ["0", "1"]  # Tigers coinched Lions' 110
    assert fact("Surcoinches") == ["0", "0"]
    assert fact("Belotes") == ["1", "0"]
    assert fact("Capots") == ["0", "0"]
    expect(page.locator(".deals > li")).to_have_count(3)
    expect(page.locator("#main")).to_contain_text("Biggest deal: deal 3")
    page.locator(".deals > li summary").first.click()
    expect(page.locator(".deals .breakdown li").first).to_be_visible()
    check_screen(page, shot, "07-review")
    save_screenshot(chart, "test_history-07b-review-chart-close-up.png")
    page.evaluate("window.scrollTo(0, 0)")
    save_screenshot(page, "test_history-07c-review-first-screen.png")

    # Anna's page, from the review: "This is me", then her figures.
    page.locator("#main").get_by_role("link", name="Anna", exact=True).click()
    anna = Player.objects.get(owner=user, name="Anna")
    page.wait_for_url(f"{url}/players/{anna.pk}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Anna")
    check_screen(page, shot, "08-player-before-this-is-me")
    expect(page.locator(".stat", has_text="won")).to_have_text(
        re.compile(r"^1\s*won of 1 finished \(100\s%\)$")  # in words (issue 11)
    )
    expect(page.locator("svg.chart")).to_have_count(0)  # one finished match: no form line yet

    # A third match, made in the database by this browser for the account: lost by Anna's team
    # (a penalty of 1000 points), so that her form has two points.
    third = create_match(
        owner_key=anna.owner_key,
        rules=PRESETS["belote"],
        team_names=("Owls", "Foxes"),
        players=PLAYERS,
    )
    penalty = parse_deal({"manual_scores": [0, 1000], "note": "penalty"})
    record_deal(match_id=third.pk, expected_version=None, deal=penalty, author=Author("t", "t"))
    Match.objects.filter(pk=third.pk).update(owner=user)
    third.refresh_from_db()
    assert third.is_finished and third.winner == 1

    page.get_by_role("button", name="This is me").click()
    expect(page.locator(".messages")).to_contain_text("Anna is you: statistics now gather.")
    expect(page.locator("#main")).to_contain_text("This is you.")
    expect(page.get_by_role("button", name="This is not me")).to_be_visible()
    anna.refresh_from_db()
    assert anna.user == user

    def stat(label: str) -> str:
        return page.locator(".stat", has_text=label).locator("strong").inner_text()

    assert stat("matches") == "3"
    won = page.locator(".stat", has_text="won").inner_text().split()
    assert won == ["1", "won", "of", "2", "finished", "(50", "%)"]
    assert stat("deals") == "6"
    assert stat("contracts made") == "4/4"
    assert stat("capots") == "0"
    assert (
        stat("made when coinched") == "100\u00a0%"
    )  # a no-break space: the sign never wraps alone
    assert stat("coinches that paid") == "–"
    # Team 1's deal scores: 160, 60, 580 in the coinche match, 100 and 120 in the classic one,
    # 0 in the penalty.
    average = (160 + 60 + 580 + 100 + 120 + 0) / 6
    assert float(stat("points per deal")) == average
    tables = page.locator("table.facts")
    by_contract = tables.nth(0).locator("tbody tr")
    expect(by_contract).to_have_text([re.compile(r"^80\s*1/1$"), re.compile(r"^110\s*1/1$"),
                                      re.compile(r"^classic\s*2/2$")])  # fmt: skip
    by_trump = tables.nth(1).locator("tbody tr")
    expect(by_trump).to_have_text([re.compile(r"^♠\s*2/2$"), re.compile(r"^♥\s*2/2$")])  # ♠ ♥ ♦ ♣
    partners = tables.nth(2).locator("tbody tr")  # matches, won, lost
    expect(partners).to_have_text([re.compile(r"^Chloé\s*3\s*1\s*1$")])
    opponents = tables.nth(3).locator("tbody tr")
    expect(opponents).to_have_text(
        [re.compile(r"^Ben\s*3\s*1\s*1$"), re.compile(r"^David\s*3\s*1\s*1$")]
    )
    form = page.locator("svg.chart")
    expect(form).to_be_visible()
    expect(form.locator("polyline.series")).to_have_count(1)
    points = (form.locator("polyline.series").get_attribute("points") or "").split()
    heights = [float(point.split(",")[1]) for point in points]
    assert len(heights) == 2 and heights[0] < heights[1], points  # 100 % then 50 %: going down
    check_screen(page, shot, "09-player")
    save_screenshot(form, "test_history-09b-form-chart-close-up.png")
    page.evaluate("window.scrollTo(0, 0)")
    save_screenshot(page, "test_history-09c-player-first-screen.png")

    # Log out: the history is this browser's again (the claimed matches are the account's now).
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(f"{url}/")
    expect(page.locator(".messages")).to_contain_text("You are logged out.")
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    check_screen(page, shot, "10-logged-out")

    # Log in again from My matches: back to the same list.
    page.get_by_role("link", name="My matches").click()
    page.get_by_role("link", name="Log in").click()
    expect(page.get_by_role("heading", name="Log in")).to_be_visible()
    page.get_by_label("Username").fill("camille")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Log in").click()
    expect(page.locator(".form-errors")).to_contain_text("Please enter a correct username")
    check_screen(page, shot, "11-log-in-wrong-password")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{url}/history/")
    expect(page.get_by_role("button", name="Log out")).to_be_visible()
    filter_results(page, "3 matches", ["Owls – Foxes", "Sharks – Wolves", "Lions – Tigers"])
    check_screen(page, shot, "12-history-logged-in-again")

    # Another phone: logging in there brings the same history, and Anna's page.
    other = new_phone()
    other.goto(f"{url}/accounts/login/?next=/history/")
    other.get_by_label("Username").fill("camille")
    other.get_by_label("Password").fill(PASSWORD)
    other.get_by_role("button", name="Log in").click()
    other.wait_for_url(f"{url}/history/")
    filter_results(other, "3 matches", ["Owls – Foxes", "Sharks – Wolves", "Lions – Tigers"])
    other.goto(f"{url}/players/{anna.pk}/")
    expect(other.locator(".stat", has_text="matches").locator("strong")).to_have_text("3")
    check_screen(other, shot, "13-other-phone-player")
    for phone in (page, stranger, other):
        assert page_errors(phone) == []


def test_history_and_review_in_dark_mode(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    """Matches made through the services for an account, looked at with a dark system theme."""
    user = User.objects.create_user("dominique", password=PASSWORD)
    author = Author("dark-phone", "test")
    match = create_match(
        owner_key="dark-phone",
        rules=PRESETS["coinche"],
        team_names=("Les Rouges", "Les Bleus"),
        players=PLAYERS,
    )
    for deal in (
        {"taker": 0, "contract": 80, "trump": "spades", "taker_points": 83},
        {"taker": 1, "contract": 100, "trump": "clubs", "taker_points": 90},
        {"taker": 1, "contract": 120, "trump": "hearts", "taker_points": 130, "coinche": "coinche"},
        {"taker": 0, "contract": 90, "trump": "spades", "taker_points": 100, "belote": [1, 0]},
        {"taker": 0, "contract": "capot", "trump": "diamonds", "capot": 0},
    ):
        record_deal(match_id=match.pk, expected_version=None, deal=parse_deal(deal), author=author)
    other = create_match(
        owner_key="dark-phone", rules=PRESETS["belote-501"], team_names=("Nous", "Eux")
    )
    assert claim_device(user=user, device_key="dark-phone", scored_tokens=[]) == 2
    match.refresh_from_db()

    page = new_phone(color_scheme="dark")
    page.goto(f"{live_server.url}/accounts/login/?next=/history/")
    page.get_by_label("Username").fill("dominique")
    page.get_by_label("Password").fill(PASSWORD)
    check_screen(page, shot, "01-dark-log-in")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server.url}/history/")
    # "Nous – Eux" has no deal: not listed (issue 11).
    filter_results(page, "1 match", ["Les Rouges – Les Bleus"])
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(15, 20, 18)"  # the dark theme's --bg
    page.locator("details.settings > summary").click()
    check_screen(page, shot, "02-dark-history")

    page.locator(".match-row", has_text="Les Rouges").click()
    # A match in play opens on its scoreboard (issue 11), a finished one on its review.
    opened = (
        f"/score/{match.scorer_token}/" if match.in_play else f"/view/{match.view_token}/review/"
    )
    page.wait_for_url(f"{live_server.url}{opened}")
    page.goto(f"{live_server.url}/view/{match.view_token}/review/")
    expect(page.locator("svg.chart polyline.series")).to_have_count(2)
    expect(page.locator(".deals > li")).to_have_count(5)
    page.locator(".deals > li summary").first.click()
    check_screen(page, shot, "03-dark-review")
    save_screenshot(page.locator("svg.chart"), "test_history-dark-chart-close-up.png")
    assert other.deal_count == 0


def test_history_filters_without_javascript(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    """With scripts off, the filters are a plain GET form: the Search button does it all."""
    user = User.objects.create_user("eve", password=PASSWORD)
    author = Author("no-js", "test")
    for teams, preset in ((("Ours", "Theirs"), "coinche"), (("Red", "Black"), "belote")):
        match = create_match(owner_key="no-js", rules=PRESETS[preset], team_names=teams)
        record_deal(
            match_id=match.pk,
            expected_version=None,
            deal=parse_deal({"manual_scores": [0, 2000]}),  # a penalty that ends the match
            author=author,
        )
    create_match(owner_key="no-js", rules=PRESETS["coinche"], team_names=("Blue", "Green"))
    claim_device(user=user, device_key="no-js", scored_tokens=[])

    page = new_phone(javascript=False)
    page.goto(f"{live_server.url}/accounts/login/?next=/history/")
    page.get_by_label("Username").fill("eve")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server.url}/history/")
    # "Blue – Green" has no deal: not listed (issue 11).
    filter_results(page, "2 matches", ["Red – Black", "Ours – Theirs"])

    page.locator("details.settings > summary").click()
    page.get_by_label("Status").select_option("finished")
    page.get_by_label("Game").select_option("coinche")
    page.get_by_role("button", name="Search").click()
    page.wait_for_url(re.compile(r"/history/\?.*status=finished"))
    filter_results(page, "1 match", ["Ours – Theirs"])
    expect(page.locator("details.settings")).to_have_attribute("open", "")  # filters stay shown
    expect(page.get_by_label("Status")).to_have_value("finished")
    expect(page.get_by_label("Game")).to_have_value("coinche")
    check_screen(page, shot, "01-no-js-filtered")

    page.get_by_label("Status").select_option("")
    page.get_by_label("Game").select_option("")
    page.get_by_label("Search a team or a player").fill("black")
    page.get_by_role("button", name="Search").click()
    page.wait_for_url(re.compile(r"/history/\?.*q=black"))
    filter_results(page, "1 match", ["Red – Black"])
    expect(page.locator("#results .match-row .meta")).to_contain_text("won by Black")
    check_screen(page, shot, "02-no-js-search")
