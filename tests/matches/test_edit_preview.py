"""Issue 41: editing a past deal opens with its preview and the summary beside Save at once
(rendered by the server, so with or without JavaScript), not empty until a field changes."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.engine.scoring import PassedDeal

from .conftest import MakeMatch
from .support import coinche_deal

pytestmark = pytest.mark.django_db


def words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_an_edited_deal_opens_with_its_preview_and_summary(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match(deals=[coinche_deal(taker=0, contract=80, points=100), coinche_deal(1)])
    url = reverse("matches:deal_edit", kwargs={"token": match.scorer_token, "seq": 1})
    html = owner_client.get(url).text
    preview = html[html.index('<section id="preview"') : html.index("</section>")]
    assert "Made" in preview and "Nous <strong>+180</strong>" in preview
    assert "Contract 80" in words(preview)  # the breakdown
    line = re.search(r'<p id="preview-line"[^>]*>(.*?)</p>', html, re.S)
    assert line is not None and words(line.group(1)) == "Made · Nous +180 · Eux +60"
    status = re.search(r'<p id="preview-status"[^>]*>(.*?)</p>', html, re.S)
    assert status is not None and words(status.group(1)).startswith("Made · Nous +180")
    assert "The score appears here as you fill in the deal." not in html


def test_a_passed_deal_opened_to_edit_asks_for_the_deal(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match(deals=[PassedDeal()])
    url = reverse("matches:deal_edit", kwargs={"token": match.scorer_token, "seq": 1})
    html = owner_client.get(url).text
    assert "The score appears here as you fill in the deal." in html  # nothing typed yet
    assert "To see the score, correct this" not in html
