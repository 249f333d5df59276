"""The matches app's one extension point (scorekeeper/matches/holder.py, issue 22): the app named
by settings.MATCH_HOLDER is asked before each write to a match it holds (`in_concours`) and told
after the re-score, inside the write's transaction; its refusal changes nothing; a match it does
not hold costs it nothing; the class is built once. Tested with a recording stand-in, so these
tests know nothing of concours."""

from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from django.test import override_settings

from scorekeeper.engine.scoring import PassedDeal, rules_from_dict
from scorekeeper.matches import holder, services
from scorekeeper.matches.models import DealChange, Match, MatchScorer

from .support import SCORER, coinche_deal

pytestmark = pytest.mark.django_db

HERE = "tests.matches.test_match_holder.Recording"


class Recording:
    """Records what it is asked; refuses when `refuse` is set, fails after when `fail`."""

    calls: ClassVar[list[tuple[Any, ...]]] = []
    refuse = ""
    fail = False

    def check_write(self, match: Match, *, author: services.Author, action: str) -> None:
        Recording.calls.append(("check", action, match.deal_count))
        if Recording.refuse:
            raise holder.WriteRefused(Recording.refuse, "not now")

    def after_write(self, match: Match) -> None:
        stored = Match.objects.get(pk=match.pk)  # what the transaction wrote so far
        Recording.calls.append(("after", match.deal_count, stored.version == match.version))
        if Recording.fail:
            raise RuntimeError("the holder failed")

    def board_note(self, request: Any, board: Any) -> None:
        Recording.calls.append(("note",))


@pytest.fixture
def recording() -> Iterator[type[Recording]]:
    Recording.calls, Recording.refuse, Recording.fail = [], "", False
    with override_settings(MATCH_HOLDER=HERE):
        yield Recording


def held(**fields: Any) -> Match:
    return services.create_match(
        owner_key="holder",
        rules=rules_from_dict({"preset": "coinche", "target": 100_000}),
        team_names=("Nous", "Eux"),
        **fields,
    )


def test_a_held_match_is_checked_before_and_told_after_each_write(
    recording: type[Recording],
) -> None:
    match = held(in_concours=True)
    services.record_deal(
        match_id=match.pk, expected_version=None, deal=coinche_deal(), author=SCORER
    )
    services.edit_deal(
        match_id=match.pk, seq=1, expected_version=None, deal=coinche_deal(points=60),
        author=SCORER,
    )  # fmt: skip
    services.undo_last_change(match_id=match.pk, expected_version=None, author=SCORER)
    services.redo_last_undo(match_id=match.pk, expected_version=None, author=SCORER)
    services.delete_deal(match_id=match.pk, seq=1, expected_version=None, author=SCORER)
    # Checked before the change (the deal count before), told after the re-score (the match as
    # saved); the same transaction: see test_a_failing_holder_undoes_the_write.
    assert recording.calls == [
        ("check", "add", 0), ("after", 1, True),
        ("check", "edit", 1), ("after", 1, True),
        ("check", "undo", 1), ("after", 1, True),
        ("check", "redo", 1), ("after", 1, True),
        ("check", "delete", 1), ("after", 0, True),
    ]  # fmt: skip


def test_a_refusal_changes_nothing_and_says_why(recording: type[Recording]) -> None:
    match = held(in_concours=True)
    services.record_deal(match_id=match.pk, expected_version=None, deal=PassedDeal(), author=SCORER)
    before = (Match.objects.get(pk=match.pk).version, DealChange.objects.count())
    recording.refuse = "closed"
    account = services.Author(key="k", label="sam", account_id=None)
    with pytest.raises(services.WriteRefused) as refused:
        services.record_deal(
            match_id=match.pk, expected_version=None, deal=PassedDeal(), author=account
        )
    assert (refused.value.reason, refused.value.words) == ("closed", "not now")
    assert (Match.objects.get(pk=match.pk).version, DealChange.objects.count()) == before
    assert not MatchScorer.objects.exists()


def test_a_failing_holder_undoes_the_write(recording: type[Recording]) -> None:
    """Told inside the transaction: if the holder cannot follow, the deal is not saved."""
    match = held(in_concours=True)
    recording.fail = True
    with pytest.raises(RuntimeError):
        services.record_deal(
            match_id=match.pk, expected_version=None, deal=PassedDeal(), author=SCORER
        )
    assert Match.objects.get(pk=match.pk).deal_count == 0 and not DealChange.objects.exists()


def test_a_match_not_held_costs_nothing(recording: type[Recording], client: Any) -> None:
    match = held()
    services.record_deal(match_id=match.pk, expected_version=None, deal=PassedDeal(), author=SCORER)
    client.get(f"/score/{match.scorer_token}/")
    assert recording.calls == []


def test_the_holder_is_built_once_and_none_without_the_setting() -> None:
    with override_settings(MATCH_HOLDER=HERE):
        assert holder.get_holder() is holder.get_holder()
        assert isinstance(holder.get_holder(), Recording)
    with override_settings(MATCH_HOLDER=""):
        assert isinstance(holder.get_holder(), holder.NoHolder)
        match = held(in_concours=True)
        services.record_deal(
            match_id=match.pk, expected_version=None, deal=PassedDeal(), author=SCORER
        )
        assert Match.objects.get(pk=match.pk).deal_count == 1
