"""The data migrations' tests move the test database between migrations: `migrate` (here) and
the `back_and_forth` fixture (tests/conftest.py) that brings it back to the latest afterwards."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate(*targets: tuple[str, str]) -> None:
    """Each app given to its migration, every app to its latest when none is given: Django's
    migration executor, as `migrate` runs it, without the command's renders of every app's
    models before and after, nor its post_migrate signal (content types and permissions, which
    the test database keeps)."""
    executor = MigrationExecutor(connection)
    executor.migrate(list(targets) or executor.loader.graph.leaf_nodes())
