"""Issue 22, part A at the desk: paper totals typed over a table scored on its phone ask which
is right (a real form, POST-redirect-GET) and whichever is kept, the table's scoreboard, its match
and My matches say the same thing; the paper and correction forms name the teams and the
correction is filled with the result now; Withdraw says so; Call time and Finish ask first (no
JavaScript needed); the desk reaches a finished table's deals, also once its round is closed."""

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper.concours import services
from scorekeeper.concours.models import Entrant, ResultChange, Round, Table, Tournament
from scorekeeper.matches.models import Match
from tests.factories import TournamentFactory
from tests.matches.support import deal_post

from .support import play_deals, play_out

pytestmark = pytest.mark.django_db

TEAMS = "Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\nCarreau; Gilles; Hana"


def concours(organiser: User, **partie: Any) -> Tournament:
    rules = {"preset": "belote", "deals_limit": 12, "target": None, **partie}
    return TournamentFactory.create(
        owner=organiser, overrides={"partie": rules}, teams=TEAMS, drawn=True
    )


def table_of(tournament: Tournament, number: int = 1, round_: int = 1) -> Table:
    return Table.objects.select_related("round__tournament", "match").get(
        round__tournament=tournament, round__number=round_, number=number
    )


def match_of(table: Table) -> Match:
    return Match.objects.get(concours_table=table)


def url(tournament: Tournament, name: str, **kwargs: Any) -> str:
    return reverse(f"concours:{name}", kwargs={"pk": tournament.pk, **kwargs})


@pytest.fixture
def organiser(make_user: Callable[[str], User]) -> User:
    return make_user("organiser")


@pytest.fixture
def desk(organiser: User) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def scored_by_sam(make_user: Callable[[str], User], table: Table) -> Client:
    """A signed-in account scores four deals at the table through its link."""
    phone = Client()
    phone.force_login(make_user("sam"))
    phone.get(reverse("concours:table", args=[table.token]))
    for points in ("150", "120", "100", "130"):
        match = match_of(table)
        saved = phone.post(
            reverse("matches:deal_new", args=[match.scorer_token]),
            deal_post(match.version, contract="", coinche="", taker_points=points),
        )
        assert saved.status_code == 302
    return phone


# Paper totals over a table scored on its phone ---------------------------------------------


def test_paper_over_phone_asks_which_is_right_and_the_paper_kept_shows_everywhere(
    organiser: User, desk: Client, make_user: Callable[[str], User]
) -> None:
    tournament = concours(organiser)
    table = table_of(tournament)
    phone = scored_by_sam(make_user, table)
    match = match_of(table)
    phone_totals = (match.total0, match.total1)
    assert match.deal_count == 4 and not match.is_finished
    before = (table_of(tournament).finished, table_of(tournament).paper, match.version)
    paper = url(tournament, "paper", round=1, table=1)
    totals = {"t1-points0": "1200", "t1-points1": "800", "t1-belotes": "1", "t1-capots": ""}

    asked = desk.post(paper, totals)
    # Not saved: a page of its own (POST-redirect-GET) shows both and asks.
    assert asked.status_code == 302 and asked["Location"].startswith(f"{paper}?")
    assert (table_of(tournament).finished, table_of(tournament).paper) == before[:2]
    assert match_of(table).version == before[2]
    html = desk.get(asked["Location"]).text
    names = match.team_names
    assert "the phone or the paper?" in html
    assert f"<strong>{phone_totals[0]} – {phone_totals[1]}</strong>" in html
    assert "<strong>1200 – 800</strong>" in html
    assert all(name in html for name in names)
    assert "4 deals" in html and "In play" in html and "1 belote" in html
    assert "The phone's deals are right" in html and "The paper sheet is right" in html
    # Its two buttons are real forms posting the totals back.
    main = html.split("<main", 1)[1].split("</main>", 1)[0]
    forms = re.findall(r'<form method="post" action="([^"]+)">(.*?)</form>', main, re.S)
    assert [action for action, _body in forms] == [paper, paper]
    assert all('name="t1-points0" value="1200"' in body for _a, body in forms)

    # The paper is right: the table, its match, its scoreboard and My matches say 1200 - 800.
    saved = desk.post(paper, {**totals, "choice": "paper"})
    assert "Table 1: totals saved." in desk.get(saved["Location"]).text
    fresh = table_of(tournament)
    assert fresh.finished and fresh.paper == (1200, 800) and fresh.winner == 0
    assert ResultChange.objects.filter(table=fresh, action="paper").count() == 1
    match = match_of(table)
    assert match.is_typed and match.is_finished and match.winner == 0
    assert (match.total0, match.total1) == (1200, 800)
    assert match.deal_count == 4  # the phone's deals kept, not counted
    for client, address in (
        (desk, reverse("matches:scoreboard", args=[match.scorer_token])),
        (phone, reverse("matches:viewer", args=[match.view_token])),
    ):
        board = client.get(address).text
        assert "Typed by the organiser from the paper sheet." in board, address
        assert "scored on the phone, do not count" in board
        assert re.search(r'aria-label="[^"]* total">1200<', board)
        assert f"★ Partie won by {names[0]}" in board
        assert "Record a deal" not in board
    mine = phone.get(reverse("history:history")).text
    assert "1200 – 800" in mine and "result typed from the paper sheet" in mine
    assert "In play" not in mine
    assert f"{phone_totals[0]} – {phone_totals[1]}" not in mine
    review = phone.get(reverse("history:review", args=[match.view_token])).text
    assert f"<h1>{names[0]} 1200 – 800 {names[1]}</h1>" in review
    assert f"won by {names[0]}" in review and "result typed from the paper sheet" in review


def test_paper_over_phone_the_phone_kept_changes_nothing(
    organiser: User, desk: Client, make_user: Callable[[str], User]
) -> None:
    tournament = concours(organiser)
    table = table_of(tournament)
    scored_by_sam(make_user, table)
    match = match_of(table)
    paper = url(tournament, "paper", round=1, table=1)
    totals = {"t1-points0": "1200", "t1-points1": "800"}
    kept = desk.post(paper, {**totals, "choice": "phone"})
    assert "its phone&#x27;s deals are kept" in desk.get(kept["Location"]).text
    fresh = table_of(tournament)
    assert not fresh.finished and fresh.paper is None
    assert fresh.points == (match.total0, match.total1)
    assert match_of(table).version == match.version and not match_of(table).is_typed
    assert not ResultChange.objects.exists()


def test_the_service_refuses_paper_over_deals_unless_told(organiser: User) -> None:
    tournament = concours(organiser)
    table = table_of(tournament)
    play_deals(table, 2)
    with pytest.raises(services.Refused) as refused:
        services.record_paper_totals(table=table, totals=(1000, 944))
    assert refused.value.code == "table_has_deals" and refused.value.params["deals"] == 2
    assert table_of(tournament).paper is None
    # A table without a deal takes its paper at once; its match says the same.
    other = table_of(tournament, 2)
    services.record_paper_totals(table=other, totals=(1000, 944))
    assert table_of(tournament, 2).paper == (1000, 944)
    assert (match_of(other).total0, match_of(other).total1) == (1000, 944)
    assert match_of(other).is_typed


def test_the_question_page_writes_nothing_and_bad_totals_go_back(
    organiser: User, desk: Client
) -> None:
    tournament = concours(organiser)
    table = table_of(tournament)
    play_deals(table, 2)
    paper = url(tournament, "paper", round=1, table=1)
    before = (match_of(table).version, Tournament.objects.get(pk=tournament.pk).version)
    assert desk.get(f"{paper}?t1-points0=1200&t1-points1=800").status_code == 200
    assert desk.get(f"{paper}?t1-points0=x&t1-points1=800").status_code == 302
    assert desk.get(paper).status_code == 302
    after = (match_of(table).version, Tournament.objects.get(pk=tournament.pk).version)
    assert after == before and table_of(tournament).paper is None


def test_a_correction_over_a_phone_result_shows_on_its_match(organiser: User, desk: Client) -> None:
    tournament = concours(organiser, deals_limit=2)
    table = table_of(tournament)
    play_out(table)
    response = desk.post(
        url(tournament, "correct", round=1, table=1), {"c1-points0": "100", "c1-points1": "900"}
    )
    assert response.status_code == 302
    match = match_of(table)
    assert (match.total0, match.total1, match.winner, match.is_typed) == (100, 900, 1, True)
    assert table_of(tournament).winner == 1


# The forms name the teams; the correction is filled ---------------------------------------


def test_paper_and_correction_forms_name_the_teams_and_the_correction_is_filled(
    organiser: User, desk: Client
) -> None:
    tournament = concours(organiser, deals_limit=2)
    first, second = table_of(tournament, 1), table_of(tournament, 2)
    play_out(first)
    names = match_of(second).team_names
    html = desk.get(url(tournament, "desk")).text
    assert "side 1" not in html and "side 2" not in html
    assert f'<label for="id_t2-points0">{names[0]}: points</label>' in html
    assert f'<label for="id_t2-points1">{names[1]}: points</label>' in html
    done = table_of(tournament, 1)
    assert f'name="c1-points0" value="{done.points0}"' in html
    assert f'name="c1-points1" value="{done.points1}"' in html
    # Once the round is closed, in Past rounds too.
    play_out(second)
    services.close_round(round_=Round.objects.get(tournament=tournament, number=1))
    html = desk.get(url(tournament, "desk")).text
    assert f'name="c1-points0" value="{done.points0}"' in html
    assert f"{match_of(first).team_names[0]}: points" in html


def test_the_french_labels(organiser: User) -> None:
    tournament = concours(organiser)
    desk = Client(headers={"accept-language": "fr"})
    desk.force_login(organiser)
    names = match_of(table_of(tournament, 1)).team_names
    html = desk.get(url(tournament, "desk")).text
    assert f"{names[0]}\u00a0: points" in html


# Withdraw says so; Call time and Finish ask first ------------------------------------------


def test_withdraw_and_its_cancel_say_what_they_did(organiser: User, desk: Client) -> None:
    tournament = concours(organiser)
    entrant = Entrant.objects.get(tournament=tournament, name="Les As")
    address = url(tournament, "withdraw", number=entrant.number)
    html = desk.get(desk.post(address)["Location"]).text
    assert "“Les As” is withdrawn: not drawn from round 2 on" in html
    html = desk.get(desk.post(address, {"cancel": "1"})["Location"]).text
    assert "“Les As” is back in" in html
    french = Client(headers={"accept-language": "fr"})
    french.force_login(organiser)
    html = french.get(french.post(address)["Location"]).text
    assert "«\u00a0Les As\u00a0» se retire" in html


def test_call_time_and_finish_ask_first(organiser: User, desk: Client) -> None:
    tournament = concours(organiser, deals_limit=2)
    first, second = table_of(tournament, 1), table_of(tournament, 2)
    play_deals(first, 1)
    call = url(tournament, "call_time", round=1, table=1)
    html = desk.get(url(tournament, "desk")).text
    # One click opens the question (a <details>, no script); the button inside confirms.
    question = html.split("Call time…", 1)[1].split("</details>", 1)[0]
    assert "ends with the 1 deal played" in question and 'name="confirm" value="yes"' in question
    refused = desk.post(call)
    assert "Yes, call time" in desk.get(refused["Location"]).text
    assert not table_of(tournament, 1).ended and not table_of(tournament, 1).finished
    assert desk.post(call, {"confirm": "yes"}).status_code == 302
    assert table_of(tournament, 1).finished and table_of(tournament, 1).ended
    play_out(second)
    services.close_round(round_=Round.objects.get(tournament=tournament, number=1))
    for _ in range(3):
        round_ = services.draw_round(tournament=tournament)
        for table in round_.tables.all():
            play_out(table)
        services.close_round(round_=round_)
    finish = url(tournament, "finish")
    assert "Finish the concours…" in desk.get(url(tournament, "desk")).text
    desk.post(finish)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.PLAYING
    desk.post(finish, {"confirm": "yes"})
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED


# The desk reaches a finished table's deals ------------------------------------------------


def test_the_desk_reaches_a_finished_tables_deals(organiser: User, desk: Client) -> None:
    tournament = concours(organiser, deals_limit=2)
    first, second = table_of(tournament, 1), table_of(tournament, 2)
    play_deals(first, 1)
    html = desk.get(url(tournament, "desk")).text  # the desk as it was before the end
    link = url(tournament, "table_deals", round=1, table=1)
    assert link in html
    play_out(first)  # the partie ends: its scorer link renewed meanwhile
    board = desk.get(link, follow=True)
    assert board.status_code == 200
    assert "Result sent to the organiser" in board.text and "Dealt by" in board.text
    # The organiser corrects there while the round is open: the deals have their links.
    assert "/delete/" in board.text
    # Once the round is closed: Past rounds link each table's deals, read-only.
    play_out(second)
    services.close_round(round_=Round.objects.get(tournament=tournament, number=1))
    html = desk.get(url(tournament, "desk")).text
    assert link in html and "See its deals" in html
    board = desk.get(link, follow=True)
    assert board.status_code == 200
    assert board.redirect_chain[-1][0] == reverse(
        "matches:viewer", args=[match_of(first).view_token]
    )
    assert "Dealt by" in board.text and "/delete/" not in board.text
    # A co-organiser reaches them the same way; nobody else.
    helper = Client()
    helper.get(reverse("concours:co", args=[tournament.co_token]))
    assert helper.get(link, follow=True).status_code == 200
    assert Client().get(link).status_code == 404
