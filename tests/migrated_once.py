"""The test database migrated once per run, not once per worker.

Each pytest-xdist worker makes its own test database (..._gw0, _gw1...), and Django makes it by
running every migration: about 4 s of CPU a worker (the migration states rendered again and
again), three times a `make test` and twice more in CI's PostgreSQL pass. Here the first worker
to get there migrates and keeps a copy of the result; the others, waiting on a file lock in the
run's shared temporary directory meanwhile, start from that copy: the same tables, rows, content
types, permissions and migration records as migrating would give.
- SQLite: the copy is a file in that directory, written and read with SQLite's backup API.
- PostgreSQL: the copy is a database of its own (`test_migrated_<run>`, made and copied with
  `CREATE DATABASE ... TEMPLATE`, as Django's parallel test runner clones); the run's controller
  drops it when the run ends (`pytest_sessionfinish`; a run killed before leaves it, as Django
  leaves its own test databases then).

Only the creation of the test database is touched: a test that migrates its worker's database
back and forth (tests/migrating.py) runs Django's migrate as ever. A run without workers
migrates as Django does."""

import fcntl
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

TEMPLATE = "migrated-test-db.sqlite3"
POSTGRESQL_TEMPLATE = "migrated-test-db.postgresql"  # holds the kept database's name


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    with path.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        yield


def _migrate_once(shared: Path, migrate: Callable[..., Any]) -> Callable[..., Any]:
    """Django's `call_command`, but for the test database's creation's `migrate`."""
    from django.db import connections

    def call_command(name: Any, *args: Any, **options: Any) -> Any:
        connection = connections[options.get("database", "default")]
        if name != "migrate" or args or connection.vendor not in ("sqlite", "postgresql"):
            return migrate(name, *args, **options)
        once = (
            _migrate_postgresql_once if connection.vendor == "postgresql" else _migrate_sqlite_once
        )
        return once(shared, connection, lambda: migrate(name, **options))

    return call_command


def _migrate_sqlite_once(shared: Path, connection: Any, migrate: Callable[[], Any]) -> Any:
    template = shared / TEMPLATE
    with _locked(shared / f"{TEMPLATE}.lock"):
        if not template.exists():
            result = migrate()
            connection.ensure_connection()
            partial = template.with_suffix(".partial")
            with sqlite3.connect(partial) as copy:
                connection.connection.backup(copy)
            copy.close()
            partial.rename(template)  # whole or absent for the next worker
            return result
    connection.ensure_connection()
    with sqlite3.connect(template) as kept:
        kept.backup(connection.connection)
    kept.close()
    return None


def _migrate_postgresql_once(shared: Path, connection: Any, migrate: Callable[[], Any]) -> Any:
    marker = shared / POSTGRESQL_TEMPLATE
    own = connection.settings_dict["NAME"]
    with _locked(shared / f"{POSTGRESQL_TEMPLATE}.lock"):
        if not marker.exists():
            result = migrate()
            kept = f"test_migrated_{os.environ['PYTEST_XDIST_TESTRUNUID'][:16]}"
            _copy_postgresql_database(connection, own, kept)
            marker.write_text(kept)
            return result
    _copy_postgresql_database(connection, marker.read_text(), own)  # own: made empty by Django
    return None


def _copy_postgresql_database(connection: Any, source: str, target: str) -> None:
    """`target` made anew as a copy of `source` (PostgreSQL copies a database nobody is connected
    to: this worker's connection is closed first)."""
    connection.close()
    name = connection.ops.quote_name
    with connection.creation._nodb_cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {name(target)}")
        cursor.execute(f"CREATE DATABASE {name(target)} WITH TEMPLATE {name(source)}")


def pytest_sessionfinish(session: pytest.Session) -> None:
    """At the end of a run (its controller): the PostgreSQL copy dropped, if a worker made one."""
    config = session.config
    if hasattr(config, "workerinput") or config.getoption("dist", "no") == "no":
        return  # a worker, or a run without workers
    marker = config._tmp_path_factory.getbasetemp() / POSTGRESQL_TEMPLATE  # type: ignore[attr-defined]
    if not marker.exists():
        return
    from django.db import connection
    from pytest_django.plugin import blocking_manager_key

    kept = connection.ops.quote_name(marker.read_text())
    with (
        config.stash[blocking_manager_key].unblock(),
        connection.creation._nodb_cursor() as cursor,  # type: ignore[attr-defined]
    ):
        cursor.execute(f"DROP DATABASE IF EXISTS {kept}")


@pytest.fixture(scope="session")
def _test_database_migrated_once(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[[], None]]:
    """While the test database is made (pytest-django's `django_db_setup`), its `migrate` goes
    through `_migrate_once`; the returned function puts Django's own back, before any test."""
    from django.core import management

    original = management.call_command
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # The run's directory, shared by its workers (each has a subdirectory of it).
        management.call_command = _migrate_once(tmp_path_factory.getbasetemp().parent, original)

    def restore() -> None:
        management.call_command = original

    try:
        yield restore
    finally:
        restore()
