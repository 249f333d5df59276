"""What the two tournament commands share: reading FILE or `-`, printing one JSON object, and
answering an error as `{"error", "path"}` with exit status 2 (as `score_match` does)."""

import json
import sys
from typing import Any, NoReturn

from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation

from scorekeeper.engine.scoring import InvalidInput
from scorekeeper.engine.tournament import Tournament, TournamentError, load_tournament
from scorekeeper.web.words import describe

EXIT_INVALID = 2


class TournamentCommand(BaseCommand):
    # Needs no database, so no system checks that might touch one.
    requires_system_checks: list[str] = []  # noqa: RUF012

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="path to the tournament file, or - for standard input")
        parser.add_argument(
            "--lang", choices=["en", "fr"], default="en", help="language of the error message"
        )

    def load(self, name: str) -> Tournament:
        if name == "-":
            return load_tournament(sys.stdin.buffer.read())
        try:
            with open(name, "rb") as handle:
                text = handle.read()
        except OSError as error:
            raise TournamentError(
                "", "cannot_read", file=name, reason=error.strerror or "error"
            ) from None
        return load_tournament(text)

    def fail(self, error: InvalidInput, lang: str) -> NoReturn:
        with translation.override(lang):
            self.emit({"error": describe(error), "path": error.path})
        sys.exit(EXIT_INVALID)

    def emit(self, data: dict[str, Any]) -> None:
        try:
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
        except UnicodeEncodeError:
            # An output that cannot encode "é" still gets the same JSON object, escaped.
            self.stdout.write(json.dumps(data, indent=2))
