"""What a saved deal costs the server: adding a deal at the end writes the breakdown of that deal
only (the engine scores in order, so the deals before it are as they were), while an edit still
rewrites every deal it may change."""

from typing import Any

import pytest

from scorekeeper.engine.scoring.breakdown import STORED_BREAKDOWN
from scorekeeper.matches import services
from scorekeeper.matches.services import scores

from .conftest import MakeMatch
from .support import CREATOR, coinche_deal

pytestmark = pytest.mark.django_db


def counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = scores.store_breakdown

    def spy(row: Any, *args: Any) -> Any:
        calls.append(row.seq)
        return real(row, *args)

    monkeypatch.setattr(scores, "store_breakdown", spy)
    return calls


def test_adding_a_deal_writes_the_texts_of_that_deal_only(
    make_match: MakeMatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = make_match(deals=[coinche_deal(taker=n % 2) for n in range(5)])
    calls = counting(monkeypatch)
    row = services.record_deal(
        match_id=match.pk, expected_version=match.version, deal=coinche_deal(), author=CREATOR
    )
    assert calls == [row.seq]
    row.refresh_from_db()
    assert set(row.texts) == {STORED_BREAKDOWN} and row.texts[STORED_BREAKDOWN]


def test_an_earlier_deal_without_texts_gets_them_back(
    make_match: MakeMatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = make_match(deals=[coinche_deal(), coinche_deal(taker=1)])
    first = match.deals.in_order().first()
    assert first is not None
    type(first).objects.filter(pk=first.pk).update(texts={})  # written before the text cache
    calls = counting(monkeypatch)
    services.record_deal(
        match_id=match.pk, expected_version=match.version, deal=coinche_deal(), author=CREATOR
    )
    first.refresh_from_db()
    assert first.seq in calls and set(first.texts) == {STORED_BREAKDOWN}


def test_an_edit_rewrites_every_deal(
    make_match: MakeMatch, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = make_match(deals=[coinche_deal(), coinche_deal(taker=1), coinche_deal()])
    calls = counting(monkeypatch)
    first = match.deals.in_order().first()
    assert first is not None
    services.edit_deal(
        match_id=match.pk,
        seq=first.seq,
        expected_version=match.version,
        deal=coinche_deal(points=130),
        author=CREATOR,
    )
    assert len(calls) == 3
