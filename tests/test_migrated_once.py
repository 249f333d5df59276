"""The test database a worker starts from (tests/migrated_once.py): migrated, or copied from the
run's migrated one, it is the same database."""

import sqlite3

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.migrated_once import TEMPLATE

pytestmark = pytest.mark.django_db


def contents(db: sqlite3.Connection) -> list[tuple[object, ...]]:
    schema = db.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    applied = db.execute("SELECT app, name FROM django_migrations ORDER BY app, name").fetchall()
    kinds = db.execute("SELECT app_label, model FROM django_content_type ORDER BY 1, 2").fetchall()
    rights = db.execute("SELECT codename FROM auth_permission ORDER BY 1").fetchall()
    return [*schema, *applied, *kinds, *rights]


def test_the_test_database_has_every_migration_applied() -> None:
    executor = MigrationExecutor(connection)
    assert executor.migration_plan(executor.loader.graph.leaf_nodes()) == []


def test_a_worker_s_database_is_the_run_s_migrated_one(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("SQLite: a PostgreSQL copy is another database, read by the test above")
    template = tmp_path_factory.getbasetemp().parent / TEMPLATE
    if not template.exists():
        pytest.skip("not a worker of a run with workers (-n): the database was migrated here")
    connection.ensure_connection()
    with sqlite3.connect(template) as kept:
        assert contents(connection.connection) == contents(kept)
    kept.close()
