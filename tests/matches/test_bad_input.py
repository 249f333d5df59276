"""Bad input anywhere gets a page that says what is wrong (or a 404 / 405), never a server error,
and changes nothing."""

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scorekeeper.engine.scoring import ManualDeal
from scorekeeper.matches.models import Match

from .conftest import MakeMatch, Snapshot
from .support import coinche_deal

pytestmark = pytest.mark.django_db

GARBAGE = [
    "",
    " ",
    "-1",
    "1e9",
    "99999999999999999999",
    "abc",
    "0x10",
    "1.5",
    "\x00",
    "🂡",
    "x" * 5000,
]
DEAL_FIELDS = [
    "taker", "contract", "trump", "coinche", "taker_points", "defence_points", "capot",
    "generale", "generale_bid", "belote0", "belote1", "note", "version", "submission",
    "ann0_0_kind", "ann0_0_high", "ann0_0_trump", "ann1_2_kind", "announcements_to",
]  # fmt: skip
VALID_DEAL = {
    "taker": "0", "contract": "80", "trump": "hearts", "coinche": "none", "taker_points": "100",
    "belote0": "0", "belote1": "0",
}  # fmt: skip


@pytest.fixture
def match(make_match: MakeMatch) -> Match:
    return make_match(deals=[coinche_deal(), ManualDeal((0, 10))])


def link(name: str, match: Match, **kwargs: object) -> str:
    return reverse(f"matches:{name}", kwargs={"token": match.scorer_token, **kwargs})


# How a refused form says what is wrong: an error next to a field, a list of what to correct, the
# form's own errors, or the "changed on another phone" warning.
ERROR_MARKS = ('class="error"', 'class="form-errors"', 'class="msg msg-warning"', "has-error")


def outcome(
    response: Any,  # the test client's response (a typed private class of django-stubs)
    before: dict[str, Any],
    after: dict[str, Any],
    submission: object = None,
) -> str:
    """What a POST did, asserted whole: "saved" (a redirect, and the change is in the database,
    with its change-log row for deals) or "refused" (the page again, an error on it, nothing
    written)."""
    if response.status_code == 302:
        if after == before:
            # Only a form already saved once (a double tap, or Back then Save) saves nothing.
            used = {change["submission"] for change in before["changes"]}
            assert submission in used, "a redirect that saved nothing"
            return "already saved"
        if len(after["changes"]) != len(before["changes"]):
            assert len(after["changes"]) == len(before["changes"]) + 1
        return "saved"
    assert response.status_code == 200
    assert after == before, "a refused form wrote something"
    assert any(mark in response.text for mark in ERROR_MARKS), "refused without saying why"
    return "refused"


@pytest.mark.parametrize("field", DEAL_FIELDS)
def test_garbage_in_any_deal_field_is_no_server_error(
    owner_client: Client, match: Match, snapshot: Snapshot, field: str
) -> None:
    for value in GARBAGE:
        data = {**VALID_DEAL, field: value}
        for url in (link("deal_new", match), link("deal_edit", match, seq=1)):
            state = snapshot()
            response = owner_client.post(url, {**data, "preview": "1"})
            assert response.status_code == 200, (field, value)
            assert snapshot() == state
            response = owner_client.post(url, data, headers={"hx-request": "true"})
            assert response.status_code == 200, (field, value)
            assert snapshot() == state
            response = owner_client.post(url, data)
            outcome(response, state, snapshot(), data.get("submission"))


def test_lists_where_one_value_is_expected(
    owner_client: Client, match: Match, snapshot: Snapshot
) -> None:
    """A field sent twice counts once, with its last value (as Django reads it): a last version
    "x" is refused and said, then the same lists with a good last version save that taker."""
    state = snapshot()
    data = {**VALID_DEAL, "taker": ["0", "1"], "trump": ["hearts", "spades"], "version": ["1", "x"]}
    response = owner_client.post(link("deal_new", match), data)
    assert outcome(response, state, snapshot()) == "refused"
    assert "This form was altered outside the app" in response.text
    data["version"] = ["x", str(match.version)]
    response = owner_client.post(link("deal_new", match), data)
    assert outcome(response, state, snapshot()) == "saved"
    saved = match.deals.in_order().last()
    assert saved is not None and (saved.taker, saved.trump) == (1, "spades")


@pytest.mark.parametrize("field", ["score0", "score1", "note", "version", "submission"])
def test_garbage_in_a_manual_score_is_no_server_error(
    owner_client: Client, match: Match, snapshot: Snapshot, field: str
) -> None:
    for value in GARBAGE:
        data = {"score0": "10", "score1": "0", field: value}
        for url in (link("deal_manual", match), link("deal_manual_edit", match, seq=2)):
            state = snapshot()
            outcome(owner_client.post(url, data), state, snapshot(), data.get("submission"))


@pytest.mark.parametrize(
    "field",
    ["preset", "target", "deals_limit", "rounding", "sa_ta", "multipliers", "min_bid",
     "max_bid", "capot_bid", "first_dealer", "team0_name", "seat2", "litige", "end_tie"],
)  # fmt: skip
def test_garbage_in_the_new_match_form_is_no_server_error(
    client: Client, snapshot: Snapshot, field: str
) -> None:
    base = {"preset": "coinche", "team0_name": "A", "team1_name": "B", "first_dealer": "0"}
    for value in GARBAGE:
        state = snapshot()
        response = client.post(reverse("matches:new"), {**base, field: value})
        if outcome(response, state, snapshot()) == "saved":
            created = Match.objects.latest("id")
            assert response["Location"] == reverse(
                "matches:scoreboard", args=[created.scorer_token]
            )


@pytest.mark.parametrize("version", GARBAGE)
def test_garbage_versions_on_one_tap_actions(
    owner_client: Client, match: Match, snapshot: Snapshot, version: str
) -> None:
    actions: list[tuple[str, dict[str, int]]] = [
        ("deal_passed", {}), ("undo", {}), ("redo", {}), ("deal_delete", {"seq": 2})
    ]  # fmt: skip
    for name, kwargs in actions:
        state = snapshot()
        response = owner_client.post(link(name, match, **kwargs), {"version": version})
        # A one-tap action redirects to the scoreboard, which says what happened: done (a
        # version that is no number is no version), or refused because the match changed.
        assert response.status_code == 302, (name, version)
        board = owner_client.get(response["Location"]).text
        if snapshot() == state:
            said = ("The match changed", "Nothing to undo", "Nothing to redo")
            assert any(words in board for words in said), (name, version)


def test_garbage_in_the_card_counter_and_the_qr_codes(owner_client: Client, match: Match) -> None:
    for value in GARBAGE:
        params = {
            "trump": value, "card": [value, "J-hearts", "Z-z"], "taker": value, "won_by": value,
            "for": value, "contract": value, "taker_points": value,
        }  # fmt: skip
        assert owner_client.get(link("count", match), params).status_code == 200
        # From the deal form: the deal typed so far is carried to the helper's page.
        sent = owner_client.post(link("count", match) + f"?for={value}", params, follow=True)
        assert sent.status_code == 200
    for kind in ("view", "scorer"):
        assert owner_client.get(link("qr", match, kind=kind)).status_code == 200
    for kind in ("other", "x" * 300):  # no QR code of anything else
        assert owner_client.get(link("qr", match, kind=kind)).status_code == 404
    assert owner_client.get(link("scoreboard", match), {"v": "x" * 300}).status_code == 200


def test_huge_and_odd_uploads(owner_client: Client, snapshot: Snapshot) -> None:
    state = snapshot()
    for content in (b"[" * 100_000, b"{}" * 10, b"\x00" * 50, b"1", b'"text"', b"null"):
        upload = SimpleUploadedFile("m.json", content, content_type="application/json")
        response = owner_client.post(reverse("matches:import"), {"file": upload})
        assert response.status_code == 200 and "cannot be imported" in response.text
    big = SimpleUploadedFile("m.json", b" " * (2 * 1024 * 1024 + 1))
    response = owner_client.post(reverse("matches:import"), {"file": big})
    assert "The file is too large (2 MB at most)." in response.text
    assert snapshot() == state


@pytest.mark.parametrize(
    ("method", "name", "kwargs"),
    [
        ("get", "deal_passed", {}),
        ("get", "undo", {}),
        ("get", "redo", {}),
        ("get", "regenerate_links", {}),
        ("get", "rematch", {}),
        ("post", "scoreboard", {}),
        ("post", "share", {}),
        ("post", "export", {}),
        ("put", "deal_new", {}),
        ("delete", "deal_edit", {"seq": 1}),
    ],
)
def test_a_wrong_method_is_refused_and_changes_nothing(
    owner_client: Client,
    match: Match,
    snapshot: Snapshot,
    method: str,
    name: str,
    kwargs: dict[str, object],
) -> None:
    state = snapshot()
    assert getattr(owner_client, method)(link(name, match, **kwargs)).status_code == 405
    assert snapshot() == state


def test_a_stale_resubmission_after_an_undo_is_no_server_error(
    owner_client: Client, make_match: MakeMatch
) -> None:
    """Save a deal, undo it, then tap save again on the old page (browser back): the page must
    not break."""
    match = make_match()
    data = {**VALID_DEAL, "version": str(match.version), "submission": "back-button"}
    assert owner_client.post(link("deal_new", match), data).status_code == 302
    match.refresh_from_db()
    owner_client.post(link("undo", match), {"version": match.version})
    response = owner_client.post(link("deal_new", match), data, follow=True)
    assert response.status_code == 200
    assert "already saved, and that deal was undone since" in response.text
    assert match.deals.count() == 0  # the undo stands: the old form saves nothing
