"""My matches: order, filters, search, pagination, rows, the htmx partial and bad filters."""

import re
from datetime import datetime

import pytest
from django.test import Client

from scorekeeper.engine.scoring import PlayedDeal, Trump, rules_from_dict
from scorekeeper.matches.models import Match
from tests.conftest import Browser, match_maker
from tests.shared_data import shared_data

from .conftest import FACTS_DEALS, OWNER_KEY, MakeMatch

pytestmark = pytest.mark.django_db


def at(day: str) -> datetime:
    return datetime.fromisoformat(f"{day}T12:00Z")


def listed(client: Client, query: str = "") -> list[str]:
    """The tokens of the listed matches, in order (see row_token)."""
    text = client.get(f"/history/?{query}").text
    return re.findall(r'class="match-row" href="/(?:view|score)/([^/"]+)/(?:review/)?"', text)


def row_token(match: Match) -> str:
    """The token a match's row links to: its scoreboard while in play, else its review (issue
    11; My matches lists only matches its viewer may score)."""
    return match.scorer_token if match.in_play else match.view_token


@shared_data(scope="class")
def four() -> dict[str, Match]:
    """Built once for the class of its tests (tests/shared_data.py): each gets its own copy, and
    its writes roll back."""
    make_match = match_maker(OWNER_KEY)
    return {
        "coinche_won": make_match("coinche", FACTS_DEALS, created_at=at("2025-03-01")),
        "belote_playing": make_match(
            "belote",
            [PlayedDeal(taker=1, trump=Trump.CLUBS, taker_points=100)],
            team_names=("Les As", "Capot"),
            players=("Emma", "Farid", "Gaëlle", "Hugo"),
            created_at=at("2025-03-05"),
        ),
        "x3_empty": make_match(  # not listed: no deal (issue 11)
            "coinche-x3",
            team_names=("Belote Club", "Dix de Der"),
            players=("Alice", "Inès", None, None),
            created_at=at("2025-03-10"),
        ),
        "b501_playing": make_match(
            "belote-501",
            [PlayedDeal(taker=0, trump=Trump.HEARTS, taker_points=90)],
            team_names=("Atout Cœur", "Nous"),
            players=(None, None, None, None),
            created_at=at("2025-03-15"),
        ),
    }


def tokens(four: dict[str, Match], *names: str) -> list[str]:
    return [row_token(four[name]) for name in names if name != "x3_empty"]


class TestFourMatches:
    """The tests on `four`: its matches are built once for the class (tests/shared_data.py)."""

    def test_newest_first(self, four: dict[str, Match], browser: Browser) -> None:
        assert listed(browser(OWNER_KEY)) == tokens(
            four, "b501_playing", "belote_playing", "coinche_won"
        )

    @pytest.mark.parametrize(
        ("query", "expected"),
        [
            ("date_from=2025-03-05", ["b501_playing", "x3_empty", "belote_playing"]),
            ("date_to=2025-03-05", ["belote_playing", "coinche_won"]),
            ("date_from=2025-03-02&date_to=2025-03-10", ["x3_empty", "belote_playing"]),
            ("game=coinche", ["x3_empty", "coinche_won"]),
            ("game=belote", ["b501_playing", "belote_playing"]),
            ("preset=coinche-x3", ["x3_empty"]),
            ("game=belote&preset=belote-501", ["b501_playing"]),
            ("game=coinche&preset=belote", []),
            ("player=alice", ["x3_empty", "coinche_won"]),
            ("player=Gaëlle", ["belote_playing"]),
            ("status=finished", ["coinche_won"]),
            ("status=playing", ["b501_playing", "x3_empty", "belote_playing"]),
            ("q=nous", ["b501_playing", "coinche_won"]),  # a team name, either side
            ("q=DIX", ["x3_empty"]),
            ("q=hugo", ["belote_playing"]),  # a player's name
            ("q=nobody", []),
            ("q=alice&status=playing", ["x3_empty"]),
        ],
    )
    def test_filters_and_search(
        self, four: dict[str, Match], browser: Browser, query: str, expected: list[str]
    ) -> None:
        assert listed(browser(OWNER_KEY), query) == tokens(four, *expected)

    def test_each_row_shows_teams_score_winner_date_and_deals(
        self, four: dict[str, Match], browser: Browser
    ) -> None:
        text = browser(OWNER_KEY).get("/history/").text
        found = re.findall(r'href="/(?:view|score)/([^/"]+)/(?:review/)?">(.*?)</a>', text, re.S)
        rows = dict(found)
        won = re.sub(r"\s+", " ", rows[four["coinche_won"].view_token])
        assert "Nous – Eux" in won
        assert "2170 – 410" in won
        assert "won by Nous" in won
        assert "6 deals" in won
        assert 'datetime="2025-03-01T12:00:00+00:00"' in won
        assert "1 Mar 2025" in won  # day first, never 03/01
        playing = re.sub(r"\s+", " ", rows[four["belote_playing"].scorer_token])
        assert "Les As – Capot" in playing
        assert "In play" in playing
        assert "1 deal " in playing
        # A match without a deal is not listed (issue 11).
        assert four["x3_empty"].view_token not in text and four["x3_empty"].scorer_token not in text
        assert "3 matches" in text

    def test_htmx_request_returns_the_results_only(
        self, four: dict[str, Match], browser: Browser
    ) -> None:
        response = browser(OWNER_KEY).get("/history/?game=belote", headers={"HX-Request": "true"})
        text = response.text.strip()
        assert text.startswith('<section id="results"')
        assert text.endswith("</section>")
        assert "<html" not in text and "<form" not in text
        assert row_token(four["belote_playing"]) in text
        assert row_token(four["coinche_won"]) not in text
        assert "HX-Request" in response["Vary"]

    def test_an_htmx_history_restore_gets_the_whole_page(
        self, four: dict[str, Match], browser: Browser
    ) -> None:
        """Back button after htmx lost its cached copy: htmx asks again with HX-History-Restore-
        Request, and must get the page with its header and filters, not the results alone."""
        headers = {"HX-Request": "true", "HX-History-Restore-Request": "true"}
        text = browser(OWNER_KEY).get("/history/?game=belote", headers=headers).text
        assert "<html" in text and 'class="filters"' in text
        assert row_token(four["belote_playing"]) in text

    @pytest.mark.parametrize(
        ("query", "message"),
        [
            ("date_from=yesterday", "Enter a valid date."),
            ("date_to=2025-13-45", "Enter a valid date."),
            ("status=won", "Select a valid choice. won is not one of the available choices."),
            ("game=poker", "Select a valid choice. poker is not one of the available choices."),
            ("preset=nope", "Select a valid choice. nope is not one of the available choices."),
            ("q=" + "x" * 61, "Ensure this value has at most 60 characters (it has 61)."),
            (
                "date_from=2025-03-10&date_to=2025-03-01",
                "The start date is after the end date.",
            ),
        ],
    )
    def test_bad_filters_give_a_clear_message(
        self, four: dict[str, Match], browser: Browser, query: str, message: str
    ) -> None:
        client = browser(OWNER_KEY)
        response = client.get(f"/history/?{query}")
        assert response.status_code == 200
        assert message in response.text
        # The htmx request (which only swaps #results) says it too.
        response = client.get(f"/history/?{query}", headers={"HX-Request": "true"})
        assert response.status_code == 200
        assert message in response.text


def test_a_draw_is_shown_as_a_draw(make_match: MakeMatch, browser: Browser) -> None:
    rules = rules_from_dict({"preset": "belote", "target": None, "deals_limit": 1})
    match = make_match(rules, [PlayedDeal(taker=0, trump=Trump.SPADES, taker_points=81)])
    match.refresh_from_db()
    # 81-81 is a litige: the takers' points are held, so it is no draw; check the engine's word.
    text = re.sub(r"\s+", " ", browser(OWNER_KEY).get("/history/").text)
    if match.is_draw:
        assert "Draw" in text
    else:
        assert f"won by {match.team_names[match.winner or 0]}" in text


def test_pagination_25_a_page(make_match: MakeMatch, browser: Browser) -> None:
    matches = [
        make_match(
            deals=FACTS_DEALS[:1],  # listed: a match without a deal is not (issue 11)
            team_names=(f"Team {i:02}", "Eux"),
            created_at=at(f"2025-04-{i + 1:02}"),
        )
        for i in range(30)
    ]
    newest_first = [row_token(m) for m in reversed(matches)]
    client = browser(OWNER_KEY)
    assert listed(client) == newest_first[:25]
    assert listed(client, "page=2") == newest_first[25:]
    assert listed(client, "page=99") == newest_first[25:]  # past the end: the last page
    assert listed(client, "page=abc") == newest_first[:25]
    text = client.get("/history/?q=team").text
    assert "Page 1 of 2" in text
    assert 'href="?q=team&amp;page=2"' in text  # the filters are kept across pages
    assert listed(client, "q=team&page=2") == newest_first[25:]
