"""`manage.py db_worker`: django-tasks-db's worker (its options, its loop, its signals), which
survives the database going away. The package's loop stops at the first database error that is
not SQLite's "locked" (PostgreSQL restarting: "the database system is shutting down", a
connection ended by an administrator or a failover), and its process exits; this one closes its
connections, waits (RETRY_FIRST seconds, doubled at each failure in a row up to RETRY_MOST) and
carries on where it was. A job that was running when the database went is failed later with
its reason (`fail_stale_jobs`: its worker was lost), never run twice. This app is listed before
django_tasks_db in INSTALLED_APPS, so this command is the one `manage.py db_worker` runs (`make
run`, `make hall`, production)."""

import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from django.db import DatabaseError, InterfaceError, OperationalError, connections
from django_tasks_db.management.commands import db_worker as package

logger = logging.getLogger("django_tasks_db")

RETRY_FIRST = 1.0  # seconds before the first try after a database error
RETRY_MOST = 30.0  # the longest wait between two tries
# A loop that ran this long before failing starts its waits from RETRY_FIRST again.
RETRY_RESET_AFTER = 60.0
DATABASE_GONE = (OperationalError, InterfaceError)

pause: Callable[[float], None] = time.sleep  # the wait between tries (tests count them)


class SurvivingWorker(package.Worker):
    """The package's Worker, its loop run again after a database error, with back-off."""

    def run(self) -> None:
        delay = RETRY_FIRST
        while self.running:
            started = time.monotonic()
            try:
                super().run()
                return  # stopped, its batch done, or its tasks counted
            except DATABASE_GONE as error:
                if time.monotonic() - started > RETRY_RESET_AFTER:
                    delay = RETRY_FIRST
                logger.warning(
                    "The database is out of reach (%s): trying again in %.1f s.",
                    str(error).strip() or type(error).__name__,
                    delay,
                )
                _close_connections()
                if not self.running:
                    return
                pause(delay)
                delay = min(delay * 2, RETRY_MOST)


def _close_connections() -> None:
    """Drop this thread's connections (a broken one raises as it closes): the next query opens
    a new one."""
    for connection in connections.all(initialized_only=True):
        with contextlib.suppress(DatabaseError):
            connection.close()


class Command(package.Command):
    help = (
        "Run the background jobs' worker (django-tasks-db's), which waits out a database "
        "restart and carries on."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        # The package's handle builds its worker by the module's name `Worker`: ours, for the
        # time of this command.
        built = package.Worker
        package.Worker = SurvivingWorker  # type: ignore[misc]
        try:
            super().handle(*args, **options)
        finally:
            package.Worker = built  # type: ignore[misc]
