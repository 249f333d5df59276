"""`python manage.py rescore_matches`: score every stored match again with this version of the
engine. The scores kept with each deal are a cache; run this after an upgrade whose notes say a
rule is now read differently."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.engine.scoring import InvalidInput
from scorekeeper.matches import services
from scorekeeper.matches.models import Match


class Command(BaseCommand):
    help = "Re-score stored matches with the current rules engine and rewrite their cached scores."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("ids", nargs="*", type=int, help="only these matches (default: all)")

    def handle(self, *args: Any, **options: Any) -> None:
        ids = Match.objects.order_by("pk").values_list("pk", flat=True)
        if options["ids"]:
            ids = ids.filter(pk__in=options["ids"])
        checked = rescored = 0
        refused: list[str] = []
        for match_id in ids.iterator():
            checked += 1
            try:
                # One transaction per match: a long run never holds every match locked.
                rescored += services.refresh_scores(match_id=match_id)
            except InvalidInput as error:
                refused.append(f"match {match_id}: {error}")
        self.stdout.write(f"{checked} matches checked, {rescored} re-scored.")
        if refused:
            for line in refused:
                self.stderr.write(line)
            raise CommandError(
                f"{len(refused)} matches no longer pass the engine's checks and were left as they were."
            )
