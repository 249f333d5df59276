"""Issue 42: the organiser scoring a table's last deal from the desk ("Open its scoreboard") taps
Save twice. The first tap saves the deal, ends the partie and so renews the table's scorer link
(its phones are done); the second, sent by the old link, used to answer 404. Now it saves
nothing more and lands on the desk at that table with a word; a phone's second tap lands on the
table's read-only page, as before."""

from collections.abc import Callable
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper.concours.models import Table, Tournament
from scorekeeper.matches.models import Match
from tests.factories import TournamentFactory
from tests.matches.support import deal_post

from .support import play_deals

pytestmark = pytest.mark.django_db

TEAMS = "Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\nCarreau; Gilles; Hana"


def concours(owner: User) -> Tournament:
    """Four teams, round 1 drawn, parties of 2 deals; table 1 has played its first deal."""
    rules = {"preset": "belote", "deals_limit": 2, "target": None}
    tournament = TournamentFactory.create(
        owner=owner, overrides={"partie": rules}, teams=TEAMS, drawn=True
    )
    play_deals(table_one(tournament), 1)
    return tournament


def table_one(tournament: Tournament) -> Table:
    return Table.objects.select_related("round", "match").get(
        round__tournament=tournament, round__number=1, number=1
    )


def last_deal(match: Match) -> dict[str, str]:
    return deal_post(match.version, contract="", coinche="", submission="tap-1")


def test_the_organisers_second_tap_on_the_last_deal_lands_on_the_desk(
    make_user: Callable[[str], User],
) -> None:
    owner = make_user("organiser")
    tournament = concours(owner)
    desk = Client()
    desk.force_login(owner)
    opened = reverse("concours:table_deals", kwargs={"pk": tournament.pk, "round": 1, "table": 1})
    board = desk.get(opened, follow=True)  # the desk's "Open its scoreboard"
    assert board.status_code == 200
    match = Match.objects.get(concours_table=table_one(tournament))
    form = reverse("matches:deal_new", args=[match.scorer_token])
    assert desk.get(form).status_code == 200
    data = last_deal(match)
    first = desk.post(form, data)
    second = desk.post(form, data)  # the same form, tapped again before the page changed
    match.refresh_from_db()
    assert first.status_code == 302
    assert first["Location"] == reverse("matches:scoreboard", args=[match.scorer_token])
    assert second.status_code == 302, second.status_code
    desk_url = reverse("concours:desk", args=[tournament.pk])
    assert second["Location"] == f"{desk_url}#table-1"
    page = unescape(desk.get(second["Location"]).text)
    assert (
        "Table 1: its partie was already over, its last deal saved once: this second tap "
        "saved nothing." in page
    )
    # The deal saved once, the partie over, the table's result stored.
    assert match.deal_count == 2 and match.is_finished
    assert table_one(tournament).finished


def test_a_phones_second_tap_lands_on_the_tables_page(make_user: Callable[[str], User]) -> None:
    tournament = concours(make_user("organiser"))
    table = table_one(tournament)
    phone = Client()
    assert table.token
    scorer = phone.get(reverse("concours:table", args=[table.token]))["Location"]
    match = Match.objects.get(concours_table=table)
    form = f"{scorer}deal/"
    data = last_deal(match)
    phone.post(form, data)
    second = phone.post(form, data)
    assert second.status_code == 302
    assert second["Location"] == reverse("concours:table", args=[table.token])
    assert Match.objects.get(pk=match.pk).deal_count == 2


def test_french(make_user: Callable[[str], User]) -> None:
    owner = make_user("organiser")
    tournament = concours(owner)
    desk = Client(headers={"accept-language": "fr"})
    desk.force_login(owner)
    desk.get(reverse("concours:table_deals", kwargs={"pk": tournament.pk, "round": 1, "table": 1}))
    match = Match.objects.get(concours_table=table_one(tournament))
    form = reverse("matches:deal_new", args=[match.scorer_token])
    data = last_deal(match)
    desk.post(form, data)
    page = unescape(desk.post(form, data, follow=True).text)
    assert (
        "Table 1\u00a0: sa partie était déjà finie, sa dernière donne enregistrée une fois\u00a0: "
        "ce second appui n’a rien enregistré." in page
    )
