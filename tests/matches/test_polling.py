"""The scoreboard fragment that phones poll every 10 seconds answers from the match's version
alone: an ETag that changes with everything the fragment depends on, and `304 Not Modified` for a
poll that already has it, in at most one query and without the session."""

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.engine.scoring import ManualDeal, rules_from_dict
from scorekeeper.matches import services
from scorekeeper.matches.models import Match

from .conftest import MakeMatch
from .support import CREATOR, coinche_deal

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
AssertQueries = Callable[..., Any]


@pytest.fixture
def match(make_match: MakeMatch) -> Match:
    return make_match(deals=[coinche_deal(), coinche_deal(taker=1, points=40)])


def scorer_url(match: Match) -> str:
    return reverse("matches:scoreboard", args=[match.scorer_token])


def viewer_url(match: Match) -> str:
    return reverse("matches:viewer", args=[match.view_token])


def poll(client: Client, url: str, etag: str = "", **headers: str) -> Any:
    sent = {**HTMX, **headers}
    if etag:
        sent["If-None-Match"] = etag
    return client.get(url, headers=sent)


@pytest.mark.parametrize("who", ["scorer", "viewer"])
def test_a_second_poll_is_not_modified_in_one_query_without_the_session(
    owner_client: Client,
    match: Match,
    who: str,
    django_assert_max_num_queries: AssertQueries,
) -> None:
    url = scorer_url(match) if who == "scorer" else viewer_url(match)
    first = poll(owner_client, url)
    assert first.status_code == 200 and '<section id="scoreboard"' in first.text
    etag = first["ETag"]
    assert etag.startswith('W/"') and etag.endswith('"')  # the body differs by its CSRF mask
    assert {"HX-Request", "Accept-Language", "Cookie"} <= {
        v.strip() for v in first["Vary"].split(",")
    }
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    with django_assert_max_num_queries(1) as captured:
        second = poll(owner_client, url, etag)
    assert second.status_code == 304 and second.content == b""
    assert second["ETag"] == etag
    assert {"HX-Request", "Accept-Language", "Cookie"} <= {
        v.strip() for v in second["Vary"].split(",")
    }
    assert "private" in second["Cache-Control"]
    assert not any("django_session" in q["sql"] for q in captured.captured_queries)
    # Another tag of the list, or the same tag strong: weak comparison still matches.
    assert poll(owner_client, url, f'"nope", {etag}').status_code == 304
    assert poll(owner_client, url, etag.removeprefix("W/")).status_code == 304


def test_a_deal_saved_gives_the_poll_the_new_board_and_a_new_etag(
    owner_client: Client, client: Client, match: Match
) -> None:
    first = poll(client, viewer_url(match))
    services.record_deal(
        match_id=match.pk, expected_version=None, deal=coinche_deal(points=150), author=CREATOR
    )
    match.refresh_from_db()
    after = poll(client, viewer_url(match), first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    assert f">{match.total0}</p>" in after.text
    assert poll(client, viewer_url(match), after["ETag"]).status_code == 304


def test_french_and_english_polls_have_different_etags(client: Client, match: Match) -> None:
    english = poll(client, viewer_url(match), HTTP_ACCEPT_LANGUAGE="en")
    french = poll(client, viewer_url(match), **{"Accept-Language": "fr"})
    assert "Donnes" in french.text or "donne" in french.text.lower()
    assert english["ETag"] != french["ETag"]
    # The English tag does not answer a French poll with 304 (and the other way round).
    again = poll(client, viewer_url(match), english["ETag"], **{"Accept-Language": "fr"})
    assert again.status_code == 200 and again["ETag"] == french["ETag"]


def test_the_scorer_and_the_viewer_fragments_have_different_etags(
    owner_client: Client, match: Match
) -> None:
    scorer = poll(owner_client, scorer_url(match))
    viewer = poll(owner_client, viewer_url(match))
    assert scorer["ETag"] != viewer["ETag"]
    assert "All passed" in scorer.text and "All passed" not in viewer.text
    # The viewer's tag sent to the scorer link (or back) is no match.
    assert poll(owner_client, scorer_url(match), viewer["ETag"]).status_code == 200
    assert poll(owner_client, viewer_url(match), scorer["ETag"]).status_code == 200


def test_a_new_csrf_cookie_changes_the_scorer_etag(owner_client: Client, match: Match) -> None:
    """The scorer's fragment carries forms with a CSRF token: a browser whose CSRF cookie changed
    (signing in rotates it) must not keep a fragment whose token no longer works."""
    first = poll(owner_client, scorer_url(match))
    owner_client.cookies["csrftoken"] = "A" * 32
    second = poll(owner_client, scorer_url(match), first["ETag"])
    assert second.status_code == 200 and second["ETag"] != first["ETag"]


def test_the_full_page_is_not_answered_304(owner_client: Client, match: Match) -> None:
    """The full page shows who is signed in and comes from the session: no ETag, always 200."""
    fragment = poll(owner_client, scorer_url(match))
    page = owner_client.get(scorer_url(match), headers={"If-None-Match": fragment["ETag"]})
    assert page.status_code == 200 and "ETag" not in page
    assert page.text.lstrip().startswith("<!doctype html>")


def test_a_pending_message_is_shown_instead_of_304(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match(rules_from_dict({"preset": "belote", "target": 100}), [ManualDeal((0, 150))])
    assert match.is_finished
    first = poll(owner_client, scorer_url(match))
    passed = reverse("matches:deal_passed", args=[match.scorer_token])
    owner_client.post(passed, {"version": match.version})  # refused: the match is over
    answer = poll(owner_client, scorer_url(match), first["ETag"])
    assert answer.status_code == 200 and "The match is over" in answer.text


def test_a_poll_of_the_same_version_is_204_in_one_query(
    owner_client: Client, match: Match, django_assert_max_num_queries: AssertQueries
) -> None:
    with django_assert_max_num_queries(1):
        same = owner_client.get(scorer_url(match), {"v": match.version}, headers=HTMX)
    assert same.status_code == 204


def test_an_unknown_or_revoked_link_is_not_found_even_with_an_etag(
    owner_client: Client, match: Match
) -> None:
    etag = poll(owner_client, viewer_url(match))["ETag"]
    scorer_etag = poll(owner_client, scorer_url(match))["ETag"]
    old_viewer, old_scorer = viewer_url(match), scorer_url(match)
    services.regenerate_links(match_id=match.pk)
    assert poll(owner_client, old_viewer, etag).status_code == 404
    assert poll(owner_client, old_scorer, scorer_etag).status_code == 404
    assert poll(owner_client, "/view/unknown-token/", etag).status_code == 404
