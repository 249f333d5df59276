"""`python manage.py purge_deleted`: delete for good the matches deleted 30 days ago or more.
Run it daily (cron or a systemd timer), beside `clearsessions`."""

from typing import Any

from django.core.management.base import BaseCommand

from scorekeeper.matches import services
from scorekeeper.matches.models import DELETED_KEPT_DAYS


class Command(BaseCommand):
    help = (
        f"Delete for good the matches deleted {DELETED_KEPT_DAYS} days ago or more (their deals "
        "and change history with them). Run daily."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        purged = services.purge_deleted()
        noun = "match" if purged == 1 else "matches"
        self.stdout.write(f"{purged} deleted {noun} purged.")
