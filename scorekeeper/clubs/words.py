"""The clubs' words (issue 16): what the club services refuse, what the archive's restore
refuses (its own codes; the engines' are worded in `scorekeeper/web/words.py`), and a season rule's
error (the seasons engine's path and code) as the season form's field and message."""

import re
from typing import Any

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, ngettext

from scorekeeper.engine.tournament import TournamentError
from scorekeeper.web.throttle import wait_minutes
from scorekeeper.web.words import describe, reason

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


# The archive's own refusals (clubs/exports.py's ArchiveError codes).
ARCHIVE_WORDS: "dict[str, Promise]" = {
    "bad_date": gettext_lazy("not a date (YYYY-MM-DD)"),
    "missing_file": gettext_lazy("this file is not in the zip"),
    "season_dates": gettext_lazy("the season ends before it starts"),
    "bad_time": gettext_lazy("not a date and time (YYYY-MM-DDTHH:MM:SS)"),
    "merge_kinds": gettext_lazy("this person is not of the merge's kind (team or player)"),
    "no_people": gettext_lazy("the archive lists no team or player to keep"),
    "listed_twice": gettext_lazy("listed twice (first at %(first)s)"),
    "concours_twice": gettext_lazy(
        "the same concours (name and date) is listed twice (first at %(first)s)"
    ),
}


def archive_error(error: TournamentError) -> str:
    """An archive's refusal as one line: where (`manifest.json: concours[3].file`,
    `concours/002.json: rounds[0]...`), then what is wrong."""
    words = ARCHIVE_WORDS.get(error.code)
    text = str(words) % dict(error.params) if words is not None else describe(error)
    if not error.path:
        return text
    return gettext("%(path)s: %(reason)s") % {"path": error.path, "reason": text}


def hourly_limit(limit: int, seconds: int) -> str:
    """Over RESTORE_DEALS_PER_HOUR (the match backups' restore says it in the same words)."""
    minutes = wait_minutes(seconds)
    return " ".join(
        (
            gettext("Nothing was restored: your account may restore %(limit)s deals an hour.")
            % {"limit": number_format(limit, force_grouping=True)},
            ngettext(
                "Wait %(minutes)s minute, then try again.",
                "Wait %(minutes)s minutes, then try again.",
                minutes,
            )
            % {"minutes": minutes},
        )
    )


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
