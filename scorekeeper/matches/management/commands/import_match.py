"""`python manage.py import_match FILE...`: one line per created match, "<id> <read-only URL path>"."""

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.urls import reverse
from django.utils import translation

from scorekeeper.engine.scoring import InvalidInput, load_match
from scorekeeper.matches import services
from scorekeeper.web.words import explain

COMMAND_OWNER = "cli"  # matches imported from the command line belong to no browser


class Command(BaseCommand):
    help = "Import belote-match/1 files. All files are checked first; any invalid one imports none."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+", help="match files (- for standard input)")

    def handle(self, *args: Any, **options: Any) -> None:
        parsed = []
        for name in options["files"]:
            try:
                text = sys.stdin.buffer.read() if name == "-" else Path(name).read_bytes()
            except OSError as error:
                raise CommandError(f"{name}: cannot read: {error.strerror}", returncode=2) from None
            try:
                parsed.append(services.check_importable(load_match(text)))
            except InvalidInput as error:
                with translation.override("en"):
                    reason = explain(error)
                raise CommandError(f"{name}: {reason}", returncode=2) from None
        with transaction.atomic():
            matches = [services.import_match(match_file=m, owner_key=COMMAND_OWNER) for m in parsed]
        for match in matches:
            self.stdout.write(f"{match.pk} {reverse('matches:viewer', args=[match.view_token])}")
