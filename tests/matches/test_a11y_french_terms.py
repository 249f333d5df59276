"""Issue 12: the French card-game words that English pages keep (sans atout, tout atout, coinché,
surcoinché, capot, belote, litige...) are marked lang="fr", so a screen reader says them in French;
French pages need no mark. Everything around them stays escaped."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper.engine.scoring import PlayedDeal, Trump
from scorekeeper.matches.models import Match
from scorekeeper.web.words import french_terms

from .conftest import MakeMatch
from .support import long_rules

pytestmark = pytest.mark.django_db

FR = '<span lang="fr">'
DEALS = [
    PlayedDeal(taker=0, trump=Trump.NO_TRUMP, contract=90, taker_points=100),
    PlayedDeal(taker=1, trump=Trump.ALL_TRUMP, contract=100, coinche="coinche", taker_points=120),
    PlayedDeal(taker=0, trump=Trump.HEARTS, contract=80, taker_points=90, belote=(1, 0)),
    PlayedDeal(taker=1, trump=Trump.SPADES, contract="capot", capot=1, coinche="surcoinche"),
]


def page(client: Client, url: str, language: str) -> str:
    client.cookies["django_language"] = language
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.text


def marked(html: str) -> list[str]:
    """The words marked French, lower case."""
    return [w.lower() for w in re.findall(r'<span lang="fr">([^<]+)</span>', html)]


@pytest.fixture
def match(make_match: MakeMatch) -> Match:
    return make_match(long_rules(), DEALS, team_names=("Aces <b>", "Kings & co"))


def test_english_scoreboard_marks_the_french_words(owner_client: Client, match: Match) -> None:
    html = page(owner_client, reverse("matches:scoreboard", args=[match.scorer_token]), "en")
    words = set(marked(html))
    assert {"sans atout", "tout atout", "coinché", "surcoinché", "capot", "belote"} <= words
    assert "Aces &lt;b&gt;" in html and "<b>" not in html.split("<main", 1)[1]


def test_english_deal_form_marks_the_french_chips(owner_client: Client, match: Match) -> None:
    html = page(owner_client, reverse("matches:deal_new", args=[match.scorer_token]), "en")
    words = set(marked(html))
    assert {"sans atout", "tout atout", "coinché", "surcoinché", "capot", "générale"} <= words


def test_english_review_marks_the_french_words(owner_client: Client, match: Match) -> None:
    html = page(owner_client, reverse("history:review", args=[match.view_token]), "en")
    words = set(marked(html))
    assert {"sans atout", "tout atout", "coinché", "capot", "belote"} <= words


def test_english_new_match_marks_the_rules_words(owner_client: Client) -> None:
    html = page(owner_client, reverse("matches:new"), "en")
    assert {"sans atout", "tout atout", "capot", "générale", "litige", "dedans"} <= set(
        marked(html)
    )


@pytest.mark.parametrize("name", ["matches:scoreboard", "matches:deal_new", "history:review"])
def test_french_pages_mark_nothing(owner_client: Client, match: Match, name: str) -> None:
    token = match.view_token if name.startswith("history") else match.scorer_token
    html = page(owner_client, reverse(name, args=[token]), "fr")
    assert 'lang="fr"' in html  # the page itself
    assert FR not in html


def test_french_terms_escapes_and_marks_only_whole_words() -> None:
    with translation.override("en"):
        assert french_terms("Capot <i>") == f"{FR}Capot</span> &lt;i&gt;"
        assert french_terms("belote-rebelote, capots, coinched") == (
            f"{FR}belote-rebelote</span>, {FR}capots</span>, coinched"
        )
        assert french_terms("90 sans atout coinchée") == (
            f"90 {FR}sans atout</span> {FR}coinchée</span>"
        )
    with translation.override("fr"):
        assert french_terms("Capot <i>") == "Capot &lt;i&gt;"


def test_the_new_words_in_french(owner_client: Client, match: Match) -> None:
    """The live view's and the review's titles, the facts table's hidden corner header."""
    viewer = page(owner_client, reverse("matches:viewer", args=[match.view_token]), "fr")
    assert "<title>Vue en direct · Aces &lt;b&gt; " in viewer
    assert '<h1 class="sr-only">Vue en direct</h1>' in viewer
    review = page(owner_client, reverse("history:review", args=[match.view_token]), "fr")
    assert "<title>Bilan · Aces &lt;b&gt; " in review
    assert '<span class="sr-only">Chiffre</span>' in review
