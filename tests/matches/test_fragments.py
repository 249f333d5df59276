"""A new deal's inputs are rendered once per match and language (matches/fragments.py): the page
is the same as when they are rendered for each request, and nothing of one match, language or
team name leaks into another's."""

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.matches import fragments
from scorekeeper.matches.forms import DealForm
from scorekeeper.matches.models import Match

from .conftest import MakeMatch
from .support import coinche_deal

pytestmark = pytest.mark.django_db
PER_REQUEST = re.compile(
    r'(name="(?:csrfmiddlewaretoken|submission)" value=")[^"]*"|("X-CSRFToken": ")[^"]*"'
)


def page(client: Client, match: Match, lang: str = "en") -> str:
    response = client.get(
        reverse("matches:deal_new", args=[match.scorer_token]), headers={"Accept-Language": lang}
    )
    assert response.status_code == 200
    return PER_REQUEST.sub(lambda m: (m.group(1) or m.group(2)) + '…"', response.text)


def test_the_remembered_inputs_give_the_page_rendered_for_each_request(
    owner_client: Client, make_match: MakeMatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = make_match(deals=[coinche_deal()])
    first, again = page(owner_client, match), page(owner_client, match)
    assert first == again and 'name="taker"' in first and "Count card points" in first
    with monkeypatch.context() as patch:
        patch.setattr(fragments, "is_plain", lambda form: False)
        patch.setattr(fragments, "remembered_inputs", lambda match: None)
        assert page(owner_client, match) == first
        french = page(owner_client, match, "fr")
    assert page(owner_client, match, "fr") == french != first
    assert "Preneurs" in french or "Atout" in french


def test_a_new_deal_page_from_the_memo_builds_no_deal_form(
    owner_client: Client, make_match: MakeMatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the inputs are remembered, the page builds only the hidden stamp (DealStamp): the
    same page, a fresh submission id each time, the match's current version."""
    match = make_match(deals=[coinche_deal()])
    first = page(owner_client, match)
    built: list[object] = []
    real = DealForm.__init__

    def spy(self: DealForm, *args: Any, **kwargs: Any) -> None:
        built.append(self)
        real(self, *args, **kwargs)

    monkeypatch.setattr(DealForm, "__init__", spy)
    url = reverse("matches:deal_new", args=[match.scorer_token])
    texts = [owner_client.get(url).text for _ in range(2)]
    assert built == []
    assert page(owner_client, match) == first
    ids = [re.search(r'name="submission" value="([0-9a-f]{32})"', t) for t in texts]
    assert ids[0] and ids[1] and ids[0].group(1) != ids[1].group(1)
    assert f'name="version" value="{match.version}"' in texts[0]


def test_each_match_gets_its_own_inputs(owner_client: Client, make_match: MakeMatch) -> None:
    ours = make_match(team_names=("Les As", "Les Rois"))
    theirs = make_match("belote", team_names=("Bleus", "Rouges"))
    mine, other = page(owner_client, ours), page(owner_client, theirs)
    assert "Les As" in mine and "Bleus" not in mine
    assert "Bleus" in other and "Les As" not in other
    assert reverse("matches:count", args=[theirs.scorer_token]) in other
    assert ours.scorer_token not in other
    assert 'name="contract"' in mine and 'name="contract"' not in other  # belote: no contract


def test_a_form_carried_back_or_with_errors_is_rendered_for_its_request(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    url = reverse("matches:deal_new", args=[match.scorer_token])
    carried = owner_client.get(url, {"taker": "1", "taker_points": "97"})
    assert 'value="97"' in carried.text
    assert 'value="97"' not in page(owner_client, match)
    refused = owner_client.post(url, {"taker": "0", "version": match.version})
    assert refused.status_code == 200 and 'class="error"' in refused.text
