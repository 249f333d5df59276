"""Issue 22: a tie on a prize rank everywhere a ranking shows its prizes (the desk, the public
page, the projector, the CSV; the print already flagged it: test_prints.py). Two tied firsts
share out the first two prizes, shown as ex æquo with the prizes to share; the next prize goes
to the next rank, never dropped, never given twice. The club page: tests/clubs."""

import csv
import io
import re
from collections.abc import Callable
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper.concours import selectors, services
from scorekeeper.concours.models import Table, Tournament
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db

PRIZES = {1: "A ham", 2: "Two bottles", 3: "A box of chocolates"}
TEAMS = [("Les As", "Alice", "Bruno"), ("Pique Dame", "Chloé", "David"),
         ("Trèfle", "Emma", "Farid"), ("Carreau", "Gilles", "Hana"),
         ("Cœur", "Inès", "Jules")]  # fmt: skip


def tied(owner: User) -> tuple[Tournament, list[str], list[str]]:
    """Five teams, one round, finished: both tables 1000 to 900, so two equal winners share
    rank 1, the bye (the round's average, 950) is 3rd and the two losers share rank 4 (no prize
    there). Returns the concours, the two tied winners and the rest in ranking order."""
    tournament = TournamentFactory.create(
        owner=owner,
        name="Concours du 11",
        prizes=PRIZES,
        overrides={"seed": 7, "rounds": 1},
        teams=TEAMS,
    )
    round_ = services.draw_round(tournament=tournament)
    for table in Table.objects.filter(round=round_):
        services.record_paper_totals(table=table, totals=(1000, 900))
    services.close_round(round_=round_)
    services.finish(tournament=tournament)
    rows = selectors.standings_rows(tournament)
    assert [row["rank"] for row in rows][:2] == [1, 1] and rows[2]["rank"] == 3, rows
    return tournament, [r["name"] for r in rows[:2]], [r["name"] for r in rows[2:]]


@pytest.fixture
def organiser(make_user: Callable[[str], User], client: Client) -> User:
    user = make_user("organiser")
    client.force_login(user)
    return user


def rows_of(html: str, start: str, end: str = "</tbody>") -> list[str]:
    """The <tr> rows of the table after `start`, their text (tags dropped, spaces folded)."""
    part = html[html.index(start) :]
    part = part[: part.index(end)]
    return [
        " ".join(re.sub(r"<[^>]+>", " ", row).split())
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", part, re.S)
    ]


def check_rows(rows: list[str], winners: list[str], third: str) -> None:
    """Both tied winners: ex æquo, the first two prizes to share; the third: its own prize."""
    for row in rows:
        if any(f" {name} " in f" {row} " for name in winners):
            assert "Ex æquo: to decide" in row and "A ham / Two bottles" in row, row
        elif f" {third} " in f" {row} ":
            assert "A box of chocolates" in row and "Ex æquo" not in row, row
            assert "A ham" not in row and "Two bottles" not in row, row
        else:
            assert "Ex æquo" not in row and "A ham" not in row, row


def test_the_desk_shows_the_tie_and_the_prizes_to_share(organiser: User, client: Client) -> None:
    tournament, winners, rest = tied(organiser)
    html = unescape(client.get(reverse("concours:desk", args=[tournament.pk])).text)
    rows = rows_of(html, 'id="standings"')
    assert len(rows) == 6  # the head and five teams
    check_rows(rows[1:], winners, rest[0])
    assert sum("Ex æquo: to decide" in row for row in rows) == 2
    assert (
        f"Ex æquo at rank 1: {winners[0]}, {winners[1]}. The prizes to share out: A ham, "
        "Two bottles. Decide who takes which before the prize-giving." in html
    )
    client.cookies["django_language"] = "fr"
    html = unescape(client.get(reverse("concours:desk", args=[tournament.pk])).text)
    assert html.count("Ex æquo\u00a0: à départager") == 2 and "Les lots à partager" in html


def test_the_public_page_and_the_projector_show_the_tie(organiser: User, client: Client) -> None:
    tournament, winners, rest = tied(organiser)
    client.logout()
    token = tournament.public_token
    public = unescape(client.get(reverse("concours_public:standings", args=[token])).text)
    rows = rows_of(public, 'class="facts pub-standings cards"')
    check_rows(rows[1:], winners, rest[0])
    assert sum("Ex æquo" in row for row in rows) == 2
    wall = unescape(client.get(reverse("concours_public:projector", args=[token])).text)
    rows = rows_of(wall, 'class="proj-table"')
    check_rows(rows[1:], winners, rest[0])
    assert sum("Ex æquo" in row for row in rows) == 2


def test_the_csv_writes_the_tie_and_the_prizes_to_share(organiser: User, client: Client) -> None:
    tournament, winners, rest = tied(organiser)
    response = client.get(reverse("concours:standings_csv", args=[tournament.pk]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode()[1:])))
    prizes = {row["team"]: row["prize"] for row in rows}
    assert prizes[winners[0]] == prizes[winners[1]] == "Ex æquo, to decide: A ham / Two bottles"
    assert prizes[rest[0]] == "A box of chocolates"
    assert all(prizes[name] == "" for name in rest[1:])
    client.cookies["django_language"] = "fr"
    response = client.get(reverse("concours:standings_csv", args=[tournament.pk]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode()[1:])))
    assert rows[0]["prize"] == "Ex æquo, à départager\u00a0: A ham / Two bottles"
