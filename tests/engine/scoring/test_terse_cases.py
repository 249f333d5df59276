"""Cases where docs/rules.md says little, pinned one by one (the reference model of
test_properties.py covers them at random; these name them). Scores read (team 0, team 1)."""

from scorekeeper.engine.scoring import (
    PRESETS,
    Announcement,
    Deal,
    Kind,
    ManualDeal,
    PassedDeal,
    PlayedDeal,
    Rank,
    Trump,
    rules_from_dict,
    score_deal,
    score_match,
)

HEARTS, SPADES = Trump.HEARTS, Trump.SPADES


def test_a_coinched_capot_with_the_contract_scope_uses_coinched_base() -> None:
    """§4, multiplier on the contract alone: `coinched_base` + m × C, capot or not (the 250 base
    is only in the whole-deal formula)."""
    rules = PRESETS["coinche-x3"]
    unbid = score_deal(rules, PlayedDeal(0, HEARTS, 100, coinche="coinche", capot=0))
    assert (unbid.outcome, unbid.scores) == ("made", (360, 0))  # 162 + 2 × 100 = 362 → 360
    bid = score_deal(rules, PlayedDeal(0, HEARTS, "capot", coinche="surcoinche", capot=0))
    assert bid.scores == (910, 0)  # 162 + 3 × 250 = 912 → 910


def test_contract_only_scores_the_contract_even_on_a_capot() -> None:
    """made_scores = contract_only, made and not coinched: C + belote + own announcements."""
    rules = rules_from_dict({"preset": "coinche", "made_scores": "contract_only"})
    tierce = Announcement(Kind.TIERCE, Rank.KING)
    result = score_deal(rules, PlayedDeal(0, SPADES, 80, capot=0, announcements=((tierce,), ())))
    assert result.scores == (100, 0)  # 80 + tierce 20


def test_both_over_the_target_but_the_higher_one_only_by_its_belote() -> None:
    """docs/rules.md §6 (settled): the team that scored nothing but its belote cannot win on that
    deal, even with the higher total; and the other one, over the target too, does not win with
    fewer points: play goes on."""
    rules = rules_from_dict({"preset": "coinche", "target": 500, "rounding": "none"})
    deals: list[Deal] = [
        ManualDeal((265, 499)),
        # Team 1 takes 80 ♥: 70 + belote 20 = 90 vs 92, failed. 20 for team 1, 240 for team 0.
        PlayedDeal(1, HEARTS, 80, taker_points=70, belote=(0, 1)),
    ]
    result = score_match(rules, deals)
    assert result.totals == (505, 519)
    assert (result.finished, result.winner) == (False, None)


def test_a_defence_that_won_tricks_may_win_although_rounding_leaves_only_its_belote() -> None:
    """'Nothing but belote' is judged on exact points: 4 card points + belote 20 = 24 → 20 is a
    trick won, not a belote alone."""
    rules = PRESETS["coinche"]
    deals: list[Deal] = [
        ManualDeal((500, 1985)),
        PlayedDeal(0, HEARTS, 110, taker_points=158, belote=(0, 1)),  # 268 → 270; 24 → 20
    ]
    result = score_match(rules, deals)
    assert result.deals[-1].scores == (270, 20)
    assert (result.totals, result.finished, result.winner) == ((770, 2005), True, 1)


def test_a_litige_reserve_waits_through_passed_and_manual_deals() -> None:
    rules = PRESETS["belote"]
    deals: list[Deal] = [
        PlayedDeal(0, HEARTS, taker_points=81),  # litige: 0, 81; 81 held
        PassedDeal(),
        ManualDeal((10, 0)),
        PlayedDeal(1, SPADES, taker_points=100),  # made: 62, 100 + the 81 held
    ]
    result = score_match(rules, deals)
    assert [d.scores for d in result.deals] == [(0, 81), (0, 0), (10, 0), (62, 181)]
    assert [d.reserve for d in result.deals] == [81, 81, 81, 0]


def test_a_reserve_still_held_at_the_end_is_reported_and_given_to_nobody() -> None:
    rules = rules_from_dict({"preset": "belote", "deals_limit": 1})
    result = score_match(rules, [PlayedDeal(0, HEARTS, taker_points=81)])
    assert (result.totals, result.reserve, result.finished, result.winner) == ((0, 81), 81, True, 1)


def test_a_deals_limit_ends_the_match_even_on_a_belote_only_deal() -> None:
    """belote_cannot_clinch is about reaching the target; at the deals limit the higher total
    wins."""
    rules = rules_from_dict({"preset": "coinche", "target": None, "deals_limit": 2})
    deals: list[Deal] = [
        ManualDeal((300, 0)),
        PlayedDeal(0, SPADES, 80, taker_points=70, belote=(1, 0)),  # failed: 20, 240
    ]
    result = score_match(rules, deals)
    assert (result.totals, result.finished, result.winner) == ((320, 240), True, 0)


def test_a_litige_holds_the_belote_with_the_rest_of_the_total() -> None:
    """§3: 'nothing now; their total is held in reserve' (total = cards + belote + counted
    announcements); the next deal's winners receive all of it."""
    rules = PRESETS["belote"]
    deals: list[Deal] = [
        PlayedDeal(0, HEARTS, taker_points=71, belote=(1, 0)),  # 91 vs 91: 0, 91; 91 held
        PlayedDeal(0, SPADES, taker_points=100),  # made: 100 + 91, 62
    ]
    result = score_match(rules, deals)
    assert [d.scores for d in result.deals] == [(0, 91), (191, 62)]
