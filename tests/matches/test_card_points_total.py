"""The deal form carries the deal's card points from the engine (issue 41): the page's script fills
one team's points from the other's with the form's data-card-points, and the fields' bounds are
the same number; neither is a second copy of the rule."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.engine.scoring.cards import TOTAL_CARD_POINTS

from .conftest import MakeMatch
from .support import belote_deal

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("page", ["deal_new", "deal_edit"])
def test_the_deal_form_carries_the_engine_s_card_points(
    owner_client: Client, make_match: MakeMatch, page: str
) -> None:
    match = make_match("belote", deals=[belote_deal(0, 90)])
    kwargs = {"token": match.scorer_token} | ({"seq": 1} if page == "deal_edit" else {})
    # Twice: a new deal's page is drawn the second time from its memoised inputs (fragments.py),
    # with only the form's stamp built (DealStamp).
    for _ in range(2):
        html = owner_client.get(reverse(f"matches:{page}", kwargs=kwargs)).text
        form = re.search(r'<form [^>]*id="deal-form"[^>]*>', html)
        assert form and f'data-card-points="{TOTAL_CARD_POINTS}"' in form.group()
        for name in ("taker_points", "defence_points"):
            field = re.search(rf'<input [^>]*name="{name}"[^>]*>', html)
            assert field and f'max="{TOTAL_CARD_POINTS}"' in field.group()
