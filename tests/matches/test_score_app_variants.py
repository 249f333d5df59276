"""docs/rules.md §4's score-app variants in the app: chosen on New match (with a line saying what each
does), frozen with the match, scored by the engine in the preview, the saved deal and the match
file."""

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper.engine.scoring.breakdown import STORED_BREAKDOWN, line_from_data
from scorekeeper.matches.models import Deal, Match
from scorekeeper.web.words import breakdown

from .support import deal_post, new_match_post

pytestmark = pytest.mark.django_db
NEW = reverse("matches:new")
HTMX = {"HX-Request": "true"}


def start(client: Client, **changes: str) -> Match:
    response = client.post(NEW, new_match_post(**changes))
    assert response.status_code == 302
    return Match.objects.get()


def test_new_match_explains_both_settings(client: Client) -> None:
    # Without the marks of French words (lang="fr", issue 12).
    page = client.get(NEW).text.replace('<span lang="fr">', "").replace("</span>", "")
    assert "A made coinché contract scores" in page and "A made capot bid scores" in page
    assert (
        "On points: m × (the takers&#x27; total + contract), the defence keeps its total." in page
    )
    assert "Contract only: 250 (or the générale&#x27;s value) + belote" in page
    # Radios, whose words wrap at 360 px (a select cut them: issue 22).
    assert re.search(
        r'name="coinched_scores" value="points"[^>]*> <span>the takers&#x27; points \(score apps\)',
        page,
    )
    assert re.search(
        r'name="capot_bid_scores" value="contract"[^>]*> <span>the contract only', page
    )


def test_a_coinched_contract_scored_on_points(client: Client) -> None:
    match = start(client, coinched_scores="points")
    assert match.rules["coinched_scores"] == "points"
    assert match.rules["capot_bid_scores"] == "total_and_contract"
    deal = deal_post(match.version, contract="100", coinche="coinche", taker_points="120")
    url = reverse("matches:deal_new", args=[match.scorer_token])
    preview = client.post(url, deal, headers=HTMX).text
    assert "Coinched contract scored on points: the defence keeps its total" in preview
    assert "Nous: 2 × (120 card points + 100 contract) = 440" in preview
    assert "Eux: 42 card points → 40" in preview
    assert client.post(url, deal).status_code == 302
    saved = Deal.objects.get()
    assert (saved.score0, saved.score1) == (440, 40)
    match.refresh_from_db()
    assert (match.total0, match.total1) == (440, 40)
    board = client.get(reverse("matches:scoreboard", args=[match.scorer_token])).text
    assert "Nous: 2 × (120 card points + 100 contract) = 440" in board


def test_a_capot_bid_scored_as_its_contract(client: Client) -> None:
    match = start(client, capot_bid_scores="contract")
    deal = deal_post(match.version, contract="capot", taker_points="", capot="0", belote0="1")
    assert (
        client.post(reverse("matches:deal_new", args=[match.scorer_token]), deal).status_code == 302
    )
    saved = Deal.objects.get()
    assert (saved.score0, saved.score1) == (270, 0)  # 250 + belote, not 252 + 20 + 250
    stored = [line_from_data(data) for data in saved.texts[STORED_BREAKDOWN]]
    with translation.override("en"):
        assert "A made capot bid scores its contract alone" in breakdown(stored)
    with translation.override("fr"):
        assert "Une annonce de capot réussie ne compte que le contrat" in breakdown(stored)


def test_on_points_with_the_contract_scope_is_refused_next_to_the_field(client: Client) -> None:
    response = client.post(NEW, new_match_post(preset="coinche-x3", coinched_scores="points"))
    assert response.status_code == 200
    assert 'id="id_coinched_scores_error"' in response.text
    assert "scoring on points needs the multiplier on the whole deal" in response.text
    assert not Match.objects.exists()
    # With the whole-deal multiplier it is accepted.
    start(client, preset="coinche-x3", coinched_scores="points", multiplier_scope="deal")


def test_the_variants_travel_in_the_match_file(client: Client, db: None) -> None:
    match = start(client, coinched_scores="points", capot_bid_scores="contract")
    url = reverse("matches:deal_new", args=[match.scorer_token])
    client.post(
        url, deal_post(match.version, contract="100", coinche="coinche", taker_points="120")
    )
    exported = client.get(reverse("matches:export", args=[match.scorer_token])).json()
    assert exported["rules"]["coinched_scores"] == "points"
    assert exported["rules"]["capot_bid_scores"] == "contract"
    upload = SimpleUploadedFile("m.json", json.dumps(exported).encode(), "application/json")
    assert client.post(reverse("matches:import"), {"file": upload}).status_code == 302
    imported = Match.objects.exclude(pk=match.pk).get()
    assert imported.rules == match.rules
    assert (imported.total0, imported.total1) == (440, 40)
