from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "scorekeeper.tournaments"
    verbose_name = "Tournaments (concours)"
