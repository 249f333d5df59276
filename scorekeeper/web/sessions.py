"""Sessions kept in the database (Django's own backend), read in SQL: every request of a phone
reads its session, and building that one ORM query cost more CPU than the database spent
answering it (issue 10's deal-cycle budget). Writing, expiry and `clearsessions` are Django's."""

from typing import Any

from django.contrib.sessions.backends import db
from django.db import connections, router
from django.utils import timezone


class SessionStore(db.SessionStore):
    def _get_session_from_db(self) -> Any:
        model = self.model
        connection = connections[router.db_for_read(model)]
        now = connection.ops.adapt_datetimefield_value(timezone.now())
        found = list(
            model.objects.raw(
                f"SELECT * FROM {model._meta.db_table} WHERE session_key = %s AND expire_date > %s",
                [self.session_key, now],
            )
        )
        if not found:
            self._session_key = None  # as Django's: an unknown or expired key starts afresh
            return None
        return found[0]
