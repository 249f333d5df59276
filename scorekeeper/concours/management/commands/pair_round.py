"""`python manage.py pair_round FILE|- [--append] [--withdraw ID ...]`: draw the next round of a
belote-tournament/1 file (docs/tournaments.md §5-§6), without touching the database."""

from typing import Any

from django.core.management.base import CommandParser

from scorekeeper.concours.command_io import TournamentCommand
from scorekeeper.engine.scoring import InvalidInput
from scorekeeper.engine.tournament import append_round, draw_report, draw_round, dump_tournament


class Command(TournamentCommand):
    help = (
        "Draw the next round of a belote-tournament/1 file (or - for standard input) and print "
        "it as JSON; --append prints the whole file with that round added."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--append",
            action="store_true",
            help="print the whole file with the drawn round added, ready to save",
        )
        parser.add_argument(
            "--withdraw",
            type=int,
            action="append",
            default=[],
            metavar="ID",
            help="an entrant withdrawing before this round (repeat for several)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = self.load(options["file"])
            draw = draw_round(tournament, withdrawn=tuple(options["withdraw"]))
        except InvalidInput as error:
            self.fail(error, options["lang"])
        if options["append"]:
            self.emit(dump_tournament(append_round(tournament, draw)))
        else:
            self.emit(draw_report(draw, tournament.settings.melee))
