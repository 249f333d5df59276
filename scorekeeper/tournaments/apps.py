from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "scorekeeper.tournaments"
    verbose_name = "Tournaments (concours)"

    def ready(self) -> None:
        # A concours table's header on its match's scoreboard (the matches app imports no
        # concours: it asks the notes registered here).
        from scorekeeper.matches.board import BOARD_NOTES

        from .table_views import scoreboard_note

        if scoreboard_note not in BOARD_NOTES:
            BOARD_NOTES.append(scoreboard_note)
