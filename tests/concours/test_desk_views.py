"""The organiser's desk pages (issue 15) through the test client: a concours created, a list of
teams pasted, check-in, draws, paper totals on every table (one with the paper check's
warning), closing, the next round, the standings; bad input answered with a message and nothing
changed; only the owner sees the pages; the desk's queries do not grow with the teams."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.concours import services
from scorekeeper.concours.models import Entrant, Round, Table, Tournament
from tests.factories import TournamentFactory

from .support import play_deals, play_out

pytestmark = pytest.mark.django_db

TEAMS = "\n".join(
    [
        "Les As; Alice; Bruno",
        "Pique Dame; Chloé; David",
        "Trèfle\tEmma\tFarid",
        "Carreau, Gilles, Hana",
        "Cœur; Inès; Jules",
        "Atout; Karim; Léa",
        "Belote; Marc; Nina",
        "Rebelote; Omar; Paula",
        "Dix de der; Quentin; Rose",
        "Absents; Sam; Tom",
    ]
)


def desk_url(tournament: Tournament, name: str = "desk", **kwargs: Any) -> str:
    return reverse(f"concours:{name}", kwargs={"pk": tournament.pk, **kwargs})


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def post(client: Client, url: str, data: dict[str, Any] | None = None) -> str:
    """POST, follow the redirect (POST-redirect-GET), the page's text."""
    response = client.post(url, data or {})
    assert response.status_code == 302, response.content.decode()[:500]
    return page(client, response["Location"])


@pytest.fixture
def organiser(make_user: Callable[[str], User], client: Client) -> User:
    user = make_user("organiser")
    client.force_login(user)
    return user


def new_concours(client: Client, **data: Any) -> Tournament:
    fields = {"preset": "belote", "name": "Concours de la Saint-Martin", "date": "2026-11-11",
              "place": "Salle des fêtes", "prizes": "1: A ham\n2: Two bottles", **data}  # fmt: skip
    response = client.post(reverse("concours:list"), fields)
    assert response.status_code == 302
    tournament = Tournament.objects.latest("created_at")
    assert response["Location"] == desk_url(tournament)
    return tournament


def test_the_list_shows_the_three_formats_in_plain_words(organiser: User, client: Client) -> None:
    html = page(client, reverse("concours:list"))
    assert "Belote: 4 parties of 12 deals, ranked by points" in html
    assert "Coinche: 3 parties to 2000, ranked by wins then points" in html
    assert "Belote à la mêlée: 4 × 12" in html
    assert "Each table: Belote (classic), 12 deals" in html
    assert "Each table: Coinche (official), to 2000 points" in html
    assert "Ranked by: wins, points, difference, best partie" in html
    assert "Round 1 drawn at random, later rounds by standing" in html
    assert "A team without a table gets the round&#x27;s average points, no win" in html
    assert "No concours yet." in html


def test_a_concours_through_the_desk(organiser: User, client: Client) -> None:
    tournament = new_concours(client)
    assert tournament.owner == organiser
    assert tournament.prizes == {"1": "A ham", "2": "Two bottles"}
    assert tournament.place == "Salle des fêtes" and str(tournament.date) == "2026-11-11"
    assert "Concours de la Saint-Martin" in page(client, reverse("concours:list"))

    html = post(client, desk_url(tournament, "paste"), {"text": TEAMS})
    assert "10 added." in html and "Teams (10)" in html
    absent = Entrant.objects.get(tournament=tournament, name="Absents")
    present = Entrant.objects.get(tournament=tournament, name="Les As")
    post(client, desk_url(tournament, "check_in", number=present.number), {"present": "1"})
    html = post(client, desk_url(tournament, "check_in", number=absent.number), {"present": "0"})
    absent.refresh_from_db()
    present.refresh_from_db()
    assert absent.present is False and present.present is True
    assert "absent" in html and "not checked in" in html

    # Round 1: nine teams, four tables and a bye.
    html = post(client, desk_url(tournament, "draw"))
    assert "Round 1 is drawn." in html and "Round 1: tables" in html
    round1 = Round.objects.get(tournament=tournament, number=1)
    tables = list(round1.tables.order_by("number").select_related("match"))
    assert len(tables) == 4
    assert html.count("not started") == 4
    for table in tables:
        assert table.match is not None
        # Each table's scoreboard, by an address of the desk that never goes stale.
        deals = desk_url(tournament, "table_deals", round=1, table=table.number)
        assert deals in html
        scoreboard = reverse("matches:scoreboard", args=[table.match.scorer_token])
        assert client.get(deals)["Location"] == scoreboard
    assert "Without a table this round:" in html
    assert "Close round 1" not in html
    assert client.get(reverse("matches:scoreboard", args=[tables[0].match.scorer_token])).status_code == 200  # type: ignore[union-attr]  # fmt: skip

    # A table under way shows its deal; paper totals on every table, the first one a belote short.
    play_deals(tables[1], 5)
    assert "deal 5 of 12" in page(client, desk_url(tournament))
    html = post(
        client,
        desk_url(tournament, "paper", round=1, table=1),
        {"t1-points0": "1100", "t1-points1": "844", "t1-belotes": "1", "t1-capots": ""},
    )
    assert "Table 1: totals saved. Check the sheet: 20 missing: a belote?" in html
    assert "typed by hand" in html
    for table in tables[1:]:
        n = table.number
        totals = {f"t{n}-points0": "1000", f"t{n}-points1": "944"}
        html = post(client, desk_url(tournament, "paper", round=1, table=n), totals)
        if table.pk == tables[1].pk:  # scored on its phone: which is right? (issue 22)
            assert "The paper sheet is right" in html and "The phone's deals are right" in html
            html = post(
                client,
                desk_url(tournament, "paper", round=1, table=n),
                {**totals, "choice": "paper"},
            )
        assert f"Table {n}: totals saved." in html
    assert Table.objects.filter(round=round1, finished=True).count() == 4
    assert "Close round 1" in html
    html = post(client, desk_url(tournament, "close", round=1))
    assert "Round 1 is closed." in html
    assert "Standings after round 1" in html and "Opponents' wins" in html
    assert "Draw round 2" in html and "Finish the concours" not in html

    # Round 2 with a late entry, tables scored by their phones.
    html = post(client, desk_url(tournament, "add"),
                {"name": "Les Retardataires", "player1": "Ugo", "player2": "Vera"})  # fmt: skip
    assert "“Les Retardataires” is registered." in html
    html = post(client, desk_url(tournament, "draw"))
    round2 = Round.objects.get(tournament=tournament, number=2)
    assert round2.places.filter(entrant__name="Les Retardataires").exists()
    for table in round2.tables.all():
        play_out(table, seed=2)
    html = page(client, desk_url(tournament))
    assert html.count(">finished<") == round2.tables.count()
    html = post(client, desk_url(tournament, "close", round=2))
    assert "Standings after round 2" in html

    for number in (3, 4):
        post(client, desk_url(tournament, "draw"))
        round_ = Round.objects.get(tournament=tournament, number=number)
        for table in round_.tables.all():
            play_out(table, seed=number)
        post(client, desk_url(tournament, "close", round=number))
    html = page(client, desk_url(tournament))
    assert "Draw round 5" not in html and "Finish the concours" in html
    html = post(client, desk_url(tournament, "finish"), {"confirm": "yes"})
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert "Final ranking" in html and "A ham" in html and "Two bottles" in html
    assert "Absents" not in html.split('id="standings"')[1]


def test_bad_input_says_why_and_changes_nothing(organiser: User, client: Client) -> None:
    response = client.post(reverse("concours:list"), {"preset": "belote", "name": ""})
    assert response.status_code == 200 and not Tournament.objects.exists()
    assert "This field is required." in response.content.decode()
    response = client.post(
        reverse("concours:list"), {"preset": "belote", "name": "X", "prizes": "1: ham\nham"}
    )
    assert response.status_code == 200 and not Tournament.objects.exists()
    assert "Line 2: write a rank, a colon and the prize" in response.content.decode()

    tournament = new_concours(client)
    bad = "Les As; Alice; Bruno\nPique Dame\nTrèfle; Emma; Farid"
    html = post(client, desk_url(tournament, "paste"), {"text": "A; B; C\n" + bad})
    assert "Line 3: Expected a team and two players" in html
    assert "Nothing was added" in html
    assert not tournament.entrants.exists()
    post(client, desk_url(tournament, "paste"), {"text": TEAMS})
    same = {"name": "les as", "player1": "X", "player2": "Y"}
    html = post(client, desk_url(tournament, "add"), same)
    assert "“les as” is already registered." in html
    html = post(client, desk_url(tournament, "add"), {"name": "Solo", "player1": "X"})
    assert "Player" in html and not tournament.entrants.filter(name="Solo").exists()
    assert tournament.entrants.count() == 10

    post(client, desk_url(tournament, "draw"))
    table = Table.objects.get(round__tournament=tournament, number=1)
    html = post(client, desk_url(tournament, "paper", round=1, table=1),
                {"t1-points0": "abc", "t1-points1": "-4"})  # fmt: skip
    assert "Table 1: type both totals as whole numbers from 0 to 100000." in html
    table.refresh_from_db()
    assert table.paper is None and not table.finished and not table.changes.exists()
    html = post(client, desk_url(tournament, "close", round=1))
    assert "Tables still playing: 1, 2, 3, 4, 5." in html
    assert not Round.objects.filter(tournament=tournament, closed_at__isnull=False).exists()
    html = post(client, desk_url(tournament, "draw"))
    assert "Round 1 is not closed yet." in html
    assert tournament.rounds.count() == 1
    entrant = tournament.entrants.get(name="Les As")
    html = post(client, desk_url(tournament, "check_in", number=entrant.number), {"present": "0"})
    assert "Check-in is over" in html
    entrant.refresh_from_db()
    assert entrant.present is None


def test_withdraw_and_cancel(organiser: User, client: Client) -> None:
    tournament = new_concours(client)
    post(client, desk_url(tournament, "paste"), {"text": TEAMS})
    post(client, desk_url(tournament, "draw"))
    entrant = tournament.entrants.get(name="Atout")
    html = post(client, desk_url(tournament, "withdraw", number=entrant.number))
    entrant.refresh_from_db()
    assert entrant.withdrawn_before_round == 2 and "withdrawn before round 2" in html
    post(client, desk_url(tournament, "withdraw", number=entrant.number), {"cancel": "1"})
    entrant.refresh_from_db()
    assert entrant.withdrawn_before_round is None


def _every_url(tournament: Tournament) -> list[tuple[str, str, dict[str, str]]]:
    number = tournament.entrants.first().number  # type: ignore[union-attr]
    return [
        ("get", desk_url(tournament), {}),
        ("post", desk_url(tournament, "add"), {"name": "Z", "player1": "Y", "player2": "X"}),
        ("post", desk_url(tournament, "paste"), {"text": "Z; Y; X"}),
        ("post", desk_url(tournament, "check_in", number=number), {"present": "0"}),
        ("post", desk_url(tournament, "withdraw", number=number), {}),
        ("post", desk_url(tournament, "draw"), {}),
        (
            "post",
            desk_url(tournament, "paper", round=1, table=1),
            {"t1-points0": "1000", "t1-points1": "944"},
        ),
        ("post", desk_url(tournament, "call_time", round=1, table=2), {"confirm": "yes"}),
        (
            "post",
            desk_url(tournament, "correct", round=1, table=1),
            {"c1-points0": "900", "c1-points1": "1044"},
        ),
        ("post", desk_url(tournament, "redraw", round=1), {}),
        ("post", desk_url(tournament, "swap", round=1), {"first": "1", "second": "2"}),
        ("post", desk_url(tournament, "close", round=1), {}),
        ("post", desk_url(tournament, "finish"), {"confirm": "yes"}),
    ]


def _state(tournament: Tournament) -> tuple[Any, ...]:
    tournament.refresh_from_db()
    return (
        tournament.version,
        tournament.status,
        list(tournament.entrants.values_list("name", "present", "withdrawn_before_round")),
        list(Table.objects.filter(round__tournament=tournament).values_list("paper0", "finished")),
        tournament.rounds.count(),
    )


@pytest.mark.parametrize("who", ["other", "anonymous"])
def test_only_the_owner_sees_the_desk(
    who: str, make_user: Callable[[str], User], client: Client
) -> None:
    owner = make_user("organiser")
    tournament = TournamentFactory.create(
        owner=owner, name="Privé", preset="belote", overrides={"seed": 1}, teams=TEAMS, drawn=True
    )
    if who == "other":
        client.force_login(make_user("someone else"))
    before = _state(tournament)
    for method, url, data in _every_url(tournament):
        response = client.get(url) if method == "get" else client.post(url, data)
        assert response.status_code == 404, url
        assert "Privé" not in response.content.decode()
    assert _state(tournament) == before
    listing = client.get(reverse("concours:list"))
    if who == "anonymous":
        assert listing.status_code == 302 and "/accounts/login/" in listing["Location"]
    else:
        assert listing.status_code == 200 and "Privé" not in listing.content.decode()
    # The owner reaches every one of them.
    client.force_login(owner)
    assert client.get(desk_url(tournament)).status_code == 200
    for _method, url, data in _every_url(tournament)[1:]:
        assert client.post(url, data).status_code == 302, url


def test_the_desk_reads_the_same_queries_whatever_the_teams(
    organiser: User, client: Client
) -> None:
    counts = []
    for teams in (9, 41):
        tournament = TournamentFactory.create(
            owner=organiser,
            name=f"C{teams}",
            preset="belote",
            overrides={"seed": teams},
            teams="\n".join(f"T{i}; A{i}; B{i}" for i in range(teams)),
        )
        round1 = services.draw_round(tournament=tournament)
        for table in round1.tables.all():
            play_out(table, seed=1)
        services.close_round(round_=round1)
        round2 = services.draw_round(tournament=tournament)
        for table in list(round2.tables.all())[:2]:
            play_deals(table, 3)
        page(client, desk_url(tournament))  # the tables' results synced once
        with CaptureQueriesContext(connection) as queries:
            html = page(client, desk_url(tournament))
        assert "Standings after round 1" in html and "deal 3 of 12" in html
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_desk_in_french(organiser: User, client: Client) -> None:
    tournament = TournamentFactory.create(
        owner=organiser, name="Saint-Martin", preset="belote", overrides={"seed": 1}, teams=TEAMS
    )
    html = client.get(desk_url(tournament), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Tirer la partie 1" in html and "Coller une liste" in html
    assert "1re partie tirée au sort, les suivantes selon le classement" in html


def test_redraw_call_time_and_correct(organiser: User, client: Client) -> None:
    tournament = new_concours(client)
    post(client, desk_url(tournament, "paste"), {"text": TEAMS})
    html = post(client, desk_url(tournament, "draw"))
    assert tournament.public_token in html  # the public standings and the projector
    first = Round.objects.get(tournament=tournament, number=1)
    old_matches = set(first.tables.values_list("match_id", flat=True))
    html = post(client, desk_url(tournament, "redraw", round=1))
    assert "Round 1 is drawn again." in html
    round1 = Round.objects.get(tournament=tournament, number=1)
    assert not old_matches & set(round1.tables.values_list("match_id", flat=True))

    tables = list(round1.tables.order_by("number"))
    play_deals(tables[0], 5)
    html = page(client, desk_url(tournament))
    assert "Draw round 1 again" not in html
    html = post(client, desk_url(tournament, "redraw", round=1))
    assert "Round 1 has started" in html
    html = post(client, desk_url(tournament, "call_time", round=1, table=1), {"confirm": "yes"})
    assert "Table 1: time called." in html
    tables[0].refresh_from_db()
    assert tables[0].finished and tables[0].ended and tables[0].deal_count == 5
    html = post(client, desk_url(tournament, "call_time", round=1, table=1), {"confirm": "yes"})
    assert "Table 1 is already finished." in html

    html = post(client, desk_url(tournament, "correct", round=1, table=2),
                {"c2-points0": "900", "c2-points1": "1044"})  # fmt: skip
    assert "Table 2 has no result to correct yet." in html
    html = post(client, desk_url(tournament, "correct", round=1, table=1),
                {"c1-points0": "900", "c1-points1": "1044"})  # fmt: skip
    assert "Table 1: result corrected." in html
    tables[0].refresh_from_db()
    assert tables[0].points == (900, 1044) and tables[0].winner == 1
    assert tables[0].changes.filter(action="correction").count() == 1


def test_swap_two_teams_before_any_result(organiser: User, client: Client) -> None:
    tournament = new_concours(client)
    post(client, desk_url(tournament, "paste"), {"text": TEAMS})
    post(client, desk_url(tournament, "check_in", number=10), {"present": "0"})
    html = post(client, desk_url(tournament, "draw"))
    assert "Swap two teams" in html
    round1 = Round.objects.get(tournament=tournament, number=1)
    bye = round1.places.get(table__isnull=True).entrant
    seated = round1.places.get(table__number=1, side=0).entrant
    html = post(client, desk_url(tournament, "swap", round=1),
                {"first": str(bye.number), "second": str(seated.number)})  # fmt: skip
    assert f"“{bye.name}” and “{seated.name}” swapped places." in html
    assert round1.places.get(table__isnull=True).entrant == seated
    assert round1.places.get(table__number=1, side=0).entrant == bye
    # The same team twice, a team not in the round: refused, nothing moves.
    absent = tournament.entrants.get(number=10)
    for data in ({"first": "1", "second": "1"}, {"first": "1", "second": str(absent.number)}):
        html = post(client, desk_url(tournament, "swap", round=1), data)
        assert "Pick two different teams of this round." in html
    assert round1.places.get(table__isnull=True).entrant == seated
    play_deals(round1.tables.get(number=2), 1)
    html = post(client, desk_url(tournament, "swap", round=1), {"first": "1", "second": "2"})
    assert "Round 1 has started" in html and "Swap two teams" not in html


def test_names_suggested_from_the_organisers_past_concours(
    organiser: User, client: Client, make_user: Callable[[str], User]
) -> None:
    past = new_concours(client, name="Last year")
    post(client, desk_url(past, "paste"), {"text": "Les As; Alice; Bruno"})
    TournamentFactory.create(
        owner=make_user("other"), name="Theirs", preset="belote", teams=[("Secret", "Zoé", "Yann")]
    )
    tournament = new_concours(client, name="This year")
    html = page(client, desk_url(tournament))
    assert (
        '<datalist id="past-players"><option value="Alice"><option value="Bruno"></datalist>'
        in html
    )
    assert '<option value="Les As">' in html and 'list="past-players"' in html
    assert "Zoé" not in html and "Secret" not in html


def test_a_melee_concours_registers_players(organiser: User, client: Client) -> None:
    tournament = new_concours(client, preset="melee", name="Mêlée")
    assert tournament.melee
    html = page(client, desk_url(tournament))
    assert "Players (0)" in html and "One player a line: the name." in html
    assert 'for="id_player1"' not in html
    players = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid", "Gilles", "Hana"]
    html = post(client, desk_url(tournament, "paste"), {"text": "\n".join(players[:7])})
    assert "7 added." in html
    html = post(client, desk_url(tournament, "add"), {"name": "Hana"})
    assert "“Hana” is registered." in html
    html = post(client, desk_url(tournament, "draw"))
    assert "Round 1 is drawn." in html
    assert html.count('class="board-table') == 2 and html.count(" &amp; ") >= 4


def test_the_board_names_the_rematches_as_the_tables_stand(organiser: User, client: Client) -> None:
    """The draw avoids rematches when it can; the board names the tables holding one, as the
    tables stand: a swap that makes one (or undoes it) shows at once."""
    tournament = new_concours(client)
    post(client, desk_url(tournament, "paste"), {"text": "\n".join(TEAMS.splitlines()[:4])})
    post(client, desk_url(tournament, "draw"))
    round1 = Round.objects.get(tournament=tournament, number=1)
    for table in round1.tables.all():
        play_out(table)
    post(client, desk_url(tournament, "close", round=1))
    html = post(client, desk_url(tournament, "draw"))
    assert "Rematch" not in html and "board-rematch" not in html  # four teams: none needed
    met = {  # each team's round-1 opponent
        place.entrant.number: other.entrant.number
        for place in round1.places.all()
        for other in round1.places.filter(table=place.table).exclude(side=place.side)
    }
    round2 = Round.objects.get(tournament=tournament, number=2)
    first = round2.places.get(table__number=1, side=0).entrant.number
    opponent = round2.places.get(table__number=1, side=1).entrant.number
    swap = {"first": str(opponent), "second": str(met[first])}
    html = post(client, desk_url(tournament, "swap", round=2), swap)
    assert "Rematches at tables 1, 2." in html  # both round-1 tables again
    assert html.count('class="board-rematch"') == 2
    html = post(client, desk_url(tournament, "swap", round=2), swap)  # and back
    assert "Rematch" not in html and "board-rematch" not in html


def test_a_rematch_the_draw_could_not_avoid_in_french(organiser: User, client: Client) -> None:
    """Two teams: round 2 cannot avoid their meeting again; the board says so, in French too."""
    tournament = new_concours(client)
    post(client, desk_url(tournament, "paste"), {"text": "\n".join(TEAMS.splitlines()[:2])})
    post(client, desk_url(tournament, "draw"))
    play_out(Table.objects.get(round__tournament=tournament))
    post(client, desk_url(tournament, "close", round=1))
    html = post(client, desk_url(tournament, "draw"))
    assert "A rematch at table 1." in html and 'class="board-rematch">a rematch<' in html
    french = client.get(desk_url(tournament), headers={"Accept-Language": "fr"}).text
    assert "Rencontre déjà jouée à la table 1." in french
    assert 'class="board-rematch">rencontre déjà jouée<' in french
