"""Issue 41: the player page's "Contracts taken" names each contract as the table says it
("Générale", "Capot"), through web/words.py, never the key ("generale")."""

import re
from html import unescape

import pytest
from django.utils import translation

from scorekeeper.engine.scoring import PlayedDeal, Trump
from scorekeeper.matches.models import Player
from scorekeeper.web.words import contract_name
from tests.conftest import Browser
from tests.factories import MakeMatch

from .conftest import OWNER_KEY

pytestmark = pytest.mark.django_db


def contracts_table(html: str) -> str:
    """The page's first table of facts: the contracts taken, made."""
    return html.split('<table class="facts facts-contracts">', 1)[1].split("</table>", 1)[0]


def contract_rows(html: str) -> list[str]:
    table = contracts_table(html)
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)
    return [" ".join(unescape(re.sub(r"<[^>]+>", " ", row)).split()) for row in rows]


def test_contracts_taken_are_named_as_the_table_says_them(
    make_match: MakeMatch, browser: Browser
) -> None:
    make_match(
        deals=[
            PlayedDeal(taker=0, trump=Trump.SPADES, contract="generale", capot=0, generale=True),
            PlayedDeal(taker=0, trump=Trump.HEARTS, contract="capot", capot=0),
            PlayedDeal(taker=0, trump=Trump.CLUBS, contract=100, taker_points=120),
        ]
    )
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    html = browser(OWNER_KEY).get(f"/players/{alice.pk}/").text
    assert contract_rows(html)[1:] == ["100 1/1", "Capot 1/1", "Générale 1/1"]
    assert "generale" not in contracts_table(html)
    french = browser(OWNER_KEY)
    french.cookies["django_language"] = "fr"
    assert "Générale 1/1" in contract_rows(french.get(f"/players/{alice.pk}/").text)


def test_a_contract_has_its_words() -> None:
    with translation.override("en"):
        assert [contract_name(c) for c in (110, "capot", "generale", None)] == [
            "110", "Capot", "Générale", ""
        ]  # fmt: skip
