"""Issue 24: the app that runs a concours was labelled "tournaments". A database made before keeps
its concours: `manage.py migrate` relabels the app's migration records and content types
(scorekeeper/web/relabel.py) and migration 0006 renames its tables. The test database is put
back into the state of then (tables named tournaments_*, records under the old label) and
migrated forward; the same on SQLite and PostgreSQL."""

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

from scorekeeper.concours.models import Table, Tournament
from scorekeeper.web.relabel import relabel_apps
from tests.factories import TournamentFactory

from .support import play_out

pytestmark = pytest.mark.django_db(transaction=True)

TEAMS = "\n".join(f"Team {n}; P{n}a; P{n}b" for n in range(1, 5))


@pytest.fixture
def back_and_forth(transactional_db: None) -> Iterator[None]:
    yield
    call_command("migrate", verbosity=0)  # the latest state for the next test, whatever happens


def as_before_issue_24() -> None:
    """The database as today's code found it before the rename."""
    call_command("migrate", "concours", "0005_free_text_validators", verbosity=0)
    MigrationRecorder.Migration.objects.filter(app="concours").update(app="tournaments")
    ContentType.objects.filter(app_label="concours").update(app_label="tournaments")
    ContentType.objects.clear_cache()


def test_a_concours_of_before_is_kept(back_and_forth: None) -> None:
    organiser = User.objects.create_user("organiser")
    tournament = TournamentFactory.create(
        owner=organiser, name="Concours d'avant", teams=TEAMS, drawn=True
    )
    for table in Table.objects.filter(round__tournament=tournament):
        play_out(table)
    kept = list(
        Table.objects.order_by("pk").values_list("pk", "finished", "winner", "points0", "points1")
    )
    as_before_issue_24()
    names = set(connection.introspection.table_names())
    assert "tournaments_table" in names and "concours_table" not in names
    with pytest.raises(SystemExit):  # `migrate --check` reports work to do and writes nothing
        call_command("migrate", check_unapplied=True, verbosity=0)
    assert MigrationRecorder.Migration.objects.filter(app="tournaments").count() == 5

    call_command("migrate", verbosity=0)

    names = set(connection.introspection.table_names())
    assert {"concours_table", "concours_tournament"} <= names
    assert not {name for name in names if name.startswith("tournaments_")}
    assert set(MigrationRecorder.Migration.objects.values_list("app", flat=True)) >= {"concours"}
    assert not MigrationRecorder.Migration.objects.filter(app="tournaments").exists()
    assert not ContentType.objects.filter(app_label="tournaments").exists()
    assert Tournament.objects.get().name == "Concours d'avant"
    assert (
        list(
            Table.objects.order_by("pk").values_list(
                "pk", "finished", "winner", "points0", "points1"
            )
        )
        == kept
    )


def test_a_new_database_and_a_relabelled_one_are_left_alone(back_and_forth: None) -> None:
    assert relabel_apps(connection) == []  # the test database: already "concours"
    # Every migration of the app on disk is recorded once (issue 26 added one: counted, not fixed).
    on_disk = [key for key in MigrationLoader(connection).disk_migrations if key[0] == "concours"]
    assert len(on_disk) >= 7
    assert MigrationRecorder.Migration.objects.filter(app="concours").count() == len(on_disk)
