from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ConcoursConfig(AppConfig):
    """A concours holds its tables' matches: the matches app asks it through its one extension
    point (scorekeeper/matches/holder.py), named in settings.MATCH_HOLDER and implemented by
    holds_matches.ConcoursTables. Its label was "tournaments" until issue 24: `manage.py migrate`
    carries a database of then forward (scorekeeper/web/relabel.py)."""

    name = "scorekeeper.concours"
    verbose_name = _("Concours")
