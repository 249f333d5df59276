"""A table's match belongs to its concours: the organiser, its owner, cannot delete or abandon it
on its own (only with the concours), and once its round is closed its deals change no more
through the match's pages (the desk's correction is the way): the standings, read from the
tables, and the match never disagree. A file imported holds its matches the same way; a deleted
concours lets its matches go (restorable as matches of their own)."""

import json
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper.concours import selectors, services
from scorekeeper.concours.models import Round, Table, Tournament
from scorekeeper.engine.scoring import parse_deal
from scorekeeper.matches import services as match_services
from scorekeeper.matches.models import Match
from tests.factories import TournamentFactory
from tests.matches.support import deal_post

from .support import PHONE, play_out, play_rounds

pytestmark = pytest.mark.django_db

TEAMS = "Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\nCarreau; Gilles; Hana"
DEAL = {"taker": 0, "trump": "hearts", "taker_points": 100}


@pytest.fixture
def organiser(make_user: Callable[[str], User]) -> User:
    return make_user("organiser")


@pytest.fixture
def desk(organiser: User) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def concours(organiser: User) -> Tournament:
    rules = {"preset": "belote", "deals_limit": 2, "target": None}
    return TournamentFactory.create(owner=organiser, overrides={"partie": rules}, teams=TEAMS)


def first_match(tournament: Tournament) -> Match:
    table = Table.objects.filter(round__tournament=tournament).order_by("round__number", "number")
    return Match.objects.get(concours_table=table.first())


def test_a_drawn_tables_match_is_deleted_or_abandoned_only_with_its_concours(
    organiser: User, desk: Client
) -> None:
    tournament = concours(organiser)
    services.draw_round(tournament=tournament)
    match = first_match(tournament)
    assert match.in_concours and match.frozen_at is None and match.owner == organiser

    page = desk.get(reverse("matches:manage", args=[match.scorer_token])).text
    assert "a table of a concours" in page
    assert reverse("matches:delete_match", args=[match.scorer_token]) not in page
    assert reverse("matches:abandon", args=[match.scorer_token]) not in page

    deleted = desk.post(
        reverse("matches:delete_match", args=[match.scorer_token]),
        {"confirm": "delete"},
        follow=True,
    )
    abandoned = desk.post(reverse("matches:abandon", args=[match.scorer_token]), follow=True)
    for response in (deleted, abandoned):
        assert "deleted or abandoned only with its concours" in response.text
    match.refresh_from_db()
    assert match.deleted_at is None and match.abandoned_at is None
    with pytest.raises(match_services.MatchHeld):
        match_services.delete_match(match_id=match.pk)

    # During the round the match scores as any other (its phone, or the organiser fixing a deal).
    match_services.record_deal(
        match_id=match.pk, expected_version=None, deal=parse_deal(DEAL), author=PHONE
    )
    assert Match.objects.get(pk=match.pk).deal_count == 1


def closed_round(organiser: User) -> Round:
    """A concours whose round 1 is played out and closed."""
    round_ = services.draw_round(tournament=concours(organiser))
    for table in round_.tables.all():
        play_out(table)
    return services.close_round(round_=round_)


def test_a_closed_rounds_match_takes_no_more_changes(organiser: User, desk: Client) -> None:
    round_ = closed_round(organiser)
    tournament = round_.tournament
    match = first_match(tournament)
    assert match.frozen_at == round_.closed_at
    standings = selectors.standings(tournament, None)
    token, version, deals = match.scorer_token, match.version, match.deal_count

    posts = [
        (reverse("matches:deal_new", args=[token]), deal_post(version, contract="", coinche="")),
        (reverse("matches:deal_delete", args=[token, 1]), {"version": str(version)}),
        (reverse("matches:undo", args=[token]), {"version": str(version), "confirm": "1"}),
    ]
    for url, data in posts:
        response = desk.post(url, data, follow=True)
        assert response.status_code == 200, url
    match.refresh_from_db()
    assert match.deal_count == deals and match.version == version
    assert match.changes.filter(action="undo").count() == 0
    assert selectors.standings(tournament, None) == standings

    for change in (
        lambda: match_services.delete_deal(
            match_id=match.pk, seq=1, expected_version=None, author=PHONE
        ),
        lambda: match_services.undo_last_change(
            match_id=match.pk, expected_version=None, author=PHONE
        ),
        lambda: match_services.edit_deal(
            match_id=match.pk, seq=1, expected_version=None, deal=parse_deal(DEAL), author=PHONE
        ),
    ):
        with pytest.raises(match_services.MatchFrozen):
            change()

    # The way to change a closed round's result: the desk's correction, which the standings read.
    table = Table.objects.get(match=match)
    services.correct_result(table=table, totals=(300, 10), author=organiser)
    assert Table.objects.get(pk=table.pk).points0 == 300


def test_the_refusal_is_said_on_the_scoreboard(organiser: User, desk: Client) -> None:
    match = first_match(closed_round(organiser).tournament)
    response = desk.post(
        reverse("matches:deal_delete", args=[match.scorer_token, 1]),
        {"version": str(match.version)},
        follow=True,
    )
    assert "round is closed: its deals change no more" in response.text


def test_an_imported_concours_holds_its_matches(organiser: User) -> None:
    played = play_rounds(concours(organiser), 1, finish=False)
    services.draw_round(tournament=played)  # round 2 drawn, not played: its tables are open
    document = selectors.export_document(played)
    imported = services.import_tournament(owner=organiser, text=json.dumps(document))
    matches = Match.objects.filter(concours_table__round__tournament=imported)
    assert matches.count() == 4 and all(m.in_concours for m in matches)
    closed = matches.filter(concours_table__round__number=1)
    assert all(m.frozen_at is not None for m in closed)
    assert all(m.frozen_at is None for m in matches.filter(concours_table__round__number=2))


def test_a_deleted_concours_lets_its_matches_go(organiser: User) -> None:
    tournament = play_rounds(concours(organiser), 1)
    match = first_match(tournament)
    assert match.frozen_at is not None
    services.delete_tournament(tournament=tournament)
    match.refresh_from_db()
    assert match.deleted_at is not None and not match.in_concours and match.frozen_at is None
    match_services.restore_match(match_id=match.pk)
    assert Match.objects.get(pk=match.pk).deleted_at is None
