"""`python manage.py export_match ID`: print the match file of a match."""

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.engine.scoring import dump_match
from scorekeeper.matches import services
from scorekeeper.matches.models import Match


class Command(BaseCommand):
    help = "Print the belote-match/1 file of the match with this id."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        match = Match.objects.filter(pk=options["id"]).first()
        if match is None:
            raise CommandError(f"no match with id {options['id']}", returncode=2)
        data = dump_match(services.match_file_for(match))
        self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
