"""Issue 42: a table scored on its phone, then typed from its paper sheet over the phone's deals
(the organiser said the paper is right). The phone, at its next request, shows the typed result
and nothing of the partie under way: no "deal 1 of 12" beside the typed totals, no deal to
record; the match's scoreboard (the organiser's) and the desk's header say the same."""

from collections.abc import Callable
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper.concours import services
from scorekeeper.concours.models import Table, Tournament
from scorekeeper.concours.phones import header
from scorekeeper.matches.models import Match
from tests.factories import TournamentFactory

from .support import play_deals

pytestmark = pytest.mark.django_db

TEAMS = "Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\nCarreau; Gilles; Hana"


def table_one(tournament: Tournament) -> Table:
    return Table.objects.select_related("round__tournament", "match").get(
        round__tournament=tournament, round__number=1, number=1
    )


@pytest.fixture
def typed_over_the_phone(make_user: Callable[[str], User]) -> tuple[Tournament, Client, str]:
    """Round 1 drawn; table 1's phone opens its link and scores a deal; then its paper sheet
    is typed over it (1012 – 910). Returns the concours, the phone and its scorer page."""
    tournament = TournamentFactory.create(owner=make_user("organiser"), teams=TEAMS, drawn=True)
    table = table_one(tournament)
    phone = Client()
    assert table.token
    scorer = phone.get(reverse("concours:table", args=[table.token]))["Location"]
    play_deals(table, 1)
    assert "deal 1 of 12" in phone.get(scorer).text  # the phone's scoreboard, under way
    services.record_paper_totals(table=table_one(tournament), totals=(1012, 910), over_deals=True)
    return tournament, phone, scorer


def test_the_phone_shows_the_typed_result_and_no_deal_counter(
    typed_over_the_phone: tuple[Tournament, Client, str],
) -> None:
    tournament, phone, scorer = typed_over_the_phone
    table = table_one(tournament)
    # Its next request by its old scorer link goes to the table's read-only page.
    page = phone.get(scorer, follow=True)
    assert page.redirect_chain[-1][0] == reverse("concours:table", args=[table.token])
    html = unescape(page.text)
    title = html[html.index('<h1 class="table-phone-title">') :].split("</h1>")[0]
    assert "Table 1 · round 1 · " in title and "result typed from the paper sheet" in title
    assert "deal 1 of 12" not in html and "of 12" not in html
    assert "1012" in html and "910" in html
    assert "Typed by the organiser from the paper sheet." in html
    assert table.match is not None
    assert reverse("matches:deal_new", args=[table.match.scorer_token]) not in html
    assert "Record a deal" not in html
    # Its poll too (the fragment).
    poll = unescape(
        phone.get(reverse("concours:table", args=[table.token]), HTTP_HX_REQUEST="true").text
    )
    assert "1012" in poll and "of 12" not in poll


def test_the_header_says_typed_wherever_it_shows(
    typed_over_the_phone: tuple[Tournament, Client, str],
) -> None:
    tournament, _phone, _scorer = typed_over_the_phone
    table = table_one(tournament)
    match = Match.objects.get(concours_table=table)
    assert header(table, match) == (
        "Table 1 · round 1 · "
        + " – ".join(match.team_names)
        + " · result typed from the paper sheet"
    )
    # The organiser's scoreboard of the match: the typed result, no counter, no deal to add.
    desk = Client()
    desk.force_login(tournament.owner)
    board = unescape(desk.get(reverse("matches:scoreboard", args=[match.scorer_token])).text)
    assert "result typed from the paper sheet" in board and "deal 1 of 12" not in board
    assert reverse("matches:deal_new", args=[match.scorer_token]) not in board
    # In French.
    french = Client(headers={"accept-language": "fr"})
    french.force_login(tournament.owner)
    board = unescape(french.get(reverse("matches:scoreboard", args=[match.scorer_token])).text)
    assert "résultat saisi d’après la feuille de marque" in board and "donne 1 sur 12" not in board
