"""`rescore_matches`: after an engine upgrade, every stored match is scored again and its cached
scores rewritten; a match whose scores did not move is not touched (its version stays, so no
phone is told "the match changed")."""

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from scorekeeper.matches.models import Deal, Match

from .conftest import MakeMatch
from .support import belote_deal, coinche_deal


def run(*args: str) -> str:
    out = StringIO()
    call_command("rescore_matches", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_stale_caches_are_rewritten_and_fresh_ones_left_alone(make_match: MakeMatch) -> None:
    stale = make_match(deals=[coinche_deal(points=100), coinche_deal(taker=1, points=120)])
    fresh = make_match(deals=[coinche_deal(points=90)])
    right = list(Deal.objects.filter(match=stale).order_by("seq").values("score0", "total0"))
    # What an older engine might have left: other scores for the first deal, other totals.
    Deal.objects.filter(match=stale, seq=1).update(score0=170, total0=170)
    Match.objects.filter(pk=stale.pk).update(total0=999, status=Match.Status.FINISHED, winner=0)

    assert run() == "2 matches checked, 1 re-scored.\n"

    again = Match.objects.get(pk=stale.pk)
    assert (
        list(Deal.objects.filter(match=stale).order_by("seq").values("score0", "total0")) == right
    )
    assert (again.total0, again.status, again.winner) == (right[-1]["total0"], "playing", None)
    assert again.version == stale.version + 1
    assert Match.objects.get(pk=fresh.pk).version == fresh.version
    assert run() == "2 matches checked, 0 re-scored.\n"


def test_only_the_named_matches(make_match: MakeMatch) -> None:
    first = make_match(deals=[coinche_deal()])
    second = make_match(deals=[coinche_deal()])
    Match.objects.update(total0=1)
    assert run(str(second.pk)) == "1 matches checked, 1 re-scored.\n"
    assert Match.objects.get(pk=first.pk).total0 == 1


def test_a_match_the_engine_now_refuses_is_reported_and_left_as_it_was(
    make_match: MakeMatch,
) -> None:
    bad = make_match("belote", deals=[belote_deal()])
    good = make_match(deals=[coinche_deal()])
    Deal.objects.filter(match=bad).update(trump="no_trump")  # classic belote has no sans atout
    Match.objects.update(total0=1)
    err = StringIO()
    with pytest.raises(CommandError, match="1 matches no longer pass"):
        call_command("rescore_matches", stdout=StringIO(), stderr=err)
    assert f"match {bad.pk}: deals[0].trump" in err.getvalue()
    assert Match.objects.get(pk=bad.pk).total0 == 1  # untouched
    assert Match.objects.get(pk=good.pk).total0 != 1  # the others still done
