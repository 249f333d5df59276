"""Issue 11 on the server: the deal form's default action is Save, the card-points helper comes
back with both points and the preview, a language switch keeps the deal typed (no JavaScript
needed), capot says the points it leaves out, number fields ask for the keypad, the preview
includes the litige reserve, a reserve left at the end is "not awarded", a failed Save lists
everything missing, and nothing promises a live score without JavaScript."""

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from scorekeeper.engine.scoring import rules_from_dict
from scorekeeper.matches.models import Deal, Match

from .conftest import MakeMatch, Snapshot
from .support import belote_deal, deal_post

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def link(name: str, match: Match, **kwargs: object) -> str:
    return reverse(f"matches:{name}", kwargs={"token": match.scorer_token, **kwargs})


def deal_form(html: str) -> str:
    found = re.search(r'<form method="post" [^>]*class="deal-form', html)
    assert found
    start = found.start()
    return html[start : html.index("</form>", start)]


def test_the_first_submit_button_of_the_deal_form_is_save(
    owner_client: Client, make_match: MakeMatch
) -> None:
    """Enter in a field submits with the form's first submit button (its default button)."""
    match = make_match()
    for url in (link("deal_new", match), link("deal_new", match) + "?taker=1&taker_points=90"):
        form = deal_form(owner_client.get(url).text)
        first = re.search(r"<button[^>]*>", form)
        assert first is not None
        assert 'type="submit"' in first.group(0)
        assert "name=" not in first.group(0) and "formaction" not in first.group(0), first


def test_the_card_counter_offers_no_total_before_a_card_is_chosen(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    page = owner_client.get(link("count", match), {"taker": "0", "for": "new"}).text
    assert "Use these points in the deal</a>" not in page
    assert re.search(r"<button[^>]*disabled[^>]*>Use these points in the deal</button>", page)
    assert "No card chosen yet" in page
    zero = owner_client.get(link("count", match), {"taker": "0", "card": "7-hearts"}).text
    assert "Use 0 points in the deal</a>" in zero
    assert "These cards are worth 0 points" in zero


def test_back_from_the_card_counter_both_points_and_the_preview_are_there(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    counted = owner_client.get(
        link("count", match),
        {"taker": "0", "contract": "80", "trump": "hearts", "card": ["J-hearts", "9-hearts"]},
    ).text
    use = re.search(r'href="([^"]*)">Use these points in the deal', counted)
    assert use is not None
    url = use.group(1).replace("&amp;", "&")
    assert "taker_points=34" in url and "defence_points=128" in url
    page = owner_client.get(url).text
    assert 'name="taker_points" value="34"' in page and 'name="defence_points" value="128"' in page
    assert "Failed" in page and "Eux <strong>+240</strong>" in page  # 34 < 80: 160 + 80
    assert re.search(r'id="preview-line"[^>]*>.*\+240', page)
    # A deal carried back that is not finished yet shows no error, only what is still missing.
    half = owner_client.get(link("deal_new", match), {"taker": "0", "taker_points": "90"}).text
    assert 'class="has-error' not in half and "Select a valid choice" not in half


@pytest.mark.parametrize("edit", [False, True])
def test_switching_language_on_the_deal_form_keeps_the_deal(
    owner_client: Client, make_match: MakeMatch, snapshot: Snapshot, edit: bool
) -> None:
    match = make_match()
    if edit:
        owner_client.post(link("deal_new", match), deal_post(match.version))
        match.refresh_from_db()
    url = link("deal_edit", match, seq=1) if edit else link("deal_new", match)
    page = owner_client.get(url).text
    # The footer's language buttons belong to the deal form, and post it to the page itself.
    assert re.search(
        rf'<button type="submit" form="deal-form" formaction="{re.escape(url)}"[^>]*'
        r'name="language" value="fr"',
        page,
    )
    state = snapshot()
    typed = deal_post(match.version, taker="1", contract="100", trump="diamonds",
                      taker_points="110", note="Ben dealt", language="fr")  # fmt: skip
    switched = owner_client.post(url, typed)
    assert switched.status_code == 302
    assert switched.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    assert switched["Location"].startswith(url + "?")
    assert "csrfmiddlewaretoken" not in switched["Location"]
    assert "language" not in switched["Location"]
    assert snapshot() == state  # nothing saved
    french = owner_client.get(switched["Location"]).text
    assert "Enregistrer" in french
    for kept in (
        r'name="taker" value="1"[^>]* checked',
        r'name="contract" value="100"[^>]* checked',
        r'name="trump" value="diamonds"[^>]* checked',
        r'name="taker_points" value="110"',
        r'name="note"[^>]*value="Ben dealt"',
    ):
        assert re.search(kept, french), kept
    # A language the site does not have changes nothing and keeps the deal all the same.
    odd = owner_client.post(url, {**typed, "language": "xx"})
    assert odd.status_code == 302 and odd["Location"].startswith(url + "?")


def test_capot_leaves_the_typed_points_out_and_says_so(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    data = deal_post(match.version, contract="120", taker_points="100", capot="0")
    said = "The card points typed (100) are left out because of the capot"
    preview = owner_client.post(link("deal_new", match), data, headers=HTMX).text
    assert said in preview
    no_js = owner_client.post(link("deal_new", match), {**data, "preview": "1"}).text
    assert said in no_js
    saved = owner_client.post(link("deal_new", match), data, follow=True)
    assert "Deal 1 saved: the card points typed (100) were left out because of the capot" in (
        saved.text
    )
    assert Deal.objects.get().taker_points is None
    # Without points typed, nothing to say.
    quiet = deal_post(match.version, contract="120", taker_points="", capot="0")
    assert "left out" not in owner_client.post(link("deal_new", match), quiet, headers=HTMX).text


def test_number_fields_ask_for_the_keypad(owner_client: Client, make_match: MakeMatch) -> None:
    match = make_match()
    pages = {
        link("deal_new", match): ("taker_points", "defence_points"),
        link("deal_manual", match): ("score0", "score1"),
        reverse("matches:new"): ("target", "deals_limit"),
    }
    for url, names in pages.items():
        html = owner_client.get(url).text
        for name in names:
            tag = re.search(rf'<input type="number" name="{name}"[^>]*>', html)
            assert tag is not None, name
            assert 'inputmode="numeric"' in tag.group(0) and 'autocomplete="off"' in tag.group(0)


def test_a_failed_save_lists_every_missing_field_at_once(
    owner_client: Client, make_match: MakeMatch, snapshot: Snapshot
) -> None:
    match = make_match()
    state = snapshot()
    data = deal_post(match.version, contract="", trump="", taker_points="")
    html = owner_client.post(link("deal_new", match), data).text
    problems = html[html.index('<section id="preview"') : html.index("</section>")]
    for label in ("Contract", "Trump", "Takers&#x27; card points"):
        assert label in problems, label
    assert snapshot() == state
    # While typing (the live preview), missing fields are not problems yet.
    typing = deal_post(match.version, contract="", trump="", taker_points="90")
    live = owner_client.post(link("deal_new", match), typing, headers=HTMX).text
    assert "card points" not in live


def test_the_preview_includes_the_reserve_the_deal_receives(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match("belote", deals=[belote_deal(taker=0, points=81)])
    assert match.reserve == 81
    data = {**deal_post(match.version, taker="1", taker_points="90"), "trump": "spades"}
    del data["contract"], data["coinche"]
    html = owner_client.post(link("deal_new", match), data, headers=HTMX).text
    assert "Eux <strong>+171</strong>" in html
    assert "90 + 81 from the last litige" in re.sub(r"<[^>]+>", "", html)
    assert "The 81 held in reserve go to Eux" in html
    assert '<span class="nm">Eux</span> +171' in html  # the one-line summary
    assert "Then: 72 – 252" in html
    owner_client.post(link("deal_new", match), data)
    row = Deal.objects.get(match=match, seq=2)
    assert row.score1 == 171  # as the preview said
    # Editing the litige deal itself: its preview shows what it adds (no reserve received).
    edit = owner_client.post(
        link("deal_edit", match, seq=1),
        {**data, "taker": "0", "taker_points": "81", "version": str(row.match.version)},
        headers=HTMX,
    ).text
    assert "from the last litige</small>" not in edit


def test_a_reserve_left_at_the_end_is_not_awarded(
    owner_client: Client, make_match: MakeMatch
) -> None:
    rules = rules_from_dict({"preset": "belote", "target": 300})
    match = make_match(rules, deals=[belote_deal(0, 81), belote_deal(1, 90)])
    data = {**deal_post(match.version, taker="0", taker_points="81"), "trump": "spades"}
    del data["contract"], data["coinche"]
    preview = owner_client.post(link("deal_new", match), data, headers=HTMX).text
    assert "this ends the match" in preview
    assert "81 points held in reserve, not awarded" in preview
    owner_client.post(link("deal_new", match), data)
    match.refresh_from_db()
    assert match.is_finished and match.reserve == 81
    board = owner_client.get(link("scoreboard", match)).text
    litige = '<span lang="fr">Litige</span>'  # French, so marked on the English page
    assert f"{litige}: 81 points held in reserve, not awarded" in board
    assert "next deal" not in board.split('class="deals"')[0]  # the reserve line
    assert "Nous: 81 each; the 81 of Nous stay held in reserve, not awarded" not in board
    assert "the 81 of Nous stay held in reserve, not awarded (the match is over)" in board
    review = owner_client.get(reverse("history:review", args=[match.view_token])).text
    assert "81 points held in reserve, not awarded" in review
    # In play, the reserve still waits for the next deal's winners.
    live = make_match("belote", deals=[belote_deal(0, 81)])
    assert "for the next deal&#x27;s winners" in owner_client.get(link("scoreboard", live)).text


def test_without_javascript_the_form_promises_no_live_score(
    owner_client: Client, make_match: MakeMatch
) -> None:
    html = owner_client.get(link("deal_new", make_match())).text
    assert re.search(r'<p class="small js-only">The score appears here as you fill in', html)
    assert re.search(r'<p class="small no-js">Tap Preview to see the score before saving', html)
    css = (settings.BASE_DIR / "static/css/app.css").read_text()
    assert ".js-only" in css and ".js .no-js" in css
    js = (settings.BASE_DIR / "static/js/app.js").read_text()
    assert 'document.documentElement.classList.add("js")' in js
