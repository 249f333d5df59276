"""Issue 22: the breakdown never names a top card the table left at "–" ("tierce 9"): it says
"tierce" alone, on the preview, the scoreboard, the deal's log, the CSV, and the edit form shows
"–" again."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper.matches.models import Deal, Match

from .conftest import MakeMatch
from .support import deal_post

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def link(name: str, match: Match, **kwargs: object) -> str:
    return reverse(f"matches:{name}", kwargs={"token": match.scorer_token, **kwargs})


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


def test_a_top_card_left_out_is_not_named(owner_client: Client, make_match: MakeMatch) -> None:
    match = make_match()
    data = deal_post(match.version, ann0_0_kind="tierce", ann0_1_kind="quarte", ann0_1_high="K")
    preview = text(owner_client.post(link("deal_new", match), data, headers=HTMX).text)
    assert "Announcements counted for Nous: tierce, quarte K" in preview, preview
    assert owner_client.post(link("deal_new", match), data).status_code == 302
    assert Deal.objects.get().announcements[0] == [
        {"kind": "tierce", "high": "9", "high_said": False},
        {"kind": "quarte", "high": "K"},
    ]
    board = text(owner_client.get(link("scoreboard", match)).text)
    assert "Announcements counted for Nous: tierce, quarte K" in board
    assert "tierce 9" not in board
    log = text(owner_client.get(link("deal_log", match, seq=1)).text)
    assert "tierce (Nous)" in log and "tierce 9" not in log
    with translation.override("fr"):
        owner_client.cookies["django_language"] = "fr"
        french = text(owner_client.get(link("scoreboard", match)).text)
        assert "tierce, quarte R" in french, french
    # Edited, the top card shows "–" again (and is still not said when saved as it is).
    form = owner_client.get(link("deal_edit", match, seq=1)).text
    high = re.search(r'<select name="ann0_0_high".*?</select>', form, re.S)
    assert high is not None and '<option value="" selected>' in high.group(0)
    response = owner_client.get(reverse("history:match_csv", args=[match.view_token]))
    csv = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]
    assert "Nous: tierce; Nous: quarte K" in csv, csv
