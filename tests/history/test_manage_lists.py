"""Matches people can manage (issue 11), as the lists, statistics and files see them: a deleted
match is gone from history, home, player pages, CSV and backups and listed under Recently deleted
for its owner only; an abandoned one is listed and marked, and left out of win rates; a match
with no deal is neither listed in My matches nor counted; the lists show the time of day and the
four players and open a match in play on its scoreboard."""

import csv
import io
import re
import zipfile
from collections.abc import Callable
from datetime import datetime, timedelta
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scorekeeper.engine.scoring import PlayedDeal, Trump, rules_from_dict
from scorekeeper.matches.models import Match, Player
from tests.conftest import Browser

from .conftest import FACTS_DEALS, OWNER_KEY, AliceData, Cast, MakeMatch

# These read response.context (the figures a page was given).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("template_context")]

EVERYONE = ["owner", "scorer", "viewer", "stranger", "anonymous"]


def plain(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def rows(html: str) -> dict[str, str]:
    """The match rows of a list: {href: the row's text}."""
    found = re.findall(r'<a class="match-row" href="([^"]+)">(.*?)</a>', html, re.S)
    return {href: plain(text) for href, text in found}


def delete(match: Match, *, days: float = 0) -> None:
    Match.objects.filter(pk=match.pk).update(deleted_at=timezone.now() - timedelta(days=days))


def abandon(match: Match) -> None:
    Match.objects.filter(pk=match.pk).update(abandoned_at=timezone.now())


def csv_tokens(response: object) -> set[str]:
    body = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]
    return {row["match"].removeprefix("'") for row in csv.DictReader(io.StringIO(body))}


def zip_count(data: bytes) -> int:
    return len(zipfile.ZipFile(io.BytesIO(data)).namelist())


@pytest.fixture
def three(make_match: MakeMatch) -> dict[str, Match]:
    """A finished match, one in play and one without a deal, on the owner's phone."""
    return {
        "won": make_match(
            "coinche", FACTS_DEALS, created_at=datetime.fromisoformat("2025-03-01T12:05Z")
        ),
        "playing": make_match(
            "belote",
            [PlayedDeal(taker=1, trump=Trump.CLUBS, taker_points=100)],
            team_names=("Les As", "Capot"),
            players=("Emma", "Farid", "Gaëlle", "Hugo"),
            created_at=datetime.fromisoformat("2025-03-05T18:30Z"),
        ),
        "empty": make_match(team_names=("Belote Club", "Dix de Der")),
    }


# Lists ------------------------------------------------------------------------------------------


def test_history_lists_neither_empty_nor_deleted_matches(
    three: dict[str, Match], browser: Browser
) -> None:
    client = browser(OWNER_KEY)
    html = client.get("/history/").text
    assert "Belote Club" not in html and "2 matches" in html
    delete(three["playing"])
    html = client.get("/history/").text
    assert "Les As" not in html and "1 match" in html
    assert three["playing"].scorer_token not in html


def test_the_home_page_keeps_an_empty_match_for_who_may_score_it(
    three: dict[str, Match], browser: Browser
) -> None:
    home = browser(OWNER_KEY).get("/").text
    assert "Belote Club – Dix de Der" in home and "No deal yet" in home
    scorer = browser("scorer-phone")
    assert "Belote Club" not in scorer.get("/").text
    scorer.get(f"/score/{three['empty'].scorer_token}/")  # opens the scorer link of it
    assert "Belote Club" in scorer.get("/").text
    delete(three["empty"])
    delete(three["won"])
    home = browser(OWNER_KEY).get("/").text
    assert "Belote Club" not in home and "2170" not in home and "Les As" in home


def test_rows_show_the_time_of_day_and_the_four_players(
    three: dict[str, Match], browser: Browser
) -> None:
    client = browser(OWNER_KEY)
    for page in ("/history/", "/"):
        listed = rows(client.get(page).text)
        won = listed[f"/view/{three['won'].view_token}/review/"]
        # 12:05 UTC is 13:05 in Paris, the site's time zone; English dates day first.
        assert "1 Mar 2025, 13:05" in won, page
        assert "Alice & Bruno – Chloé & David" in won, page
        playing = listed[f"/score/{three['playing'].scorer_token}/"]
        assert "5 Mar 2025, 19:30" in playing and "Emma & Gaëlle – Farid & Hugo" in playing


def test_rows_in_french_use_the_french_date(three: dict[str, Match], browser: Browser) -> None:
    client = browser(OWNER_KEY)
    client.cookies["django_language"] = "fr"
    listed = rows(client.get("/history/").text)
    assert "01/03/2025 13:05" in listed[f"/view/{three['won'].view_token}/review/"]


def test_a_match_in_play_opens_on_its_scoreboard_a_finished_one_on_its_review(
    three: dict[str, Match], browser: Browser
) -> None:
    listed = rows(browser(OWNER_KEY).get("/history/").text)
    assert set(listed) == {
        f"/view/{three['won'].view_token}/review/",
        f"/score/{three['playing'].scorer_token}/",
    }
    abandon(three["playing"])
    listed = rows(browser(OWNER_KEY).get("/history/").text)
    row = listed[f"/view/{three['playing'].view_token}/review/"]
    assert "Abandoned" in row and "In play" not in row


def test_a_scorer_finds_a_match_in_play_on_its_scoreboard(cast: Cast) -> None:
    """The signed-in scorer, on another device: its history opens the scoreboard it may use."""
    listed = rows(cast.scorer.get("/history/").text)
    assert f"/score/{cast.match.scorer_token}/" in listed


def test_the_status_filter_knows_abandoned_matches(
    three: dict[str, Match], browser: Browser
) -> None:
    abandon(three["playing"])
    client = browser(OWNER_KEY)
    assert "Les As" in client.get("/history/?status=abandoned").text
    assert "Les As" not in client.get("/history/?status=playing").text
    assert "Les As" not in client.get("/history/?status=finished").text


# Files ------------------------------------------------------------------------------------------


def test_csv_and_backup_leave_deleted_matches_out(
    three: dict[str, Match], browser: Browser
) -> None:
    client = browser(OWNER_KEY)
    tokens = {m.view_token[:8] for m in (three["won"], three["playing"])}
    assert csv_tokens(client.get("/history/deals.csv")) == tokens
    assert zip_count(client.get("/history/backup.zip").content) == 3  # the empty one too
    delete(three["playing"])
    delete(three["empty"])
    assert csv_tokens(client.get("/history/deals.csv")) == {three["won"].view_token[:8]}
    assert zip_count(client.get("/history/backup.zip").content) == 1


# Statistics -------------------------------------------------------------------------------------


def alice_page(client: Client) -> tuple[object, str]:
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    response = client.get(f"/players/{alice.pk}/")
    return response.context["stats"], plain(response.text)


def test_statistics_leave_out_deleted_and_empty_matches(
    alice_data: AliceData, make_match: MakeMatch, browser: Browser
) -> None:
    client = browser(OWNER_KEY)
    make_match(players=("Alice", "Chloé", "Zoé", "David"))  # no deal: counts nothing
    stats, text = alice_page(client)
    assert (stats.matches, stats.finished, stats.wins) == (3, 2, 1)  # type: ignore[attr-defined]
    assert "Zoé" not in text  # no partner from a match without a deal
    delete(alice_data.m1)  # the won match: its deals, partners and form go too
    stats, text = alice_page(client)
    assert (stats.matches, stats.finished, stats.wins, stats.deals) == (2, 1, 0, 3)  # type: ignore[attr-defined]
    assert [c.player.name for c in stats.partners] == ["Bruno", "Emma"]  # type: ignore[attr-defined]
    assert [(c.matches, c.finished) for c in stats.partners] == [(1, 1), (1, 0)]  # type: ignore[attr-defined]
    assert stats.form == [0.0]  # type: ignore[attr-defined]
    assert "0 won of 1 finished" in text


def test_abandoned_matches_are_left_out_of_win_rates(
    alice_data: AliceData, browser: Browser
) -> None:
    client = browser(OWNER_KEY)
    _, text = alice_page(client)
    assert "1 won of 2 finished (50 %)" in text
    # Match 3 (lost) was finished; say its owner abandons it after an edit (a match in play
    # is what one abandons, but an edit may finish an abandoned match): not counted.
    abandon(alice_data.m3)
    stats, text = alice_page(client)
    assert (stats.matches, stats.finished, stats.wins) == (3, 1, 1)  # type: ignore[attr-defined]
    assert "1 won of 1 finished (100 %)" in text
    assert "wins are over finished matches only; abandoned ones are left out." in text
    bruno = {c.player.name: c for c in stats.partners}["Bruno"]  # type: ignore[attr-defined]
    assert (bruno.matches, bruno.finished, bruno.wins) == (2, 1, 1)
    assert stats.form == [1.0]  # type: ignore[attr-defined]


def test_a_scorers_player_claim_ignores_a_deleted_match(cast: Cast) -> None:
    """A deleted match lends nobody the right to claim its names."""
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    delete(cast.match)
    response = cast.scorer.post(f"/players/{alice.pk}/me/")
    assert response.status_code == 404
    alice.refresh_from_db()
    assert alice.user_id is None


# Recently deleted -------------------------------------------------------------------------------


@pytest.mark.parametrize("who", EVERYONE)
def test_only_the_owner_lists_and_restores_a_deleted_match(cast: Cast, who: str) -> None:
    delete(cast.match)
    client: Client = getattr(cast, who)
    page = client.get("/history/deleted/")
    assert page.status_code == 200
    assert (cast.match.scorer_token in page.text) is (who == "owner")
    response = client.post(f"/history/deleted/{cast.match.scorer_token}/restore/")
    cast.match.refresh_from_db()
    if who == "owner":  # the account, on another device than the one that created it
        assert response.status_code == 302 and cast.match.deleted_at is None
    else:
        assert response.status_code == 404 and cast.match.deleted_at is not None


@pytest.mark.parametrize("who", EVERYONE)
def test_only_the_owner_deletes_or_abandons(cast: Cast, who: str) -> None:
    client: Client = getattr(cast, who)
    token = cast.match.scorer_token
    client.post(f"/score/{token}/manage/abandon/")
    client.post(f"/score/{token}/manage/delete/", {"confirm": "delete"})
    cast.match.refresh_from_db()
    if who == "owner":
        assert cast.match.abandoned_at is not None and cast.match.deleted_at is not None
    else:
        assert cast.match.abandoned_at is None and cast.match.deleted_at is None


def test_my_matches_links_to_recently_deleted(browser: Browser) -> None:
    assert 'href="/history/deleted/"' in browser(OWNER_KEY).get("/history/").text


def test_recently_deleted_lists_newest_first_with_the_last_day(
    make_match: MakeMatch, browser: Browser
) -> None:
    first = make_match("coinche", FACTS_DEALS[:2], team_names=("Un", "Deux"))
    second = make_match("coinche", FACTS_DEALS[:2], team_names=("Trois", "Quatre"))
    delete(first, days=3)
    delete(second, days=1)
    text = plain(browser(OWNER_KEY).get("/history/deleted/").text)
    assert text.index("Trois – Quatre") < text.index("Un – Deux")
    assert "Restore" in text
    assert "Deleted matches are kept 30 days, then removed for good." in text


# Query counts -----------------------------------------------------------------------------------


def count_queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return len(context.captured_queries)


def test_list_queries_do_not_grow_with_the_matches(
    make_match: MakeMatch, browser: Browser, make_user: Callable[[str], User]
) -> None:
    user = make_user("alice")
    rules = rules_from_dict({"preset": "coinche", "target": 100_000})

    def some(count: int) -> None:
        for i in range(count):
            match = make_match(rules, FACTS_DEALS[:2], owner=user, players=("A", "B", f"C{i}", "D"))
            if i % 3 == 1:
                abandon(match)
            if i % 3 == 2:
                delete(match)

    some(3)
    client = browser(OWNER_KEY, user)
    pages = ["/", "/history/", "/history/deleted/"]
    few = {url: count_queries(client, url) for url in pages}
    some(27)
    many = {url: count_queries(client, url) for url in pages}
    assert many == few
