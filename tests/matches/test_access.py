"""Who may see and change a match: the creating browser and any holder of the scorer link may
score; the read-only link only shows; a guessed or revoked token, or a wrong deal number, gets a
404 and changes nothing."""

from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.engine.scoring import ManualDeal
from scorekeeper.matches import access
from scorekeeper.matches.models import DealChange, Match
from tests.conftest import match_maker
from tests.shared_data import shared_data

from .conftest import Snapshot
from .support import OWNER_KEY, coinche_deal, deal_post

pytestmark = pytest.mark.django_db

# Every page under /score/<token>/, with the method that changes something where there is one.
SCORER_PAGES: list[tuple[str, str, dict[str, object]]] = [
    ("get", "scoreboard", {}),
    ("get", "deal_new", {}),
    ("post", "deal_new", {}),
    ("get", "deal_edit", {"seq": 1}),
    ("post", "deal_edit", {"seq": 1}),
    ("get", "deal_delete", {"seq": 1}),
    ("post", "deal_delete", {"seq": 1}),
    ("get", "deal_log", {"seq": 1}),
    ("post", "deal_passed", {}),
    ("get", "deal_manual", {}),
    ("post", "deal_manual", {}),
    ("get", "deal_manual_edit", {"seq": 2}),
    ("post", "deal_manual_edit", {"seq": 2}),
    ("post", "undo", {}),
    ("post", "redo", {}),
    ("get", "count", {}),
    ("get", "share", {}),
    ("post", "regenerate_links", {}),
    ("get", "qr", {"kind": "view"}),
    ("get", "export", {}),
    ("post", "rematch", {}),
]
WRITES = [page for page in SCORER_PAGES if page[0] == "post"]


@shared_data
def match() -> Match:
    """Built once for the module (tests/shared_data.py): each test gets its own copy, and its
    writes roll back."""
    return match_maker(OWNER_KEY)(deals=[coinche_deal(), ManualDeal((0, 20), "penalty")])


def url(name: str, token: str, kwargs: dict[str, object]) -> str:
    """The page's URL with `token` as typed: reverse() only takes a token's letters (a slug),
    another word (a NUL, a quote) is put in its place, to be a 404 from the URL itself."""
    placeholder = "the-token"
    address = reverse(f"matches:{name}", kwargs={"token": placeholder, **kwargs})
    return address.replace(placeholder, quote(token, safe="%"), 1)


def write_data(match: Match) -> dict[str, str]:
    """A valid body for every write (deal, manual score or version only)."""
    return {**deal_post(match.version), "score0": "10", "score1": "0", "confirm": "yes"}


def test_the_creating_browser_scores(owner_client: Client, match: Match) -> None:
    page = owner_client.get(url("scoreboard", match.scorer_token, {}))
    assert page.status_code == 200
    assert "Record a deal" in page.text and "Undo" in page.text
    response = owner_client.post(url("deal_new", match.scorer_token, {}), deal_post(match.version))
    assert response.status_code == 302
    change = DealChange.objects.latest("id")
    assert (change.action, change.author) == ("add", "creator")
    assert match.deals.count() == 3


def test_another_phone_with_the_scorer_link_scores(other_client: Client, match: Match) -> None:
    page = other_client.get(url("scoreboard", match.scorer_token, {}))
    assert page.status_code == 200 and "Record a deal" in page.text
    response = other_client.post(url("deal_new", match.scorer_token, {}), deal_post(match.version))
    assert response.status_code == 302
    change = DealChange.objects.latest("id")
    assert (change.action, change.author) == ("add", "scorer link")
    assert change.author_key == other_client.session[access.DEVICE_KEY]
    assert match.deals.count() == 3
    # The match is now in that browser's list of matches it scored.
    assert match.scorer_token in other_client.session[access.REMEMBERED]


def test_the_read_only_link_shows_the_scores_without_any_control(
    other_client: Client, match: Match
) -> None:
    page = other_client.get(reverse("matches:viewer", args=[match.view_token]))
    assert page.status_code == 200
    assert "Read-only view" in page.text
    assert f">{match.total0}<" in page.text and "penalty" in page.text
    assert match.scorer_token not in page.text
    controls = ("Record a deal", "Undo", "Redo", "Rematch", "/deal/", "/undo/", "/redo/", "/share/")
    for control in controls:
        assert control not in page.text
    export = other_client.get(reverse("matches:export_viewer", args=[match.view_token]))
    assert export.status_code == 200 and export.json()["format"] == "belote-match/1"


@pytest.mark.parametrize(("method", "name", "kwargs"), SCORER_PAGES)
def test_the_read_only_token_opens_no_scorer_page(
    client: Client,
    match: Match,
    snapshot: Snapshot,
    method: str,
    name: str,
    kwargs: dict[str, object],
) -> None:
    state = snapshot()
    response = getattr(client, method)(url(name, match.view_token, kwargs), write_data(match))
    assert response.status_code == 404
    assert snapshot() == state


@pytest.mark.parametrize(
    "path",
    [
        "deal/",
        "deal/1/",
        "deal/1/delete/",
        "deal/1/log/",
        "passed/",
        "manual/",
        "undo/",
        "redo/",
        "share/",
        "share/renew/",
        "rematch/",
        "count/",
        "qr/view.svg",
    ],
)
def test_nothing_can_be_written_under_the_read_only_link(
    client: Client, match: Match, snapshot: Snapshot, path: str
) -> None:
    state = snapshot()
    base = reverse("matches:viewer", args=[match.view_token])
    assert client.get(base + path).status_code == 404
    assert client.post(base + path, write_data(match)).status_code == 404
    assert snapshot() == state


@pytest.mark.parametrize(
    "token",
    ["x", "0", "A" * 24, "not-a-real-token-at-all", "%00", "' OR 1=1 --", "scorer_token"],
)
@pytest.mark.parametrize(("method", "name", "kwargs"), [*WRITES, ("get", "scoreboard", {})])
def test_a_guessed_token_gets_a_404_and_changes_nothing(
    owner_client: Client,
    match: Match,
    snapshot: Snapshot,
    token: str,
    method: str,
    name: str,
    kwargs: dict[str, object],
) -> None:
    state = snapshot()
    response = getattr(owner_client, method)(url(name, token, kwargs), write_data(match))
    assert response.status_code == 404
    assert snapshot() == state
    viewer = owner_client.get(url("viewer", token, {}))
    assert viewer.status_code == 404


def test_a_token_with_one_character_changed_is_not_found(client: Client, match: Match) -> None:
    token = match.scorer_token
    near = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert client.get(url("scoreboard", near, {})).status_code == 404
    if token.upper() != token:
        assert client.get(url("scoreboard", token.upper(), {})).status_code == 404
    assert client.get(url("scoreboard", token, {})).status_code == 200


@pytest.mark.parametrize(
    ("method", "name", "seq"),
    [
        ("get", "deal_edit", 99),
        ("post", "deal_edit", 99),
        ("get", "deal_delete", 3),
        ("post", "deal_delete", 0),
        ("get", "deal_log", 99),
        ("get", "deal_manual_edit", 1),  # deal 1 is a played deal, not a manual one
        ("post", "deal_manual_edit", 1),
        ("post", "deal_manual_edit", 99),
    ],
)
def test_a_wrong_deal_number_gets_a_404_and_changes_nothing(
    owner_client: Client, match: Match, snapshot: Snapshot, method: str, name: str, seq: int
) -> None:
    state = snapshot()
    response = getattr(owner_client, method)(
        url(name, match.scorer_token, {"seq": seq}), write_data(match)
    )
    assert response.status_code == 404
    assert snapshot() == state


def test_a_match_id_in_the_url_opens_nothing(client: Client, match: Match) -> None:
    for path in (f"/score/{match.pk}/", f"/view/{match.pk}/", f"/score/{match.pk}/match.json"):
        assert client.get(path).status_code == 404


def test_a_phone_without_a_link_sees_no_match(client: Client, match: Match) -> None:
    home = client.get("/")
    assert home.status_code == 200
    assert match.scorer_token not in home.text and match.view_token not in home.text


def test_only_the_owner_regenerates_the_links(
    owner_client: Client, other_client: Client, match: Match
) -> None:
    renew = url("regenerate_links", match.scorer_token, {})
    refused = other_client.post(renew, {"confirm": "yes"}, follow=True)
    assert "Only the match&#x27;s owner can change its links." in refused.text
    fresh = Match.objects.get(pk=match.pk)
    assert (fresh.view_token, fresh.scorer_token) == (match.view_token, match.scorer_token)
    # The owner must tick the box first: one stray tap cannot cut every phone off.
    unticked = owner_client.post(renew, follow=True)
    assert "Tick the box to confirm: the old links will stop working." in unticked.text
    fresh.refresh_from_db()
    assert (fresh.view_token, fresh.scorer_token) == (match.view_token, match.scorer_token)

    response = owner_client.post(renew, {"confirm": "yes"})
    fresh.refresh_from_db()
    assert response.status_code == 302
    assert response["Location"] == reverse("matches:share", args=[fresh.scorer_token])
    assert fresh.view_token != match.view_token and fresh.scorer_token != match.scorer_token
    # The old links are dead, for every page; the new ones work.
    for method, name, kwargs in SCORER_PAGES:
        old = getattr(other_client, method)(url(name, match.scorer_token, kwargs))
        assert old.status_code == 404, name
    assert other_client.get(reverse("matches:viewer", args=[match.view_token])).status_code == 404
    assert other_client.get(url("scoreboard", fresh.scorer_token, {})).status_code == 200
    assert other_client.get(reverse("matches:viewer", args=[fresh.view_token])).status_code == 200
    share = owner_client.get(url("share", fresh.scorer_token, {}))
    assert fresh.view_token in share.text and fresh.scorer_token in share.text
    assert match.view_token not in share.text


def test_the_share_page_shows_both_links_and_their_qr_codes(
    owner_client: Client, match: Match
) -> None:
    page = owner_client.get(url("share", match.scorer_token, {}))
    assert f"http://testserver/view/{match.view_token}/" in page.text
    assert f"http://testserver/score/{match.scorer_token}/" in page.text
    for kind in ("view", "scorer"):
        qr = owner_client.get(url("qr", match.scorer_token, {"kind": kind}))
        assert qr.status_code == 200 and qr["Content-Type"] == "image/svg+xml"
        assert qr.content.startswith(b"<svg") and b"xmlns" in qr.content
