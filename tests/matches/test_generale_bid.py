"""Issue 22, the générale bid trap, on the server (no JavaScript): choosing the générale contract
preselects what makes it (the takers' capot and "one player won every trick"), as the capot
contract preselects the takers' capot; what the table set itself is never overridden; and a
preview that calls a générale failed because the box is unticked says what is missing."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.engine.scoring import PlayedDeal, Trump
from scorekeeper.matches.models import Deal, Match

from .conftest import MakeMatch, Snapshot
from .support import deal_post

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def link(name: str, match: Match, **kwargs: object) -> str:
    return reverse(f"matches:{name}", kwargs={"token": match.scorer_token, **kwargs})


def generale(version: int, **extra: str) -> dict[str, str]:
    return deal_post(version, contract="generale", taker_points="", **extra)


def checked(html: str, name: str) -> list[str]:
    return re.findall(rf'name="{name}" value="([^"]*)"[^>]* checked', html)


def test_the_generale_contract_alone_is_scored_as_made_and_shown_preselected(
    owner_client: Client, make_match: MakeMatch, snapshot: Snapshot
) -> None:
    match = make_match()
    state = snapshot()
    page = owner_client.post(link("deal_new", match), {**generale(match.version), "preview": "1"})
    html = page.text
    assert checked(html, "capot") == ["0"]  # the takers' capot, preselected
    assert re.search(r'name="generale"[^>]* checked', html)
    preview = html[html.index('<section id="preview"') : html.index("</section>")]
    assert "Made" in preview and "Failed" not in preview
    assert "Nous <strong>+750</strong>" in preview  # 252 + 500 = 752, rounded
    assert snapshot() == state  # a preview saves nothing
    # The form as shown, saved: the générale made.
    owner_client.post(link("deal_new", match), generale(match.version))
    row = Deal.objects.get(match=match)
    assert (row.contract, row.capot, row.generale, row.outcome) == ("generale", 0, True, "made")
    assert (row.score0, row.score1) == (750, 0)


def test_the_capot_contract_alone_preselects_the_takers_capot(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    data = deal_post(match.version, taker="1", contract="capot", taker_points="")
    html = owner_client.post(link("deal_new", match), {**data, "preview": "1"}).text
    assert checked(html, "capot") == ["1"]
    assert not re.search(r'name="generale"[^>]* checked', html)
    assert "Made" in html


def test_what_the_table_set_is_kept(owner_client: Client, make_match: MakeMatch) -> None:
    match = make_match()
    # Points typed: the générale failed, the points count (nothing preselected over them).
    typed = owner_client.post(
        link("deal_new", match), {**generale(match.version), "taker_points": "120"}, headers=HTMX
    ).text
    assert "Failed" in typed and "Eux <strong>+660</strong>" in typed
    # The defence's capot chosen: kept.
    theirs = owner_client.post(
        link("deal_new", match), {**generale(match.version), "capot": "1"}, headers=HTMX
    ).text
    assert "Failed" in theirs and "</span> by Eux" in theirs  # <span lang="fr">Capot</span>
    # Once preselected for this contract and these takers, a "No" under Capot is the table's
    # own choice: the points are then asked for, as for any deal.
    again = {**generale(match.version), "preselected": "generale:0"}
    html = owner_client.post(link("deal_new", match), {**again, "preview": "1"}).text
    assert checked(html, "capot") == [""]
    assert "enter the takers&#x27; card points (or a capot)" in html


def test_an_edited_generale_keeps_its_boxes(owner_client: Client, make_match: MakeMatch) -> None:
    """A générale that failed with the takers' capot (two players shared the tricks) stays so."""
    deal = PlayedDeal(taker=0, trump=Trump.HEARTS, contract="generale", capot=0, generale=False)
    match = make_match(deals=[deal])
    page = owner_client.get(link("deal_edit", match, seq=1)).text
    assert 'name="preselected" value="generale:0"' in page
    data = {**generale(match.version), "capot": "0", "preselected": "generale:0", "preview": "1"}
    html = owner_client.post(link("deal_edit", match, seq=1), data).text
    assert not re.search(r'name="generale"[^>]* checked', html)
    assert "Failed" in html


def test_a_failed_generale_for_an_unticked_box_says_what_is_missing(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    data = {**generale(match.version), "capot": "0", "preselected": "generale:0"}
    html = owner_client.post(link("deal_new", match), data, headers=HTMX).text
    preview = re.sub(r"<[^>]+>", "", html[: html.index("</section>")])  # words only
    assert "Failed" in preview
    assert "“Générale: one player won every trick” is not ticked" in preview
    # The summary beside Save says it too, in short.
    line = re.search(r'<p id="preview-line".*?</p>', html, re.S)
    assert line is not None and "not ticked" in line.group(0)
    # Ticked: made, and nothing more to say.
    made = owner_client.post(link("deal_new", match), {**data, "generale": "on"}, headers=HTMX)
    assert "Made" in made.text and "not ticked" not in made.text


def test_classic_belote_generale_bid_preselects_too(
    owner_client: Client, make_match: MakeMatch
) -> None:
    from scorekeeper.engine.scoring import rules_from_dict

    match = make_match(rules_from_dict({"preset": "belote", "generale_bid": 500}))
    data = {**deal_post(match.version, taker_points=""), "generale_bid": "on", "preview": "1"}
    del data["contract"], data["coinche"]
    html = owner_client.post(link("deal_new", match), data).text
    assert checked(html, "capot") == ["0"]
    assert re.search(r'name="generale"[^>]* checked', html)
    assert "Made" in html and "Nous <strong>+500</strong>" in html
