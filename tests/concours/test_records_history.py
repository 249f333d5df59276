"""A concours's table matches in the history and on player pages (issue 15, "Records"): "played
in: Concours de la Saint-Martin, 3rd", or the round while it runs; only for those who may see
the matches (the organiser owns them; a table's scorers see theirs); the pages' queries do not
grow with the concours."""

import datetime
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.template import Context, Template
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from scorekeeper.concours import selectors, services
from scorekeeper.concours.models import Table, Tournament
from scorekeeper.engine.scoring import parse_deal
from scorekeeper.matches import services as match_services
from scorekeeper.matches.models import Match, Player
from tests.factories import TournamentFactory

from .support import play_deals, play_out, play_rounds

pytestmark = pytest.mark.django_db

TEAMS = "Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\nCarreau; Gilles; Hana"


def concours(owner: User, name: str, *, rounds: int = 2, finish: bool = True) -> Tournament:
    tournament = TournamentFactory.create(
        owner=owner,
        name=name,
        overrides={"rounds": rounds, "seed": 11},
        date=datetime.date(2026, 11, 11),
        teams=TEAMS,
    )
    return play_rounds(tournament, rounds, finish=finish)


def rank_of(tournament: Tournament, team: str) -> int:
    return int(next(r["rank"] for r in selectors.standings_rows(tournament) if r["name"] == team))


def place_words(rank: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}[rank]


@pytest.fixture
def organiser(make_user: Callable[[str], User]) -> User:
    return make_user("organiser")


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_organisers_history_lists_every_table_with_its_concours(organiser: User) -> None:
    tournament = concours(organiser, "Concours de la Saint-Martin")
    html = signed_in(organiser).get(reverse("history:history")).content.decode()
    assert "4 matches" in html  # two tables a round, two rounds
    assert html.count('class="played-in"') == 4
    assert "Concours de la Saint-Martin · round 1 · table 1" in html
    assert "Concours de la Saint-Martin · round 2 · table 2" in html
    for team in ("Les As", "Pique Dame", "Trèfle", "Carreau"):
        assert f"{team}: {place_words(rank_of(tournament, team))}" in html
    # Owned by the organiser's account, under the concours's key (no browser's).
    matches = Match.objects.filter(concours_table__round__tournament=tournament)
    assert set(matches.values_list("owner_id", "owner_key")) == {
        (organiser.pk, f"concours-{tournament.pk}")
    }


def test_a_running_concours_shows_the_round_of_the_rounds(organiser: User) -> None:
    concours(organiser, "Concours du printemps", rounds=3, finish=False)
    html = signed_in(organiser).get(reverse("history:history")).content.decode()
    assert "Concours du printemps · round 1 of 3 · table 1" in html
    assert "Concours du printemps · round 3 of 3 · table 2" in html
    assert ": 1st" not in html  # no place before the end


def test_a_player_page_says_where_they_played_and_their_place(organiser: User) -> None:
    first = concours(organiser, "Concours de la Saint-Martin")
    concours(organiser, "Concours du printemps", rounds=3, finish=False)
    alice = Player.objects.get(name="Alice")
    assert alice.owner_id == organiser.pk  # the organiser may open the page
    response = signed_in(organiser).get(reverse("history:player", args=[alice.pk]))
    html = response.content.decode()
    place = place_words(rank_of(first, "Les As"))
    assert f"played in: Concours de la Saint-Martin, {place}" in html
    assert "played in: Concours du printemps, round 3 of 3" in html
    assert "Les As" in html


def test_a_place_in_french() -> None:
    template = Template("{% load concours %}{{ rank|place }}")
    with translation.override("fr"):
        assert [template.render(Context({"rank": n})) for n in (1, 2, 3, 21)] == [
            "1er",
            "2e",
            "3e",
            "21e",
        ]


@pytest.mark.parametrize(
    ("rank", "words"),
    [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"), (11, "11th"), (12, "12th"), (13, "13th"),
     (21, "21st"), (22, "22nd"), (101, "101st"), (111, "111th"), (None, ""), (0, "0")],
)  # fmt: skip
def test_a_place_in_words(rank: int | None, words: str) -> None:
    assert Template("{% load concours %}{{ rank|place }}").render(Context({"rank": rank})) == words


def test_another_account_sees_none_of_it(organiser: User, make_user: Callable[[str], User]) -> None:
    concours(organiser, "Concours de la Saint-Martin", rounds=1)
    other = signed_in(make_user("other"))
    html = other.get(reverse("history:history")).content.decode()
    assert "Concours de la Saint-Martin" not in html and "0 matches" in html
    alice = Player.objects.get(name="Alice")
    assert other.get(reverse("history:player", args=[alice.pk])).status_code == 404
    assert Client().get(reverse("history:player", args=[alice.pk])).status_code == 404


def test_a_table_phone_sees_its_table_only(organiser: User) -> None:
    """A phone that opened table 1's link (no account) finds that table in its history, and
    nothing of table 2."""
    tournament = TournamentFactory.create(
        owner=organiser, name="Concours de la Saint-Martin", overrides={"seed": 11}, teams=TEAMS
    )
    round_ = services.draw_round(tournament=tournament)
    table, other_table = round_.tables.order_by("number")
    play_deals(table, 2)
    play_deals(other_table, 2)
    phone = Client()
    opened = phone.get(reverse("concours:table", args=[table.token]))
    assert phone.get(opened["Location"]).status_code == 200  # its scoreboard
    html = phone.get(reverse("history:history")).content.decode()
    assert "1 match" in html
    assert "Concours de la Saint-Martin · round 1 of 4 · table 1" in html
    assert "table 2" not in html
    other_match = Match.objects.get(concours_table=other_table)
    assert other_match.view_token not in html and other_match.scorer_token not in html


def test_the_pages_queries_do_not_grow_with_the_concours(organiser: User) -> None:
    client = signed_in(organiser)

    def counts() -> tuple[int, int]:
        alice = Player.objects.get(name="Alice")
        with CaptureQueriesContext(connection) as history:
            assert client.get(reverse("history:history")).status_code == 200
        with CaptureQueriesContext(connection) as player:
            assert client.get(reverse("history:player", args=[alice.pk])).status_code == 200
        return len(history), len(player)

    concours(organiser, "Un", rounds=1)
    few = counts()
    concours(organiser, "Deux", rounds=2)
    concours(organiser, "Trois", rounds=3, finish=False)
    assert counts() == few


def test_deleted_tables_leave_the_history(organiser: User) -> None:
    tournament = concours(organiser, "Concours de la Saint-Martin", rounds=1)
    services.delete_tournament(tournament=tournament)
    client = signed_in(organiser)
    html = client.get(reverse("history:history")).content.decode()
    assert "Concours de la Saint-Martin" not in html and "0 matches" in html
    assert not Table.objects.exists()


def test_a_player_who_scored_their_table_sees_that_concours_only_as_far_as_they_scored(
    organiser: User, make_user: Callable[[str], User]
) -> None:
    """Alice scores her round 1 table through its link, signed in, and says "this is me": her
    page counts that table (round 1 of 2), not round 2's, which another phone scored."""
    tournament = TournamentFactory.create(
        owner=organiser,
        name="Concours de la Saint-Martin",
        overrides={"rounds": 2, "seed": 11},
        teams=TEAMS,
    )
    round_1 = services.draw_round(tournament=tournament)
    table = Table.objects.get(round=round_1, places__entrant__name="Les As")
    account = make_user("alice")
    alice = signed_in(account)
    opened = alice.get(reverse("concours:table", args=[table.token]))
    assert alice.get(opened["Location"]).status_code == 200  # the scoreboard: a scorer now
    # Her first deal, signed in, makes her account a scorer of the match (as the scoreboard's
    # Save does): the match stays hers once the table is over and its scorer link renewed.
    deal = parse_deal({"taker": 0, "trump": "hearts", "taker_points": 100})
    author = match_services.Author(key="alice-phone", label="alice", account_id=account.pk)
    assert table.match_id is not None
    match_services.record_deal(
        match_id=table.match_id, expected_version=None, deal=deal, author=author
    )
    for row in round_1.tables.all():
        play_out(row, seed=1)
    services.close_round(round_=round_1)
    round_2 = services.draw_round(tournament=tournament)
    for row in round_2.tables.all():
        play_out(row, seed=2)
    player = Player.objects.get(name="Alice")
    claimed = alice.post(reverse("history:this_is_me", args=[player.pk]))
    assert claimed.status_code == 302
    html = alice.get(reverse("history:player", args=[player.pk])).content.decode()
    assert "played in: Concours de la Saint-Martin, round 1 of 2" in html
    assert "round 2 of 2" not in html
    history = alice.get(reverse("history:history")).content.decode()
    assert "1 match" in history and "Concours de la Saint-Martin · round 1 of 2" in history


def test_a_tables_review_page_says_its_concours(organiser: User) -> None:
    tournament = concours(organiser, "Concours de la Saint-Martin", rounds=1)
    match = Match.objects.get(concours_table__number=1)
    html = Client().get(reverse("history:review", args=[match.view_token])).content.decode()
    assert "Concours de la Saint-Martin · round 1 · table 1" in html
    assert place_words(rank_of(tournament, match.team0_name)) in html
    casual = match_services.create_match(
        owner_key="a-browser", rules=match.engine_rules, team_names=("Nous", "Eux")
    )
    plain = Client().get(reverse("history:review", args=[casual.view_token])).content.decode()
    assert "played-in" not in plain
