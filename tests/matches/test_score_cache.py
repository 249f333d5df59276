"""Stored scores are a cache of the engine's result: after any random sequence of adds, edits,
deletes and undos (deals drawn by the engine's own property strategies, valid for random rules),
every cached field of every deal and of the match equals what `score_match` gives for the rows.

A refused step (MatchOver, NothingToUndo, an edit or delete that would leave a deal after the end)
must leave the database as it was."""

import contextlib
from typing import Any

import pytest
from django.db import transaction
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.engine.scoring import InvalidInput, Rules, score_match
from scorekeeper.engine.scoring.breakdown import STORED_BREAKDOWN, line_from_data
from scorekeeper.matches import services
from scorekeeper.matches.models import Deal, DealChange, Match
from scorekeeper.web.words import LANGS, breakdown, stored_breakdown
from tests.engine.scoring.test_properties import any_deal, choose, rule_set

from .support import CREATOR, OWNER_KEY

OPERATIONS = ["add", "add", "add", "edit", "delete", "undo", "redo"]


def state(match_id: int) -> Any:
    match = Match.objects.get(pk=match_id)
    return (
        match.version,
        list(Deal.objects.filter(match_id=match_id).order_by("seq").values()),
        DealChange.objects.filter(match_id=match_id).count(),
    )


def assert_cache_is_a_recomputation(match_id: int) -> None:
    match = Match.objects.get(pk=match_id)
    rows = list(match.deals.in_order())
    result = score_match(match.engine_rules, [row.to_engine() for row in rows], match.first_dealer)
    for row, scored in zip(rows, result.deals, strict=True):
        cached = (
            row.number,
            row.outcome,
            (row.score0, row.score1),
            (row.total0, row.total1),
            row.reserve_after,
            row.dealer,
        )
        expected = (
            scored.number,
            scored.outcome,
            scored.scores,
            scored.totals,
            scored.reserve,
            scored.dealer,
        )
        assert cached == expected, f"deal seq {row.seq}"
        stored = [line_from_data(data) for data in row.texts[STORED_BREAKDOWN]]
        assert stored == list(scored.breakdown), f"deal seq {row.seq}"
        for lang in LANGS:  # worded from the stored data, the same as from the engine's lines
            with translation.override(lang):
                worded = breakdown(scored.breakdown, match.team_names)
                assert stored_breakdown(row.texts[STORED_BREAKDOWN], match.team_names) == worded
    winner = result.winner if isinstance(result.winner, int) else None
    assert (match.total0, match.total1) == result.totals
    assert match.reserve == result.reserve
    assert match.deal_count == len(rows)
    assert match.status == ("finished" if result.finished else "playing")
    assert match.winner == winner
    assert (match.finished_at is not None) == result.finished


@st.composite
def scenarios(draw: Any) -> tuple[Rules, int, list[tuple[str, int, Any]]]:
    rules = rule_set(draw)
    count, first_dealer = choose(draw, range(1, 25), range(4))
    steps = []
    for _ in range(count):
        operation, index = choose(draw, OPERATIONS, range(64))
        steps.append((operation, index, any_deal(draw, rules)))  # (a delete may become an add)
    return rules, first_dealer, steps


def apply(match_id: int, operation: str, index: int, deal: Any) -> None:
    seqs = list(
        Deal.objects.filter(match_id=match_id).order_by("seq").values_list("seq", flat=True)
    )
    if operation in ("edit", "delete") and not seqs:
        operation = "add"
    if operation == "add":
        services.record_deal(match_id=match_id, expected_version=None, deal=deal, author=CREATOR)
    elif operation == "edit":
        services.edit_deal(
            match_id=match_id,
            seq=seqs[index % len(seqs)],
            expected_version=None,
            deal=deal,
            author=CREATOR,
        )
    elif operation == "delete":
        services.delete_deal(
            match_id=match_id, seq=seqs[index % len(seqs)], expected_version=None, author=CREATOR
        )
    elif operation == "undo":
        services.undo_last_change(match_id=match_id, expected_version=None, author=CREATOR)
    else:
        services.redo_last_undo(match_id=match_id, expected_version=None, author=CREATOR)


@pytest.mark.django_db
@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(scenarios())
def test_cached_scores_always_equal_a_recomputation(
    scenario: tuple[Rules, int, list[tuple[str, int, Any]]],
) -> None:
    rules, first_dealer, steps = scenario
    with transaction.atomic():  # each example starts from an empty database
        match = services.create_match(
            owner_key=OWNER_KEY,
            rules=rules,
            team_names=("Nous", "Eux"),
            players=("Alice", "Chloé", "Bruno", "David"),
            first_dealer=first_dealer,
        )
        for operation, index, deal in steps:
            before = state(match.pk)
            try:
                apply(match.pk, operation, index, deal)
            except (
                services.MatchOver,
                services.NothingToUndo,
                services.NothingToRedo,
                InvalidInput,
            ) as refused:
                if isinstance(refused, services.MatchOver):
                    assert Match.objects.get(pk=match.pk).is_finished
                assert state(match.pk) == before
            assert_cache_is_a_recomputation(match.pk)
        transaction.set_rollback(True)


def deals_of(match_id: int) -> list[tuple[int, dict[str, Any]]]:
    return [(row.seq, row.as_match_dict()) for row in Deal.objects.filter(match_id=match_id)]


@pytest.mark.django_db
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(scenarios(), st.integers(min_value=1, max_value=6))
def test_undoing_then_redoing_as_many_steps_restores_every_deal(
    scenario: tuple[Rules, int, list[tuple[str, int, Any]]], steps_back: int
) -> None:
    """Undo k times, then Redo k times: the same deals, scored the same, as before the undos (and
    each undo walks back through the states the changes went through)."""
    rules, first_dealer, steps = scenario
    with transaction.atomic():
        match = services.create_match(
            owner_key=OWNER_KEY,
            rules=rules,
            team_names=("Nous", "Eux"),
            players=("Alice", "Chloé", "Bruno", "David"),
            first_dealer=first_dealer,
        )
        for operation, index, deal in steps:
            if operation in ("undo", "redo"):
                operation = "add"
            with contextlib.suppress(services.MatchOver, InvalidInput):  # refused: as it was
                apply(match.pk, operation, index, deal)
        start = deals_of(match.pk)
        undone = 0
        for _ in range(steps_back):
            try:
                services.undo_last_change(match_id=match.pk, expected_version=None, author=CREATOR)
            except services.NothingToUndo:
                break
            undone += 1
            assert_cache_is_a_recomputation(match.pk)
        for _ in range(undone):
            services.redo_last_undo(match_id=match.pk, expected_version=None, author=CREATOR)
            assert_cache_is_a_recomputation(match.pk)
        with pytest.raises(services.NothingToRedo):
            services.redo_last_undo(match_id=match.pk, expected_version=None, author=CREATOR)
        assert deals_of(match.pk) == start
        transaction.set_rollback(True)
