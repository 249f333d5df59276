"""A visual review's fixes on a concours: the table phone's heading once time is called (and
centred), the win line on a concours table's scoreboard ("partie", not "match"), the desk's
finished tables without their QR code and New link, the public page's "Find my place" once the
concours is finished."""

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper.concours import services
from scorekeeper.concours.models import Round

from .support import play_deals, play_out
from .test_table_phone import belote_post, concours, fresh, organiser, phone_url, table_match
from .test_table_phone import tables as tables_of

__all__ = ["organiser"]  # the fixture, used by name

pytestmark = pytest.mark.django_db


def title(html: str) -> str:
    found = re.search(r'<h1 class="table-phone-title">([^<]*)</h1>', html)
    assert found is not None
    return found.group(1)


def test_after_time_is_called_the_heading_says_so_not_deal_n_of_m(organiser: User) -> None:
    tournament = concours(organiser, deals_limit=12)
    table = tables_of(tournament)[0]
    play_deals(table, 3)
    phone = Client()
    scorer = phone.get(phone_url(table))["Location"]
    board = phone.get(scorer).text
    assert "deal 3 of 12" in board  # still playing
    services.call_time(table=fresh(table))
    heading = title(phone.get(phone_url(table)).text)
    assert re.fullmatch(r"Table 1 · round 1 · .+ – .+ · time called after 3 deals", heading)
    assert "of 12" not in heading
    match = table_match(table)
    board = Client().get(reverse("matches:scoreboard", args=[match.scorer_token])).text
    assert "time called after 3 deals" in board


def test_the_table_phone_heading_is_centred_like_the_board_note() -> None:
    from django.contrib.staticfiles import finders

    path = finders.find("css/app.css")
    assert isinstance(path, str)
    with open(path, encoding="utf-8") as css:
        rule = next(line for line in css if line.startswith(".table-phone-title {"))
    assert "text-align: center" in rule


def test_a_concours_table_won_says_partie(organiser: User) -> None:
    tournament = concours(organiser, deals_limit=2)
    table = tables_of(tournament)[0]
    phone = Client()
    scorer = phone.get(phone_url(table))["Location"]
    assert scorer.startswith("/score/")
    for _ in range(2):
        match = table_match(table)
        saved = phone.post(
            reverse("matches:deal_new", args=[match.scorer_token]), belote_post(match.version)
        )
    match = table_match(table)
    assert match.winner is not None
    winner = match.team_names[match.winner]
    board = phone.get(saved["Location"]).text  # where the last deal's Save lands
    assert f"★ Partie won by {winner}" in board
    assert "win the match!" not in board


def test_the_desk_hides_a_finished_tables_qr_code_and_new_link(
    organiser: User, client: Client
) -> None:
    tournament = concours(organiser)
    first, _second = tables_of(tournament)
    play_out(first)
    client.force_login(organiser)
    html = client.get(reverse("concours:desk", args=[tournament.pk])).text

    def card(n: int) -> str:
        start = html.index(f'id="table-{n}"')
        return html[start : html.index("</li>", html.index('class="table-phone-link"', start))]

    done, playing = card(1), card(2)
    assert "finished" in done and 'class="table-qr"' not in done and "New link" not in done
    assert "Open its scoreboard" in done and "Correct the result" in done
    assert 'class="table-qr"' in playing and "New link" in playing


def test_the_public_page_says_find_my_place_once_finished(organiser: User) -> None:
    tournament = concours(organiser, deals_limit=1)
    url = reverse("concours_public:standings", args=[tournament.public_token])
    assert "Find my table: your team or your name" in Client().get(url).text
    for table in tables_of(tournament):
        play_out(table)
    services.close_round(round_=Round.objects.get(tournament=tournament, number=1))
    services.finish(tournament=tournament)  # after one round: allowed
    html = Client().get(url).text
    assert "Find my place: your team or your name" in html and "Find my table" not in html
