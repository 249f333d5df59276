"""The prizes of a ranking (issue 22): entrants tied on a prize rank share out the prizes of the
ranks they cover, and no prize is invented or dropped (before, both tied firsts got the first
prize and the second prize was dropped)."""

import random

from scorekeeper.engine.tournament.prizes import Award, award_prizes

PRIZES = {1: "a ham", 2: "two bottles", 3: "chocolates"}


def test_nobody_tied_each_gets_the_prize_of_its_rank() -> None:
    assert award_prizes([1, 2, 3, 4], PRIZES) == [
        Award(prize="a ham"), Award(prize="two bottles"), Award(prize="chocolates"), Award()
    ]  # fmt: skip


def test_two_tied_firsts_share_the_first_two_prizes_and_the_third_goes_on() -> None:
    awards = award_prizes([1, 1, 3, 4], PRIZES)
    assert awards[0] == awards[1] == Award(shared=("a ham", "two bottles"))
    assert awards[0].ex_aequo and not awards[2].ex_aequo
    assert awards[2:] == [Award(prize="chocolates"), Award()]


def test_a_tie_across_the_last_prize_shares_what_there_is() -> None:
    # Ranks 3, 3: one prize for two (to decide); ranks 1, 1, 1 with prizes 1 and 3 only.
    assert award_prizes([1, 2, 3, 3], PRIZES)[2:] == [Award(shared=("chocolates",))] * 2
    assert (
        award_prizes([1, 1, 1], {1: "a ham", 3: "chocolates"})
        == [Award(shared=("a ham", "chocolates"))] * 3
    )
    assert award_prizes([1, 1, 3], {2: "two bottles"})[:2] == [Award(shared=("two bottles",))] * 2


def test_a_tie_without_a_prize_is_no_ex_aequo_on_a_prize() -> None:
    assert award_prizes([1, 2, 2], {1: "a ham"}) == [Award(prize="a ham"), Award(), Award()]
    assert award_prizes([1, 1], {}) == [Award(), Award()]
    assert award_prizes([], PRIZES) == []


def test_every_prize_within_the_ranking_is_given_once_never_twice() -> None:
    """Random rankings (ranks 1, 1, 3, ... as standings share them): each prize of a rank the
    ranking reaches is either one entrant's own or shared by one tied group, exactly once."""
    rng = random.Random(22)
    for _ in range(500):
        size = rng.randint(1, 12)
        ranks: list[int] = []
        rank = 1
        while len(ranks) < size:
            group = rng.choice([1, 1, 1, 2, 3])
            ranks += [rank] * group
            rank += group
        ranks = ranks[:size]
        prizes = {n: f"prize {n}" for n in range(1, 16) if rng.random() < 0.7}
        awards = award_prizes(ranks, prizes)
        given = [a.prize for a in awards if a.prize]
        seen = set()
        for r, award in zip(ranks, awards, strict=True):
            if award.shared and r not in seen:
                seen.add(r)
                given += award.shared
        reached = [text for n, text in prizes.items() if n <= len(ranks)]
        assert sorted(given) == sorted(reached), (ranks, prizes)
