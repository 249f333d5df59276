"""Response headers every page carries (strict Content-Security-Policy) and the language: French
for a French browser, English otherwise, switchable from any page."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from scorekeeper.matches.models import Match
from tests.matches.conftest import MakeMatch
from tests.matches.support import coinche_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(make_match: MakeMatch) -> Match:
    return make_match(deals=[coinche_deal()])


def pages(match: Match) -> list[str]:
    return [
        "/",
        reverse("matches:new"),
        reverse("matches:import"),
        reverse("matches:scoreboard", args=[match.scorer_token]),
        reverse("matches:deal_new", args=[match.scorer_token]),
        reverse("matches:deal_manual", args=[match.scorer_token]),
        reverse("matches:deal_log", args=[match.scorer_token, 1]),
        reverse("matches:share", args=[match.scorer_token]),
        reverse("matches:viewer", args=[match.view_token]),
    ]


def directives(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        name, *values = part.split()
        out[name] = values
    return out


def test_every_page_has_a_strict_content_security_policy(
    owner_client: Client, match: Match
) -> None:
    for url in pages(match):
        response = owner_client.get(url)
        assert response.status_code == 200, url
        policy = directives(response["Content-Security-Policy"])
        assert policy["script-src"] == ["'self'"], url
        assert policy["default-src"] == ["'self'"]
        assert policy["object-src"] == ["'none'"]
        assert policy["frame-ancestors"] == ["'none'"]
        for values in policy.values():
            assert "'unsafe-inline'" not in values and "'unsafe-eval'" not in values
        assert "<script>" not in response.text and " style=" not in response.text
        assert " onclick=" not in response.text and "javascript:" not in response.text


def test_a_french_browser_gets_french(client: Client, match: Match) -> None:
    with translation.override("fr"):
        board = client.get(
            reverse("matches:scoreboard", args=[match.scorer_token]),
            headers={"accept-language": "fr-FR,fr;q=0.9,en;q=0.5"},
        )
    assert '<html lang="fr">' in board.text
    # Undo is "Défaire" (issue 11): "Annuler" reads as Cancel.
    assert "Noter une donne" in board.text and "Défaire" in board.text
    assert "Annuler" not in board.text
    assert "Record a deal" not in board.text
    assert board["Content-Language"] == "fr"
    new = client.get(reverse("matches:new"), headers={"accept-language": "fr"})
    assert "Nouvelle partie" in new.text


def test_the_breakdown_is_in_the_page_language(client: Client, match: Match) -> None:
    url = reverse("matches:viewer", args=[match.view_token])
    english = client.get(url, headers={"accept-language": "en"})
    french = client.get(url, headers={"accept-language": "fr"})
    assert "Nous: 100 card points + 80 contract = 180" in english.text
    assert "Nous: 100 card points + 80 contract = 180" not in french.text
    assert '<html lang="fr">' in french.text


def test_other_browsers_get_english(client: Client, match: Match) -> None:
    board = client.get(
        reverse("matches:scoreboard", args=[match.scorer_token]),
        headers={"accept-language": "de-DE,de;q=0.9"},
    )
    assert '<html lang="en">' in board.text and "Record a deal" in board.text


def test_the_language_switch(client: Client, match: Match) -> None:
    url = reverse("matches:scoreboard", args=[match.scorer_token])
    page = client.get(url)
    assert 'name="language" value="fr"' in page.text
    switched = client.post(reverse("set_language"), {"language": "fr", "next": url})
    assert switched.status_code == 302 and switched["Location"] == url
    french = client.get(url)
    assert '<html lang="fr">' in french.text and "Noter une donne" in french.text
    client.post(reverse("set_language"), {"language": "en", "next": url})
    assert "Record a deal" in client.get(url, headers={"accept-language": "fr"}).text


def test_the_language_switch_refuses_an_outside_next(client: Client) -> None:
    response = client.post(
        reverse("set_language"), {"language": "fr", "next": "https://evil.example/"}
    )
    assert response.status_code == 302 and "evil.example" not in response["Location"]


def test_every_message_has_a_french_translation() -> None:
    """The French catalogue is complete: no empty or fuzzy (guessed) entry, and compiled."""
    locale = Path(settings.BASE_DIR) / "scorekeeper" / "locale" / "fr" / "LC_MESSAGES"
    entries = (locale / "django.po").read_text(encoding="utf-8").split("\n\n")[1:]
    fuzzy = [e for e in entries if "#, fuzzy" in e]
    empty = [
        e
        for e in entries
        if not e.startswith("#~") and re.search(r'msgstr(\[\d\])? ""\n(?!")', e + "\n")
    ]
    assert not fuzzy and not empty, (fuzzy + empty)[:3]
    with translation.override("fr"):
        assert (
            gettext("To see the score, correct this:") == "Pour voir le score, corrigez ceci\u00a0:"
        )


def test_french_punctuation_never_starts_a_line() -> None:
    """French puts a space before : ; ? ! and inside « »: a no-break one, so a narrow phone
    screen never wraps the sign alone onto the next line."""
    locale = Path(settings.BASE_DIR) / "scorekeeper" / "locale" / "fr" / "LC_MESSAGES"
    entries = (locale / "django.po").read_text(encoding="utf-8").split("\n\n")[1:]
    translations = [e[e.index("msgstr") :] for e in entries if "msgstr" in e]
    breakable = [t for t in translations if re.search(r" [:;?!»]|« ", t)]
    assert not breakable, breakable[:3]
