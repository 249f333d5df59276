"""Issue 41, the capot / générale bid trap, on the server (a form posted without JavaScript, or
brought back from the card counter): a capot or générale bid preselects its takers' capot, and
card points typed over that preselection say the bid failed by them. The capot (and the
générale's box) are taken back, the contract stays, the deal is a failed bid scored on those
points, and the page says so beside the points; a capot the table chose itself still leaves
typed points out, as before."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.matches.models import Deal, Match

from .conftest import MakeMatch
from .support import deal_post

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
BID_NOTE = "If the takers won every trick, clear the points and choose their capot."


def link(name: str, match: Match, **kwargs: object) -> str:
    return reverse(f"matches:{name}", kwargs={"token": match.scorer_token, **kwargs})


def checked(html: str, name: str) -> list[str]:
    return re.findall(rf'name="{name}" value="([^"]*)"[^>]* checked', html)


def note_shown(html: str, note_id: str) -> bool:
    found = re.search(rf'<p class="help [a-z-]+" id="{note_id}"( hidden)?>', html)
    assert found is not None, note_id
    return found.group(1) is None


def capot_bid(version: int, taker: str = "1", **extra: str) -> dict[str, str]:
    """A capot bid as the page shows it once preselected: the takers' capot chosen."""
    shown = {"taker_points": "", "capot": taker, "preselected": f"capot:{taker}"}
    return deal_post(version, taker=taker, contract="capot", trump="spades", **{**shown, **extra})


def test_points_typed_after_the_preselection_save_a_failed_capot_bid(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    # The preselection, as a tap on Preview shows it: the takers' capot, made.
    untouched = capot_bid(match.version, capot="", preselected="", preview="1")
    shown = owner_client.post(link("deal_new", match), untouched).text
    assert checked(shown, "capot") == ["1"] and "Made" in shown
    assert not note_shown(shown, "bid-note")
    # 140 typed over it, then Save: a failed capot bid, the points kept.
    response = owner_client.post(
        link("deal_new", match), capot_bid(match.version, taker_points="140"), follow=True
    )
    row = Deal.objects.get(match=match)
    assert (row.contract, row.capot, row.taker_points) == ("capot", None, 140)
    assert row.outcome == "failed"
    assert (row.score0, row.score1) == (410, 0)  # the defence: 160 + 250
    assert (
        "Deal 1 saved as a failed bid: card points were typed, so the capot the bid had chosen "
        "was taken back." in response.text
    )


def test_the_preview_shows_the_capot_taken_back_and_says_why(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    html = owner_client.post(
        link("deal_new", match), {**capot_bid(match.version, taker_points="140"), "preview": "1"}
    ).text
    assert checked(html, "capot") == [""]  # taken back, on the page too
    assert checked(html, "contract") == ["capot"]  # the contract stays
    assert 'name="preselected" value="capot:1"' in html  # and is not preselected again
    preview = html[html.index('<section id="preview"') : html.index("</section>")]
    assert "Failed" in preview and "Nous <strong>+410</strong>" in preview
    assert note_shown(html, "bid-note") and BID_NOTE in re.sub(r"<[^>]+>", "", html)
    assert not note_shown(html, "capot-note")  # nothing is left out
    status = re.search(r'<p id="preview-status".*?</p>', html, re.S)
    assert status is not None
    assert "card points typed, so no capot" in re.sub(r"<[^>]+>", "", status.group(0))
    # Cleared points and the takers' capot: made after all.
    made = owner_client.post(link("deal_new", match), capot_bid(match.version), headers=HTMX).text
    assert "Made" in made and "no capot" not in made


def test_points_typed_over_a_preselected_generale_take_back_its_boxes(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    data = deal_post(
        match.version, taker="0", contract="generale", taker_points="", defence_points="30",
        capot="0", generale="on", preselected="generale:0",
    )  # fmt: skip
    owner_client.post(link("deal_new", match), data)
    row = Deal.objects.get(match=match)
    assert (row.contract, row.capot, row.generale) == ("generale", None, False)
    assert row.taker_points == 132
    assert row.outcome == "failed"


def test_a_capot_the_table_chose_still_leaves_the_points_out(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    # The defence's capot on a capot bid: the points typed are left out, as before.
    theirs = capot_bid(match.version, capot="0", taker_points="20")
    html = owner_client.post(link("deal_new", match), {**theirs, "preview": "1"}).text
    assert checked(html, "capot") == ["0"]
    assert "The card points typed (20) are left out because of the capot" in html
    assert note_shown(html, "capot-note") and not note_shown(html, "bid-note")
    # A capot chosen on an 80 contract, points typed: left out too.
    plain = deal_post(match.version, capot="0", taker_points="100", preview="1")
    html = owner_client.post(link("deal_new", match), plain).text
    assert checked(html, "capot") == ["0"] and note_shown(html, "capot-note")


def test_points_brought_back_from_the_card_counter_take_the_capot_back(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    carried = {k: v for k, v in capot_bid(match.version).items() if v and k != "version"}
    carried |= {"taker_points": "140", "defence_points": "22"}
    html = owner_client.get(link("deal_new", match), carried).text
    assert checked(html, "capot") == [""], "the page shows what the preview scores"
    preview = html[html.index('<section id="preview"') : html.index("</section>")]
    assert "Failed" in preview
    assert note_shown(html, "bid-note")


def test_the_notes_stay_hidden_on_a_new_deal(owner_client: Client, make_match: MakeMatch) -> None:
    html = owner_client.get(link("deal_new", make_match())).text
    assert not note_shown(html, "capot-note") and not note_shown(html, "bid-note")
