from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ConcoursConfig(AppConfig):
    """A concours holds its tables' matches: the matches app asks it through its one extension
    point (scorekeeper/matches/hooks.py), named in settings.MATCH_HOOKS and implemented by
    match_hooks.ConcoursHooks. Its label was "tournaments" until issue 24: `manage.py migrate`
    carries a database of then forward (scorekeeper/web/relabel.py)."""

    name = "scorekeeper.concours"
    verbose_name = _("Concours")
