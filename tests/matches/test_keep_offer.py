"""Issue 41: "Keep this match on this phone" (once "Keep working without signal", in French
"Continuer sans réseau", which read like "go offline now") says what it does, and is offered
only where there is something to score: not on a finished or abandoned match."""

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.engine.scoring import rules_from_dict
from scorekeeper.matches import services

from .conftest import MakeMatch
from .support import coinche_deal

pytestmark = pytest.mark.django_db
KEEP = 'id="offline-keep"'


def test_a_match_in_play_offers_to_keep_it_on_this_phone(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    html = owner_client.get(reverse("matches:scoreboard", args=[match.scorer_token])).text
    assert KEEP in html and "Keep this match on this phone" in html
    assert "Then it works without signal: deals typed wait on this phone" in html
    assert 'id="offline"' in html  # the outbox's page, always there for deals that wait
    deal = owner_client.get(reverse("matches:deal_new", args=[match.scorer_token])).text
    assert KEEP in deal
    french = Client(headers={"accept-language": "fr"})
    french.cookies = owner_client.cookies
    fr = french.get(reverse("matches:scoreboard", args=[match.scorer_token])).text
    assert "Garder cette partie sur ce téléphone" in fr and "Continuer sans réseau" not in fr


def test_a_finished_or_abandoned_match_offers_nothing_to_keep(
    owner_client: Client, make_match: MakeMatch
) -> None:
    over = make_match(rules_from_dict({"preset": "coinche", "target": 100}), deals=[coinche_deal()])
    assert over.is_finished
    html = owner_client.get(reverse("matches:scoreboard", args=[over.scorer_token])).text
    assert KEEP not in html and "Keep this match" not in html
    assert 'id="offline"' in html and 'id="net-badge"' in html  # deals waiting still show
    edit = owner_client.get(reverse("matches:deal_edit", args=[over.scorer_token, 1])).text
    assert KEEP not in edit
    left = make_match()
    services.abandon_match(match_id=left.pk)
    html = owner_client.get(reverse("matches:scoreboard", args=[left.scorer_token])).text
    assert KEEP not in html
