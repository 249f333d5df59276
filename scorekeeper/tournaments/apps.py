from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """A concours holds its tables' matches: the matches app asks it through its one extension
    point (scorekeeper/matches/hooks.py), named in settings.MATCH_HOOKS and implemented by
    match_hooks.ConcoursHooks."""

    name = "scorekeeper.tournaments"
    verbose_name = "Tournaments (concours)"
