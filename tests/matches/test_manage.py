"""Matches people can manage (issue 11): the owner deletes a match (typed confirmation, soft
delete, restorable for 30 days, purged by `purge_deleted` after), abandons one (no more deals,
resumable), and the manual score form starts empty and refuses 0-0."""

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from scorekeeper.engine.scoring import ManualDeal, rules_from_dict
from scorekeeper.matches.models import Deal, DealChange, Match

from .conftest import MakeMatch, Snapshot
from .support import coinche_deal, deal_post, long_rules

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def match(make_match: MakeMatch) -> Match:
    return make_match(long_rules(), deals=[coinche_deal(), ManualDeal((0, 20), "penalty")])


def scorer_url(name: str, match: Match, **kwargs: object) -> str:
    return reverse(f"matches:{name}", kwargs={"token": match.scorer_token, **kwargs})


def delete(client: Client, match: Match, word: str = "delete") -> Any:
    """The response of the delete form (a test client's response: status, text, headers)."""
    return client.post(scorer_url("delete_match", match), {"confirm": word})


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


# The Manage page --------------------------------------------------------------------------------


def test_the_owners_scoreboard_links_to_the_manage_page(
    owner_client: Client, other_client: Client, match: Match
) -> None:
    manage = scorer_url("manage", match)
    assert f'href="{manage}"' in owner_client.get(scorer_url("scoreboard", match)).text
    # A phone with the scorer link scores, but does not manage.
    assert manage not in other_client.get(scorer_url("scoreboard", match)).text
    page = owner_client.get(manage)
    assert page.status_code == 200
    assert "Abandon the match" in page.text and "Delete the match" in page.text
    assert 'name="confirm"' in page.text and 'autocapitalize="none"' in page.text


def test_a_scorer_link_may_not_manage(
    other_client: Client, match: Match, snapshot: Snapshot
) -> None:
    other_client.get(scorer_url("scoreboard", match))  # the scorer link, opened on this phone
    state = snapshot()
    response = other_client.get(scorer_url("manage", match), follow=True)
    assert response.redirect_chain[-1][0] == scorer_url("scoreboard", match)
    assert "Only the match&#x27;s owner can delete or abandon it." in response.text
    for name, data in (
        ("delete_match", {"confirm": "delete"}),
        ("abandon", {}),
        ("resume", {}),
    ):
        response = other_client.post(scorer_url(name, match), data)
        assert response.status_code == 302 and response["Location"] == scorer_url(
            "scoreboard", match
        )
    assert snapshot() == state


@pytest.mark.parametrize("name", ["manage", "delete_match", "abandon", "resume"])
def test_the_read_only_token_opens_no_manage_url(
    owner_client: Client, match: Match, snapshot: Snapshot, name: str
) -> None:
    state = snapshot()
    url = reverse(f"matches:{name}", args=[match.view_token])
    method = "get" if name == "manage" else "post"
    assert getattr(owner_client, method)(url, {"confirm": "delete"}).status_code == 404
    assert snapshot() == state


# Deleting ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["", "yes", "delet", "supprime"])
def test_deleting_needs_the_typed_word(
    owner_client: Client, match: Match, snapshot: Snapshot, word: str
) -> None:
    state = snapshot()
    response = delete(owner_client, match, word)
    assert response.status_code == 200
    assert "Type delete to confirm: nothing was deleted." in response.text
    assert snapshot() == state


@pytest.mark.parametrize("word", ["delete", "DELETE", " Delete "])
def test_the_owner_deletes_a_match(owner_client: Client, match: Match, word: str) -> None:
    response = delete(owner_client, match, word)
    assert response.status_code == 302 and response["Location"] == reverse("history:deleted")
    deleted = fresh(match)
    assert deleted.deleted_at is not None
    assert timezone.now() - deleted.deleted_at < timedelta(minutes=1)
    # Kept, deals and all, until it is purged.
    assert deleted.deals.count() == 2 and deleted.changes.count() == 2
    page = owner_client.get(reverse("history:deleted"))
    assert "Nous – Eux deleted. You can restore it here for 30 days." in page.text


def test_in_french_the_word_is_supprimer(owner_client: Client, match: Match) -> None:
    owner_client.cookies["django_language"] = "fr"
    with translation.override("fr"):
        page = owner_client.get(scorer_url("manage", match)).text
        assert "Tapez <strong>supprimer</strong> pour confirmer" in page
        response = delete(owner_client, match, "suppr")
        assert "Tapez supprimer pour confirmer\u00a0: rien n" in response.text
        response = delete(owner_client, match, "Supprimer")
    assert response.status_code == 302 and fresh(match).deleted_at is not None


def test_the_english_word_also_works_in_french(owner_client: Client, match: Match) -> None:
    """The page was shown in English, then the language changed: the word read still counts."""
    owner_client.cookies["django_language"] = "fr"
    with translation.override("fr"):
        assert delete(owner_client, match, "delete").status_code == 302
    assert fresh(match).deleted_at is not None


def deleted_match_urls(match: Match) -> list[str]:
    scorer, view = match.scorer_token, match.view_token
    return [
        scorer_url("scoreboard", match),
        scorer_url("deal_new", match),
        scorer_url("deal_edit", match, seq=1),
        scorer_url("deal_manual", match),
        scorer_url("deal_log", match, seq=1),
        scorer_url("share", match),
        scorer_url("count", match),
        scorer_url("manage", match),
        reverse("matches:qr", args=[scorer, "view"]),
        reverse("matches:export", args=[scorer]),
        reverse("matches:viewer", args=[view]),
        reverse("matches:export_viewer", args=[view]),
        reverse("history:review", args=[view]),
        reverse("history:match_csv", args=[view]),
    ]


def test_a_deleted_matchs_links_are_404_for_everyone(
    owner_client: Client, other_client: Client, client: Client, match: Match
) -> None:
    other_client.get(scorer_url("scoreboard", match))
    delete(owner_client, match)
    for browser in (owner_client, other_client, client):
        for url in deleted_match_urls(match):
            assert browser.get(url).status_code == 404, url
        # A phone still polling the board with the version it shows, or the next one.
        for version in (match.version, match.version + 1):
            url = f"{scorer_url('scoreboard', match)}?v={version}"
            assert browser.get(url, headers=HTMX).status_code == 404
            url = f"{reverse('matches:viewer', args=[match.view_token])}?v={version}"
            assert browser.get(url, headers=HTMX).status_code == 404


def test_a_deleted_match_takes_no_deal(
    owner_client: Client, match: Match, snapshot: Snapshot
) -> None:
    delete(owner_client, match)
    state = snapshot()
    for name, data in (
        ("deal_new", deal_post(fresh(match).version)),
        ("deal_passed", {}),
        ("deal_manual", {"score0": "10", "score1": ""}),
        ("undo", {}),
        ("redo", {}),
        ("abandon", {}),
        ("delete_match", {"confirm": "delete"}),
    ):
        assert owner_client.post(scorer_url(name, match), data).status_code == 404, name
    assert snapshot() == state


# Restoring and purging --------------------------------------------------------------------------


def test_the_owner_restores_a_deleted_match(owner_client: Client, match: Match) -> None:
    delete(owner_client, match)
    page = owner_client.get(reverse("history:deleted")).text
    restore = reverse("history:undelete", args=[match.scorer_token])
    assert "Nous – Eux" in page and f'action="{restore}"' in page
    until = timezone.localtime(fresh(match).restorable_until)
    assert until - timezone.localtime(fresh(match).deleted_at) == timedelta(days=30)
    assert f"until {until.day} {until:%b %Y}" in page
    response = owner_client.post(restore)
    assert response.status_code == 302 and response["Location"] == scorer_url("scoreboard", match)
    assert fresh(match).deleted_at is None
    assert owner_client.get(scorer_url("scoreboard", match)).status_code == 200
    assert "Nous – Eux" not in owner_client.get(reverse("history:deleted")).text


def test_after_30_days_a_deleted_match_cannot_be_restored(
    owner_client: Client, match: Match, snapshot: Snapshot
) -> None:
    Match.objects.filter(pk=match.pk).update(
        deleted_at=timezone.now() - timedelta(days=30, hours=1)
    )
    assert "Nous – Eux" not in owner_client.get(reverse("history:deleted")).text
    state = snapshot()
    response = owner_client.post(reverse("history:undelete", args=[match.scorer_token]))
    assert response.status_code == 404
    assert snapshot() == state


def test_restoring_a_match_that_is_not_deleted_is_404(
    owner_client: Client, match: Match, snapshot: Snapshot
) -> None:
    state = snapshot()
    response = owner_client.post(reverse("history:undelete", args=[match.scorer_token]))
    assert response.status_code == 404
    assert snapshot() == state


def test_purge_deleted_removes_matches_deleted_over_30_days_ago(make_match: MakeMatch) -> None:
    old, recent, alive = (make_match(deals=[coinche_deal()]) for _ in range(3))
    now = timezone.now()
    Match.objects.filter(pk=old.pk).update(deleted_at=now - timedelta(days=30, minutes=1))
    Match.objects.filter(pk=recent.pk).update(deleted_at=now - timedelta(days=29))
    out = StringIO()
    call_command("purge_deleted", stdout=out)
    assert "1 deleted match purged." in out.getvalue()
    assert set(Match.objects.values_list("pk", flat=True)) == {recent.pk, alive.pk}
    assert not Deal.objects.filter(match_id=old.pk).exists()
    assert not DealChange.objects.filter(match_id=old.pk).exists()
    out = StringIO()
    call_command("purge_deleted", stdout=out)
    assert "0 deleted matches purged." in out.getvalue()


# Abandoning -------------------------------------------------------------------------------------


def test_the_owner_abandons_and_resumes_a_match(
    owner_client: Client, match: Match, snapshot: Snapshot
) -> None:
    version = match.version
    response = owner_client.post(scorer_url("abandon", match))
    assert response.status_code == 302 and response["Location"] == scorer_url("scoreboard", match)
    abandoned = fresh(match)
    assert abandoned.abandoned_at is not None and abandoned.version == version + 1
    board = owner_client.get(scorer_url("scoreboard", match)).text
    assert "Abandoned" in board and "Record a deal" not in board
    assert "All passed" not in board and scorer_url("deal_manual", match) not in board
    # No more deals, in any way.
    state = snapshot()
    response = owner_client.get(scorer_url("deal_new", match), follow=True)
    assert response.redirect_chain[-1][0] == scorer_url("scoreboard", match)
    assert "This match was abandoned: no more deals. Its owner can resume it." in response.text
    for name, data in (
        ("deal_new", deal_post(abandoned.version)),
        ("deal_passed", {"version": str(abandoned.version)}),
        ("deal_manual", {"score0": "10", "score1": "", "version": str(abandoned.version)}),
    ):
        response = owner_client.post(scorer_url(name, match), data, follow=True)
        assert "This match was abandoned: no more deals." in response.text, name
    assert snapshot() == state
    # The read-only view says so too.
    assert "Abandoned" in owner_client.get(reverse("matches:viewer", args=[match.view_token])).text
    # Resumed: deals again.
    response = owner_client.post(scorer_url("resume", match))
    assert response.status_code == 302 and fresh(match).abandoned_at is None
    assert "Record a deal" in owner_client.get(scorer_url("scoreboard", match)).text
    response = owner_client.post(scorer_url("deal_new", match), deal_post(fresh(match).version))
    assert response.status_code == 302 and fresh(match).deal_count == 3


def test_a_finished_match_cannot_be_abandoned(
    owner_client: Client, make_match: MakeMatch, snapshot: Snapshot
) -> None:
    rules = rules_from_dict({"preset": "coinche", "target": 300})
    match = make_match(rules, deals=[coinche_deal(contract=160, points=162)])
    assert match.is_finished
    assert "Abandon the match" not in owner_client.get(scorer_url("manage", match)).text
    state = snapshot()
    response = owner_client.post(scorer_url("abandon", match), follow=True)
    assert "The match is over: there is nothing to abandon." in response.text
    assert snapshot() == state


def test_abandoning_twice_changes_nothing_more(owner_client: Client, match: Match) -> None:
    owner_client.post(scorer_url("abandon", match))
    first = fresh(match)
    owner_client.post(scorer_url("abandon", match))
    again = fresh(match)
    assert (again.abandoned_at, again.version) == (first.abandoned_at, first.version)


# Manual score -----------------------------------------------------------------------------------


def test_the_manual_score_fields_start_empty(owner_client: Client, match: Match) -> None:
    page = owner_client.get(scorer_url("deal_manual", match)).text
    for name in ("score0", "score1"):
        field = next(tag for tag in page.split("<input") if f'name="{name}"' in tag)
        assert "value=" not in field.split(">")[0], field


@pytest.mark.parametrize(("first", "second"), [("0", "0"), ("", ""), ("0", ""), ("", "0")])
def test_a_manual_score_of_nothing_is_refused(
    owner_client: Client, match: Match, snapshot: Snapshot, first: str, second: str
) -> None:
    state = snapshot()
    data = {"score0": first, "score1": second, "version": str(match.version)}
    response = owner_client.post(scorer_url("deal_manual", match), data)
    assert response.status_code == 200
    assert "Nothing to record: enter the points of at least one team." in response.text
    assert snapshot() == state


def test_a_blank_manual_score_counts_as_zero(owner_client: Client, match: Match) -> None:
    data = {"score0": "", "score1": "50", "version": str(match.version)}
    assert owner_client.post(scorer_url("deal_manual", match), data).status_code == 302
    row = fresh(match).deals.in_order().last()
    assert row is not None and (row.kind, row.manual0, row.manual1) == ("manual", 0, 50)
