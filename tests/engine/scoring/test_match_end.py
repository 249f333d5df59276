"""docs/rules.md §6 (end of the match) and the match-level parts of §3 (the litige reserve): targets,
ties, belote that cannot clinch, deals limits, passed and manual deals, the dealer, the reserve.

Scores read (team 0, team 1). Every running total is worked out in the comments.
"""

from collections.abc import Sequence
from typing import Any

import pytest

from scorekeeper.engine.scoring import (
    PRESETS,
    Announcement,
    Deal,
    InvalidInput,
    Kind,
    ManualDeal,
    MatchResult,
    PassedDeal,
    PlayedDeal,
    Rank,
    Rules,
    Trump,
    rules_from_dict,
    score_match,
)

SPADES, HEARTS, CLUBS, DIAMONDS = Trump.SPADES, Trump.HEARTS, Trump.CLUBS, Trump.DIAMONDS
BELOTE = PRESETS["belote"]


def coinche(**settings: Any) -> Rules:
    """The coinche preset with exact points (no rounding) and the given settings."""
    return rules_from_dict({"preset": "coinche", "rounding": "none", **settings})


def belote(**settings: Any) -> Rules:
    return rules_from_dict({"preset": "belote", **settings})


def totals(result: MatchResult) -> list[tuple[int, int]]:
    return [deal.totals for deal in result.deals]


def scores(result: MatchResult) -> list[tuple[int, int]]:
    return [deal.scores for deal in result.deals]


def assert_goes_on(rules: Rules, deals: Sequence[Deal]) -> None:
    """No prefix of `deals` ends the match (each is scored as a match of its own)."""
    for n in range(len(deals) + 1):
        result = score_match(rules, deals[:n])
        assert (result.finished, result.winner) == (False, None), f"ended after {n} deals"


# Target.


def test_the_first_team_to_pass_the_target_wins() -> None:
    rules = rules_from_dict({"preset": "coinche", "target": 500})  # rounding half_up
    deals: list[Deal] = [
        PlayedDeal(0, SPADES, 100, taker_points=110),  # 110+100=210, 52→50
        PlayedDeal(1, HEARTS, 90, taker_points=100),  # 62→60, 100+90=190
        PlayedDeal(0, DIAMONDS, 110, taker_points=130),  # 130+110=240, 32→30
    ]
    result = score_match(rules, deals)
    assert scores(result) == [(210, 50), (60, 190), (240, 30)]
    assert totals(result) == [(210, 50), (270, 240), (510, 270)]
    assert (result.finished, result.winner, result.totals) == (True, 0, (510, 270))
    assert_goes_on(rules, deals[:2])


@pytest.mark.parametrize(
    "start, finished, winner",
    [
        pytest.param(299, False, None, id="299+200=499: one short, plays on"),
        pytest.param(300, True, 0, id="300+200=500: reaching the target is enough"),
        pytest.param(301, True, 0, id="301+200=501: passing it"),
    ],
)
def test_reaching_the_target_exactly_wins(start: int, finished: bool, winner: int | None) -> None:
    deals: list[Deal] = [ManualDeal((start, 0)), PlayedDeal(0, SPADES, 100, taker_points=100)]
    result = score_match(coinche(target=500), deals)  # the deal: 100+100=200, 62
    assert result.totals == (start + 200, 62)
    assert (result.finished, result.winner) == (finished, winner)


@pytest.mark.parametrize(
    "start, taker, end, winner",
    [
        pytest.param((430, 490), 0, (592, 570), 0, id="430+162=592 > 490+80=570: takers win"),
        pytest.param((380, 490), 0, (542, 570), 1, id="380+162=542 < 490+80=570: defence wins"),
        pytest.param((490, 380), 1, (570, 542), 0, id="team 1 takes: 490+80=570 > 542: defence"),
        pytest.param((490, 430), 1, (570, 592), 1, id="team 1 takes: 430+162=592 > 570: takers"),
    ],
)
def test_both_over_the_target_the_higher_total_wins(
    start: tuple[int, int], taker: int, end: tuple[int, int], winner: int
) -> None:
    deals: list[Deal] = [ManualDeal(start), PlayedDeal(taker, SPADES, 80, taker_points=82)]
    result = score_match(coinche(target=500), deals)  # 82+80=162 to the takers, 80 to the defence
    assert result.totals == end
    assert (result.finished, result.winner) == (True, winner)


TIED: list[Deal] = [
    ManualDeal((378, 460)),
    PlayedDeal(0, SPADES, 80, taker_points=82),  # 82+80=162, 80: (540, 540), both over 500
]


def test_equal_totals_over_the_target_extra_deal_plays_on() -> None:
    rules = coinche(target=500, end_tie="extra_deal")
    result = score_match(rules, TIED)
    assert result.totals == (540, 540)
    assert (result.finished, result.winner) == (False, None)
    # A passed deal decides nothing either.
    assert not score_match(rules, [*TIED, PassedDeal()]).finished
    # The extra deal: team 1 takes 80 and makes 100: 62, 100+80=180 → (602, 720).
    later = score_match(rules, [*TIED, PassedDeal(), PlayedDeal(1, HEARTS, 80, taker_points=100)])
    assert later.totals == (602, 720)
    assert (later.finished, later.winner) == (True, 1)


def test_equal_totals_still_equal_after_the_extra_deal_play_on_again() -> None:
    rules = coinche(target=500, end_tie="extra_deal")
    # Equal points entered by hand keep the tie, (590, 590): play goes on.
    result = score_match(rules, [*TIED, ManualDeal((50, 50))])
    assert result.totals == (590, 590)
    assert (result.finished, result.winner) == (False, None)


def test_equal_totals_last_deal_winner_gives_it_to_the_takers_who_made() -> None:
    result = score_match(coinche(target=500, end_tie="last_deal_winner"), TIED)
    assert result.totals == (540, 540)
    assert (result.finished, result.winner) == (True, 0)


@pytest.mark.parametrize(
    "end_tie, finished, winner",
    [
        pytest.param("last_deal_winner", True, 1, id="last_deal_winner: the defence won the deal"),
        pytest.param("extra_deal", False, None, id="extra_deal: plays on"),
    ],
)
def test_equal_totals_after_a_failed_contract(
    end_tie: str, finished: bool, winner: int | None
) -> None:
    rules = coinche(target=500, end_tie=end_tie, belote_cannot_clinch=False)
    deals: list[Deal] = [
        ManualDeal((490, 270)),
        PlayedDeal(0, SPADES, 80, taker_points=70, belote=(1, 0)),  # 90 < 92: 20, 160+80=240
    ]
    result = score_match(rules, deals)
    assert result.totals == (510, 510)
    assert (result.finished, result.winner) == (finished, winner)


# belote_cannot_clinch.

CLINCH: list[Deal] = [
    ManualDeal((990, 0)),
    PlayedDeal(0, SPADES, 80, taker_points=70, belote=(1, 0)),  # failed 90 < 92: 20, 240
    PlayedDeal(1, HEARTS, 80, capot=1, belote=(1, 0)),  # capot: team 0 belote 20, 252+80=332
    PlayedDeal(1, CLUBS, 80, taker_points=100),  # made: team 0 62, team 1 100+80=180
]


def test_belote_cannot_clinch() -> None:
    rules = coinche(target=1000)
    result = score_match(rules, CLINCH)
    assert scores(result) == [(990, 0), (20, 240), (20, 332), (62, 180)]
    assert totals(result) == [(990, 0), (1010, 240), (1030, 572), (1092, 752)]
    # Over the target with only its belote (failed, then capot): not yet.
    assert_goes_on(rules, CLINCH[:3])
    # Then it scores more than its belote: it wins.
    assert (result.finished, result.winner) == (True, 0)


def test_belote_can_clinch_when_the_setting_is_off() -> None:
    rules = coinche(target=1000, belote_cannot_clinch=False)
    result = score_match(rules, CLINCH[:2])
    assert result.totals == (1010, 240)
    assert (result.finished, result.winner) == (True, 0)
    with pytest.raises(InvalidInput) as error:
        score_match(rules, CLINCH)
    assert error.value.path == "deals[2]"


@pytest.mark.parametrize(
    "deal, deal_scores",
    [
        pytest.param(
            PlayedDeal(0, SPADES, 80, taker_points=50, belote=(1, 0)),
            (30, 240),
            id="failed: 50+25=75 < 112, belote 25→30; 160+80=240",
        ),
        pytest.param(
            PlayedDeal(1, SPADES, 80, capot=1, belote=(1, 0)),
            (30, 330),
            id="capot: belote 25→30; 252+80=332→330",
        ),
    ],
)
def test_belote_cannot_clinch_when_rounding_lifts_the_belote(
    deal: PlayedDeal, deal_scores: tuple[int, int]
) -> None:
    """With belote_points 25 and half_up, a failed or capot team scores 30: still nothing but
    its belote, so it cannot win on that deal."""
    rules = rules_from_dict({"preset": "coinche", "target": 1000, "belote_points": 25})
    deals: list[Deal] = [ManualDeal((990, 0)), deal]
    result = score_match(rules, deals)
    assert result.deals[-1].scores == deal_scores
    assert result.totals[0] == 1020
    assert (result.finished, result.winner) == (False, None)
    # The next deal, where it scores more than its belote: 62 → 60 as defence of a made 80.
    later = score_match(rules, [*deals, PlayedDeal(1, HEARTS, 80, taker_points=100)])
    assert (later.finished, later.winner) == (True, 0)


def test_belote_cannot_clinch_in_classic_dedans() -> None:
    rules = belote(target=270)
    deals: list[Deal] = [
        PlayedDeal(0, HEARTS, taker_points=120),  # 120, 42
        PlayedDeal(0, SPADES, taker_points=140),  # 140, 22 → (260, 64)
        PlayedDeal(0, CLUBS, taker_points=60, belote=(1, 0)),  # 80 < 102: 20, 162 → (280, 226)
        PlayedDeal(1, CLUBS, taker_points=60),  # 60 < 102: team 0 gets 162 → (442, 226)
    ]
    result = score_match(rules, deals)
    assert totals(result) == [(120, 42), (260, 64), (280, 226), (442, 226)]
    # 280 ≥ 270 after the third deal, but with nothing but its belote: not yet.
    assert_goes_on(rules, deals[:3])
    assert (result.finished, result.winner) == (True, 0)


def test_both_past_the_target_the_higher_team_that_may_not_clinch_plays_on() -> None:
    """§6: 1490–1265, team 0 takes 80 and fails with its belote (70 + 20 = 90 < 92): 20, 240 →
    1510–1505, both past 1500. Team 0 leads but scored nothing but its belote: nobody wins yet,
    and team 1 never wins with fewer points (seen once in 4,000 random matches: it did)."""
    rules = coinche(target=1500)
    deals: list[Deal] = [
        ManualDeal((1490, 1265)),
        PlayedDeal(0, SPADES, 80, taker_points=70, belote=(1, 0)),
    ]
    result = score_match(rules, deals)
    assert result.totals == (1510, 1505)
    assert (result.finished, result.winner) == (False, None)
    # Team 1 takes 80 and makes 100: 62, 180 → 1572–1685: the higher total, team 1, wins now.
    later = score_match(rules, [*deals, PlayedDeal(1, HEARTS, 80, taker_points=100)])
    assert later.totals == (1572, 1685)
    assert (later.finished, later.winner) == (True, 1)
    # Team 0 takes 80 and makes 100: 180, 62 → 1690–1567: it wins with more than its belote.
    ahead = score_match(rules, [*deals, PlayedDeal(0, HEARTS, 80, taker_points=100)])
    assert (ahead.finished, ahead.winner) == (True, 0)


def test_both_past_the_target_the_higher_team_made_capot_plays_on() -> None:
    """1170–1490, team 0 takes 80 and makes capot; team 1 keeps its belote: 252 + 80 = 332, 20
    → 1502–1510. Team 1 leads with its belote only: nobody wins, and team 0 not with 1502."""
    rules = coinche(target=1500)
    deals: list[Deal] = [
        ManualDeal((1170, 1490)),
        PlayedDeal(0, SPADES, 80, capot=0, belote=(0, 1)),
    ]
    result = score_match(rules, deals)
    assert result.totals == (1502, 1510)
    assert (result.finished, result.winner) == (False, None)


@pytest.mark.parametrize("end_tie", ["extra_deal", "last_deal_winner"])
def test_equal_totals_past_the_target_the_tie_rule_decides(end_tie: str) -> None:
    """§6: equal totals past the target follow `end_tie` even when one team may not clinch:
    490 + 20 (belote, failed) = 510 and 270 + 240 = 510. extra_deal plays on; last_deal_winner
    gives it to the defence that won the deal."""
    rules = coinche(target=500, end_tie=end_tie)
    deals: list[Deal] = [
        ManualDeal((490, 270)),
        PlayedDeal(0, SPADES, 80, taker_points=70, belote=(1, 0)),
    ]
    result = score_match(rules, deals)
    assert result.totals == (510, 510)
    expected = (True, 1) if end_tie == "last_deal_winner" else (False, None)
    assert (result.finished, result.winner) == expected


# deals_limit.


def test_deals_limit_ends_after_that_many_scored_deals() -> None:
    rules = belote(target=None, deals_limit=3)
    deals: list[Deal] = [
        PlayedDeal(0, HEARTS, taker_points=100),  # 100, 62
        PassedDeal(),  # does not count
        PlayedDeal(1, SPADES, taker_points=90),  # 72, 90 → (172, 152)
        PlayedDeal(0, CLUBS, taker_points=70),  # dedans: 0, 162 → (172, 314)
    ]
    result = score_match(rules, deals)
    assert totals(result) == [(100, 62), (100, 62), (172, 152), (172, 314)]
    assert (result.finished, result.winner, result.scored_deals) == (True, 1, 3)
    assert_goes_on(rules, deals[:3])
    with pytest.raises(InvalidInput) as error:
        score_match(rules, [*deals, PassedDeal()])
    assert error.value.path == "deals[4]"


def test_deals_limit_equal_totals_is_a_draw() -> None:
    deals: list[Deal] = [
        PlayedDeal(0, HEARTS, taker_points=100),  # 100, 62
        PlayedDeal(1, SPADES, taker_points=100),  # 62, 100 → (162, 162)
    ]
    result = score_match(belote(target=None, deals_limit=2), deals)
    assert result.totals == (162, 162)
    assert (result.finished, result.winner) == (True, "draw")


LIMIT_DEALS: list[Deal] = [
    PlayedDeal(0, HEARTS, taker_points=100),  # 100, 62
    PlayedDeal(0, SPADES, taker_points=110),  # 110, 52 → (210, 114)
    PlayedDeal(1, SPADES, taker_points=110),  # 52, 110 → (262, 224)
]


@pytest.mark.parametrize(
    "target, limit, deals_played, winner",
    [
        pytest.param(200, 3, 2, 0, id="target 200 first: 210 after 2 deals of 3"),
        pytest.param(1000, 2, 2, 0, id="limit 2 first: 210 vs 114, far from 1000"),
        pytest.param(250, 3, 3, 0, id="target 250 on the limit deal: 262"),
        pytest.param(1000, 3, 3, 0, id="limit 3, target far: 262 vs 224"),
    ],
)
def test_target_or_limit_whichever_comes_first(
    target: int, limit: int, deals_played: int, winner: int
) -> None:
    rules = belote(target=target, deals_limit=limit)
    result = score_match(rules, LIMIT_DEALS[:deals_played])
    assert (result.finished, result.winner) == (True, winner)
    assert_goes_on(rules, LIMIT_DEALS[: deals_played - 1])
    if deals_played < len(LIMIT_DEALS):
        with pytest.raises(InvalidInput) as error:
            score_match(rules, LIMIT_DEALS)
        assert error.value.path == f"deals[{deals_played}]"


def test_manual_deals_count_as_scored_deals() -> None:
    deals: list[Deal] = [
        ManualDeal((50, 0)),  # a penalty, say
        PlayedDeal(1, SPADES, taker_points=100),  # 62, 100 → (112, 100)
    ]
    result = score_match(belote(target=None, deals_limit=2), deals)
    assert totals(result) == [(50, 0), (112, 100)]
    assert (result.finished, result.winner, result.scored_deals) == (True, 0, 2)


# Passed deals and the dealer.


def test_passed_deals_are_recorded_and_move_the_dealer() -> None:
    deals: list[Deal] = [
        PassedDeal(),
        PlayedDeal(0, HEARTS, taker_points=100),  # 100, 62
        PassedDeal(),
        PassedDeal(),
        PlayedDeal(1, SPADES, taker_points=90),  # 72, 90 → (172, 152)
    ]
    result = score_match(BELOTE, deals, first_dealer=0)
    assert [d.number for d in result.deals] == [1, 2, 3, 4, 5]
    assert [d.dealer for d in result.deals] == [0, 1, 2, 3, 0]
    assert [d.outcome for d in result.deals] == ["passed", "made", "passed", "passed", "made"]
    assert scores(result) == [(0, 0), (100, 62), (0, 0), (0, 0), (72, 90)]
    assert totals(result) == [(0, 0), (100, 62), (100, 62), (100, 62), (172, 152)]
    assert (result.scored_deals, result.next_dealer) == (2, 1)


@pytest.mark.parametrize("first_dealer", [0, 1, 2, 3])
def test_the_deal_moves_to_the_next_seat_from_the_first_dealer(first_dealer: int) -> None:
    deals: list[Deal] = [PassedDeal(), PlayedDeal(0, HEARTS, taker_points=100), ManualDeal((0, 0))]
    deals += [PassedDeal(), PlayedDeal(1, HEARTS, taker_points=100)]
    result = score_match(BELOTE, deals, first_dealer=first_dealer)
    assert [d.dealer for d in result.deals] == [(first_dealer + i) % 4 for i in range(5)]
    assert result.next_dealer == (first_dealer + 5) % 4


@pytest.mark.parametrize("first_dealer", [-1, 4])
def test_first_dealer_is_a_seat(first_dealer: int) -> None:
    with pytest.raises(InvalidInput) as error:
        score_match(BELOTE, [], first_dealer=first_dealer)
    assert error.value.path == "first_dealer"


# The litige reserve (§3).


@pytest.mark.parametrize(
    "second, second_scores, end",
    [
        pytest.param(
            PlayedDeal(1, SPADES, taker_points=100),
            (62, 181),
            (62, 262),
            id="team 1 takes and makes 100: 100+81=181",
        ),
        pytest.param(
            PlayedDeal(0, SPADES, taker_points=100),
            (181, 62),
            (181, 143),
            id="the same takers make 100: 100+81=181",
        ),
        pytest.param(
            PlayedDeal(0, SPADES, taker_points=70),
            (0, 243),
            (0, 324),
            id="team 0 fails: its defence gets 162+81=243",
        ),
        pytest.param(
            PlayedDeal(1, SPADES, taker_points=70),
            (243, 0),
            (243, 81),
            id="team 1 fails: its defence (team 0) gets 162+81=243",
        ),
        pytest.param(
            PlayedDeal(1, SPADES, capot=0),
            (333, 0),
            (333, 81),
            id="defence capot: 252+81=333",
        ),
        pytest.param(
            PlayedDeal(1, SPADES, capot=1, belote=(1, 0)),
            (20, 333),
            (20, 414),
            id="takers capot: 252+81=333, the defence its belote",
        ),
    ],
)
def test_litige_reserve_goes_to_the_next_deal_winner(
    second: PlayedDeal, second_scores: tuple[int, int], end: tuple[int, int]
) -> None:
    first = PlayedDeal(0, DIAMONDS, taker_points=81)  # litige: 0, 81; 81 held
    result = score_match(BELOTE, [first, second])
    assert scores(result) == [(0, 81), second_scores]
    assert [d.reserve for d in result.deals] == [81, 0]
    assert (result.totals, result.reserve) == (end, 0)


def test_litige_reserve_holds_the_takers_total_with_announcements() -> None:
    deals: list[Deal] = [
        # 71 + tierce 20 = 91 vs 91: litige, 91 held.
        PlayedDeal(
            0,
            DIAMONDS,
            taker_points=71,
            announcements=((Announcement(Kind.TIERCE, Rank.KING),), ()),
        ),
        PlayedDeal(1, SPADES, taker_points=100),  # 62, 100+91=191
    ]
    result = score_match(BELOTE, deals)
    assert scores(result) == [(0, 91), (62, 191)]
    assert [d.reserve for d in result.deals] == [91, 0]


@pytest.mark.parametrize(
    "second_taker, expected_scores, expected_totals, third",
    [
        pytest.param(
            0,
            [(0, 81), (0, 162), (62, 181)],
            [(0, 81), (0, 243), (62, 424)],
            PlayedDeal(1, SPADES, taker_points=100),
            id="second litige taken by team 0: its defence team 1 gets 81+81; then team 1 makes 100+81",
        ),
        pytest.param(
            1,
            [(0, 81), (162, 0), (0, 243)],
            [(0, 81), (162, 81), (162, 324)],
            PlayedDeal(0, SPADES, taker_points=70),
            id="second litige taken by team 1: its defence team 0 gets 81+81; then team 0 fails: 162+81",
        ),
    ],
)
def test_a_litige_after_a_litige_gives_the_first_reserve_to_its_defence(
    second_taker: int,
    expected_scores: list[tuple[int, int]],
    expected_totals: list[tuple[int, int]],
    third: PlayedDeal,
) -> None:
    deals: list[Deal] = [
        PlayedDeal(0, DIAMONDS, taker_points=81),  # litige: 0, 81; 81 held
        PlayedDeal(second_taker, HEARTS, taker_points=81),  # litige again
        third,
    ]
    result = score_match(BELOTE, deals)
    assert scores(result) == expected_scores
    assert totals(result) == expected_totals
    # The reserve never rolls further: after the second litige only its own takers' 81 are held.
    assert [d.reserve for d in result.deals] == [81, 81, 0]
    assert sum(result.totals) == 3 * 162


def test_three_litiges_in_a_row() -> None:
    deals: list[Deal] = [
        PlayedDeal(0, DIAMONDS, taker_points=81),  # 0, 81; 81 held
        PlayedDeal(0, HEARTS, taker_points=81),  # defence team 1: 81+81; 81 held
        PlayedDeal(1, SPADES, taker_points=81),  # defence team 0: 81+81; 81 held
    ]
    result = score_match(BELOTE, deals)
    assert scores(result) == [(0, 81), (0, 162), (162, 0)]
    assert totals(result) == [(0, 81), (0, 243), (162, 243)]
    assert [d.reserve for d in result.deals] == [81, 81, 81]
    assert (result.reserve, sum(result.totals) + result.reserve) == (81, 3 * 162)


def test_the_reserve_counts_towards_the_target() -> None:
    deals: list[Deal] = [
        PlayedDeal(0, DIAMONDS, taker_points=81),  # 0, 81; 81 held
        PlayedDeal(0, SPADES, capot=0),  # 252 + 81 = 333, 0
    ]
    result = score_match(belote(target=320), deals)
    assert result.totals == (333, 81)
    assert (result.finished, result.winner) == (True, 0)


# Deals after the end, determinism.


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param([PassedDeal()], id="a passed deal"),
        pytest.param([PlayedDeal(1, HEARTS, taker_points=100)], id="a played deal"),
        pytest.param([ManualDeal((0, 0)), PassedDeal()], id="two more deals"),
    ],
)
def test_a_deal_after_the_end_of_the_match_is_refused(extra: list[Deal]) -> None:
    rules = belote(target=200)
    deals: list[Deal] = [
        PlayedDeal(0, HEARTS, taker_points=100),  # 100, 62
        PlayedDeal(0, SPADES, taker_points=110),  # 110, 52 → (210, 114): team 0 wins
    ]
    assert score_match(rules, deals).winner == 0
    with pytest.raises(InvalidInput) as error:
        score_match(rules, deals + extra)
    assert error.value.path == "deals[2]"


def test_a_bad_deal_in_a_match_names_its_index() -> None:
    deals: list[Deal] = [PassedDeal(), PlayedDeal(0, HEARTS, taker_points=163)]
    with pytest.raises(InvalidInput) as error:
        score_match(BELOTE, deals)
    assert error.value.path == "deals[1].taker_points"


def test_the_same_match_scores_the_same_twice() -> None:
    deals: list[Deal] = [
        PlayedDeal(0, DIAMONDS, taker_points=81),
        PassedDeal(),
        PlayedDeal(1, SPADES, taker_points=100, belote=(0, 1)),
        ManualDeal((10, 0)),
        PlayedDeal(0, CLUBS, capot=0, announcements=((Announcement(Kind.CARRE, Rank.JACK),), ())),
    ]
    first = score_match(BELOTE, deals, first_dealer=2)
    second = score_match(BELOTE, tuple(deals), first_dealer=2)
    assert first == second
    # Litige (0, 81); passed; team 1 100+belote 20 + the 81 held; manual; capot 252+carré J 200.
    assert first.totals == (0 + 62 + 10 + 452, 81 + 120 + 81)
