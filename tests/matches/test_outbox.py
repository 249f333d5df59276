"""A phone's outbox sent when the signal is back (docs/offline.md): POST /score/<token>/outbox/
saves each queued change once (a replayed submission is harmless), answers a conflict in JSON
(another phone saved first, a finished match, a withdrawn scorer, an invalid deal) and changes
nothing then, and a renewed link is a 404. What the phone says of itself (offline since, deals
waiting) is kept for a concours's table only. The service worker and the manifest are served
at the site's root."""

import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client, override_settings
from django.urls import reverse

from scorekeeper.engine.scoring import PassedDeal
from scorekeeper.matches import access, services
from scorekeeper.matches.models import Match

from .conftest import MakeMatch, Snapshot
from .support import OWNER_KEY, deal_post

pytestmark = pytest.mark.django_db


def send(client: Client, match: Match, action: str = "add", **fields: str) -> Any:
    url = reverse("matches:outbox", args=[match.scorer_token])
    return client.post(url, {"action": action, **fields})


def test_a_queued_deal_is_saved_once_even_when_sent_twice(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    post = deal_post(match.version, submission="offline-1", taker_points="100")
    first = send(owner_client, match, **post)
    assert first.status_code == 200
    answer = first.json()
    match.refresh_from_db()
    assert answer == {
        "ok": True,
        "number": 1,
        "seq": 1,
        "version": match.version,
        "totals": [match.total0, match.total1],
        "board": reverse("matches:scoreboard", args=[match.scorer_token]),
    }
    # The answer was lost with the signal: the phone sends the same deal again.
    again = send(owner_client, match, **post)
    assert again.status_code == 200
    assert again.json()["number"] == 1
    match.refresh_from_db()
    assert match.deal_count == 1
    assert match.changes.count() == 1


def test_queued_deals_in_order_each_based_on_the_one_before(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    version = match.version
    for n, points in enumerate(("100", "60", "130")):
        answer = send(
            owner_client, match, **deal_post(version, submission=f"s{n}", taker_points=points)
        )
        assert answer.status_code == 200
        version = answer.json()["version"]
    passed = send(owner_client, match, "passed", version=str(version), submission="s3")
    assert passed.json()["number"] == 4
    match.refresh_from_db()
    assert [row.taker_points for row in match.deal_rows()] == [100, 60, 130, None]


def test_another_phone_saved_first_is_a_conflict_that_changes_nothing(
    owner_client: Client, make_match: MakeMatch, snapshot: Snapshot
) -> None:
    match = make_match()
    stale = match.version
    services.record_deal(
        match_id=match.pk,
        expected_version=None,
        deal=PassedDeal(),
        author=services.Author(key="other", label="other"),
    )
    match.refresh_from_db()
    before = snapshot()
    response = send(owner_client, match, **deal_post(stale, submission="late"))
    assert response.status_code == 409
    answer = response.json()
    assert answer["ok"] is False
    assert answer["code"] == "changed"
    assert answer["version"] == match.version
    assert "another phone" in answer["message"]
    assert snapshot() == before
    # "Send it as the next deal": the same deal on the version now.
    resent = send(owner_client, match, **deal_post(match.version, submission="late"))
    assert resent.status_code == 200
    assert resent.json()["number"] == 2


def test_an_edit_and_an_undo_are_queued_changes_too(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    version = send(owner_client, match, **deal_post(match.version, submission="a")).json()[
        "version"
    ]
    edit = deal_post(version, submission="b", taker_points="130")
    edited = send(owner_client, match, "edit", seq="1", **edit)
    assert edited.status_code == 200
    match.refresh_from_db()
    assert [row.taker_points for row in match.deal_rows()] == [130]
    undone = send(owner_client, match, "undo", version=str(match.version), submission="c")
    assert undone.status_code == 200
    match.refresh_from_db()
    assert [row.taker_points for row in match.deal_rows()] == [100]
    gone = send(owner_client, match, "edit", seq="9", **deal_post(match.version, submission="d"))
    assert gone.status_code == 409
    assert gone.json()["code"] == "gone"


def test_an_invalid_deal_is_refused_with_its_fields(
    owner_client: Client, make_match: MakeMatch, snapshot: Snapshot
) -> None:
    match = make_match()
    before = snapshot()
    response = send(owner_client, match, **deal_post(match.version, taker_points="200"))
    assert response.status_code == 400
    answer = response.json()
    assert answer["code"] == "invalid"
    assert "taker_points" in answer["fields"]
    bad = send(owner_client, match, "drop_table", version=str(match.version))
    assert bad.status_code == 400
    assert snapshot() == before


def test_a_finished_match_takes_no_queued_deal(owner_client: Client, make_match: MakeMatch) -> None:
    match = make_match()
    services.abandon_match(match_id=match.pk)
    match.refresh_from_db()
    response = send(owner_client, match, **deal_post(match.version, submission="x"))
    assert response.status_code == 409
    assert response.json()["code"] == "abandoned"


def test_a_renewed_link_is_not_found_and_get_is_refused(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    services.regenerate_links(match_id=match.pk)
    response = send(owner_client, match, **deal_post(match.version, submission="x"))
    assert response.status_code == 404
    assert Match.objects.get(pk=match.pk).deal_count == 0
    fresh = Match.objects.get(pk=match.pk)
    assert owner_client.get(reverse("matches:outbox", args=[fresh.scorer_token])).status_code == 405


def test_the_outbox_needs_the_csrf_token(make_match: MakeMatch) -> None:
    match = make_match()
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        reverse("matches:outbox", args=[match.scorer_token]), {"action": "heartbeat"}
    )
    assert response.status_code == 403


def test_what_the_phone_says_is_kept_for_a_concours_table_only(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    since = str(int(time.time() * 1000) - 600_000)
    response = send(owner_client, match, "heartbeat", offline_since=since, waiting="3")
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.phone_seen_at is None  # not a table: nothing written
    Match.objects.filter(pk=match.pk).update(in_concours=True)
    version = match.version
    send(owner_client, match, "heartbeat", offline_since=since, waiting="3")
    match.refresh_from_db()
    assert match.phone_seen_at is not None
    assert match.phone_offline_since is not None
    assert int(match.phone_offline_since.timestamp() * 1000) == int(since)
    assert match.phone_waiting == 3
    assert match.version == version  # a heartbeat is no change of the match
    # All sent: nothing waiting, no "offline since"; a clock gone wrong is not believed.
    send(owner_client, match, "heartbeat", offline_since="99999999999999", waiting="0")
    match.refresh_from_db()
    assert (match.phone_offline_since, match.phone_waiting) == (None, 0)
    send(owner_client, match, "heartbeat", offline_since="99999999999999", waiting="2")
    match.refresh_from_db()
    assert (match.phone_offline_since, match.phone_waiting) == (None, 2)


def test_the_pages_write_nothing_for_the_phone(owner_client: Client, make_match: MakeMatch) -> None:
    match = make_match()
    Match.objects.filter(pk=match.pk).update(in_concours=True)
    owner_client.get(reverse("matches:scoreboard", args=[match.scorer_token]))
    match.refresh_from_db()
    assert match.phone_seen_at is None


def test_the_service_worker_is_served_at_the_root(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert "__CACHE_VERSION__" not in body
    assert "__OUTBOX_URL__" not in body
    assert 'const PAGES = "pages-' in body
    assert "js/outbox-db.js" in body


def test_the_manifest_names_the_app_with_its_icons(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"].startswith("application/manifest+json")
    data = json.loads(response.content)
    assert data["name"] == "Belote & Coinche score keeper"
    assert data["display"] == "standalone"
    assert {icon["sizes"] for icon in data["icons"]} >= {"192x192", "512x512"}
    for icon in data["icons"]:
        name = icon["src"].removeprefix(settings.STATIC_URL).removeprefix("/static/")
        path = finders.find(name)
        assert isinstance(path, str)
        assert Path(path).stat().st_size < 1_000_000
    page = client.get("/")
    assert b'rel="manifest"' in page.content
    assert b'id="install-app"' in page.content


def test_a_scorer_page_carries_the_offline_words_and_addresses(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match(deals=[PassedDeal()])
    page = owner_client.get(reverse("matches:scoreboard", args=[match.scorer_token]))
    html = page.content.decode()
    assert 'id="offline"' in html
    assert 'id="net-badge"' in html
    assert 'data-outbox="/score/' in html
    assert 'data-edit="/score/' in html
    assert "Keep this match on this phone" in html
    assert 'data-words="/score/' in html
    words = owner_client.get(reverse("matches:offline_words", args=[match.scorer_token])).json()
    assert words["teams"] == list(match.team_names)
    assert words["waiting"] == ["%(n)s deal waiting", "%(n)s deals waiting"]
    viewer = Client().get(reverse("matches:viewer", args=[match.view_token]))
    assert 'id="offline"' not in viewer.content.decode()
    french = Client(headers={"accept-language": "fr"})
    fr = french.get(reverse("matches:scoreboard", args=[match.scorer_token])).content.decode()
    assert "Garder cette partie sur ce téléphone" in fr
    url = reverse("matches:offline_words", args=[match.scorer_token])
    french_words = french.get(url).json()
    assert french_words["waiting"] == ["%(n)s donne en attente", "%(n)s donnes en attente"]
    assert french_words["offline"] == "hors ligne"


# The stamp as the deal form reads it (form_reading.VERSION_MAX, SUBMISSION): what it refuses is
# refused here too, in JSON, for every change; never saved without its check or its once-only id.
BAD_VERSIONS = ["-1", "1000000000", "12345678901234567890", "1.5", "x", "٨١٨١٨١٨١٨١"]
BAD_SUBMISSIONS = ["a b", "x" * 65, "é", "a/b", "a\x00"]


def a_change(match: Match, action: str, version: str, submission: str) -> dict[str, str]:
    if action in ("add", "edit"):
        post = deal_post(None, submission=submission, taker_points="130")
        post["version"] = version
        return {**post, "seq": "1"} if action == "edit" else post
    return {"version": version, "submission": submission}


def assert_refused_as_altered(response: Any, field: str) -> None:
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    answer = response.json()
    assert answer["ok"] is False
    assert answer["code"] == "invalid"
    assert "altered outside the app" in answer["message"]
    assert field in answer["fields"]


@pytest.mark.parametrize("action", ["add", "passed", "edit", "undo"])
def test_a_version_the_form_refuses_is_refused_and_saves_nothing(
    owner_client: Client, make_match: MakeMatch, snapshot: Snapshot, action: str
) -> None:
    match = make_match(deals=[PassedDeal()])
    before = snapshot()
    for version in BAD_VERSIONS:
        response = send(owner_client, match, action, **a_change(match, action, version, "once-1"))
        assert_refused_as_altered(response, "version")
        assert snapshot() == before, (action, version)


@pytest.mark.parametrize("action", ["add", "passed", "edit", "undo"])
def test_a_submission_id_off_the_forms_pattern_is_refused_and_saves_nothing(
    owner_client: Client, make_match: MakeMatch, snapshot: Snapshot, action: str
) -> None:
    match = make_match(deals=[PassedDeal()])
    before = snapshot()
    for submission in BAD_SUBMISSIONS:
        post = a_change(match, action, str(match.version), submission)
        response = send(owner_client, match, action, **post)
        assert_refused_as_altered(response, "submission")
        assert snapshot() == before, (action, submission)


@pytest.mark.parametrize("action", ["add", "passed", "edit", "undo"])
def test_a_change_without_its_version_or_its_id_is_refused(
    owner_client: Client, make_match: MakeMatch, snapshot: Snapshot, action: str
) -> None:
    """The phone always sends both: a change without one would be saved without its conflict
    check (another phone's deal overwritten) or could be saved twice."""
    match = make_match(deals=[PassedDeal()])
    before = snapshot()
    for missing in ("version", "submission"):
        post = a_change(match, action, str(match.version), "once-2")
        del post[missing]
        assert_refused_as_altered(send(owner_client, match, action, **post), missing)
        post[missing] = ""
        assert_refused_as_altered(send(owner_client, match, action, **post), missing)
        assert snapshot() == before, (action, missing)
    # The same change with its stamp is saved.
    post = a_change(match, action, str(match.version), "once-2")
    assert send(owner_client, match, action, **post).status_code == 200


def csrf_phone(client: Client, match: Match) -> dict[str, str]:
    """The phone as the browser is: CSRF checked (Django then reads the body in its middleware,
    before the view), the token sent in X-CSRFToken as offline.js sends it."""
    client.get(reverse("matches:scoreboard", args=[match.scorer_token]))
    return {"X-CSRFToken": client.cookies["csrftoken"].value}


FORM = "application/x-www-form-urlencoded"  # what offline.js posts (URLSearchParams)


@pytest.mark.parametrize("checked", [True, False])
def test_a_body_too_large_or_with_too_many_fields_answers_json(
    make_match: MakeMatch, snapshot: Snapshot, checked: bool
) -> None:
    match = make_match()
    phone = Client(enforce_csrf_checks=checked)
    session = phone.session
    session[access.DEVICE_KEY] = OWNER_KEY
    session.save()
    headers = csrf_phone(phone, match)
    url = reverse("matches:outbox", args=[match.scorer_token])
    before = snapshot()
    post = {"action": "add", **deal_post(match.version, submission="big-1")}
    limit = 10_000
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=limit):
        body = urlencode({**post, "note": "x" * limit})
        big = phone.post(url, body, content_type=FORM, headers=headers)
    assert big.status_code == 413
    assert big["Content-Type"] == "application/json"
    answer = big.json()
    assert (answer["ok"], answer["code"]) == (False, "too_big")
    assert "too large" in answer["message"]
    with override_settings(DATA_UPLOAD_MAX_NUMBER_FIELDS=20):
        body = urlencode({**post, **{f"f{n}": "1" for n in range(30)}})
        many = phone.post(url, body, content_type=FORM, headers=headers)
    assert many.status_code == 413
    assert many["Content-Type"] == "application/json"
    assert many.json()["code"] == "too_big"
    assert snapshot() == before
    # Within the limits the same phone saves the deal.
    saved = phone.post(url, urlencode(post), content_type=FORM, headers=headers)
    assert saved.status_code == 200
    assert Match.objects.get(pk=match.pk).deal_count == 1
    # Other pages keep Django's own answer (its 400 page).
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=limit):
        body = urlencode({**post, "note": "x" * limit})
        page = phone.post(
            reverse("matches:deal_new", args=[match.scorer_token]),
            body,
            content_type=FORM,
            headers=headers,
        )
    assert page.status_code == 400
    assert not page["Content-Type"].startswith("application/json")
