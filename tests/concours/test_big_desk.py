"""A big concours's desk (issue 23): its queries and its size do not grow with the entrants and
the rounds (long lists a page at a time: scorekeeper.web.paging), a team is found by a search box,
the pages and the search work without JavaScript, a bad page number is page 1 (never a 500),
a round of many tables has a page of its own with the desk's privacy, and every desk action
still posts what it posted.

The concours are imported from a generated `belote-tournament/1` file (paper totals, random
pairings, no engine draw): a 120-team one of 3 rounds takes a fraction of a second."""

import json
import random
import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.concours import services
from scorekeeper.concours.models import Table, Tournament
from scorekeeper.engine import tournament as tournament_engine
from scorekeeper.engine.tournament.tfile import dump_tournament
from scorekeeper.web.paging import PER_PAGE

pytestmark = pytest.mark.django_db

# What a page of PER_PAGE items may weigh at most, and the rest of the desk: the desk's size is
# bounded by the page, not by the number of entrants or rounds (a 1,000-team concours's desk
# of 20 rounds was 13 MB).
BYTES_PER_ITEM = 4_000
DESK_BYTES = BYTES_PER_ITEM * PER_PAGE


def team(number: int) -> str:
    return f"Équipe {number:03}"


def concours_file(teams: int, rounds: int, *, last: str = "half", seed: int = 1) -> str:
    """A file of `teams` teams and `rounds` rounds of paper totals; the last round's tables
    `last`: "half" every other one typed, "none" none (the round may be drawn again), "all"."""
    rng = random.Random(seed)
    settings = tournament_engine.settings_from_dict(
        {**services.FORMATS["belote"], "rounds": rounds + 1, "seed": seed}
    )
    entrants = tuple(
        tournament_engine.Entrant(i, team(i), (f"Joueur {i}a", f"Joueuse {i}b"))
        for i in range(1, teams + 1)
    )
    played = []
    for number in range(1, rounds + 1):
        ids = list(range(1, teams + 1))
        rng.shuffle(ids)
        tables = []
        for index in range(teams // 2):
            sides = ((ids[2 * index],), (ids[2 * index + 1],))
            pending = number == rounds and (last == "none" or (last == "half" and index % 2))
            if pending:
                tables.append(tournament_engine.Table(index + 1, sides))
            else:
                first = rng.randint(500, 1444)
                tables.append(
                    tournament_engine.Table(index + 1, sides, totals=(first, 1944 - first))
                )
        played.append(tournament_engine.Round(tuple(tables)))
    engine = tournament_engine.Tournament(settings, entrants, tuple(played), name=f"Grand {teams}")
    return json.dumps(dump_tournament(engine), ensure_ascii=False)


@pytest.fixture
def organiser(make_user: Callable[[str], User], client: Client) -> User:
    user = make_user("organiser")
    client.force_login(user)
    return user


def big(owner: User, teams: int = 120, rounds: int = 3, last: str = "half") -> Tournament:
    return services.import_tournament(owner=owner, text=concours_file(teams, rounds, last=last))


def desk_url(tournament: Tournament, query: str = "") -> str:
    return reverse("concours:desk", args=[tournament.pk]) + query


def co_client(tournament: Tournament) -> Client:
    helper = Client()
    helper.get(reverse("concours:co", args=[tournament.co_token]))
    return helper


def names_in(html: str) -> set[str]:
    return set(re.findall(r"Équipe \d{3}", html))


def test_the_desk_reads_the_same_queries_and_weighs_the_same_whatever_the_size(
    organiser: User, client: Client
) -> None:
    small = big(organiser, teams=120, rounds=3)
    large = big(organiser, teams=240, rounds=5)
    pages = {}
    for tournament in (small, large):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(desk_url(tournament))
        assert response.status_code == 200
        pages[tournament.pk] = (len(queries), len(response.content))
    (small_queries, small_bytes), (large_queries, large_bytes) = pages[small.pk], pages[large.pk]
    assert large_queries == small_queries
    # Bounded by a page of each list, not by the entrants (twice as many) or the rounds.
    assert small_bytes < DESK_BYTES and large_bytes < DESK_BYTES
    assert abs(large_bytes - small_bytes) < 0.1 * small_bytes


def test_the_co_organiser_desk_is_as_small(organiser: User) -> None:
    tournament = big(organiser)
    response = co_client(tournament).get(desk_url(tournament))
    assert response.status_code == 200
    assert len(response.content) < DESK_BYTES
    assert "You run this desk through the co-organiser link." in response.content.decode()


def test_every_list_a_page_at_a_time_without_javascript(organiser: User, client: Client) -> None:
    tournament = big(organiser)  # 120 teams: 60 tables a round, 3 pages of entrants
    html = client.get(desk_url(tournament)).content.decode()
    # The current round first, its tables 1 to 50; the board's pager a plain link, to the list's
    # heading (focused there: issue 42).
    assert html.index('id="board"') < html.index('id="standings"') < html.index('id="registration"')
    assert 'id="table-50"' in html and 'id="table-51"' not in html
    assert 'href="?board=2#board-title"' in html
    assert "Page 1 of 2 (1–50 of 60)" in html
    assert 'href="?registration=2#registration-title"' in html
    assert 'href="?standings=2#standings-title"' in html
    # Page 2 of the board: its last ten tables, and the other lists at their page 1.
    html = client.get(desk_url(tournament, "?board=2")).content.decode()
    assert 'id="table-51"' in html and 'id="table-60"' in html and 'id="table-50"' not in html
    assert "Page 2 of 2 (51–60 of 60)" in html
    # The registration's page 3: entrants 101 to 120 (the other lists' pages kept in the links).
    html = client.get(desk_url(tournament, "?board=2&registration=3")).content.decode()
    assert 'id="entrant-101"' in html and 'id="entrant-120"' in html
    assert 'id="entrant-100"' not in html
    assert 'href="?board=2&amp;registration=2#registration-title"' in html


def test_with_htmx_a_list_alone_is_swapped(organiser: User, client: Client) -> None:
    tournament = big(organiser)
    headers = {"HX-Request": "true", "HX-Target": "registration"}
    response = client.get(desk_url(tournament, "?registration=2"), headers=headers)
    html = response.content.decode()
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    assert html.lstrip().startswith('<section id="registration"')
    assert 'id="entrant-51"' in html and 'id="board"' not in html and "<html" not in html
    assert 'hx-get="?registration=3" hx-target="#registration"' in html
    # An unknown target gets the whole page.
    headers["HX-Target"] = "nothing"
    assert "<html" in client.get(desk_url(tournament), headers=headers).content.decode()


@pytest.mark.parametrize(
    ("query", "table"),
    [
        ("?board=abc", 1),
        ("?board=-2", 1),
        ("?board=0", 1),
        ("?board=", 1),
        ("?board=2.5", 1),
        ("?board=%EF%BC%92", 1),  # a full-width 2: a decimal digit, not an ASCII one
        ("?board=1e3", 1),
        ("?board=9999999999999999999999", 1),  # too many digits
        ("?board=999999", 51),  # past the last page: the last page
        ("?board=2&board=1", 1),  # the last one given
    ],
)
def test_a_bad_page_number_is_a_page_not_an_error(
    organiser: User, client: Client, query: str, table: int
) -> None:
    tournament = big(organiser)
    response = client.get(desk_url(tournament, query))
    assert response.status_code == 200
    assert f'id="table-{table}"' in response.content.decode()


def test_a_team_found_by_the_search_box(organiser: User, client: Client) -> None:
    tournament = big(organiser)
    html = client.get(desk_url(tournament)).content.decode()
    assert 'name="q"' in html  # more than PER_PAGE entrants: the search box
    # Folded: case, accents and spaces aside; a player's name finds the team too.
    html = client.get(desk_url(tournament, "?q=++equipe+117")).content.decode()
    assert "1 found for “equipe 117”" in html
    registration = html[html.index('id="registration"') :]
    assert names_in(registration) == {team(117)}
    table = Table.objects.get(
        round__tournament=tournament, round__number=3, places__entrant__number=117
    )
    board = html[html.index('id="board"') : html.index('id="standings"')]
    assert f'id="table-{table.number}"' in board
    assert board.count('class="board-table') == 1
    html = client.get(desk_url(tournament, "?q=JOUEUSE 42B")).content.decode()
    assert names_in(html[html.index('id="registration"') :]) == {team(42)}
    # Issue 42: the words typed in any order, hyphens as spaces (scorekeeper.web.folding.finds).
    for typed in ("117+equipe", "equipe-117"):
        html = client.get(desk_url(tournament, f"?q={typed}")).content.decode()
        assert names_in(html[html.index('id="registration"') :]) == {team(117)}, typed
    html = client.get(desk_url(tournament, "?q=nobody+here")).content.decode()
    assert "0 found for “nobody here”" in html
    assert "Nobody found for this search." in html
    assert "No table of this round for this search." in html


def test_a_small_concours_desk_keeps_its_look(organiser: User, client: Client) -> None:
    tournament = big(organiser, teams=8, rounds=2)
    html = client.get(desk_url(tournament)).content.decode()
    assert 'name="q"' not in html and 'class="pager"' not in html
    assert 'id="past-round-1"' in html and 'id="past-1-table-4"' in html  # inline
    assert "round_tables" not in html and "/round/1/tables/" not in html


def test_a_big_past_round_is_a_link_to_its_own_page(organiser: User, client: Client) -> None:
    tournament = big(organiser)  # 60 tables a round: more than PER_PAGE
    html = client.get(desk_url(tournament)).content.decode()
    url = reverse("concours:round_tables", args=[tournament.pk, 1])
    assert f'href="{url}"' in html and "Round 1: its 60 tables" in html
    assert 'id="past-1-table-1"' not in html
    html = client.get(url).content.decode()
    assert 'id="past-1-table-1"' in html and 'id="past-1-table-50"' in html
    assert 'id="past-1-table-51"' not in html
    html = client.get(url + "?page=2").content.decode()
    assert 'id="past-1-table-51"' in html and 'id="past-1-table-60"' in html
    assert client.get(url + "?page=x").status_code == 200
    # Searched: the team's table of that round only.
    html = client.get(url + "?q=%C3%A9quipe%20007").content.decode()
    assert html.count('class="board-table"') == 1
    # The open round's tables are the desk's board.
    response = client.get(reverse("concours:round_tables", args=[tournament.pk, 3]))
    assert response.status_code == 302 and response["Location"].endswith("#board")
    assert client.get(reverse("concours:round_tables", args=[tournament.pk, 9])).status_code == 404


def test_a_round_page_keeps_the_desk_privacy(
    organiser: User, make_user: Callable[[str], User]
) -> None:
    tournament = big(organiser)
    url = reverse("concours:round_tables", args=[tournament.pk, 2])
    owner = Client()
    owner.force_login(organiser)
    other = Client()
    other.force_login(make_user("someone-else"))
    assert owner.get(url).status_code == 200
    assert co_client(tournament).get(url).status_code == 200
    assert other.get(url).status_code == 404
    assert Client().get(url).status_code == 404
    # Another concours's co-organiser link opens nothing of this one.
    elsewhere = big(make_user("another-organiser"), teams=8, rounds=1)
    assert co_client(elsewhere).get(url).status_code == 404


def test_a_correction_from_a_round_page_comes_back_to_it(organiser: User, client: Client) -> None:
    tournament = big(organiser)
    url = reverse("concours:correct", args=[tournament.pk, 1, 55])
    response = client.post(url, {"c55-points0": "1000", "c55-points1": "944"})
    tables = reverse("concours:round_tables", args=[tournament.pk, 1])
    assert response.status_code == 302
    assert response["Location"] == f"{tables}?page=2#past-1-table-55"
    table = Table.objects.get(round__tournament=tournament, round__number=1, number=55)
    assert table.points == (1000, 944)


def test_the_board_actions_come_back_to_the_page_of_their_table(
    organiser: User, client: Client
) -> None:
    tournament = big(organiser)
    pending = Table.objects.filter(round__tournament=tournament, round__number=3, finished=False)
    table = pending.filter(number__gt=PER_PAGE).order_by("number").first()
    assert table is not None
    html = client.get(desk_url(tournament, "?board=2")).content.decode()
    action = reverse("concours:paper", args=[tournament.pk, 3, table.number])
    assert f'action="{action}"' in html  # the same form, on the board's page 2
    prefix = f"t{table.number}"
    response = client.post(action, {f"{prefix}-points0": "1000", f"{prefix}-points1": "944"})
    assert response["Location"] == desk_url(tournament, f"?board=2#table-{table.number}")
    table.refresh_from_db()
    assert table.finished and table.paper == (1000, 944)
    response = client.post(reverse("concours:table_link", args=[tournament.pk, 3, 60]))
    assert response["Location"] == desk_url(tournament, "?board=2#table-60")


def test_an_entrant_action_comes_back_to_its_page(organiser: User, client: Client) -> None:
    tournament = big(organiser)
    url = reverse("concours:withdraw", args=[tournament.pk, 77])
    response = client.post(url)
    assert response["Location"] == desk_url(tournament, "?registration=2#entrant-77")
    assert tournament.entrants.get(number=77).withdrawn_before_round == 4


def test_the_swap_of_a_big_round_is_on_a_page_of_its_own(organiser: User, client: Client) -> None:
    tournament = big(organiser, last="none")  # round 3 drawn, nothing typed yet
    html = client.get(desk_url(tournament)).content.decode()
    swap = reverse("concours:swap", args=[tournament.pk, 3])
    assert f'href="{swap}"' in html and 'id="swap-first"' not in html
    assert len(html) < DESK_BYTES
    page = client.get(swap).content.decode()
    assert page.count("<option") == 2 * 120
    first = Table.objects.get(round__tournament=tournament, round__number=3, number=1)
    last = Table.objects.get(round__tournament=tournament, round__number=3, number=60)
    one = first.places.get(side=0).entrant
    other = last.places.get(side=0).entrant
    response = client.post(swap, {"first": str(one.number), "second": str(other.number)})
    assert response.status_code == 302
    assert first.places.get(side=0).entrant == other
    # Once a result is typed the round cannot be drawn again: the page sends back to the desk.
    services.record_paper_totals(table=first, totals=(1000, 944))
    assert client.get(swap)["Location"].endswith("#board")


def test_the_score_sheets_of_a_big_round_a_batch_at_a_time(organiser: User, client: Client) -> None:
    tournament = big(organiser)
    url = reverse("concours:print_sheets", args=[tournament.pk, 3])
    html = client.get(url).content.decode()
    assert html.count('class="print-page sheet') == PER_PAGE
    assert "Tables 1 to 50 of 60" in html and 'href="?page=2"' in html
    assert "hx-get" not in html[html.index('class="pager"') :]  # a whole page a time
    html = client.get(url + "?page=2").content.decode()
    assert html.count('class="print-page sheet') == 10 and 'id="sheet-60"' in html
    html = client.get(url + "?table=55").content.decode()  # one table's sheet again
    assert html.count('class="print-page sheet') == 1


def test_the_concours_file_reads_back(organiser: User, client: Client) -> None:
    tournament = big(organiser, teams=12, rounds=2)
    response = client.get(reverse("concours:export", args=[tournament.pk]))
    text = response.content
    document = json.loads(text)
    assert document["format"] == "belote-tournament/1"
    assert len(document["entrants"]) == 12 and len(document["rounds"]) == 2
    again = services.import_tournament(owner=organiser, text=text)
    assert again.entrants.count() == 12
