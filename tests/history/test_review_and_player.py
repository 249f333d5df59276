"""The review page (deal table, SVG chart, facts) and the player page, against figures computed by
hand for the small matches of conftest.py."""

import re
from html import unescape

import pytest
from django.test import Client
from django.utils import translation

from scorekeeper.engine.scoring.breakdown import STORED_BREAKDOWN, line_from_data
from scorekeeper.history.selectors import Companion, Rate
from scorekeeper.matches.models import Deal, Match, Player
from scorekeeper.web.words import breakdown, deal_summary
from tests.conftest import Browser

from .conftest import FACTS_DEALS, OWNER_KEY, AliceData

# These read response.context (the figures a page was given).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("template_context")]


def text_of(html: str) -> str:
    # Inline spans (French words marked lang="fr") are part of their words: no space for them.
    html = re.sub(r"</?span\b[^>]*>", "", html)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def review(client: Client, match: Match) -> str:
    response = client.get(f"/view/{match.view_token}/review/")
    assert response.status_code == 200
    return response.text


def facts_rows(html: str) -> dict[str, list[str]]:
    table = re.search(r'<table class="facts">(.*?)</table>', html, re.S)
    assert table is not None
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S):
        cells = [text_of(c).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)]
        rows[cells[0]] = cells[1:]
    return rows


def test_review_shows_every_deal_with_its_breakdown(facts_match: Match, browser: Browser) -> None:
    html = review(browser("someone-with-the-link"), facts_match)
    assert "<h1>Nous 2170 – 410 Eux</h1>" in html
    assert "won by Nous" in html
    plain = text_of(html)
    names = facts_match.team_names
    for row in Deal.objects.filter(match=facts_match):
        stored = [line_from_data(data) for data in row.texts[STORED_BREAKDOWN]]
        with translation.override("en"):
            assert deal_summary(row, names) in plain
            for line in breakdown(stored, names):
                assert line in plain, line
    # The breakdowns carry the hand-computed figures.
    assert "Nous: 2 × (160 base + 110 contract + 20 belote) = 580" in plain
    assert "Nous: 4 × (160 base + 120 contract) = 1120" in plain
    assert "Nous: 83 card points + 20 announcements + 100 contract = 203 → 200" in plain
    assert "All passed" in plain


def test_review_chart_has_both_running_totals_and_the_target_line(
    facts_match: Match, browser: Browser
) -> None:
    html = review(browser("someone-with-the-link"), facts_match)
    svg = re.search(r"<svg class=\"chart\".*?</svg>", html, re.S)
    assert svg is not None
    assert "A line chart drawn" not in html  # the template's comment stays in the template
    chart = svg.group(0)
    lines = dict(re.findall(r'<polyline class="series (t[01])" points="([^"]+)"', chart))
    assert set(lines) == {"t0", "t1"}
    # Totals after each deal, at x = its number (the passed 4th adds no point): start, then 6
    # deals. The scale's top is 2500 (2170 rounded up to the 500 step), the plot 276 wide from
    # x=36, 148 high from y=10, with a gridline every 500.
    totals = {
        "t0": [0, 200, 450, 1030, 1030, 1050, 2170],
        "t1": [0, 80, 80, 80, 80, 410, 410],
    }
    for css, values in totals.items():
        expected = " ".join(
            f"{round(36 + 276 * i / 6, 1)},{round(10 + 148 * (1 - v / 2500), 1)}"
            for i, v in enumerate(values)
        )
        assert lines[css] == expected
    ticks = re.findall(r'<text class="axis"[^>]*text-anchor="end"[^>]*>(\d+)</text>', chart)
    assert ticks == ["0", "500", "1000", "1500", "2000", "2500"]
    target = re.search(r'<line class="target-line"[^>]*y1="([^"]+)"', chart)
    assert target is not None
    assert float(target.group(1)) == pytest.approx(10 + 148 * (1 - 2000 / 2500), abs=0.05)
    assert "target 2000" in html
    assert "<title>Nous</title>" in chart and "<title>Eux</title>" in chart


def test_the_chart_keeps_svg_numbers_in_french(facts_match: Match, browser: Browser) -> None:
    """A French page writes 158,2 for a decimal; SVG coordinates must stay 158.2."""
    client = browser("someone-with-the-link")
    client.cookies["django_language"] = "fr"
    html = client.get(f"/view/{facts_match.view_token}/review/", HTTP_ACCEPT_LANGUAGE="fr").text
    assert "Évolution des scores" in html
    chart = re.search(r"<svg class=\"chart\".*?</svg>", html, re.S)
    assert chart is not None
    numbers = re.findall(r'(?:points|x1|x2|y1|y2|x|y)="([^"]+)"', chart.group(0))
    assert numbers and not any("," in n and " " not in n for n in numbers)
    points = re.findall(r'points="([^"]+)"', chart.group(0))
    assert all(re.fullmatch(r"[\d.]+,[\d.]+( [\d.]+,[\d.]+)*", p) for p in points)


def test_review_facts_computed_by_hand(facts_match: Match, browser: Browser) -> None:
    html = review(browser("someone-with-the-link"), facts_match)
    rows = facts_rows(html)
    assert rows["Fact"] == ["Nous", "Eux"]  # the corner cell's hidden header
    assert rows["Contracts taken"] == ["2", "3"]
    assert rows["made"] == ["2", "1"]
    assert rows["failed"] == ["0", "2"]
    assert rows["Coinches"] == ["1", "1"]  # Eux coinched deal 3, Nous deal 6
    assert rows["Surcoinches"] == ["0", "1"]  # Eux surcoinched on deal 6
    assert rows["Capots"] == ["0", "1"]
    assert rows["Belotes"] == ["2", "0"]
    assert rows["Announcement points"] == ["20", "0"]
    plain = text_of(html)
    assert "Biggest deal: deal 6, 1120 points, Nous" in plain
    assert "1 deal all passed" in plain


def test_review_of_a_match_without_deals(make_match: object, browser: Browser) -> None:
    match = make_match()  # type: ignore[operator]
    html = review(browser("x"), match)
    assert "No deal yet." in html
    assert "Biggest deal" not in html
    assert '<line class="target-line"' in html


# Player page ------------------------------------------------------------------------------------


def test_player_stats_computed_by_hand(alice_data: AliceData, browser: Browser) -> None:
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    response = browser(OWNER_KEY).get(f"/players/{alice.pk}/")
    assert response.status_code == 200
    stats = response.context["stats"]
    assert (stats.matches, stats.finished, stats.wins) == (3, 2, 1)
    # Every deal, as My matches counts them (issue 22): 6 + 2 + 1, one of them all passed.
    assert (stats.deals, stats.passed, stats.played) == (9, 1, 8)
    assert stats.taken == Rate(4, 3)
    assert stats.by_contract == [
        ("80", Rate(1, 0)),
        ("90", Rate(1, 1)),
        ("100", Rate(1, 1)),
        ("110", Rate(1, 1)),
    ]
    assert stats.by_trump == [  # in the order of the trump chips: ♠ ♥ ♦ ♣
        ("spades", Rate(1, 1)),
        ("hearts", Rate(1, 1)),
        ("diamonds", Rate(1, 1)),
        ("clubs", Rate(1, 0)),
    ]
    assert stats.coinching == Rate(1, 1)  # Eux's surcoinched 120 failed
    assert stats.coinched == Rate(2, 1)  # 110 coinché made, 80 coinché failed
    assert stats.capots == 1
    # 200 + 250 + 580 + 20 + 1120 (match 1) + 0 + 340 (match 2) + 0 (match 3) = 2510 over 8.
    assert stats.average_points == pytest.approx(313.8)
    names = {p.name: p for p in Player.objects.filter(owner_key=OWNER_KEY)}
    assert stats.partners == [
        Companion(names["Bruno"], matches=2, finished=2, wins=1),
        Companion(names["Emma"], matches=1, finished=0, wins=0),
    ]
    assert stats.opponents == [
        Companion(names["Chloé"], matches=3, finished=2, wins=1),
        Companion(names["David"], matches=2, finished=2, wins=1),
        Companion(names["Bruno"], matches=1, finished=0, wins=0),
    ]
    assert stats.form == [1.0, 0.5]  # won match 1, then lost match 3


def test_player_page_renders_the_figures(alice_data: AliceData, browser: Browser) -> None:
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    html = browser(OWNER_KEY).get(f"/players/{alice.pk}/").text
    plain = text_of(html)
    assert "3 matches" in plain
    assert "1 won of 2 finished (50 %)" in plain  # issue 11: said in words
    assert "9 deals (8 played, 1 all passed)" in plain
    assert "313.8 points per deal" in plain
    assert "3/4 contracts made" in plain
    assert "1 capots" in plain
    assert "100 % coinches that paid (1)" in plain
    assert "50 % made when coinched (2)" in plain
    for contract, rate in (("80", "0/1"), ("90", "1/1"), ("100", "1/1"), ("110", "1/1")):
        assert f"{contract} {rate}" in plain
    for trump, rate in (("♠", "1/1"), ("♥", "1/1"), ("♦", "1/1"), ("♣", "0/1")):
        assert f"{trump} {rate}" in plain
    partners = plain.split("Partners", 1)[1].split("Opponents", 1)[0]
    assert "Bruno 2 1 1" in partners and "Emma 1 0 0" in partners
    opponents = plain.split("Opponents", 1)[1]
    assert "Chloé 3 1 1" in opponents and "David 2 1 1" in opponents
    assert "Bruno 1 0 0" in opponents
    # The form chart: one point per finished match, 100 % then 50 %.
    charts = re.findall(r'<polyline class="series t0" points="([^"]+)"', html)
    assert len(charts) == 1
    points = [tuple(map(float, p.split(","))) for p in charts[0].split()]
    assert len(points) == 2
    assert points[0][1] < points[1][1]  # higher on screen = more wins


def test_linked_names_add_up(
    alice_data: AliceData, browser: Browser, make_match: object, make_user: object
) -> None:
    """Alice on the owner's phone, and "Alice B." on her own phone: once both are linked to her
    account, each page counts the matches of both names that its viewer may see (issue 10: her
    own match, the one she scores and the one whose read-only link she opened; not the third one
    of the owner's, nor, for the owner, her own)."""
    user = make_user("alice")  # type: ignore[operator]
    own = make_match(  # type: ignore[operator]
        "coinche",
        FACTS_DEALS[:1],  # a match without a deal counts nowhere (issue 11)
        players=("Alice B.", "Zoé", "Yann", "Walter"),
        owner_key="alices-phone",
        owner=user,
    )
    Player.objects.filter(owner_key="alices-phone").update(owner=user)
    client = browser("alices-phone", user)
    mine = Player.objects.get(owner_key="alices-phone", name="Alice B.")
    assert client.post(f"/players/{mine.pk}/me/").status_code == 302
    Player.objects.filter(owner_key=OWNER_KEY, name="Alice").update(user=user)
    assert client.get(f"/players/{mine.pk}/").context["stats"].matches == 1
    assert "Also played as" not in text_of(client.get(f"/players/{mine.pk}/").text)
    client.get(f"/score/{alice_data.m1.scorer_token}/")  # she scores the first match
    client.get(f"/view/{alice_data.m2.view_token}/")  # and watches the second
    response = client.get(f"/players/{mine.pk}/")
    assert response.context["stats"].matches == 3
    assert "Also played as Alice" in text_of(response.text)
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    response = browser(OWNER_KEY).get(f"/players/{alice.pk}/")
    assert response.context["stats"].matches == 3  # m1, m2, m3: not her own match
    assert "Also played as" not in text_of(response.text)
    assert own.deal_count == 1  # counted: it has a deal


def test_review_puts_the_biggest_deal_and_the_passed_deals_on_separate_lines(
    facts_match: Match, browser: Browser
) -> None:
    """Issue 11: "Biggest deal: ..." and "1 deal all passed" are two lines, not one joined by ·."""
    html = review(browser("someone-with-the-link"), facts_match)
    biggest = re.search(r"<p[^>]*>([^<]*Biggest deal[^<]*)</p>", html)
    passed = re.search(r"<p[^>]*>\s*1 deal all passed\s*</p>", html)
    assert biggest is not None and passed is not None
    assert "·" not in biggest.group(1) and "passed" not in biggest.group(1)
    assert biggest.start() < passed.start()


def test_review_of_a_match_without_a_passed_deal_has_no_passed_line(
    make_match: object, browser: Browser
) -> None:
    match = make_match("coinche", FACTS_DEALS[:2])  # type: ignore[operator]
    html = review(browser("x"), match)
    assert "Biggest deal: deal 2, 250 points, Nous" in text_of(html)
    assert "all passed" not in html


def test_my_matches_and_the_player_page_count_deals_alike(
    alice_data: AliceData, browser: Browser
) -> None:
    """Issue 22: "6 deals" in My matches and "5 deals" on the player page for the same match (a
    deal all passed counted in one and not the other): every deal counts, and the player page
    says how many were all passed."""
    client = browser(OWNER_KEY)
    listed = text_of(client.get("/history/").text)
    assert "6 deals" in listed  # the facts match: 5 played, 1 all passed
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    plain = text_of(client.get(f"/players/{alice.pk}/").text)
    assert "9 deals" in plain and "8 played, 1 all passed" in plain, plain  # 6 + 2 + 1
    with translation.override("fr"):
        client.cookies["django_language"] = "fr"
        french = text_of(client.get(f"/players/{alice.pk}/").text)
        assert "9 donnes" in french and "8 jouées, 1 où tous passent" in french, french
