"""Migrations 0009-0011 move a match's four seat columns into Seat rows (issue 13). Every seat must
survive, forward and back, on SQLite and PostgreSQL alike: these tests migrate the test database
itself (hence transaction=True), then bring it back to the latest state whatever happens."""

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.apps.registry import Apps
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

from scorekeeper.history.selectors import player_ids_for, player_stats
from scorekeeper.matches.access import Viewer
from scorekeeper.matches.models import Match, Player, Seat

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = "0008_deal_taker_and_coinche_players"  # the four seat columns, no Seat table
COLUMNS = ("seat0_id", "seat1_id", "seat2_id", "seat3_id")

Migrate = Callable[[str], Apps]


@pytest.fixture
def migrate(transactional_db: None) -> Iterator[Migrate]:
    """Migrate the matches app to a migration by name; returns the models of that state. The
    database goes back to the latest migration of every app after the test (going back in
    matches also unapplies the apps that depend on it, such as tournaments, whose tables the
    next test on this database needs). Through Django's migration executor, as `migrate` does,
    without the command's renders of every app's models before and after, nor its post_migrate
    signal (content types and permissions, which the test database keeps)."""

    def to(name: str) -> Apps:
        executor = MigrationExecutor(connection)
        executor.migrate([("matches", name)])
        return executor.loader.project_state(("matches", name)).apps

    yield to
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def latest() -> str:
    """The matches app's newest migration: the seats' tests read rows through today's models."""
    [(_app, name)] = MigrationLoader(connection).graph.leaf_nodes("matches")
    return str(name)


def seats_now() -> dict[tuple[int, int], int]:
    """(match, position) -> player, from the Seat rows."""
    return {
        (match_id, position): player_id
        for match_id, position, player_id in Seat.objects.values_list(
            "match_id", "position", "player_id"
        )
    }


def seats_in_columns(apps: Apps) -> dict[tuple[int, int], int]:
    """The same, from the four columns of an old state's Match."""
    old_match = apps.get_model("matches", "Match")
    found = {}
    for row in old_match.objects.values("id", *COLUMNS):
        for position, column in enumerate(COLUMNS):
            if row[column] is not None:
                found[(row["id"], position)] = row[column]
    return found


def stats_of(name: str) -> Any:
    player = Player.objects.get(name=name)
    viewer = Viewer(user_id=None, device_key=player.owner_key)
    return player_stats(player_ids_for(player), viewer.matches)


def test_the_seats_of_seed_demo_survive_going_back_and_forth(migrate: Migrate) -> None:
    call_command("seed_demo", matches=40, seed=13, player="Zoé", player_matches=12, verbosity=0)
    seats = seats_now()
    assert len(seats) == 40 * 4 and Match.objects.count() == 40
    zoe = stats_of("Zoé")
    assert zoe.matches == 12 and zoe.partners and zoe.opponents

    old = migrate(BEFORE)  # 0011, 0010 and 0009 reversed: the columns are filled again
    assert seats_in_columns(old) == seats
    assert "matches_seat" not in connection.introspection.table_names()

    migrate(latest())
    assert seats_now() == seats
    assert stats_of("Zoé") == zoe  # the player page counts the same matches, partners, wins


def test_rows_seeded_the_old_way_keep_every_seat(migrate: Migrate) -> None:
    old = migrate(BEFORE)
    old_player = old.get_model("matches", "Player")
    old_match = old.get_model("matches", "Match")
    alice, bruno, chloe, david = (
        old_player.objects.create(name=name, owner_key="phone")
        for name in ("Alice", "Bruno", "Chloé", "David")
    )

    def match(*seated: Any) -> Any:
        return old_match.objects.create(
            owner_key="phone",
            rules={},
            preset="coinche",
            game="coinche",
            team0_name="Nous",
            team1_name="Eux",
            **{f"seat{n}": player for n, player in enumerate(seated)},
        )

    full = match(alice, chloe, bruno, david)
    blanks = match(None, david, None, alice)  # blank seats have no row
    empty = match(None, None, None, None)
    twice = match(bruno, alice, bruno, None)  # no form lets this through: kept once, first seat

    migrate(latest())
    assert seats_now() == {
        (full.pk, 0): alice.pk,
        (full.pk, 1): chloe.pk,
        (full.pk, 2): bruno.pk,
        (full.pk, 3): david.pk,
        (blanks.pk, 1): david.pk,
        (blanks.pk, 3): alice.pk,
        (twice.pk, 0): bruno.pk,
        (twice.pk, 1): alice.pk,
    }
    names = {m.pk: [p.name if p else None for p in m.seats] for m in Match.objects.with_players()}
    assert names == {
        full.pk: ["Alice", "Chloé", "Bruno", "David"],
        blanks.pk: [None, "David", None, "Alice"],
        empty.pk: [None, None, None, None],
        twice.pk: ["Bruno", "Alice", None, None],
    }
    assert Match.objects.get(pk=blanks.pk).seat_name(0) == "Nous (1)"

    back = migrate(BEFORE)  # and back: the columns as they were, but the seat given twice
    rows = back.get_model("matches", "Match").objects.values("id", *COLUMNS)
    columns = {row["id"]: [row[column] for column in COLUMNS] for row in rows}
    assert columns[full.pk] == [alice.pk, chloe.pk, bruno.pk, david.pk]
    assert columns[blanks.pk] == [None, david.pk, None, alice.pk]
    assert columns[empty.pk] == [None, None, None, None]
    assert columns[twice.pk] == [bruno.pk, alice.pk, None, None]
