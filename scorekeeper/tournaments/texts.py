"""Words for what the tournament engine says: its error codes and the paper check's hints, as
gettext templates. The engine (`scorekeeper/concours/`) speaks in codes and plain params; this is
the one place that turns them into a sentence in the active language."""

from typing import TYPE_CHECKING

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from scorekeeper.concours import PaperCheck, TournamentError
from scorekeeper.matches.engine_text import translate_engine_message
from scorekeeper.scoring import InvalidInput

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise as Promise

# code -> (template, renames): a template shared with the match file's messages keeps their
# parameter names (`%(a)s`), so `renames` maps the engine's params onto them.
ERRORS: "dict[str, tuple[Promise, dict[str, str]]]" = {
    # The shape of the file (the same words as for a match file, where they exist).
    "not_object": (_("must be an object"), {}),
    "unknown_key": (_("unknown key"), {}),
    "required": (_("missing"), {}),
    "not_integer": (_("must be a whole number"), {}),
    "out_of_range": (_("must be from %(a)s to %(b)s"), {"min": "a", "max": "b"}),
    "not_boolean": (_("must be true or false"), {}),
    "not_list": (_("must be a list"), {}),
    "length": (_("must have %(n)s items"), {"count": "n"}),
    "too_many": (_("at most %(max)s items"), {}),
    "choice": (_("must be one of %(c)s"), {"choices": "c"}),
    "not_string": (_("must be text"), {}),
    "control_character": (_("must not contain control characters (%(code)s)"), {"char": "code"}),
    "empty": (_("must not be empty"), {}),
    "too_long": (_("must be at most %(n)s characters"), {"max": "n"}),
    "bad_date": (_("must be a date written YYYY-MM-DD"), {}),
    "duplicate": (_("%(value)s appears twice (first at %(first)s)"), {}),
    "bye_points": (_('must be a whole number or "average"'), {}),
    "unsupported_format": (_('unsupported format: expected "%(f)s"'), {"expected": "f"}),
    "duplicate_key": (_("the key %(key)s appears twice in one object"), {}),
    "json_not_utf8": (_("not valid JSON: the file is not UTF-8 text"), {}),
    "json_invalid": (
        _("not valid JSON (line %(line)s, column %(col)s)"),
        {"column": "col"},
    ),
    "json_unreadable": (_("not valid JSON"), {}),
    "json_too_deep": (_("not valid JSON: nested too deeply"), {}),
    # Tables and rounds.
    "totals_and_deals": (_("a table has totals or deals, not both"), {}),
    "needs_deals": (_("only for a table scored deal by deal"), {}),
    "too_many_rounds": (_("more rounds than the %(max)s planned (settings.rounds)"), {}),
    "round_after_pending": (
        _("a round drawn while table %(table)s of round %(round)s is not finished"),
        {},
    ),
    "unknown_entrant": (_("no entrant has the id %(id)s"), {}),
    "twice_in_round": (_("entrant %(id)s is drawn twice in this round (first at %(first)s)"), {}),
    "playing_and_bye": (_("entrant %(id)s has a table (%(first)s) and a bye"), {}),
    "not_joined": (_("entrant %(id)s joins at round %(from_round)s, not round %(round)s"), {}),
    "withdrawn_entrant": (_("entrant %(id)s withdrew (%(first)s) and cannot be drawn"), {}),
    "already_withdrawn": (_("entrant %(id)s has already withdrawn (%(first)s)"), {}),
    "not_drawn": (
        _("entrant %(id)s is active in round %(round)s but has neither a table nor a bye"),
        {},
    ),
    # Drawing the next round.
    "all_rounds_drawn": (_("every round is drawn (%(rounds)s planned)"), {}),
    "round_not_finished": (
        _(
            "table %(table)s of round %(round)s is not finished: the next round is drawn once "
            "every table has a result"
        ),
        {},
    ),
    "too_few_entrants": (
        _("%(active)s active entrants: a round needs at least %(needed)s"),
        {},
    ),
    "cannot_read": (_("cannot read %(file)s: %(reason)s"), {}),
}


def describe(error: InvalidInput) -> str:
    """What is wrong, in the active language (the path is given apart)."""
    if not isinstance(error, TournamentError):
        return translate_engine_message(error.message)
    if error.code == "scoring":
        return translate_engine_message(str(error.params["message"]))
    if error.code not in ERRORS:
        return error.code
    template, renames = ERRORS[error.code]
    params = {renames.get(key, key): value for key, value in error.params.items()}
    return str(template) % params if params else str(template)


def paper_warning(check: PaperCheck) -> str | None:
    """The paper check's warning ("20 missing: a belote?"), or None when the totals add up."""
    if check.ok:
        return None
    points, count = abs(check.difference), check.count
    values = {"points": points, "count": count}
    if check.difference < 0:
        if check.hint == "belote":
            text = ngettext(
                "%(points)s missing: a belote?", "%(points)s missing: %(count)s belotes?", count
            )
        elif check.hint == "capot":
            text = ngettext(
                "%(points)s missing: a capot?", "%(points)s missing: %(count)s capots?", count
            )
        elif check.hint == "announcement":
            text = gettext("%(points)s missing: an announcement?")
        elif check.hint == "deal":
            text = ngettext(
                "%(points)s missing: a deal not written down?",
                "%(points)s missing: %(count)s deals not written down?",
                count,
            )
        elif check.hint == "typo":
            text = gettext("%(points)s missing: a digit written wrong?")
        else:
            text = gettext("%(points)s missing.")
    elif check.hint == "belote":
        text = ngettext(
            "%(points)s too many: a belote not typed in?",
            "%(points)s too many: %(count)s belotes not typed in?",
            count,
        )
    elif check.hint == "capot":
        text = ngettext(
            "%(points)s too many: a capot not typed in?",
            "%(points)s too many: %(count)s capots not typed in?",
            count,
        )
    elif check.hint == "announcement":
        text = gettext("%(points)s too many: an announcement not typed in?")
    elif check.hint == "deal":
        text = ngettext(
            "%(points)s too many: a deal written twice?",
            "%(points)s too many: %(count)s deals written twice?",
            count,
        )
    elif check.hint == "typo":
        text = gettext("%(points)s too many: a digit written wrong?")
    else:
        text = gettext("%(points)s too many.")
    return str(text) % values
