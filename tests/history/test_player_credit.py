"""The player page credits a contract to the player who took it when the deal says who, to the
team otherwise, and says which (issue 11); a coinche to the player who coinched, likewise. Win
rates are over finished, non-abandoned matches, and say so."""

import re
from dataclasses import replace
from html import unescape

import pytest
from django.test import Client
from django.utils import timezone, translation

from scorekeeper.engine.scoring import PlayedDeal
from scorekeeper.history.selectors import PlayerStats, Rate
from scorekeeper.matches.models import Match, Player
from tests.conftest import Browser

from .conftest import FACTS_DEALS, OWNER_KEY, MakeMatch

# These read response.context (the figures a page was given).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("template_context")]

# The facts match (conftest.py): Nous = Alice (seat 0) + Bruno (seat 2), Eux = Chloé (seat 1) +
# David (seat 3). Nous took deals 1 (100 ♠, made) and 3 (110 ♥ coinché by Eux, made); Eux took
# deals 2 (90 ♥, failed), 5 (80 ♠, made) and 6 (120 ♠ surcoinché, failed). Here: Bruno took
# deal 1 and Alice deal 3, Chloé coinched deal 3; Eux's takers are not recorded, but David
# surcoinched deal 6.


def with_players(deals: list[object]) -> list[object]:
    seats = {0: {"taker_player": 2}, 2: {"taker_player": 0, "coinche_player": 1},
             5: {"coinche_player": 3}}  # fmt: skip
    return [
        replace(
            deal,
            taker_player=seats[i].get("taker_player"),
            coinche_player=seats[i].get("coinche_player"),
        )
        if i in seats and isinstance(deal, PlayedDeal)
        else deal
        for i, deal in enumerate(deals)
    ]


@pytest.fixture
def recorded(make_match: MakeMatch) -> Match:
    return make_match("coinche", with_players(list(FACTS_DEALS)))


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def page(client: Client, name: str) -> tuple[PlayerStats, str]:
    player = Player.objects.get(owner_key=OWNER_KEY, name=name)
    response = client.get(f"/players/{player.pk}/")
    assert response.status_code == 200
    return response.context["stats"], text_of(response.text)


def test_a_contract_counts_for_the_player_who_took_it(recorded: Match, browser: Browser) -> None:
    client = browser(OWNER_KEY)
    alice, alice_text = page(client, "Alice")
    assert alice.taken == Rate(1, 1)  # deal 3 only: Bruno took deal 1
    assert alice.taken_by_player == 1
    assert alice.by_contract == [("110", Rate(1, 1))]
    assert alice.by_trump == [("hearts", Rate(1, 1))]
    assert alice.coinched == Rate(1, 1)  # deal 3, hers, coinched and made
    assert "1/1 contracts made" in alice_text
    assert "All taken by Alice." in alice_text
    bruno, _ = page(client, "Bruno")
    assert bruno.taken == Rate(1, 1) and bruno.taken_by_player == 1
    assert bruno.by_contract == [("100", Rate(1, 1))]
    assert bruno.coinched == Rate(0, 0)


def test_without_who_took_the_team_is_credited_and_the_page_says_so(
    recorded: Match, browser: Browser
) -> None:
    chloe, text = page(browser(OWNER_KEY), "Chloé")
    assert chloe.taken == Rate(3, 1)  # Eux's three contracts, nobody recorded
    assert chloe.taken_by_player == 0
    assert "1/3 contracts made" in text
    assert "Contracts of Chloé's team: who took was not recorded." in text


def test_a_mix_says_how_many_each(make_match: MakeMatch, browser: Browser) -> None:
    deals = with_players(list(FACTS_DEALS))
    deals[0] = replace(deals[0], taker_player=None)  # type: ignore[type-var]
    make_match("coinche", deals)
    alice, text = page(browser(OWNER_KEY), "Alice")
    assert alice.taken == Rate(2, 2) and alice.taken_by_player == 1
    assert "2/2 contracts made" in text
    assert "1 taken by Alice, 1 by the team when who took was not recorded." in text


def test_a_coinche_counts_for_the_player_who_coinched(recorded: Match, browser: Browser) -> None:
    client = browser(OWNER_KEY)
    chloe, _ = page(client, "Chloé")
    david, _ = page(client, "David")
    assert chloe.coinching == Rate(1, 0)  # she coinched deal 3, which Nous made
    assert david.coinching == Rate(0, 0)
    # Deal 6: Nous coinched (who, not recorded: David's surcoinche is what the deal keeps), and
    # Eux failed: the coinche paid, for both of Nous.
    alice, _ = page(client, "Alice")
    bruno, _ = page(client, "Bruno")
    assert alice.coinching == bruno.coinching == Rate(1, 1)


def test_the_win_rate_is_over_finished_matches_not_abandoned_and_says_so(
    recorded: Match, make_match: MakeMatch, browser: Browser
) -> None:
    in_play = make_match("coinche", FACTS_DEALS[:2])
    abandoned = make_match("coinche", FACTS_DEALS[:2])
    Match.objects.filter(pk=abandoned.pk).update(abandoned_at=timezone.now())
    assert not in_play.is_finished
    alice, text = page(browser(OWNER_KEY), "Alice")
    assert (alice.matches, alice.finished, alice.wins) == (3, 1, 1)
    assert "1 won of 1 finished (100 %)" in text
    assert "wins are over finished matches only; abandoned ones are left out" in text


def test_the_credit_is_said_in_french(recorded: Match, browser: Browser) -> None:
    client = browser(OWNER_KEY)
    client.cookies["django_language"] = "fr"
    with translation.override("fr"):
        _, alice = page(client, "Alice")
        _, chloe = page(client, "Chloé")
    assert "Tous pris par Alice." in alice
    # (text_of makes the no-break space before the colon a plain one)
    assert "Contrats de l'équipe de Chloé : le preneur n'a pas été noté." in chloe
    assert "Un contrat compte pour le joueur qui l'a pris" in alice
