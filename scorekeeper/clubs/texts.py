"""The clubs' words (issue 16): what the club services refuse, and a season rule's error (the
seasons engine's path and code) as the season form's field and message. The engines' codes are
worded in `scorekeeper/words.py`."""

import re
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

from scorekeeper.concours import TournamentError
from scorekeeper.words import reason

from .services import Refused

REFUSALS: "dict[str, Promise]" = {
    "too_many_clubs": gettext_lazy("An account organises %(max)s clubs at most."),
    "busy": gettext_lazy("The server was busy: try again."),
    "not_organiser": gettext_lazy("You do not organise this club."),
    "last_organiser": gettext_lazy(
        "You are this club's only organiser: invite another one before leaving."
    ),
    "not_your_concours": gettext_lazy("Only the concours's organiser can add it to a club."),
    "other_club": gettext_lazy(
        "This concours belongs to another club: remove it from there first."
    ),
    "not_in_club": gettext_lazy("This concours is not one of the club's."),
    "season_dates": gettext_lazy("The season ends before it starts."),
    "too_many_seasons": gettext_lazy("A club has %(max)s seasons at most."),
    "merge_same": gettext_lazy("Pick two different names to merge."),
    "merge_gone": gettext_lazy("One of these names is no longer in the club's list."),
    "merge_kinds": gettext_lazy("A team and a player cannot be merged."),
}


def refusal(error: Refused) -> str:
    template = REFUSALS.get(error.code)
    params: dict[str, Any] = dict(error.params)
    return str(template) % params if template is not None else reason(error.code, **params)


_TABLE_PATH = re.compile(r"^table\[(\d+)\]$")


def rule_error(error: TournamentError) -> tuple[str, str]:
    """(the season form's field, the message) of a rule the seasons engine refused: `table[3]`
    is the placement table's 4th place, `others`, `best`, `measure`, `rank` their fields."""
    text = reason(error.code, **error.params)
    found = _TABLE_PATH.match(error.path)
    if found:
        place = int(found.group(1)) + 1
        return "table", gettext("Place %(place)s: %(reason)s") % {"place": place, "reason": text}
    if error.path in {"others", "best", "measure", "rank", "name"}:
        return error.path, text
    return "", text
