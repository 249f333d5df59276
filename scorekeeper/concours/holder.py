"""The concours app's one extension point, for an app that holds some concours (a club holds its
concours: `Tournament.club`). The concours app imports none of them: the holder's implementation
is named by the setting `CONCOURS_HOLDER` (a dotted path to a class built with no argument, see
clubs/holds_concours.py) and loaded once, with `import_string`, as matches/holder.py does for
the matches a concours holds.

- `names_changed(tournament)`: inside the write service's transaction, once an entrant's names
  (a team's name, its players', a mêlée player's) are saved: an entrant added (a late entry, a
  pasted list, a CSV file) or corrected. The holder stores what follows from the names with them
  (a club records the new names as its people), so that its pages, GET requests, only read.

Without the setting, no concours is held: nothing is told."""

from functools import cache
from typing import Protocol

from django.conf import settings
from django.utils.module_loading import import_string

from .models import Tournament


class ConcoursHolder(Protocol):
    def names_changed(self, tournament: Tournament) -> None: ...


class NoHolder:
    """No app holds any concours."""

    def names_changed(self, tournament: Tournament) -> None:
        return None


@cache
def _load(path: str) -> ConcoursHolder:
    found: ConcoursHolder = import_string(path)()
    return found


def get_holder() -> ConcoursHolder:
    """The app holding some concours (settings.CONCOURS_HOLDER), built once."""
    path = getattr(settings, "CONCOURS_HOLDER", "")
    return _load(path) if path else NoHolder()
