"""Issue 42: the figures that decide a tie, and which criterion broke it, on every ranking a
concours shows: the desk, the public page, the projector, the print and the standings CSV.

The concours (tie_support.py) is ranked by wins, head to head, opponents' points, opponents'
opponents' wins and lots; Les As, Les Rois du Pique and Cœur Vaillant (ranks 4, 5, 6) end on
3,100 points and 1.5 wins each, and before this change every page showed them the same."""

import csv
import io
import re
from collections.abc import Callable
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper.concours import selectors

from .test_prize_ties import rows_of, tied
from .tie_support import EXPECTED, NAMES, tied_concours

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(make_user: Callable[[str], User], client: Client) -> User:
    user = make_user("organiser")
    client.force_login(user)
    return user


def by_name(rows: list[str]) -> dict[str, str]:
    """Each team's row text, by the team's name (the row holding it)."""
    out = {}
    for name in NAMES:
        found = [row for row in rows if f" {name} " in f" {row} "]
        assert len(found) == 1, (name, rows)
        out[name] = found[0]
    return out


def labelled(html: str, start: str) -> dict[str, dict[str, str]]:
    """Each team's cells named by their `data-label` (what a card shows before a figure), by
    the team's name, in the table after `start`."""
    part = html[html.index(start) :]
    part = part[: part.index("</tbody>")]
    out = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", part, re.S):
        if "<td" not in row:
            continue  # the head
        cells = dict(re.findall(r'<td[^>]*data-label="([^"]+)"[^>]*>(.*?)</td>', row, re.S))
        name = next(name for name in NAMES if f">{name}<" in unescape(row))
        out[name] = {label: " ".join(value.split()) for label, value in cells.items()}
    return out


def test_the_rows_carry_the_criterion_that_broke_each_tie(organiser: User) -> None:
    tournament = tied_concours(organiser)
    rows = selectors.standings_rows(tournament)
    assert [(row["rank"], row["id"], row["tie_break"]) for row in rows] == EXPECTED
    # The three on 3,100 points and 1.5 wins, told apart by the figures now shown.
    level = [row for row in rows if row["rank"] in (4, 5, 6)]
    assert {(row["points"], row["wins"]) for row in level} == {(3100, 1.5)}
    assert [(row["head_to_head"], row["opponents_points"]) for row in level] == [
        (0.5, 9400), (0.5, 9300), (0, 9200),
    ]  # fmt: skip


def test_the_desk_shows_a_column_a_criterion_and_the_tie_break(
    organiser: User, client: Client
) -> None:
    tournament = tied_concours(organiser)
    html = unescape(client.get(reverse("concours:desk", args=[tournament.pk])).text)
    head, *rows = rows_of(html, 'id="standings"')
    for title in ("Head to head", "Opponents' points", "Opponents' opponents' wins",
                  "Drawing of lots", "Tie broken by"):  # fmt: skip
        assert title in head, head
    cells = labelled(html, 'id="standings"')
    assert cells["Les Rois du Pique"]["Opponents' points"] == "9300"
    assert cells["Les Rois du Pique"]["Tie broken by"] == "opponents' points"
    assert cells["Les As"]["Head to head"] == "0.5"
    assert cells["Les As"]["Tie broken by"] == "head to head"
    assert cells["Cœur Vaillant"]["Tie broken by"] == "head to head"
    assert cells["Belote et Rebelote"]["Opponents' opponents' wins"] == "14.5"
    assert cells["Belote et Rebelote"]["Tie broken by"] == "opponents' opponents' wins"
    assert cells["Carreau Magique"]["Drawing of lots"] == "7"
    assert cells["Carreau Magique"]["Tie broken by"] == "drawing of lots"
    assert "Tie broken by" not in cells["Trèfle d'Or"]  # first
    assert "Tie broken by" not in cells["Pique Dame"]  # fewer wins than the row above
    assert len(rows) == 8
    client.cookies["django_language"] = "fr"
    html = unescape(client.get(reverse("concours:desk", args=[tournament.pk])).text)
    head, *rows = rows_of(html, 'id="standings"')
    assert "Départagé par" in head and "Confrontation directe" in head
    assert labelled(html, 'id="standings"')["Carreau Magique"]["Départagé par"] == "tirage au sort"


def test_the_public_page_shows_the_criteria_and_the_tie_breaks(
    organiser: User, client: Client
) -> None:
    tournament = tied_concours(organiser)
    client.logout()
    url = reverse("concours_public:standings", args=[tournament.public_token])
    html = unescape(client.get(url).text)
    assert 'class="facts pub-standings cards has-more"' in html
    head, *rows = rows_of(html, 'class="facts pub-standings')
    for title in ("opponents’ points", "opponents’ opponents’ wins", "head to head", "Lot"):
        assert title in head, head
    rows_ = by_name(rows)
    assert "Tie broken by opponents' points" in rows_["Les Rois du Pique"]
    assert "9300 14.5 0.5 6" in rows_["Les Rois du Pique"]  # opp. pts, opp. opp., H2H, lot
    assert "Tie broken by drawing of lots" in rows_["Carreau Magique"]
    assert "Tie broken" not in rows_["Pique Dame"]
    assert "Opp. pts: opponents’ points; Opp. opp.: opponents’ opponents’ wins" in html
    client.cookies["django_language"] = "fr"
    html = unescape(client.get(url).text)
    assert "Départagé par points des adversaires" in html


def test_the_projector_shows_the_rankings_criteria_and_the_tie_breaks(
    organiser: User, client: Client
) -> None:
    tournament = tied_concours(organiser)
    client.logout()
    html = unescape(
        client.get(reverse("concours_public:projector", args=[tournament.public_token])).text
    )
    head, *rows = rows_of(html, 'class="proj-table"')
    # Parties played, wins, points, then only what ranks (no difference, no best partie).
    assert head.split() == ["#", "Team", "Pl.", "W", "Pts", "Opp.", "pts", "Opp.", "opp.", "H2H",
                            "Lot"]  # fmt: skip
    # The figure that broke each tie is marked in its cell (underlined, and said).
    said = "(broke the tie with the row above)"
    rows_ = by_name(rows)
    assert rows_["Les Rois du Pique"].endswith(f"3100 9300 {said} 14.5 0.5 6")
    assert rows_["Carreau Magique"].endswith(f"0 7 {said}")
    assert rows_["Les As"].endswith(f"13 0.5 {said} 5")
    assert rows_["Belote et Rebelote"].endswith(f"9100 14.5 {said} 0 1")
    assert rows_["Trèfle d'Or"].endswith("3100 9100 15.5 0 8")
    assert html.count('class="proj-broke"') == 5 + 1  # five ties broken, and the legend
    assert "Underlined: the figure that broke a tie with the row above." in re.sub(
        "<[^>]+>", "", html
    )


def test_the_print_shows_the_criteria_and_the_tie_breaks(organiser: User, client: Client) -> None:
    tournament = tied_concours(organiser)
    html = unescape(client.get(reverse("concours:print_ranking", args=[tournament.pk])).text)
    head, *rows = rows_of(html, 'class="ranking-table')
    assert "Tie broken by" in head and "head to head" in head and "Lot" in head
    rows_ = by_name(rows)
    assert "9300 14.5 0.5 6 opponents' points" in rows_["Les Rois du Pique"]
    assert rows_["Carreau Magique"].endswith("drawing of lots")
    assert "H2H: head to head (wins against those level on the criteria before it)" in html


def test_the_csv_has_a_column_a_criterion_and_the_tie_break(
    organiser: User, client: Client
) -> None:
    tournament = tied_concours(organiser)
    response = client.get(reverse("concours:standings_csv", args=[tournament.pk]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode()[1:])))
    assert list(rows[0]) == [
        "rank", "id", "team", "player1", "player2", "played", "won", "drawn", "lost", "byes",
        "wins", "points", "conceded", "difference", "best_partie", "opponents_wins",
        "opponents_points", "opponents_opponents_wins", "head_to_head", "lots", "tie_break",
        "withdrawn", "prize",
    ]  # fmt: skip
    team = {row["team"]: row for row in rows}
    assert team["Les Rois du Pique"]["opponents_points"] == "9300"
    assert team["Les Rois du Pique"]["opponents_opponents_wins"] == "14.5"
    assert team["Les Rois du Pique"]["head_to_head"] == "0.5"
    assert team["Les Rois du Pique"]["tie_break"] == "opponents' points"
    assert team["Carreau Magique"]["lots"] == "7"
    assert team["Carreau Magique"]["tie_break"] == "drawing of lots"
    assert team["Pique Dame"]["tie_break"] == ""
    client.cookies["django_language"] = "fr"
    response = client.get(reverse("concours:standings_csv", args=[tournament.pk]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode()[1:])))
    assert {row["team"]: row["tie_break"] for row in rows}["Les As"] == "confrontation directe"


def test_the_print_leaves_the_column_out_where_no_tie_was_broken(
    organiser: User, client: Client
) -> None:
    """Paper is narrow: no tie broken (two firsts share their rank, nothing parted them), no
    column; the desk keeps it (its cells empty)."""
    tournament, _winners, _rest = tied(organiser)
    assert not any(row["tie_break"] for row in selectors.standings_rows(tournament))
    html = client.get(reverse("concours:print_ranking", args=[tournament.pk])).text
    assert "Tie broken by" not in html and "ranking-tie-break" not in html
    desk = client.get(reverse("concours:desk", args=[tournament.pk])).text
    assert 'class="desk-tie-break">Tie broken by</th>' in desk
