"""`python manage.py purge_contacts`: erase the contacts (phone or e-mail) that teams gave when
registering on a concours's public page, 30 days after the concours (issue 45). Run it daily
(cron or a systemd timer), beside `purge_deleted` and `clearsessions`."""

from typing import Any

from django.core.management.base import BaseCommand

from scorekeeper.concours import services


class Command(BaseCommand):
    help = (
        "Erase the contacts of registrations made on a concours's public page, "
        f"{services.CONTACT_KEPT_DAYS} days after the concours. Run daily."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        erased = services.erase_old_contacts()
        noun = "contact" if erased == 1 else "contacts"
        self.stdout.write(f"{erased} {noun} erased.")
