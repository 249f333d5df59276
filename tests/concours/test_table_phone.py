"""Each table's phone (issue 15): the table link /t/<token>/ scores the table's match during its
round (the match's scorer pages), and shows the table read-only once the partie is over (its Nth
deal, time called, paper totals), the round closed, or the link renewed (old link 404, new one
works); a table link reaches nothing else (another table, the desk); the header on the table's
scoreboard; the QR code; bounded queries."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.concours import phones, services
from scorekeeper.concours.models import Round, Table, Tournament
from scorekeeper.engine.scoring import PassedDeal
from scorekeeper.matches import services as match_services
from scorekeeper.matches.models import Match
from tests.factories import TournamentFactory
from tests.matches.support import deal_post

from .support import PHONE, play_deals, play_out

pytestmark = pytest.mark.django_db

TEAMS = "Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\nCarreau; Gilles; Hana"


def belote_post(version: int, **changes: str) -> dict[str, str]:
    """A classic belote deal as the table's phone posts it."""
    return deal_post(version, contract="", coinche="", **changes)


@pytest.fixture
def organiser(make_user: Callable[[str], User]) -> User:
    return make_user("organiser")


def concours(organiser: User, teams: str = TEAMS, **partie: Any) -> Tournament:
    rules = {"preset": "belote", "deals_limit": 12, "target": None, **partie}
    return TournamentFactory.create(
        owner=organiser, overrides={"partie": rules}, teams=teams, drawn=True
    )


def tables(tournament: Tournament) -> list[Table]:
    return list(
        Table.objects.filter(round__tournament=tournament)
        .select_related("round__tournament", "match")
        .order_by("round__number", "number")
    )


def phone_url(table: Table) -> str:
    assert table.token
    return reverse("concours:table", args=[table.token])


def table_match(table: Table) -> Match:
    """The table's match as stored now."""
    return Match.objects.get(concours_table=table)


def assert_sent_to_the_table_link(phone: Client, scorer: str, table: Table) -> None:
    """The phone's old scorer page is gone: a page load is sent to the table link, the
    scoreboard's poll (htmx) too."""
    response = phone.get(scorer)
    assert response.status_code == 302 and response["Location"] == phone_url(table)
    poll = phone.get(f"{scorer}?v=1", headers={"HX-Request": "true"})
    assert poll.status_code == 200 and poll["HX-Redirect"] == phone_url(table)


def fresh(table: Table) -> Table:
    return Table.objects.select_related("round__tournament", "match").get(pk=table.pk)


def test_the_link_opens_the_tables_scorer_page_and_scores_a_deal(organiser: User) -> None:
    tournament = concours(organiser)
    table = tables(tournament)[0]
    assert table.match is not None
    phone = Client()
    response = phone.get(phone_url(table))
    assert response.status_code == 302
    assert response["Location"] == reverse("matches:scoreboard", args=[table.match.scorer_token])
    board = phone.get(response["Location"]).content.decode()
    teams = " – ".join(table.match.team_names)
    assert f"Table 1 · round 1 · {teams} · a partie of 12 deals" in board  # not "deal 0 of 12"
    assert "Record a deal" in board
    assert "Back to the desk" not in board  # a phone is not the organiser
    saved = phone.post(
        reverse("matches:deal_new", args=[table.match.scorer_token]),
        belote_post(table.match.version, taker_points="100"),
    )
    assert saved.status_code == 302, saved.content.decode()[:800]
    match = table_match(table)
    assert match.deal_count == 1
    assert f"Table 1 · round 1 · {teams} · deal 1 of 12" in phone.get(saved["Location"]).text
    # The organiser's desk sees the deal.
    desk = Client()
    desk.force_login(organiser)
    html = desk.get(reverse("concours:desk", args=[tournament.pk])).text
    assert "deal 1 of 12" in html


def test_the_header_of_a_partie_to_a_target(organiser: User) -> None:
    tournament = concours(organiser, preset="coinche", deals_limit=None, target=2000)
    table = tables(tournament)[0]
    assert table.match is not None
    Match.objects.filter(pk=table.match.pk).update(total0=1240, total1=980)
    phone = Client()
    board = phone.get(phone.get(phone_url(table))["Location"]).text
    teams = " – ".join(table.match.team_names)
    assert f"Table 1 · round 1 · {teams} · 1,240 / 2,000" in board
    # The scoreboard's own line starts with the target, and no "·" before it.
    assert "Target 2000 · " in board


def test_the_scoreboard_line_has_no_leading_dot_without_a_target(
    organiser: User, client: Client
) -> None:
    table = tables(concours(organiser))[0]
    assert table.match is not None
    html = client.get(reverse("matches:scoreboard", args=[table.match.scorer_token])).text
    line = html.split('<p class="target">', 1)[1].split("</p>", 1)[0]
    assert " ".join(line.split()).startswith("deal 0 of 12 · ")


def test_the_partie_ends_itself_after_its_nth_deal_and_the_phone_says_result_sent(
    organiser: User,
) -> None:
    tournament = concours(organiser, deals_limit=2)
    table = tables(tournament)[0]
    assert table.match is not None
    phone = Client()
    scorer = phone.get(phone_url(table))["Location"]
    for _ in range(2):
        match = table_match(table)
        saved = phone.post(
            reverse("matches:deal_new", args=[match.scorer_token]), belote_post(match.version)
        )
        assert saved.status_code == 302
    match = table_match(table)
    assert match.is_finished and match.deal_count == 2
    # The last deal's Save ended the phone's scorer link: it lands on the read-only board.
    assert saved["Location"] == reverse("matches:viewer", args=[match.view_token])
    board = phone.get(saved["Location"]).text
    assert "Result sent to the organiser" in board
    assert "Record a deal" not in board and "Rematch" not in board
    assert "deal 2 of 2" in board
    # The table link now shows the table read-only with the round's standings so far, and the
    # scorer link the phone used is dead.
    page = phone.get(phone_url(table))
    assert page.status_code == 200
    html = page.text
    assert "Result sent to the organiser" in html
    assert "Standings after round 1" in html
    assert all(name in html for name in ("Les As", "Pique Dame", "Trèfle", "Carreau"))
    assert fresh(table).finished
    assert_sent_to_the_table_link(phone, scorer, table)
    old = f"{scorer}deal/"
    assert phone.post(old, belote_post(match.version))["Location"] == phone_url(table)
    assert Client().get(scorer).status_code == 404  # a browser that never opened the table link
    assert table_match(table).deal_count == 2


def test_after_the_round_closes_the_link_is_read_only(organiser: User) -> None:
    tournament = concours(organiser)
    first, second = tables(tournament)
    phone = Client()
    scorer = phone.get(phone_url(first))["Location"]
    for table in (first, second):
        play_out(table)
    services.close_round(round_=Round.objects.get(tournament=tournament, number=1))
    page = phone.get(phone_url(first))
    assert page.status_code == 200 and "Result sent to the organiser" in page.text
    assert_sent_to_the_table_link(phone, scorer, first)  # its scorer link renewed at the close
    match = table_match(first)
    new = phone.get(reverse("matches:scoreboard", args=[match.scorer_token])).text
    assert "Record a deal" not in new  # even the new scorer link shows it read-only
    deal = phone.post(
        reverse("matches:deal_new", args=[match.scorer_token]), belote_post(match.version)
    )
    assert table_match(first).deal_count == 12
    assert deal.status_code in (302, 200)


def test_after_time_is_called_the_link_is_read_only(organiser: User) -> None:
    tournament = concours(organiser)
    table = tables(tournament)[0]
    play_deals(table, 3)
    phone = Client()
    scorer = phone.get(phone_url(table))["Location"]
    services.call_time(table=fresh(table))
    html = phone.get(phone_url(table)).text
    assert "Result sent to the organiser" in html
    assert "Time was called" in html
    assert_sent_to_the_table_link(phone, scorer, table)
    old = reverse("matches:deal_new", args=[scorer.split("/")[-2]])
    version = table_match(table).version
    assert phone.post(old, belote_post(version))["Location"] == phone_url(table)
    assert table_match(table).deal_count == 3


def test_paper_totals_end_the_phone(organiser: User) -> None:
    tournament = concours(organiser)
    table = tables(tournament)[0]
    phone = Client()
    scorer = phone.get(phone_url(table))["Location"]
    services.record_paper_totals(table=fresh(table), totals=(1000, 944))
    html = phone.get(phone_url(table)).text
    assert "Typed by the organiser from the paper sheet." in html
    assert "<strong>1000</strong>" in html and "<strong>944</strong>" in html
    assert_sent_to_the_table_link(phone, scorer, table)


def test_new_link_from_the_desk_kills_the_old_one(organiser: User) -> None:
    tournament = concours(organiser)
    table = tables(tournament)[0]
    phone = Client()
    old_link = phone_url(table)
    old_scorer = phone.get(old_link)["Location"]
    desk = Client()
    desk.force_login(organiser)
    url = reverse(
        "concours:table_link", kwargs={"pk": tournament.pk, "round": 1, "table": table.number}
    )
    response = desk.post(url)
    assert response.status_code == 302
    assert "New link" in desk.get(response["Location"]).text
    renewed = fresh(table)
    assert renewed.token and renewed.token != table.token
    assert phone.get(old_link).status_code == 404
    assert phone.get(old_scorer).status_code == 404
    assert phone.get(reverse("concours:table_qr", args=[table.token])).status_code == 404
    new_scorer = phone.get(phone_url(renewed))
    assert new_scorer.status_code == 302 and new_scorer["Location"] != old_scorer
    assert phone.get(new_scorer["Location"]).status_code == 200


@pytest.mark.parametrize("who", ["anonymous", "other account", "table phone"])
def test_only_the_desk_renews_a_link(
    organiser: User, make_user: Callable[[str], User], who: str
) -> None:
    tournament = concours(organiser)
    table = tables(tournament)[0]
    client = Client()
    if who == "other account":
        client.force_login(make_user("someone"))
    elif who == "table phone":
        client.get(phone_url(table))
    url = reverse(
        "concours:table_link", kwargs={"pk": tournament.pk, "round": 1, "table": table.number}
    )
    assert client.post(url).status_code == 404
    assert fresh(table).token == table.token


def test_a_table_link_reaches_nothing_else(organiser: User) -> None:
    tournament = concours(organiser)
    first, second = tables(tournament)
    assert second.match is not None
    phone = Client()
    phone.get(phone.get(phone_url(first))["Location"])
    assert phone.get(reverse("concours:desk", args=[tournament.pk])).status_code == 404
    # Another table's pages need that table's own link.
    html = phone.get(reverse("concours:list"), follow=True).text
    assert second.match.scorer_token not in html
    assert phone.get(reverse("concours:table", args=["not-a-token"])).status_code == 404
    assert phone.get(reverse("concours:table", args=[f"{first.token}x"])).status_code == 404


def test_the_organiser_on_a_tables_scoreboard_gets_back_to_the_desk(organiser: User) -> None:
    tournament = concours(organiser)
    table = tables(tournament)[0]
    assert table.match is not None
    desk = Client()
    desk.force_login(organiser)
    html = desk.get(reverse("concours:desk", args=[tournament.pk])).text
    assert reverse("concours:table_qr", args=[table.token]) in html
    assert f'href="{phone_url(table)}"' in html
    board = desk.get(reverse("matches:scoreboard", args=[table.match.scorer_token])).text
    assert "Back to the desk" in board
    assert f"{reverse('concours:desk', args=[tournament.pk])}#table-1" in board


def test_the_qr_code_holds_the_absolute_table_link(organiser: User, rf: Any) -> None:
    table = tables(concours(organiser))[0]
    response = Client().get(reverse("concours:table_qr", args=[table.token]))
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert response.content.lstrip().startswith(b"<svg")
    request = rf.get("/")
    assert phones.table_url(request, table) == f"http://testserver{phone_url(table)}"


def test_a_plain_match_gets_no_note_and_no_extra_query(make_match: Any, client: Client) -> None:
    """The registry costs a match that is not a concours table nothing."""
    match = make_match()
    url = reverse("matches:scoreboard", args=[match.scorer_token])
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        html = client.get(url).text
    assert "board-note" not in html
    assert not any("concours_table" in q["sql"] for q in queries.captured_queries)


def test_queries_per_request_are_bounded(organiser: User) -> None:
    """The table link, its read-only page and the table's scoreboard read a fixed number of
    queries, whatever the number of teams and deals."""
    counts = []
    many = "\n".join(f"Team {n}; Player {n}a; Player {n}b" for n in range(20))
    for teams, deals in ((TEAMS, 1), (many, 3)):
        tournament = concours(organiser, teams, deals_limit=4)
        table = tables(tournament)[0]
        play_deals(table, deals)
        phone = Client()
        connection.queries_log.clear()  # the log keeps 9,000 queries: a count needs room
        with CaptureQueriesContext(connection) as open_link:
            scorer = phone.get(phone_url(table))["Location"]
        with CaptureQueriesContext(connection) as board:
            phone.get(scorer)
        play_out(table)
        for other in tables(tournament)[1:]:
            play_out(other)
        phone.get(phone_url(table))
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as read_only:
            assert phone.get(phone_url(table)).status_code == 200
        counts.append((len(open_link), len(board), len(read_only)))
    assert counts[0] == counts[1]
    assert all(n <= 20 for n in counts[0]), counts


def test_the_table_phone_in_french(organiser: User) -> None:
    tournament = concours(organiser, deals_limit=2)
    table = tables(tournament)[0]
    play_out(table)
    phone = Client(headers={"accept-language": "fr"})
    html = phone.get(phone_url(table)).text
    assert "Table 1 · partie 1 · " in html and "donne 2 sur 2" in html
    assert "Résultat envoyé à l’organisateur" in html


def test_a_passed_deal_does_not_count_in_the_header(organiser: User) -> None:
    """A deal all passed moves the dealer on but counts for no deal of the partie's N."""
    tournament = concours(organiser, deals_limit=2)
    table = tables(tournament)[0]
    assert table.match is not None
    match_services.record_deal(
        match_id=table.match.pk, expected_version=None, deal=PassedDeal(), author=PHONE
    )
    play_deals(table, 2)
    match = table_match(table)
    assert match.is_finished and match.deal_count == 3
    html = Client().get(phone_url(table)).text
    assert "deal 2 of 2" in html and "deal 3 of 2" not in html


def test_a_co_organiser_renews_a_link_and_gets_back_to_the_desk(organiser: User) -> None:
    tournament = concours(organiser)
    table = tables(tournament)[0]
    assert table.match is not None
    helper = Client()
    assert helper.get(reverse("concours:co", args=[tournament.co_token])).status_code == 302
    board = helper.get(reverse("matches:scoreboard", args=[table.match.scorer_token])).text
    assert "Back to the desk" in board
    url = reverse(
        "concours:table_link", kwargs={"pk": tournament.pk, "round": 1, "table": table.number}
    )
    assert helper.post(url).status_code == 302
    assert fresh(table).token != table.token


def test_the_page_saying_result_sent_ends_the_scorer_link_at_once(organiser: User) -> None:
    """After the Nth deal the phone lands on its scoreboard saying "Result sent to the
    organiser": the scorer link it used is renewed right then, not when the desk or a public
    page next looks, so a phone (its Back button, a stale form) cannot delete or edit a deal of
    the partie it sent."""
    tournament = concours(organiser, deals_limit=2)
    table = tables(tournament)[0]
    phone = Client()
    phone.get(phone_url(table))
    for _ in range(2):
        match = table_match(table)
        saved = phone.post(
            reverse("matches:deal_new", args=[match.scorer_token]), belote_post(match.version)
        )
        assert saved.status_code == 302
    assert "Result sent to the organiser" in phone.get(saved["Location"]).text
    assert fresh(table).finished  # the desk sees it finished without anyone syncing
    ended = table_match(table)
    assert ended.scorer_token != match.scorer_token
    for seq in (2, 1):
        refused = phone.post(
            reverse("matches:deal_delete", args=[match.scorer_token, seq]),
            {"version": ended.version},
        )
        assert refused.status_code == 302 and refused["Location"] == phone_url(table)
    assert table_match(table).deal_count == 2 and table_match(table).is_finished
