"""`python manage.py tournament_standings FILE|-`: the standings and every round's results of a
belote-tournament/1 file (docs/tournaments.md §6), without touching the database."""

from typing import Any

from scorekeeper.concours.command_io import TournamentCommand
from scorekeeper.engine.scoring import InvalidInput
from scorekeeper.engine.tournament import standings_report


class Command(TournamentCommand):
    help = "Print the standings of a belote-tournament/1 file (or - for standard input) as JSON."

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = standings_report(self.load(options["file"]))
        except InvalidInput as error:
            self.fail(error, options["lang"])
        self.emit(report)
