"""The number of SQL queries of the scoreboard, the read-only view and saving a deal does not grow
with the number of deals: a match of 5 deals and one of 60 take the same count."""

from collections.abc import Callable
from functools import partial

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.engine.scoring import Deal as EngineDeal
from scorekeeper.engine.scoring import ManualDeal, PassedDeal, PlayedDeal, Team, Trump
from scorekeeper.engine.scoring.matchfile import MatchFile
from scorekeeper.matches import services
from scorekeeper.matches.models import Match

from .support import OWNER_KEY, deal_post, long_rules

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def match_of(count: int) -> Match:
    """A match of `count` varied deals that is still being played."""
    cycle: list[EngineDeal] = [
        PlayedDeal(taker=0, trump=Trump.HEARTS, contract=80, taker_points=100, belote=(1, 0)),
        PlayedDeal(taker=1, trump=Trump.NO_TRUMP, contract=90, taker_points=40),
        PassedDeal("nobody"),
        ManualDeal((0, 20), "penalty"),
        PlayedDeal(taker=1, trump=Trump.SPADES, contract="capot", capot=1, coinche="coinche"),
    ]
    match_file = MatchFile(
        rules=long_rules(),
        teams=(Team("Nous", ("Alice", "Bruno")), Team("Eux", ("Chloé", "David"))),
        first_dealer=0,
        deals=tuple(cycle[i % len(cycle)] for i in range(count)),
    )
    match = services.import_match(match_file=match_file, owner_key=OWNER_KEY)
    match.refresh_from_db()
    assert match.deal_count == count and not match.is_finished
    return match


def count_queries(action: Callable[[], object]) -> int:
    with CaptureQueriesContext(connection) as queries:
        action()
    return len(queries)


def scoreboard(client: Client, match: Match) -> object:
    response = client.get(reverse("matches:scoreboard", args=[match.scorer_token]))
    assert response.status_code == 200
    return response


def viewer(client: Client, match: Match) -> object:
    response = client.get(reverse("matches:viewer", args=[match.view_token]))
    assert response.status_code == 200
    return response


def save_deal(client: Client, match: Match) -> object:
    match.refresh_from_db()
    url = reverse("matches:deal_new", args=[match.scorer_token])
    response = client.post(url, deal_post(match.version, submission=f"tap-{match.pk}"))
    assert response.status_code == 302
    return response


def htmx_passed(client: Client, match: Match) -> object:
    match.refresh_from_db()
    url = reverse("matches:deal_passed", args=[match.scorer_token])
    response = client.post(url, {"version": match.version}, headers=HTMX)
    assert response.status_code == 200
    return response


@pytest.mark.parametrize(
    "action", [scoreboard, viewer, save_deal, htmx_passed], ids=lambda f: f.__name__
)
def test_the_query_count_does_not_grow_with_the_deals(
    owner_client: Client, action: Callable[[Client, Match], object]
) -> None:
    small, large = match_of(5), match_of(60)
    scoreboard(owner_client, small)  # the session row exists before counting
    counts = [count_queries(partial(action, owner_client, m)) for m in (small, large)]
    assert counts[0] == counts[1], counts
    assert counts[0] <= 20, counts


def test_the_scoreboard_shows_all_sixty_deals(owner_client: Client) -> None:
    match = match_of(60)
    response = owner_client.get(reverse("matches:scoreboard", args=[match.scorer_token]))
    assert response.text.count('<li class="deal outcome-') == 60
