"""`python manage.py score_match FILE|-`: score a match file without touching the database."""

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation

from scorekeeper.engine.scoring import InvalidInput
from scorekeeper.engine.scoring.matchfile import score_match_output
from scorekeeper.web import words

EXIT_INVALID = 2


class Command(BaseCommand):
    help = (
        "Score a belote-match/1 JSON file (or - for standard input) and print the result as JSON."
    )
    # Needs no database, so no system checks that might touch one.
    requires_system_checks: list[str] = []  # noqa: RUF012

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="path to the match file, or - for standard input")
        parser.add_argument(
            "--lang",
            choices=["en", "fr"],
            default="en",
            help="language of the breakdowns and errors",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with translation.override(options["lang"]):
            try:
                output = score_match_output(self._read(options["file"]), words.breakdown)
            except InvalidInput as error:
                self._print({"error": words.describe(error), "path": error.path})
                sys.exit(EXIT_INVALID)
            self._print(output)

    def _read(self, name: str) -> bytes:
        if name == "-":
            return sys.stdin.buffer.read()
        try:
            with open(name, "rb") as handle:
                return handle.read()
        except OSError as error:
            raise InvalidInput(
                "", "cannot_read", file=name, reason=error.strerror or "error"
            ) from None

    def _print(self, data: dict[str, Any]) -> None:
        try:
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
        except UnicodeEncodeError:
            # An output that cannot encode "é" or "♥" (an ASCII or cp1252 console) still gets the
            # same JSON object, with those characters escaped, rather than a traceback.
            self.stdout.write(json.dumps(data, indent=2))
