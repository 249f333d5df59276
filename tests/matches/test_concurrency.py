"""Two phones saving at once lose and duplicate nothing: the one that saves second with a page it
loaded before the first save is told the match changed and keeps its input; a double tap on save
(the same submission id twice) records one deal. The threaded tests run real transactions at the
same time (SQLite: IMMEDIATE transactions; PostgreSQL: SELECT ... FOR UPDATE)."""

import re
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from scorekeeper.engine.scoring import PassedDeal
from scorekeeper.matches import services
from scorekeeper.matches.models import Deal, DealChange, Match

from .conftest import MakeMatch, Snapshot, client_with_device
from .support import CREATOR, OWNER_KEY, SCORER, coinche_deal, deal_post

CHANGED = "The match changed on another phone while you were typing."
CHANGED_ELSEWHERE = "The match changed on another phone meanwhile."


def link(name: str, match: Match, **kwargs: object) -> str:
    return reverse(f"matches:{name}", kwargs={"token": match.scorer_token, **kwargs})


def form_values(html: str) -> dict[str, str]:
    return dict(re.findall(r'name="(version|submission)" value="([^"]*)"', html))


@pytest.mark.django_db
def test_the_second_phone_is_told_and_keeps_its_input(
    owner_client: Client, other_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    first = form_values(owner_client.get(link("deal_new", match)).text)
    second = form_values(other_client.get(link("deal_new", match)).text)
    assert first["version"] == second["version"] == str(match.version)
    assert first["submission"] != second["submission"]

    saved = owner_client.post(link("deal_new", match), {**deal_post(None), **first})
    assert saved.status_code == 302
    data = deal_post(None, taker="1", contract="130", taker_points="140", note="typed on phone 2")
    data.update(second)
    refused = other_client.post(link("deal_new", match), data)
    assert refused.status_code == 200
    html = refused.text
    assert CHANGED in html
    assert 'value="typed on phone 2"' in html and 'value="140"' in html
    assert re.search(r'name="contract" value="130"[^>]*checked', html)
    assert re.search(r'name="taker" value="1"[^>]*checked', html)
    assert Deal.objects.filter(match=match).count() == 1
    assert Deal.objects.get(match=match).taker == 0
    # The form now carries the new version: saving again (on purpose) records the deal.
    again = form_values(html)
    assert again["version"] == str(match.version + 1)
    assert again["submission"] == second["submission"]
    data.update(again)
    assert other_client.post(link("deal_new", match), data).status_code == 302
    assert [d.taker for d in Deal.objects.filter(match=match).order_by("seq")] == [0, 1]


@pytest.mark.django_db
def test_a_stale_edit_is_told_and_keeps_its_input(
    owner_client: Client, other_client: Client, make_match: MakeMatch, snapshot: Snapshot
) -> None:
    match = make_match(deals=[coinche_deal()])
    stale = match.version
    owner_client.post(link("deal_passed", match), {"version": stale})
    state = snapshot()
    data = deal_post(stale, taker_points="42", note="late edit")
    response = other_client.post(link("deal_edit", match, seq=1), data)
    assert response.status_code == 200
    assert CHANGED in response.text and 'value="42"' in response.text
    assert 'value="late edit"' in response.text
    assert snapshot() == state


@pytest.mark.django_db
def test_a_stale_manual_score_is_told_and_keeps_its_input(
    owner_client: Client, other_client: Client, make_match: MakeMatch, snapshot: Snapshot
) -> None:
    match = make_match()
    stale = match.version
    owner_client.post(link("deal_passed", match), {"version": stale})
    state = snapshot()
    data = {"score0": "77", "score1": "0", "note": "phone 2", "version": str(stale)}
    response = other_client.post(link("deal_manual", match), data)
    assert response.status_code == 200
    assert CHANGED in response.text
    assert 'value="77"' in response.text and 'value="phone 2"' in response.text
    assert f'name="version" value="{stale + 1}"' in response.text
    assert snapshot() == state


@pytest.mark.django_db
@pytest.mark.parametrize("action", ["deal_passed", "undo", "redo", "deal_delete"])
def test_stale_one_tap_actions_change_nothing_and_say_why(
    owner_client: Client,
    other_client: Client,
    make_match: MakeMatch,
    snapshot: Snapshot,
    action: str,
) -> None:
    match = make_match(deals=[coinche_deal(), coinche_deal(taker=1)])
    stale = match.version
    owner_client.post(link("deal_passed", match), {"version": stale})
    state = snapshot()
    kwargs = {"seq": 1} if action == "deal_delete" else {}
    response = other_client.post(link(action, match, **kwargs), {"version": stale}, follow=True)
    assert response.status_code == 200
    assert CHANGED_ELSEWHERE in response.text
    assert snapshot() == state


@pytest.mark.django_db
def test_a_double_tap_records_one_deal(owner_client: Client, make_match: MakeMatch) -> None:
    match = make_match()
    values = form_values(owner_client.get(link("deal_new", match)).text)
    data = deal_post(None)
    data.update(values)
    first = owner_client.post(link("deal_new", match), data)
    second = owner_client.post(link("deal_new", match), data)  # same version, same submission
    assert first.status_code == second.status_code == 302
    assert second["Location"] == link("scoreboard", match)
    assert Deal.objects.filter(match=match).count() == 1
    assert DealChange.objects.filter(match=match).count() == 1
    match.refresh_from_db()
    assert match.deal_count == 1 and match.version == int(values["version"]) + 1


@pytest.mark.django_db
def test_a_double_tap_on_a_manual_score_and_on_all_passed(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match()
    page = owner_client.get(link("deal_manual", match)).text
    data = {"score0": "10", "score1": "0", **form_values(page)}
    for _ in range(2):
        assert owner_client.post(link("deal_manual", match), data).status_code == 302
    tap = {"version": str(match.version + 1), "submission": "passed-tap-1"}
    for _ in range(2):
        owner_client.post(link("deal_passed", match), tap)
    assert list(Deal.objects.filter(match=match).values_list("kind", flat=True)) == [
        "manual",
        "passed",
    ]


@pytest.mark.django_db
def test_a_double_tap_on_an_edit_records_one_change(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match(deals=[coinche_deal()])
    data = deal_post(match.version, taker_points="90", submission="edit-tap-1")
    for _ in range(2):
        assert owner_client.post(link("deal_edit", match, seq=1), data).status_code == 302
    assert DealChange.objects.filter(match=match, action="edit").count() == 1
    assert Deal.objects.get(match=match).taker_points == 90


# Real concurrent transactions ------------------------------------------------------------------


def run_at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together; each result is a value or the exception."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def worker(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        except Exception as error:
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(3))
def test_two_threads_saving_with_the_same_version_record_exactly_one(
    make_match: MakeMatch, attempt: int
) -> None:
    match = make_match()
    version = match.version

    def save(author: services.Author, taker: int) -> Deal:
        return services.record_deal(
            match_id=match.pk,
            expected_version=version,
            deal=coinche_deal(taker=taker),
            author=author,
            submission=f"{author.key}-{attempt}",
        )

    results = run_at_once(lambda: save(CREATOR, 0), lambda: save(SCORER, 1))
    saved = [r for r in results if isinstance(r, Deal)]
    refused = [r for r in results if isinstance(r, services.MatchChanged)]
    assert len(saved) == 1 and len(refused) == 1, results
    assert list(Deal.objects.filter(match=match).values_list("seq", "taker")) == [
        (1, saved[0].taker)
    ]
    match.refresh_from_db()
    assert match.version == version + 1 and match.deal_count == 1
    assert DealChange.objects.filter(match=match).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_threads_double_tapping_the_same_submission_record_one_deal(
    make_match: MakeMatch,
) -> None:
    match = make_match()

    def tap() -> Deal:
        return services.record_deal(
            match_id=match.pk,
            expected_version=match.version,
            deal=PassedDeal(),
            author=CREATOR,
            submission="same-tap",
        )

    results = run_at_once(tap, tap)
    assert all(isinstance(r, Deal) for r in results), results
    assert results[0].pk == results[1].pk
    assert Deal.objects.filter(match=match).count() == 1
    assert DealChange.objects.filter(match=match).count() == 1


@pytest.mark.django_db(transaction=True)
def test_many_threads_without_a_version_each_add_a_deal_with_its_own_seq(
    make_match: MakeMatch,
) -> None:
    match = make_match()

    def add(index: int) -> Deal:
        return services.record_deal(
            match_id=match.pk,
            expected_version=None,
            deal=coinche_deal(points=80 + index),
            author=CREATOR,
        )

    results = run_at_once(*[lambda i=i: add(i) for i in range(4)])
    assert all(isinstance(r, Deal) for r in results), results
    rows = list(Deal.objects.filter(match=match).order_by("seq"))
    assert [d.seq for d in rows] == [1, 2, 3, 4] and [d.number for d in rows] == [1, 2, 3, 4]
    assert sorted(d.taker_points or 0 for d in rows) == [80, 81, 82, 83]
    match.refresh_from_db()
    assert match.deal_count == 4 and match.version == 4
    assert (match.total0, match.total1) == (rows[-1].total0, rows[-1].total1)


@pytest.mark.django_db(transaction=True)
def test_two_phones_posting_the_deal_form_at_once(make_match: MakeMatch) -> None:
    match = make_match()
    phones = [client_with_device(OWNER_KEY), client_with_device("phone-2")]
    bodies = [
        deal_post(match.version, submission="phone-1-tap"),
        deal_post(match.version, taker="1", submission="phone-2-tap"),
    ]
    url = link("deal_new", match)
    responses = run_at_once(
        *[lambda p=p, b=b: p.post(url, b) for p, b in zip(phones, bodies, strict=True)]
    )
    codes = sorted(r.status_code for r in responses)
    assert codes == [200, 302], responses
    told = next(r for r in responses if r.status_code == 200)
    assert CHANGED in told.text
    assert Deal.objects.filter(match=match).count() == 1
