"""Recording deals through the pages: the deal form (POST-redirect-GET; invalid input re-rendered
with what was typed and the error next to its field, nothing saved), the htmx live preview, the
all-passed and manual-score deals, and the card-counting helper."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.engine.scoring import get_preset, rules_from_dict
from scorekeeper.matches.models import Deal, DealChange, Match

from .conftest import MakeMatch, Snapshot
from .support import coinche_deal, deal_post

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def match(make_match: MakeMatch) -> Match:
    return make_match()


def link(name: str, match: Match, **kwargs: object) -> str:
    return reverse(f"matches:{name}", kwargs={"token": match.scorer_token, **kwargs})


def error_next_to(html: str, field: str) -> list[str]:
    """Errors shown in the field's own block (a .field div or a chip fieldset)."""
    name = f'name="{field}"'
    at = html.find(name)
    assert at >= 0, f"no input {field}"
    div, fieldset = html.rfind('<div class="field', 0, at), html.rfind("<fieldset", 0, at)
    end = html.find("</fieldset>", at) if fieldset > div else html.find("\n</div>", at)
    return re.findall(r'<p class="error"[^>]*>([^<]*)</p>', html[max(div, fieldset) : end])


def test_the_deal_form_offers_the_choices_of_the_rules(owner_client: Client, match: Match) -> None:
    page = owner_client.get(link("deal_new", match))
    assert page.status_code == 200
    for value in ("80", "180", "capot", "generale", "no_trump", "all_trump", "surcoinche"):
        assert f'value="{value}"' in page.text
    assert f'name="version" value="{match.version}"' in page.text
    assert re.search(r'name="submission" value="[0-9a-f]{32}"', page.text)


def test_classic_belote_has_no_contract_nor_coinche(
    owner_client: Client, make_match: MakeMatch
) -> None:
    page = owner_client.get(link("deal_new", make_match("belote")))
    assert 'name="contract"' not in page.text and 'name="coinche"' not in page.text
    assert 'value="no_trump"' not in page.text


def test_a_valid_deal_is_saved_and_redirects_to_the_scoreboard(
    owner_client: Client, match: Match
) -> None:
    data = deal_post(
        match.version, contract="110", trump="spades", taker_points="", defence_points="52"
    )
    data.update(coinche="coinche", belote0="1", note="nice one")
    response = owner_client.post(link("deal_new", match), data)
    assert response.status_code == 302
    assert response["Location"] == link("scoreboard", match)
    row = Deal.objects.get()
    assert (row.taker, row.contract, row.trump, row.coinche) == (0, "110", "spades", "coinche")
    assert (row.taker_points, row.belote0, row.note) == (110, 1, "nice one")  # 162 - 52
    assert (row.outcome, row.score0, row.score1) == ("made", 2 * (160 + 110 + 20), 0)
    board = owner_client.get(response["Location"])
    assert "nice one" in board.text
    assert f'<span class="t0">{row.score0}</span>' in board.text
    assert "coinché" in board.text


def test_a_capot_and_announcements(owner_client: Client, match: Match) -> None:
    data = deal_post(match.version, contract="capot", trump="clubs", taker_points="", capot="0")
    data.update(ann0_0_kind="carre_J", ann1_0_kind="tierce", ann1_0_high="K")
    assert owner_client.post(link("deal_new", match), data).status_code == 302
    row = Deal.objects.get()
    assert (row.capot, row.taker_points, row.contract) == (0, None, "capot")
    # Both teams' declarations are kept; the engine decides that only the carré counts.
    assert row.announcements == [
        [{"kind": "carre", "high": "J"}],
        [{"kind": "tierce", "high": "K"}],
    ]
    assert row.outcome == "made" and row.score1 == 0
    assert row.score0 == 700  # 252 capot + 250 bid + 200 carré of jacks = 702, rounded


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"taker_points": "200"}, "taker_points", "less than or equal to 162"),
        ({"taker_points": "abc"}, "taker_points", "Enter a whole number."),
        ({"taker_points": "100", "defence_points": "100"}, "defence_points", "add up to 162"),
        ({"taker_points": ""}, "taker_points", "card points (or a capot)"),
        ({"contract": "85"}, "contract", "Select a valid choice."),
        ({"taker": ""}, "taker", "This field is required."),
        ({"trump": "no_trump", "belote0": "1"}, "belote0", "no belote in sans atout"),
        ({"belote0": "1", "belote1": "1"}, "belote0", "only one belote"),
    ],
)
def test_invalid_input_is_shown_next_to_the_field_keeps_the_input_and_saves_nothing(
    owner_client: Client,
    match: Match,
    snapshot: Snapshot,
    changes: dict[str, str],
    field: str,
    message: str,
) -> None:
    state = snapshot()
    data = {**deal_post(match.version, contract="120", note="keep me"), **changes}
    response = owner_client.post(link("deal_new", match), data)
    assert response.status_code == 200
    errors = error_next_to(response.text, field)
    assert any(message in error for error in errors), errors
    assert 'value="keep me"' in response.text
    if "contract" not in changes:
        assert re.search(r'name="contract" value="120"[^>]*checked', response.text)
    if changes.get("taker_points"):
        assert f'value="{changes["taker_points"]}"' in response.text
    assert snapshot() == state


def test_a_missing_top_card_that_decides_is_asked_for(
    owner_client: Client, match: Match, snapshot: Snapshot
) -> None:
    state = snapshot()
    data = deal_post(match.version, ann0_0_kind="tierce", ann1_0_kind="tierce")
    response = owner_client.post(link("deal_new", match), data)
    assert "Give the top card: it decides whose announcements count." in response.text
    assert snapshot() == state
    data.update(ann0_0_high="A", ann1_0_high="K")
    assert owner_client.post(link("deal_new", match), data).status_code == 302
    assert Deal.objects.get().announcements[0] == [{"kind": "tierce", "high": "A"}]


def test_only_the_top_cards_that_decide_are_asked_for(owner_client: Client, match: Match) -> None:
    """Team 1: a tierce and a quarte to the ace; team 2: a quarte. The quartes decide, so team
    2's top card is asked for; team 1's tierce decides nothing (its quarte beats it)."""
    data = deal_post(
        match.version,
        ann0_0_kind="tierce",
        ann0_1_kind="quarte",
        ann0_1_high="A",
        ann1_0_kind="quarte",
    )
    html = owner_client.post(link("deal_new", match), data).text
    asked = "Give the top card: it decides whose announcements count."
    assert error_next_to(html, "ann1_0_high") == [asked]
    assert error_next_to(html, "ann0_0_high") == []
    # A quarte to the ace cannot lose to team 2's quarte: nothing is asked, all is saved.
    data.update(ann1_0_high="K")
    assert owner_client.post(link("deal_new", match), data).status_code == 302
    saved = Deal.objects.get().announcements
    # The tierce's top card was not said: kept as its lowest, never named (issue 22).
    tierce = {"kind": "tierce", "high": "9", "high_said": False}
    assert saved[0] == [tierce, {"kind": "quarte", "high": "A"}]


def test_the_htmx_preview_returns_only_the_preview_and_saves_nothing(
    owner_client: Client, match: Match, snapshot: Snapshot
) -> None:
    state = snapshot()
    response = owner_client.post(link("deal_new", match), deal_post(match.version), headers=HTMX)
    assert response.status_code == 200
    html = response.text.strip()
    # The preview, then the save bar's one-line summary swapped out of band.
    preview, line = html.split("</section>")
    assert preview.startswith('<section id="preview"')
    assert line.strip().startswith('<p id="preview-line" class="preview-line" hx-swap-oob="true"')
    assert 'Made</span> · <span class="t0"><span class="nm">Nous</span> +180</span>' in line
    assert '<span class="t1"><span class="nm">Eux</span> +60</span>' in line
    assert "<html" not in html and "<form" not in html
    assert "Made" in html and "Nous <strong>+180</strong>" in html
    assert "Eux <strong>+60</strong>" in html
    assert "Nous: 100 card points + 80 contract = 180" in html
    assert "Then: 180 – 60" in html
    assert "HX-Request" in response["Vary"]
    assert snapshot() == state


def test_the_preview_of_invalid_input_shows_no_score(
    owner_client: Client, match: Match, snapshot: Snapshot
) -> None:
    state = snapshot()
    response = owner_client.post(
        link("deal_new", match), deal_post(match.version, taker_points="300"), headers=HTMX
    )
    assert response.status_code == 200
    assert response.text.strip().startswith('<section id="preview"')
    assert "+" not in response.text  # no score
    assert "To see the score, correct this:" in response.text
    assert "Takers&#x27; card points: Ensure this value is less than or equal to 162." in (
        response.text
    )
    # A form still being filled in (no trump, no points yet) is no problem, only not ready.
    unfinished = {"version": match.version, "taker": "0", "contract": "80", "trump": "hearts"}
    response = owner_client.post(link("deal_new", match), unfinished, headers=HTMX)
    assert "The score appears here as you fill in the deal." in response.text
    # The same form saved: now the preview lists everything still missing.
    saved = owner_client.post(link("deal_new", match), deal_post(match.version, taker_points=""))
    assert "The score appears here" not in saved.text
    assert "To see the score, correct this:" in saved.text
    assert "enter the takers&#x27; card points (or a capot)" in saved.text
    assert "correct this" not in response.text
    assert snapshot() == state


def test_the_preview_button_without_javascript_shows_the_form_with_the_preview(
    owner_client: Client, match: Match, snapshot: Snapshot
) -> None:
    state = snapshot()
    data = {**deal_post(match.version, taker_points="60"), "preview": "1"}
    response = owner_client.post(link("deal_new", match), data)
    assert response.status_code == 200 and "<form" in response.text
    assert "Failed" in response.text and 'value="60"' in response.text
    assert snapshot() == state


def test_the_preview_says_when_the_deal_ends_the_match(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match(rules_from_dict({"preset": "coinche", "target": 300}), [coinche_deal()])
    response = owner_client.post(
        link("deal_new", match),
        deal_post(match.version, contract="150", taker_points="150"),
        headers=HTMX,
    )
    assert "this ends the match" in response.text


def test_all_passed(owner_client: Client, match: Match) -> None:
    response = owner_client.post(link("deal_passed", match), {"version": match.version})
    assert response.status_code == 302 and response["Location"] == link("scoreboard", match)
    row = Deal.objects.get()
    assert (row.kind, row.outcome, row.score0, row.score1) == ("passed", "passed", 0, 0)
    board = owner_client.get(link("scoreboard", match))
    assert "All passed" in board.text
    assert f"Deal {row.number}: all passed." in board.text  # the one-tap action says what it did
    # The next deal is dealt by the next seat (Chloé), Bruno speaks first.
    assert "<strong>Chloé</strong> deals, <strong>Bruno</strong> speaks first" in board.text


def test_all_passed_through_htmx_returns_the_scoreboard_partial(
    owner_client: Client, match: Match
) -> None:
    response = owner_client.post(
        link("deal_passed", match), {"version": match.version}, headers=HTMX
    )
    assert response.status_code == 200
    html = response.text.strip()
    assert html.startswith('<section id="scoreboard"') and "<html" not in html
    assert "All passed" in html and Deal.objects.filter(kind="passed").count() == 1
    assert f"?v={match.version + 1}" in html
    assert "Deal 1: all passed." in html


def test_a_manual_deal_with_a_note(owner_client: Client, match: Match) -> None:
    page = owner_client.get(link("deal_manual", match))
    assert page.status_code == 200 and "Nous" in page.text
    data = {"score0": "0", "score1": "160", "note": "misdeal by Alice", "version": match.version}
    response = owner_client.post(link("deal_manual", match), data)
    assert response.status_code == 302
    row = Deal.objects.get()
    assert (row.kind, row.manual0, row.manual1, row.note) == ("manual", 0, 160, "misdeal by Alice")
    assert (row.outcome, row.total1) == ("manual", 160)
    board = owner_client.get(link("scoreboard", match))
    assert "misdeal by Alice" in board.text and "Manual score" in board.text


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"score0": "-5", "score1": "0"}, "score0"),
        ({"score0": "0", "score1": "100001"}, "score1"),
        ({"score0": "ten", "score1": "0"}, "score0"),
        ({"score0": "", "score1": "ten"}, "score1"),  # a blank one counts 0 (issue 11)
    ],
)
def test_an_invalid_manual_score_saves_nothing(
    owner_client: Client, match: Match, snapshot: Snapshot, data: dict[str, str], field: str
) -> None:
    state = snapshot()
    response = owner_client.post(link("deal_manual", match), {**data, "note": "kept"})
    assert response.status_code == 200
    assert error_next_to(response.text, field)
    assert 'value="kept"' in response.text
    assert snapshot() == state


def test_editing_a_manual_deal(owner_client: Client, match: Match) -> None:
    owner_client.post(link("deal_manual", match), {"score0": "20", "score1": "0", "note": "a"})
    match.refresh_from_db()
    page = owner_client.get(link("deal_manual_edit", match, seq=1))
    assert 'value="20"' in page.text and 'value="a"' in page.text
    owner_client.post(
        link("deal_manual_edit", match, seq=1),
        {"score0": "0", "score1": "30", "note": "b", "version": match.version},
    )
    row = Deal.objects.get()
    assert (row.manual0, row.manual1, row.note, row.total1) == (0, 30, "b", 30)
    assert DealChange.objects.filter(action="edit").count() == 1
    # Its edit link on a played-deal URL goes to the manual form.
    response = owner_client.get(link("deal_edit", match, seq=1))
    assert response.status_code == 302
    assert response["Location"] == link("deal_manual_edit", match, seq=1)


def test_no_deal_can_be_added_to_a_finished_match(
    owner_client: Client, make_match: MakeMatch, snapshot: Snapshot
) -> None:
    match = make_match(rules_from_dict({"preset": "coinche", "target": 100}), [coinche_deal()])
    assert match.is_finished
    state = snapshot()
    for name, data in [
        ("deal_new", deal_post(match.version)),
        ("deal_passed", {"version": str(match.version)}),
        ("deal_manual", {"score0": "1", "score1": "0", "version": str(match.version)}),
    ]:
        response = owner_client.post(link(name, match), data, follow=True)
        assert response.status_code == 200
        assert "The match is over: no more deals." in response.text
    assert snapshot() == state
    board = owner_client.get(link("scoreboard", match))
    assert "Winner: Nous" in board.text and "Rematch" in board.text
    assert "Record a deal" not in board.text


def test_the_card_counting_helper(owner_client: Client, make_match: MakeMatch) -> None:
    match = make_match(get_preset("coinche"))
    cards = ["J-hearts", "9-hearts", "A-spades", "10-spades"]  # 20 + 14 + 11 + 10
    response = owner_client.get(
        link("count", match), {"trump": "hearts", "card": cards, "last_trick": "on", "won_by": "1"}
    )
    assert response.status_code == 200
    assert "<strong>65</strong>" in response.text
    # Opened from the scoreboard: no takers yet, so the team that won the cards takes.
    use = reverse("matches:deal_new", args=[match.scorer_token])
    assert f"{use}?trump=hearts&amp;taker=1&amp;taker_points=65" in response.text
    assert "← Scoreboard" in response.text
    form = owner_client.get(use, {"taker": "1", "trump": "hearts", "taker_points": "65"})
    assert 'name="taker_points" value="65"' in form.text
    partial = owner_client.post(
        link("count", match), {"trump": "all_trump", "card": cards}, headers=HTMX
    )
    assert "<html" not in partial.text


def hidden_fields(html: str) -> dict[str, str]:
    return dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', html))


def test_counting_the_cards_keeps_the_deal_being_typed(
    owner_client: Client, make_match: MakeMatch, snapshot: Snapshot
) -> None:
    """The deal form's "Count card points" sends the deal typed so far; the helper brings it back
    with the total in the card points of the team that won the cards, and saves nothing."""
    match = make_match(get_preset("coinche"))
    state = snapshot()
    typed = deal_post(
        match.version, taker="1", contract="120", trump="diamonds", taker_points="",
        coinche="coinche", note="Ben dealt", submission="abc-123",
    )  # fmt: skip
    sent = owner_client.post(link("count", match) + "?for=new", typed)
    assert sent.status_code == 302
    assert "csrfmiddlewaretoken" not in sent["Location"] and "for=new" in sent["Location"]
    page = owner_client.get(sent["Location"])
    assert re.search(r'name="trump" value="diamonds"[^>]* checked', page.text)  # the deal's
    assert re.search(r'name="won_by" value="1"[^>]* checked', page.text)  # takers, to start
    assert "← Back to the deal" in page.text

    # The defence's cards: J♦ 20 + 9♦ 14 + A♠ 11, and the last trick (10) = 55.
    counted = owner_client.get(  # the count form sends the deal back as hidden fields
        sent["Location"].split("?")[0],
        {
            **hidden_fields(page.text),
            "card": ["J-diamonds", "9-diamonds", "A-spades"],
            "last_trick": "on",
            "trump": "diamonds",
            "won_by": "0",
        },
    )
    use = re.search(r'href="([^"]*)">Use these points in the deal', counted.text)
    assert use is not None
    url = use.group(1).replace("&amp;", "&")
    assert url.startswith(reverse("matches:deal_new", args=[match.scorer_token]) + "?")
    # Both teams' points come back (issue 11), so the form and its preview are filled at once.
    assert "defence_points=55" in url and "taker_points=107" in url
    form = owner_client.get(url).text
    for kept in (
        r'name="taker" value="1"[^>]* checked',
        r'name="contract" value="120"[^>]* checked',
        r'name="trump" value="diamonds"[^>]* checked',
        r'name="coinche" value="coinche"[^>]* checked',
        r'name="defence_points" value="55"',
        r'name="taker_points" value="107"',
        r'name="submission" value="abc-123"',
        r'name="note"[^>]*value="Ben dealt"',
    ):
        assert re.search(kept, form), kept
    assert snapshot() == state


def test_counting_from_an_edited_deal_goes_back_to_it(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match(get_preset("coinche"), deals=[coinche_deal(points=100)])
    seq = match.deals.get().seq
    sent = owner_client.post(
        link("count", match) + f"?for={seq}", deal_post(match.version, taker_points="100")
    )
    page = owner_client.get(sent["Location"])
    counted = owner_client.get(
        sent["Location"].split("?")[0],
        {**hidden_fields(page.text), "card": ["J-hearts"], "trump": "hearts", "won_by": "0"},
    )
    edit = reverse("matches:deal_edit", args=[match.scorer_token, seq])
    assert f'href="{edit}?' in counted.text and "taker_points=20" in counted.text
    # Nonsense in `for` goes back to a new deal rather than failing.
    odd = owner_client.get(
        link("count", match), {"for": "../../x", "won_by": "0", "card": "A-hearts"}
    )
    assert odd.status_code == 200
    assert reverse("matches:deal_new", args=[match.scorer_token]) + "?" in odd.text
