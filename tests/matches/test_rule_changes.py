"""Issue 22: a match played with changed rules is not labelled as its preset alone: the
scoreboard, the read-only view and the review name the preset "with changes" and list them."""

import re
from html import unescape

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper.engine.scoring import rules_from_dict
from scorekeeper.matches.models import Match
from scorekeeper.web.words import rule_changes, rules_name

from .conftest import MakeMatch

pytestmark = pytest.mark.django_db

CHANGED = {"preset": "coinche", "coinched_scores": "points", "capot_bid_scores": "contract"}


def pages(client: Client, match: Match) -> dict[str, str]:
    return {
        "scoreboard": client.get(reverse("matches:scoreboard", args=[match.scorer_token])).text,
        "viewer": client.get(reverse("matches:viewer", args=[match.view_token])).text,
        "review": client.get(reverse("history:review", args=[match.view_token])).text,
    }


def words(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_changed_rules_are_named_and_listed(owner_client: Client, make_match: MakeMatch) -> None:
    match = make_match(rules_from_dict({**CHANGED, "target": 1500}))
    for page, html in pages(owner_client, match).items():
        text = words(html)
        assert "Coinche (official), with changes" in text, page
        for change in (
            "A made coinché contract scores: the takers' points (score apps)",
            "A made capot bid scores: the contract only",
            "Target: 1500",
        ):
            assert change in text, (page, change)


def test_a_preset_as_it_is_has_no_changes(owner_client: Client, make_match: MakeMatch) -> None:
    match = make_match()
    for page, html in pages(owner_client, match).items():
        text = words(html)
        assert "Coinche (official)" in text and "with changes" not in text, page


def test_the_changes_in_french(owner_client: Client, make_match: MakeMatch) -> None:
    rules = rules_from_dict({"preset": "belote", "deals_limit": 12, "litige": "none"})
    match = make_match(rules)
    owner_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    text = words(pages(owner_client, match)["scoreboard"])
    assert "Belote (classique), avec des changements" in text, text
    assert "Nombre maximal de donnes : 12" in text  # (a no-break space before the colon)
    with translation.override("fr"):
        assert rules_name(rules) == "Belote (classique), avec des changements"
        assert len(rule_changes(rules)) == 2
