"""A form that comes back with errors says so once, at its top: one error summary
(partials/error_summary.html, role="alert", focused on load through autofocus) with the form's own
errors and a link to each field in error (a radio group's link goes to its first radio). Every
field in error names its message in aria-describedby, radio groups included, and each id named
exists. The deal form's live preview has one live region, never replaced: its words come out of
band."""

import re
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scorekeeper.matches.models import Match

from .conftest import MakeMatch
from .support import deal_post, new_match_post

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
OPENING = '<div class="form-errors" id="error-summary" role="alert" tabindex="-1" autofocus>'


@pytest.fixture
def match(make_match: MakeMatch) -> Match:
    return make_match()


def link(name: str, match: Match, **kwargs: object) -> str:
    return reverse(f"matches:{name}", kwargs={"token": match.scorer_token, **kwargs})


def text(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))  # (French words come in <span lang="fr">)


def summary(html: str) -> tuple[list[str], list[tuple[str, str, str]]]:
    """The one summary's messages and its (target id, label, message) links."""
    assert html.count('id="error-summary"') == 1
    # The first element to take the focus (Django's log-in forms autofocus the name as well).
    assert html.split(" autofocus", 1)[0].endswith(OPENING.removesuffix(" autofocus>"))
    body = html.split(OPENING, 1)[1].split("</div>", 1)[0]
    messages = [text(m) for m in re.findall(r"^\s*<p>(.*?)</p>", body, re.M)]
    if links_lead := "Correct the fields marked below:" in messages:
        assert messages[-1] == "Correct the fields marked below:"
        messages.pop()
    links = [
        (target, text(label), text(message))
        for target, label, message in re.findall(
            r'<li><a href="#([^"]*)">(.*?)</a>: (.*?)</li>', body
        )
    ]
    assert bool(links) == links_lead  # the lead sentence, before the links only
    return messages, links


def ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def assert_descriptions_exist(html: str) -> None:
    """Every aria-describedby names elements of the page; every aria-invalid control has one."""
    known = ids(html)
    for names in re.findall(r'aria-describedby="([^"]+)"', html):
        assert set(names.split()) <= known, names
    for tag in re.findall(r"<(?:input|select|textarea)\b[^>]*>", html):
        if 'aria-invalid="true"' in tag and 'type="hidden"' not in tag:
            assert "aria-describedby=" in tag, tag


def controls(html: str, name: str) -> list[str]:
    return re.findall(rf'<(?:input|select|textarea)\b[^>]*\bname="{name}"[^>]*>', html)


def error_text(html: str, error_id: str) -> str:
    found = re.search(rf'<p class="error" id="{error_id}">([^<]*)</p>', html)
    assert found, error_id
    return unescape(found.group(1))


def test_a_failed_save_of_an_empty_deal(owner_client: Client, match: Match) -> None:
    data = {"version": str(match.version), "submission": "x1"}
    html = owner_client.post(link("deal_new", match), data).text
    messages, links = summary(html)
    assert messages == []
    targets = [target for target, _, _ in links]
    assert targets[:3] == ["id_taker_0", "id_contract_0", "id_trump_0"]
    labels = [label for _, label, _ in links]
    assert labels[:3] == ["Takers", "Contract", "Trump"]
    assert links[0][2] == "This field is required."
    # Each link goes to a control of the page: a chip group's first radio.
    for target in targets:
        assert re.search(rf'<input [^>]*id="{target}"', html), target
    # Every radio of a group in error points at the group's message, which has that id.
    for name in ("taker", "contract", "trump"):
        radios = controls(html, name)
        assert radios
        for radio in radios:
            assert 'aria-invalid="true"' in radio
            assert f'aria-describedby="id_{name}_error"' in radio
        assert error_text(html, f"id_{name}_error") == "This field is required."
    # A group without error says nothing of the sort.
    for radio in controls(html, "capot"):
        assert "aria-invalid" not in radio and "aria-describedby" not in radio
    assert_descriptions_exist(html)


def test_every_kind_of_deal_field_in_error_is_described(owner_client: Client, match: Match) -> None:
    """Chips, number inputs, check boxes and the announcements' selects alike."""
    data = deal_post(
        match.version,
        trump="bogus",
        taker_points="200",
        belote0="9",
        generale="on",
        ann1_1_kind="",
        ann1_1_high="K",
        ann1_1_trump="on",
    )
    html = owner_client.post(link("deal_new", match), data).text
    _, links = summary(html)
    targets = {target for target, _, _ in links}
    assert {"id_trump_0", "id_taker_points", "id_belote0_0"} <= targets
    for radio in controls(html, "trump"):
        assert 'aria-describedby="id_trump_error"' in radio
    (points,) = controls(html, "taker_points")
    assert 'aria-describedby="id_taker_points_error"' in points
    assert "162" in error_text(html, "id_taker_points_error")
    for target in targets:
        assert target in ids(html), target
    assert_descriptions_exist(html)


def test_the_edit_form_has_the_same_summary(owner_client: Client, make_match: MakeMatch) -> None:
    from .support import coinche_deal

    match = make_match("coinche", [coinche_deal()])
    data = deal_post(match.version, taker="", trump="")
    html = owner_client.post(link("deal_edit", match, seq=1), data).text
    _, links = summary(html)
    assert [target for target, _, _ in links] == ["id_taker_0", "id_trump_0"]
    assert_descriptions_exist(html)


def test_a_form_error_of_the_engine_is_in_the_summary(
    owner_client: Client, make_match: MakeMatch
) -> None:
    from scorekeeper.engine.scoring import rules_from_dict

    from .support import coinche_deal

    match = make_match(rules_from_dict({"preset": "coinche", "target": 500}), [coinche_deal()] * 2)
    data = deal_post(match.version, contract="capot", taker_points="", capot="0")
    html = owner_client.post(link("deal_edit", match, seq=1), data).text
    messages, links = summary(html)
    assert any("the match was already over after deal 1" in m for m in messages)
    assert links == []


def test_a_good_form_has_no_summary_and_nothing_takes_the_focus(
    owner_client: Client, match: Match
) -> None:
    html = owner_client.get(link("deal_new", match)).text
    assert "error-summary" not in html and " autofocus" not in html
    # A tap on Preview (a page without the live preview) puts the focus on the score instead;
    # htmx's live preview never moves it.
    data = {**deal_post(match.version), "preview": "1"}
    html = owner_client.post(link("deal_new", match), data).text
    assert "error-summary" not in html and html.count(" autofocus") == 1
    assert re.search(r'<section id="preview" [^>]*tabindex="-1" autofocus>', html)
    html = owner_client.post(link("deal_new", match), deal_post(match.version), headers=HTMX).text
    assert "Made" in html and "autofocus" not in html


def test_the_manual_score_summary(owner_client: Client, match: Match) -> None:
    data = {"score0": "1", "score1": "", "version": "x", "submission": "y" * 65}
    html = owner_client.post(link("deal_manual", match), data).text
    messages, links = summary(html)
    # The hidden fields' errors (no field to go to) say the same: said once.
    assert len(messages) == 1 and links == []
    html = owner_client.post(link("deal_manual", match), {"score0": "-3", "score1": "x"}).text
    _, links = summary(html)
    assert [(t, label) for t, label, _ in links] == [("id_score0", "Nous"), ("id_score1", "Eux")]
    assert_descriptions_exist(html)


def test_nothing_to_record_is_said_at_the_top(owner_client: Client, match: Match) -> None:
    data = {"score0": "0", "score1": "0", "version": str(match.version), "submission": "s"}
    messages, links = summary(owner_client.post(link("deal_manual", match), data).text)
    assert messages == ["Nothing to record: enter the points of at least one team."]
    assert links == []


def test_the_new_match_summary_and_the_rules_radios(client: Client) -> None:
    html = client.post(reverse("matches:new"), new_match_post(preset="bogus", seat1="Alice")).text
    _, links = summary(html)
    assert [target for target, _, _ in links] == ["id_preset_0", "id_seat1"]
    for radio in controls(html, "preset"):
        assert 'aria-invalid="true" aria-describedby="id_preset_error"' in radio
    assert "id_preset_0" in ids(html)
    assert "valid choice" in error_text(html, "id_preset_error")
    assert_descriptions_exist(html)


def test_the_import_summary(client: Client) -> None:
    html = client.post(reverse("matches:import"), {"csrfmiddlewaretoken": "t"}).text
    _, links = summary(html)
    assert links == [("id_file", "Match file (.json)", "This field is required.")]
    upload = SimpleUploadedFile("m.json", b"{not json", content_type="application/json")
    html = client.post(reverse("matches:import"), {"file": upload}).text
    _, links = summary(html)
    assert [target for target, _, _ in links] == ["id_file"]
    assert "cannot be imported" in links[0][2]
    assert_descriptions_exist(html)


def test_the_sign_up_and_log_in_summaries(client: Client) -> None:
    html = client.post(reverse("accounts:signup"), {"username": "", "password1": "a"}).text
    _, links = summary(html)
    assert [target for target, _, _ in links] == ["id_username", "id_password2"]
    assert_descriptions_exist(html)
    User.objects.create_user("zoe", password="a long pass phrase 42")
    html = client.post(reverse("accounts:login"), {"username": "zoe", "password": "wrong"}).text
    messages, links = summary(html)
    assert len(messages) == 1 and "correct username and password" in messages[0]
    assert links == []


def test_the_restore_summary(client: Client) -> None:
    client.force_login(User.objects.create_user("zoe", password="a long pass phrase 42"))
    html = client.post(reverse("history:restore"), {"csrfmiddlewaretoken": "t"}).text
    _, links = summary(html)
    assert [target for target, _, _ in links] == ["id_file"]
    assert_descriptions_exist(html)


def test_the_live_preview_swaps_the_words_of_one_live_region(
    owner_client: Client, match: Match
) -> None:
    page = owner_client.get(link("deal_new", match)).text
    # One live region on the page, outside the preview that each update replaces.
    assert page.count("aria-live=") == 1
    assert '<p id="preview-status" class="sr-only" role="status" aria-live="polite"' in page
    preview = page.split('<section id="preview"', 1)[1].split("</section>", 1)[0]
    assert "aria-live" not in preview and 'role="status"' not in preview
    response = owner_client.post(link("deal_new", match), deal_post(match.version), headers=HTMX)
    status = re.search(r'<p id="preview-status"[^>]*>([^<]*)</p>', response.text)
    assert status
    assert 'hx-swap-oob="innerHTML"' in status.group(0)  # the element stays, its words change
    assert unescape(status.group(1)) == "Made · Nous +180 · Eux +60"
    # While a field is wrong, the region says what to correct.
    data = deal_post(match.version, taker_points="170")
    html = owner_client.post(link("deal_new", match), data, headers=HTMX).text
    status = re.search(r'<p id="preview-status"[^>]*>([^<]*)</p>', html)
    assert status and "To see the score, correct this:" in status.group(1)
    assert "162" in status.group(1)


def test_the_summary_in_french() -> None:
    """French puts a no-break space before the colon (from pending-errors.po)."""
    client = Client(headers={"accept-language": "fr"})
    html = client.post(reverse("matches:new"), new_match_post(seat1="alice", seat0="Alice")).text
    assert 'lang="fr"' in html
    body = html.split(OPENING, 1)[1].split("</div>", 1)[0]
    assert "Corrigez les champs signalés ci-dessous\u00a0:" in body
    assert '<a href="#id_seat1">' in body
    assert "</a>\u00a0: " in body


def test_a_save_refused_because_the_match_changed_takes_the_focus_too(
    owner_client: Client, match: Match
) -> None:
    """The warning is the page's first (and only) autofocus, deal form and manual score alike."""
    stale = match.version
    owner_client.post(link("deal_passed", match), {"version": stale})
    warning = '<p class="msg msg-warning" role="alert" tabindex="-1" autofocus>'
    for name, data in (
        ("deal_new", deal_post(stale)),
        ("deal_manual", {"score0": "10", "score1": "", "version": str(stale)}),
    ):
        html = owner_client.post(link(name, match), data).text
        assert "changed on another phone" in html
        assert html.count(" autofocus") == 1 and warning in html


def test_french_game_words_in_the_summary_are_marked(owner_client: Client, match: Match) -> None:
    """On an English page, as next to the field (issue 12): lang="fr" on the French words."""
    html = owner_client.post(link("deal_new", match), deal_post(match.version, capot="9")).text
    body = html.split(OPENING, 1)[1].split("</div>", 1)[0]
    assert '<a href="#id_capot_0"><span lang="fr">Capot</span> (every trick)</a>: ' in body


def test_a_wrong_delete_confirmation_takes_the_focus(owner_client: Client, match: Match) -> None:
    html = owner_client.post(link("delete_match", match), {"confirm": "nope"}).text
    assert (
        '<div class="form-errors" role="alert" id="confirm-error" tabindex="-1" autofocus>' in html
    )
    assert html.count(" autofocus") == 1
    assert 'aria-invalid="true" aria-describedby="confirm-error"' in html
    assert Match.objects.filter(pk=match.pk, deleted_at__isnull=True).exists()
