"""The write services of matches (services.py): what each one stores, the DealChange it keeps
(who, when, before, after), undo of every kind of change, and that a refused change (MatchOver,
NothingToUndo, MatchChanged, an invalid deal) leaves the database exactly as it was."""

from datetime import timedelta

import pytest
from django.utils import timezone

from scorekeeper.engine.scoring import (
    InvalidInput,
    ManualDeal,
    PassedDeal,
    PlayedDeal,
    Team,
    Trump,
    get_preset,
    load_match,
    rules_from_dict,
    score_match,
)
from scorekeeper.engine.scoring.matchfile import MatchFile
from scorekeeper.matches import services
from scorekeeper.matches.models import Deal, DealChange, Match, Player

from .conftest import MakeMatch, Snapshot
from .support import CREATOR, OWNER_KEY, SCORER, coinche_deal

pytestmark = pytest.mark.django_db


def scores_of(match: Match) -> list[tuple[int, str, int, int, int, int]]:
    return [
        (d.number, d.outcome, d.score0, d.score1, d.total0, d.total1)
        for d in match.deals.in_order()
    ]


# create_match, rematch, regenerate_links -----------------------------------------------------


def test_create_match_stores_resolved_rules_teams_seats_and_dealer() -> None:
    rules = rules_from_dict({"preset": "coinche", "target": 1000, "multipliers": [2, 3]})
    match = services.create_match(
        owner_key=OWNER_KEY,
        rules=rules,
        team_names=("Nous", "Eux"),
        players=["Alice", "Chloé", "Bruno", None],
        first_dealer=2,
    )
    match.refresh_from_db()
    assert match.rules == rules.to_dict()
    assert match.rules["multipliers"] == [2, 3] and match.rules["target"] == 1000
    assert (match.preset, match.game) == ("coinche", "coinche")
    assert match.team_names == ("Nous", "Eux")
    assert [p.name if p else None for p in match.seats] == ["Alice", "Chloé", "Bruno", None]
    assert match.first_dealer == 2
    assert (match.status, match.winner, match.total0, match.total1) == ("playing", None, 0, 0)
    assert match.deal_count == 0 and match.owner_key == OWNER_KEY
    assert match.view_token != match.scorer_token
    assert len(match.view_token) >= 24 and len(match.scorer_token) >= 24


def test_create_match_reuses_the_players_this_browser_knows() -> None:
    first = services.create_match(
        owner_key=OWNER_KEY,
        rules=get_preset("belote"),
        team_names=("A", "B"),
        players=["Alice", "Bruno", "Chloé", "David"],
    )
    second = services.create_match(
        owner_key=OWNER_KEY,
        rules=get_preset("belote"),
        team_names=("A", "B"),
        players=["  alice ", "Bruno", None, None],
    )
    assert second.seats[:2] == first.seats[:2]
    assert Match.objects.get(pk=second.pk).seats == (*first.seats[:2], None, None)
    assert Player.objects.filter(owner_key=OWNER_KEY).count() == 4
    assert services.known_player_names(OWNER_KEY) == ["Alice", "Bruno", "Chloé", "David"]
    assert services.known_player_names("someone-else") == []


def test_create_match_draws_a_first_dealer_when_asked() -> None:
    dealers = {
        services.create_match(
            owner_key=OWNER_KEY,
            rules=get_preset("belote"),
            team_names=("A", "B"),
            first_dealer=None,
        ).first_dealer
        for _ in range(40)
    }
    assert dealers <= {0, 1, 2, 3}
    assert len(dealers) > 1  # all 40 draws alike: a chance of 4 in 4**40


def test_rematch_keeps_teams_players_and_rules_and_moves_the_first_deal(
    make_match: MakeMatch,
) -> None:
    rules = rules_from_dict({"preset": "coinche-x3", "target": 300})
    match = make_match(rules, [coinche_deal(contract=160, points=162)], first_dealer=3)
    assert match.is_finished
    new = services.rematch(match=match, owner_key=OWNER_KEY)
    new.refresh_from_db()
    assert new.pk != match.pk and new.rematch_of == match
    assert new.rules == match.rules and new.team_names == match.team_names
    assert [p.pk if p else None for p in new.seats] == [p.pk if p else None for p in match.seats]
    assert new.first_dealer == 0
    assert (new.status, new.deal_count, new.total0, new.total1) == ("playing", 0, 0, 0)
    assert new.view_token != match.view_token


def test_regenerate_links_replaces_both_tokens_and_bumps_the_version(make_match: MakeMatch) -> None:
    match = make_match()
    renewed = services.regenerate_links(match_id=match.pk)
    renewed.refresh_from_db()
    assert renewed.view_token != match.view_token
    assert renewed.scorer_token != match.scorer_token
    assert renewed.version == match.version + 1
    assert not Match.objects.filter(view_token=match.view_token).exists()
    assert not Match.objects.filter(scorer_token=match.scorer_token).exists()


# record, edit, delete: rows, cache and the change kept ---------------------------------------


def test_record_deal_stores_inputs_scores_and_a_change(make_match: MakeMatch) -> None:
    match = make_match()
    before = timezone.now()
    deal = coinche_deal(belote=(1, 0), note="first one")
    row = services.record_deal(
        match_id=match.pk, expected_version=match.version, deal=deal, author=SCORER
    )
    row.refresh_from_db()
    assert row.to_engine() == deal
    assert (row.seq, row.kind, row.taker, row.contract, row.trump) == (
        1,
        "played",
        0,
        "80",
        "hearts",
    )
    assert (row.taker_points, row.belote0, row.note) == (100, 1, "first one")
    assert (row.number, row.outcome, row.score0, row.score1) == (1, "made", 200, 60)
    assert (row.total0, row.total1, row.reserve_after) == (200, 60, 0)
    match.refresh_from_db()
    assert (match.total0, match.total1, match.deal_count, match.version) == (200, 60, 1, 1)
    change = DealChange.objects.get()
    assert (change.action, change.seq, change.number) == ("add", 1, 1)
    assert change.before is None and change.after == row.as_match_dict()
    assert (change.author_key, change.author) == (SCORER.key, "scorer link")
    assert before <= change.created_at <= timezone.now()


def test_passed_and_manual_deals(make_match: MakeMatch) -> None:
    match = make_match(deals=[PassedDeal(), ManualDeal((0, 50), "penalty: revoke")])
    passed, manual = match.deals.in_order()
    assert (passed.kind, passed.outcome, passed.score0, passed.score1) == ("passed", "passed", 0, 0)
    assert (manual.kind, manual.outcome, manual.manual0, manual.manual1) == (
        "manual",
        "manual",
        0,
        50,
    )
    assert manual.note == "penalty: revoke" and manual.total1 == 50
    assert [passed.dealer, manual.dealer] == [0, 1]
    assert DealChange.objects.filter(action="add").count() == 2


def test_edit_deal_rescores_the_later_deals_and_keeps_before_and_after(
    make_match: MakeMatch,
) -> None:
    match = make_match(deals=[coinche_deal(), coinche_deal(taker=1, points=40)])
    old = match.deals.get(seq=1).as_match_dict()
    new = coinche_deal(contract=120, points=100)  # now failed: the defence gets 160 + 120
    services.edit_deal(
        match_id=match.pk, seq=1, expected_version=match.version, deal=new, author=CREATOR
    )
    match.refresh_from_db()
    assert scores_of(match) == [(1, "failed", 0, 280, 0, 280), (2, "failed", 240, 0, 240, 280)]
    assert (match.total0, match.total1) == (240, 280)
    change = DealChange.objects.get(action="edit")
    assert (change.seq, change.number, change.author) == (1, 1, "creator")
    assert change.before == old and change.after == match.deals.get(seq=1).as_match_dict()
    assert change.after["contract"] == 120


def test_delete_deal_renumbers_and_keeps_the_deleted_deal(make_match: MakeMatch) -> None:
    match = make_match(deals=[coinche_deal(), PassedDeal(), coinche_deal(taker=1, points=40)])
    deleted = match.deals.get(seq=2).as_match_dict()
    services.delete_deal(match_id=match.pk, seq=2, expected_version=match.version, author=SCORER)
    match.refresh_from_db()
    rows = list(match.deals.in_order())
    assert [(d.seq, d.number, d.dealer) for d in rows] == [(1, 1, 0), (3, 2, 1)]
    assert match.deal_count == 2 and (match.total0, match.total1) == (420, 60)
    change = DealChange.objects.get(action="delete")
    assert (change.seq, change.number, change.before, change.after) == (2, 2, deleted, None)
    assert change.author_key == SCORER.key


def test_a_deal_that_ends_the_match_sets_winner_and_status(make_match: MakeMatch) -> None:
    rules = rules_from_dict({"preset": "coinche", "target": 400})
    match = make_match(rules, [coinche_deal(points=130)])
    assert not match.is_finished
    services.record_deal(
        match_id=match.pk, expected_version=None, deal=coinche_deal(points=130), author=CREATOR
    )
    match.refresh_from_db()
    assert (match.status, match.winner) == ("finished", 0)
    assert match.finished_at is not None
    # Undoing the last deal re-opens the match.
    services.undo_last_change(match_id=match.pk, expected_version=None, author=CREATOR)
    reopened = Match.objects.get(pk=match.pk)
    assert (reopened.status, reopened.winner, reopened.finished_at) == ("playing", None, None)


def test_a_draw_on_the_deals_limit(make_match: MakeMatch) -> None:
    rules = rules_from_dict({"preset": "belote", "target": None, "deals_limit": 1})
    match = make_match(rules, [ManualDeal((10, 10))])
    assert match.is_finished and match.is_draw and match.winner is None


# undo -----------------------------------------------------------------------------------------


def test_undo_of_an_add_removes_the_deal(make_match: MakeMatch) -> None:
    match = make_match(deals=[coinche_deal(), coinche_deal(taker=1)])
    change = services.undo_last_change(match_id=match.pk, expected_version=None, author=SCORER)
    match.refresh_from_db()
    assert list(match.deals.values_list("seq", flat=True)) == [1]
    assert (match.total0, match.total1, match.deal_count) == (180, 60, 1)
    assert change.action == "undo" and change.undoes is not None
    assert change.undoes.action == "add" and change.undoes.undone
    assert (change.seq, change.after, change.author) == (2, None, "scorer link")
    assert change.before == change.undoes.after


def test_undo_of_an_edit_restores_the_inputs_and_scores(make_match: MakeMatch) -> None:
    match = make_match(deals=[coinche_deal(belote=(0, 1)), coinche_deal(taker=1, points=40)])
    before = scores_of(match)
    original = match.deals.get(seq=1).to_engine()
    services.edit_deal(
        match_id=match.pk,
        seq=1,
        expected_version=None,
        deal=coinche_deal(contract=150, trump=Trump.NO_TRUMP),
        author=CREATOR,
    )
    services.undo_last_change(match_id=match.pk, expected_version=None, author=CREATOR)
    match.refresh_from_db()
    assert match.deals.get(seq=1).to_engine() == original
    assert scores_of(match) == before
    undo = DealChange.objects.get(action="undo")
    assert undo.undoes is not None and undo.undoes.action == "edit"
    assert undo.after == undo.undoes.before and undo.before == undo.undoes.after


def test_undo_of_a_delete_puts_the_deal_back_in_its_place(make_match: MakeMatch) -> None:
    match = make_match(deals=[coinche_deal(), ManualDeal((5, 0), "x"), coinche_deal(taker=1)])
    before = scores_of(match)
    services.delete_deal(match_id=match.pk, seq=2, expected_version=None, author=CREATOR)
    services.undo_last_change(match_id=match.pk, expected_version=None, author=CREATOR)
    match.refresh_from_db()
    assert list(match.deals.in_order().values_list("seq", "kind", "note")) == [
        (1, "played", ""),
        (2, "manual", "x"),
        (3, "played", ""),
    ]
    assert scores_of(match) == before and match.deal_count == 3


def test_repeated_undos_walk_back_and_then_there_is_nothing_to_undo(
    make_match: MakeMatch, snapshot: Snapshot
) -> None:
    match = make_match()
    services.record_deal(
        match_id=match.pk, expected_version=None, deal=coinche_deal(), author=CREATOR
    )
    services.edit_deal(
        match_id=match.pk,
        seq=1,
        expected_version=None,
        deal=coinche_deal(points=90),
        author=CREATOR,
    )
    services.record_deal(
        match_id=match.pk, expected_version=None, deal=PassedDeal(), author=CREATOR
    )
    services.delete_deal(match_id=match.pk, seq=2, expected_version=None, author=CREATOR)
    undone = [
        services.undo_last_change(match_id=match.pk, expected_version=None, author=CREATOR)
        for _ in range(4)
    ]
    assert [u.undoes.action for u in undone if u.undoes] == ["delete", "add", "edit", "add"]
    match.refresh_from_db()
    assert match.deal_count == 0 and not match.deals.exists()
    assert (match.total0, match.total1) == (0, 0)
    state = snapshot()
    with pytest.raises(services.NothingToUndo):
        services.undo_last_change(match_id=match.pk, expected_version=None, author=CREATOR)
    assert snapshot() == state


def test_undo_after_a_new_change_undoes_the_new_change_first(make_match: MakeMatch) -> None:
    match = make_match(deals=[coinche_deal(), coinche_deal(taker=1)])
    services.undo_last_change(match_id=match.pk, expected_version=None, author=CREATOR)
    services.record_deal(
        match_id=match.pk, expected_version=None, deal=PassedDeal(), author=CREATOR
    )
    services.undo_last_change(match_id=match.pk, expected_version=None, author=CREATOR)
    match.refresh_from_db()
    assert [d.kind for d in match.deals.in_order()] == ["played"]
    assert match.deals.get().taker == 0


# refusals change nothing ------------------------------------------------------------------------


def test_match_over_refuses_a_deal_and_changes_nothing(
    make_match: MakeMatch, snapshot: Snapshot
) -> None:
    rules = rules_from_dict({"preset": "coinche", "target": 100})
    match = make_match(rules, [coinche_deal()])
    assert match.is_finished
    state = snapshot()
    with pytest.raises(services.MatchOver):
        services.record_deal(
            match_id=match.pk, expected_version=match.version, deal=PassedDeal(), author=CREATOR
        )
    assert snapshot() == state


@pytest.mark.parametrize("action", ["record", "edit", "delete", "undo"])
def test_a_stale_version_raises_match_changed_and_changes_nothing(
    make_match: MakeMatch, snapshot: Snapshot, action: str
) -> None:
    match = make_match(deals=[coinche_deal(), coinche_deal(taker=1)])
    stale = match.version - 1
    state = snapshot()
    with pytest.raises(services.MatchChanged) as raised:
        if action == "record":
            services.record_deal(
                match_id=match.pk, expected_version=stale, deal=PassedDeal(), author=CREATOR
            )
        elif action == "edit":
            services.edit_deal(
                match_id=match.pk,
                seq=1,
                expected_version=stale,
                deal=coinche_deal(points=10),
                author=CREATOR,
            )
        elif action == "delete":
            services.delete_deal(match_id=match.pk, seq=1, expected_version=stale, author=CREATOR)
        else:
            services.undo_last_change(match_id=match.pk, expected_version=stale, author=CREATOR)
    assert raised.value.match.version == match.version
    assert snapshot() == state


def test_regenerated_links_make_a_loaded_page_stale(make_match: MakeMatch) -> None:
    match = make_match()
    services.regenerate_links(match_id=match.pk)
    with pytest.raises(services.MatchChanged):
        services.record_deal(
            match_id=match.pk, expected_version=match.version, deal=PassedDeal(), author=CREATOR
        )


def test_a_deal_the_rules_refuse_changes_nothing(make_match: MakeMatch, snapshot: Snapshot) -> None:
    match = make_match("coinche-x3", [coinche_deal()])  # no sans atout, bids up to 160
    state = snapshot()
    for deal in (
        coinche_deal(trump=Trump.NO_TRUMP),
        coinche_deal(contract=170),
        PlayedDeal(taker=0, trump=Trump.SPADES, taker_points=100),  # no contract
    ):
        with pytest.raises(InvalidInput):
            services.record_deal(
                match_id=match.pk, expected_version=None, deal=deal, author=CREATOR
            )
        with pytest.raises(InvalidInput):
            services.edit_deal(
                match_id=match.pk, seq=1, expected_version=None, deal=deal, author=CREATOR
            )
    assert snapshot() == state


def test_an_edit_that_would_end_the_match_before_a_later_deal_changes_nothing(
    make_match: MakeMatch, snapshot: Snapshot
) -> None:
    rules = rules_from_dict({"preset": "coinche", "target": 1000})
    match = make_match(rules, [coinche_deal(), coinche_deal()])
    state = snapshot()
    with pytest.raises(InvalidInput) as raised:
        services.edit_deal(
            match_id=match.pk,
            seq=1,
            expected_version=None,
            deal=PlayedDeal(  # 2 × (252 + 250): the match is over after it
                taker=0, trump=Trump.SPADES, contract="capot", coinche="coinche", capot=0
            ),
            author=CREATOR,
        )
    assert raised.value.path.startswith("deals[1]")
    assert snapshot() == state


def test_a_delete_that_would_end_the_match_before_a_later_deal_changes_nothing(
    make_match: MakeMatch, snapshot: Snapshot
) -> None:
    # 10 points ahead, then a tie over the target plays on; without the first deal the second
    # one ends the match, and the third would come after the end.
    rules = rules_from_dict({"preset": "belote", "target": 100})
    match = make_match(rules, [ManualDeal((10, 0)), ManualDeal((100, 110)), ManualDeal((0, 0))])
    assert not match.is_finished
    state = snapshot()
    with pytest.raises(InvalidInput):
        services.delete_deal(match_id=match.pk, seq=1, expected_version=None, author=CREATOR)
    assert snapshot() == state


# import -----------------------------------------------------------------------------------------


EXAMPLE = b"""{
  "format": "belote-match/1",
  "rules": {"preset": "coinche", "target": 1000},
  "teams": [
    {"name": "Nous", "players": ["Alice", "Bruno"]},
    {"name": "Eux", "players": ["Chlo\\u00e9", "David"]}
  ],
  "first_dealer": 0,
  "deals": [
    {"taker": 0, "contract": 110, "trump": "hearts", "coinche": "coinche", "taker_points": 120,
     "belote": [1, 0]},
    {"taker": 1, "contract": 90, "trump": "no_trump", "taker_points": 95,
     "announcements": [[], [{"kind": "tierce", "high": "K"}]]},
    {"passed": true},
    {"taker": 0, "contract": "capot", "trump": "spades", "capot": 0}
  ]
}"""


def test_import_match_stores_every_deal_with_the_engine_scores() -> None:
    match_file = load_match(EXAMPLE)
    match = services.import_match(match_file=match_file, owner_key=OWNER_KEY)
    match.refresh_from_db()
    assert [(d.number, d.dealer, d.outcome, d.score0, d.score1) for d in match.deals.all()] == [
        (1, 0, "made", 580, 0),
        (2, 1, "made", 70, 210),
        (3, 2, "passed", 0, 0),
        (4, 3, "made", 500, 0),
    ]
    assert (match.total0, match.total1, match.deal_count) == (1150, 210, 4)
    # Seats in playing order: team 0 player 1, team 1 player 1, team 0 player 2, ...
    assert [p.name for p in match.seats if p] == ["Alice", "Chloé", "Bruno", "David"]
    assert [d.to_engine() for d in match.deals.in_order()] == list(match_file.deals)
    assert services.match_file_for(match) == match_file
    assert not DealChange.objects.exists()  # nothing to undo in an imported match


def test_import_of_a_finished_match_without_players() -> None:
    rules = rules_from_dict({"preset": "belote", "target": 200})
    match_file = MatchFile(
        rules=rules,
        teams=(Team("A", None), Team("B", None)),
        first_dealer=3,
        deals=(PassedDeal(), ManualDeal((250, 0))),
    )
    match = services.import_match(match_file=match_file, owner_key=OWNER_KEY)
    match.refresh_from_db()
    assert match.seats == (None, None, None, None)
    assert (match.status, match.winner, match.first_dealer) == ("finished", 0, 3)
    expected = score_match(rules, list(match_file.deals), 3)
    assert [d.dealer for d in match.deals.in_order()] == [d.dealer for d in expected.deals]


def test_change_times_are_in_order(make_match: MakeMatch) -> None:
    match = make_match(deals=[coinche_deal(), PassedDeal()])
    times = list(DealChange.objects.filter(match=match).order_by("id").values_list("created_at"))
    assert times == sorted(times)
    assert timezone.now() - times[0][0] < timedelta(minutes=1)
    assert Deal.objects.filter(match=match).count() == 2


# Problems found by earlier tests, fixed since -------------------------------------------------


def test_a_new_deal_does_not_inherit_the_history_of_a_deleted_one(make_match: MakeMatch) -> None:
    match = make_match(deals=[coinche_deal(), coinche_deal(taker=1)])
    services.delete_deal(match_id=match.pk, seq=2, expected_version=None, author=CREATOR)
    row = services.record_deal(
        match_id=match.pk, expected_version=None, deal=PassedDeal(), author=CREATOR
    )
    actions = list(
        DealChange.objects.filter(match=match, seq=row.seq).values_list("action", flat=True)
    )
    assert actions == ["add"]


def test_a_submission_id_used_in_another_match_is_no_error(make_match: MakeMatch) -> None:
    first, second = make_match(), make_match()
    for match in (first, second):
        services.record_deal(
            match_id=match.pk,
            expected_version=None,
            deal=PassedDeal(),
            author=CREATOR,
            submission="same-id",
        )
    assert second.deals.count() == 1
