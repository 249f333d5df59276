"""Django's migrate, after relabelling the apps renamed since the database was made
(scorekeeper/web/relabel.py). The test databases are made through it too."""

from typing import Any

from django.core.management.commands.migrate import Command as MigrateCommand
from django.db import connections, transaction

from scorekeeper.web.relabel import relabel_apps


class Command(MigrateCommand):
    def handle(self, *args: Any, **options: Any) -> None:
        database = options["database"]
        relabelled: list[str] = []
        if not (options.get("plan") or options.get("check_unapplied")):  # those only report
            with transaction.atomic(using=database):
                relabelled = relabel_apps(connections[database])
        if relabelled and options["verbosity"] >= 1:
            self.stdout.write(f"Relabelled apps: {', '.join(relabelled)}")
        super().handle(*args, **options)
