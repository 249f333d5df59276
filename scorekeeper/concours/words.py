"""The ranking's criteria and the standings' columns that show them, the paper check's hints (a
tournament table's totals against its deals) and the concours services' refusals, as gettext
templates. Error words of both engines are in
`scorekeeper/web/words.py`."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, ngettext

from scorekeeper.engine.tournament import PaperCheck, TournamentError
from scorekeeper.engine.tournament.settings import EXTRA_CRITERIA
from scorekeeper.web.words import reason

from .services import Refused

# The ranking criteria (docs/tournaments.md §3), as the settings and the legend under the standings
# say them.
CRITERIA: "dict[str, Promise]" = {
    "points": gettext_lazy("points"),
    "wins": gettext_lazy("wins"),
    "difference": gettext_lazy("difference"),
    "best_partie": gettext_lazy("best partie"),
    "opponents_wins": gettext_lazy("opponents' wins"),
    "conceded": gettext_lazy("fewest points conceded"),
    "opponents_points": gettext_lazy("opponents' points"),
    "opponents_opponents_wins": gettext_lazy("opponents' opponents' wins"),
    "head_to_head": gettext_lazy("head to head"),
    "lots": gettext_lazy("drawing of lots"),
}


@dataclass(frozen=True)
class Column:
    """A standings column beyond the ones every page shows: `key`, the row's figure
    (selectors.standings_rows); `short`, its title where space is short (the public page, the
    projector, the print); `long`, its meaning in full (the desk's title, the legend, what a
    screen reader says)."""

    key: str
    short: Promise
    long: Promise

    @property
    def criterion(self) -> str:
        """The criterion's own words (CRITERIA: "head to head"), the desk's title for it."""
        return str(CRITERIA[self.key])


# The other figures (docs/tournaments.md §3), in the order the file's standings list them; the
# public page, the print and the desk show the first four always, the ranking's others when it
# uses them (ranking_columns), the projector only the ranking's (projector_columns).
FIGURE_COLUMNS: dict[str, Column] = {
    column.key: column
    for column in (
        Column(
            "difference",
            gettext_lazy("Diff."),
            gettext_lazy("difference: points scored minus points conceded"),
        ),
        Column("best_partie", gettext_lazy("Best"), gettext_lazy("best partie")),
        Column("opponents_wins", gettext_lazy("Opp."), gettext_lazy("opponents’ wins")),
        Column("conceded", gettext_lazy("Conc."), gettext_lazy("points conceded")),
        Column("opponents_points", gettext_lazy("Opp. pts"), gettext_lazy("opponents’ points")),
        Column(
            "opponents_opponents_wins",
            gettext_lazy("Opp. opp."),
            gettext_lazy("opponents’ opponents’ wins"),
        ),
        Column(
            "head_to_head",
            gettext_lazy("H2H"),
            gettext_lazy("head to head (wins against those level on the criteria before it)"),
        ),
        Column("lots", gettext_lazy("Lot"), gettext_lazy("drawing of lots (its place, 1 first)")),
    )
}


def ranking_columns(ranking: Sequence[str]) -> list[Column]:
    """The columns a ranking adds to the standings every page shows: each of its criteria
    among opponents' points, opponents' opponents' wins, head to head and lots."""
    return [FIGURE_COLUMNS[key] for key in EXTRA_CRITERIA if key in ranking]


def projector_columns(ranking: Sequence[str]) -> list[Column]:
    """The projector's figures after parties played, wins and points: only the ranking's
    criteria (a wall has room for a name and what ranks it)."""
    return [column for key, column in FIGURE_COLUMNS.items() if key in ranking]


def legend(columns: Sequence[Column]) -> str:
    """What the short titles of `columns` stand for, for the legend under a table:
    "Opp. pts: opponents’ points; H2H: head to head (…)"."""
    return "; ".join(
        gettext("%(short)s: %(long)s") % {"short": column.short, "long": column.long}
        for column in columns
    )


def breaks_ties(ranking: Sequence[str]) -> bool:
    """Whether a tie can be broken (a second criterion): the tie-break column is shown."""
    return len(ranking) > 1


def criterion_words(code: str | None) -> str:
    """A criterion as a standings page says it ("head to head"); "" for None."""
    return "" if code is None else str(CRITERIA[code])


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


# What the concours services refuse (services.Refused codes), as gettext templates.
REFUSALS: "dict[str, Promise]" = {
    "unknown_format": gettext_lazy("Unknown format: %(format)s."),
    "csv_too_big": gettext_lazy("The file is too big: at most %(limit)s KB."),
    "csv_too_many_rows": gettext_lazy("The file has too many lines: at most %(limit)s."),
    "csv_encoding": gettext_lazy("Not UTF-8 text: save the file as “CSV UTF-8”."),
    "csv_unreadable": gettext_lazy("This line cannot be read as CSV."),
    "csv_empty": gettext_lazy("The file has no entrant."),
    "csv_fields": gettext_lazy(
        "Expected three columns: the team, player 1, player 2 (found %(found)s filled)."
    ),
    "csv_fields_melee": gettext_lazy(
        "Expected one column: the player's name (found %(found)s filled)."
    ),
    "settings_locked": gettext_lazy(
        "Round 1 is drawn: the settings stay as they are (the name, date, place and prizes "
        "can still change)."
    ),
    "mode_has_entrants": gettext_lazy(
        "Teams or players are registered: who registers can no longer change."
    ),
    "finished": gettext_lazy("This concours is finished."),
    "melee_no_players": gettext_lazy("In a mêlée each player registers alone: no partners."),
    "duplicate_name": gettext_lazy("“%(name)s” is already registered."),
    "round_already_drawn": gettext_lazy("Round %(round)s is already drawn."),
    "after_last_round": gettext_lazy("The concours has %(rounds)s rounds."),
    "line_fields": gettext_lazy(
        "Expected a team and two players separated by “;” (found %(found)s fields)."
    ),
    "check_in_closed": gettext_lazy("Check-in is over: round 1 is drawn. Add a late entry."),
    "already_withdrawn": gettext_lazy("Already withdrawn before round %(round)s."),
    "round_closed": gettext_lazy("Round %(round)s is closed: correct the result instead."),
    "table_not_finished": gettext_lazy("Table %(table)s has no result to correct yet."),
    "no_match": gettext_lazy("Table %(table)s is scored on paper."),
    "table_finished": gettext_lazy("Table %(table)s is already finished."),
    "round_open": gettext_lazy("Round %(round)s is not closed yet."),
    "clock_round_closed": gettext_lazy("Round %(round)s is closed: its clock is over."),
    "no_clock": gettext_lazy(
        "This concours has no round clock: set the minutes per round in its settings."
    ),
    "clock_running": gettext_lazy(
        "Round %(round)s: the clock has not reached zero; confirm to call time now."
    ),
    "no_table_playing": gettext_lazy(
        "Round %(round)s: no table is still playing with a deal scored on its phone."
    ),
    "round_started": gettext_lazy("Round %(round)s has started: a table has a deal or a result."),
    "not_last_round": gettext_lazy("Only the last round can be drawn again."),
    "tables_pending": gettext_lazy("Tables still playing: %(tables)s."),
    "no_round": gettext_lazy("No round has been played yet."),
    "too_many_deals": gettext_lazy(
        "The file holds %(deals)s deals; one import takes %(limit)s at most."
    ),
    "swap_round_robin": gettext_lazy(
        "A round robin follows its fixed schedule: its teams cannot be swapped."
    ),
    "swap_bracket": gettext_lazy(
        "The final bracket's tables follow the seeds: its teams cannot be swapped."
    ),
    "round_robin_late_entry": gettext_lazy(
        "A round robin takes no late entry: every team plays from round 1."
    ),
    "redraw_fixed": gettext_lazy(
        "A round robin's rounds and the final bracket's are fixed: they cannot be drawn again."
    ),
    "bracket_unfinished": gettext_lazy(
        "The final bracket is not finished yet: draw and play its next round first."
    ),
    "busy": gettext_lazy(
        "A table's phone is saving right now: nothing was changed. Try again in a moment."
    ),
    "table_has_deals": gettext_lazy(
        "Table %(table)s was scored on its phone: say which is right, its deals or the paper."
    ),
}

# Why a write to a table's match is refused (services.check_table_write's WriteRefused codes),
# shown on the table's scoreboard; nothing was saved.
WRITE_REFUSALS: "dict[str, Promise]" = {
    "time_called": gettext_lazy(
        "Time was called at this table: its result is with the organiser. Nothing was saved."
    ),
    "partie_over": gettext_lazy(
        "This partie is over: its result is with the organiser. Nothing was saved."
    ),
    "paper_result": gettext_lazy(
        "This table's result was typed from its paper sheet: its deals change no more. "
        "Nothing was saved."
    ),
    "round_closed": gettext_lazy(
        "This table's round is closed: its deals change no more. Nothing was saved."
    ),
}


# The engine's refusals the desk words itself (issue 42): the engine's words (web/words.py) are
# a file's, after the path they name ("settings.rounds: a round robin of 5 teams has at most 5
# rounds"); on the desk a refusal is a sentence of its own that says what to do.
DESK_ENGINE_REFUSALS: "dict[str, Promise]" = {
    "round_robin_rounds": gettext_lazy(
        "A round robin of %(teams)s teams has at most %(max)s rounds: change Rounds to "
        "%(max)s or fewer in the settings (Format, Change the settings), then draw round 1."
    ),
    "bracket_complete": gettext_lazy(
        "The final bracket is complete (%(max)s rounds in all): no round is left to draw. "
        "Finish the concours to make its ranking final."
    ),
}


def engine_refusal(error: TournamentError) -> str:
    """An engine's refusal of a desk action in the active language: the desk's own words when
    it has them, else the engine's."""
    template = DESK_ENGINE_REFUSALS.get(error.code)
    if template is not None:
        return str(template) % error.params
    return reason(error.code, **error.params)


def write_refusal(code: str) -> str:
    template = WRITE_REFUSALS.get(code)
    return str(template) if template is not None else ""


def refusal(error: Refused) -> str:
    """A refusal of the concours services in the active language; a pasted list's bad line is
    named ("Line 4: ..."); an engine code (a name too long...) takes the engines' words."""
    params: dict[str, Any] = dict(error.params)
    line = params.pop("line", None)
    if "tables" in params:
        params["tables"] = ", ".join(str(number) for number in params["tables"])
    template = REFUSALS.get(error.code)
    text = str(template) % params if template is not None else reason(error.code, **params)
    if line is None:
        return text
    return gettext("Line %(line)s: %(reason)s") % {"line": line, "reason": text}


def entry_closed(error: Refused) -> str:
    """The desk's line where its registration forms were, once no entrant can join
    (`services.entry_refusal`)."""
    if error.code == "after_last_round":
        return gettext("Every round is drawn: a late entry can no longer join.")
    return refusal(error)


# The change log's words (ResultChange.action and author_label).
CHANGE_ACTIONS: "dict[str, Promise]" = {
    "paper": gettext_lazy("paper totals typed"),
    "correction": gettext_lazy("result corrected"),
    "time": gettext_lazy("time called"),
}
AUTHOR_LABELS: "dict[str, Promise]" = {
    "co-organiser link": gettext_lazy("the co-organiser link"),
    "import": gettext_lazy("the imported file"),
}


def change_action(action: str) -> str:
    template = CHANGE_ACTIONS.get(action)
    return str(template) if template is not None else action


def change_author(change: Any, tournament: Any) -> str:
    """Who made a change: the owner ("you"), the co-organiser link (with the account it was
    opened in), or what the label says."""
    label = change.author_label
    words = str(AUTHOR_LABELS[label]) if label in AUTHOR_LABELS else label
    if change.author_id is not None and change.author_id == tournament.owner_id and not label:
        return gettext("you")
    if change.author is not None and label:
        return gettext("%(label)s (%(account)s)") % {
            "label": words,
            "account": change.author.get_username(),
        }
    if change.author is not None:
        return str(change.author.get_username())
    return words or "–"
