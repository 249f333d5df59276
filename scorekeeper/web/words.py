"""Every word the engines say, in the active language: the one place where codes and data from the
engines (`scorekeeper/engine/`, which hold no sentence) become text, through gettext. Errors
(`InvalidInput.code` and its params), breakdown lines, outcomes, deal summaries and inputs, rule
names, summaries and settings. Commands call these under `translation.override(...)`; pages in the
request's language.

Imported by views, forms, template tags, services and commands of every app; it imports only the
engines and Django's translation (nothing of an app), so no import cycle can start here."""

import functools
import html
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils import translation
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext as gettext_now
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.scoring import (
    SETTINGS,
    Announcement,
    InvalidInput,
    Line,
    Param,
    Rules,
)
from scorekeeper.engine.scoring.errors import printable

from .breakdown_text import (
    NOTE_FIELDS,
    Phrases,
    announcement_text,
    breakdown_text,
    formula_text,
    line_text,
    note_text,
)

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise as Promise

# ---------------------------------------------------------------------------------------------
# Rules, trumps, outcomes: labels of the engine's values.

PRESET_SUMMARIES: "dict[str, Promise]" = {
    "coinche": _(
        "Official coinche (FFB): to 2000, scores rounded to ten, sans atout and tout atout, "
        "coinche ×2, surcoinche ×4."
    ),
    "coinche-funbelote": _(
        "Coinche to 1501: capot worth 250, a générale worth 350 card points, no générale bid."
    ),
    "coinche-x3": _(
        "Quick coinche to 1000: bids 80 to 160, coinche ×2 and surcoinche ×3 on the contract "
        "only, no sans atout or tout atout."
    ),
    "belote": _("Classic belote to 1000, exact points, a litige held in reserve."),
    "belote-501": _("Short classic belote to 501; carrés and sequences are resolved apart."),
}

# Card ranks as players say them: V, D, R for valet, dame, roi in French.
RANK_LABELS: "dict[str, Promise | str]" = {
    "A": pgettext_lazy("card rank", "A"),
    "K": pgettext_lazy("card rank", "K"),
    "Q": pgettext_lazy("card rank", "Q"),
    "J": pgettext_lazy("card rank", "J"),
    "10": "10",
    "9": "9",
    "8": "8",
    "7": "7",
}


def rank_label(rank: str) -> str:
    return str(RANK_LABELS.get(rank, rank))


PRESET_NAMES: "dict[str, Promise]" = {
    "coinche": _("Coinche (official)"),
    "coinche-funbelote": _("Coinche Funbelote"),
    "coinche-x3": _("Coinche ×3"),
    "belote": _("Belote (classic)"),
    "belote-501": _("Belote 501"),
}

SETTING_LABELS: "dict[str, Promise]" = {
    "target": _("Target"),
    "deals_limit": _("Deals limit"),
    "rounding": _("Rounding"),
    "announcements": _("Announcements"),
    "announcements_resolution": _("Whose announcements count"),
    "sa_ta": _("Sans atout and tout atout"),
    "capot_cards": _("Capot card points"),
    "belote_points": _("Belote points"),
    "generale_bid": _("Générale bid value"),
    "generale_cards": _("Générale card points (unbid)"),
    "end_tie": _("Both over the target with equal totals"),
    "belote_cannot_clinch": _("Belote alone cannot win the match"),
    "success": _("A contract is made when"),
    "made_scores": _("A made contract scores"),
    "multipliers": _("Coinche and surcoinche multipliers"),
    "multiplier_scope": _("The multiplier applies to"),
    "coinched_scores": _("A made coinché contract scores"),
    "capot_bid_scores": _("A made capot bid scores"),
    "failure_base": _("Failed contract base"),
    "coinched_base": _("Coinched contract base"),
    "min_bid": _("Lowest bid"),
    "max_bid": _("Highest bid"),
    "capot_bid": _("Capot bid value"),
    "failure_points": _("Points for a failed contract (dedans)"),
    "litige": _("Equal totals (litige)"),
}

CHOICE_LABELS: "dict[str, Promise]" = {
    "none": _("none"),
    "half_up": _("to the nearest ten, 5 up"),
    "half_down": _("to the nearest ten, 5 down"),
    "best_team": _("only the team with the best one"),
    "by_kind": _("carrés and sequences apart"),
    "extra_deal": _("play an extra deal"),
    "last_deal_winner": _("the winner of the last deal wins"),
    "bid_and_beat": _("its total reaches the bid and beats the defence"),
    "bid_only": _("its total reaches the bid"),
    "points_and_contract": _("points and contract"),
    "contract_only": _("the contract only"),
    "deal": _("the whole deal"),
    "contract": _("the contract only"),
    "reserve": _("held in reserve for the next deal"),
    "base": _("the coinched base (official)"),
    "points": _("the takers' points (score apps)"),
    "total_and_contract": _("252 and the contract (official)"),
}

# One line under a setting of New match where its choices need the figures to be understood.
SETTING_HELP: "dict[str, Promise]" = {
    "coinched_scores": _(
        "Official: m × (160 + contract + announcements + belote), the defence scores nothing. "
        "On points: m × (the takers' total + contract), the defence keeps its total."
    ),
    "capot_bid_scores": _(
        "Official: 252 card points + the contract. Contract only: 250 (or the générale's "
        "value) + belote, as some score apps count it."
    ),
}


def setting_value(kind: str, value: object) -> str:
    """A setting's value in words: "none", "yes", "2, 4", "the contract only", "1500"."""
    if value is None:
        return str(_("none"))
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, tuple | list):
        return ", ".join(str(v) for v in value)
    if kind == "choice":
        return str(CHOICE_LABELS.get(str(value), value))
    return str(value)


def rules_name(rules: Rules) -> str:
    """The preset's name, "with changes" when a setting is off its preset ("Coinche (official),
    with changes"): a match is never labelled as a preset it does not follow."""
    name = str(PRESET_NAMES.get(rules.preset, rules.preset))
    if not rules.overrides():
        return name
    return gettext_now("%(preset)s, with changes") % {"preset": name}


def rule_changes(rules: Rules) -> list[str]:
    """Each setting off its preset, in words: "Target: 1500"."""
    kinds = {spec.name: spec.kind for spec in SETTINGS}
    return [
        gettext_now("%(setting)s: %(value)s")
        % {"setting": SETTING_LABELS[name], "value": setting_value(kinds[name], value)}
        for name, value in rules.overrides().items()
        if name in SETTING_LABELS
    ]


TRUMP_LABELS: "dict[str, Promise]" = {
    "spades": _("♠ spades"),
    "hearts": _("♥ hearts"),
    "diamonds": _("♦ diamonds"),
    "clubs": _("♣ clubs"),
    "no_trump": _("Sans atout"),
    "all_trump": _("Tout atout"),
}
TRUMP_SHORT = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣",
               "no_trump": "SA", "all_trump": "TA"}  # fmt: skip

OUTCOME_LABELS: "dict[str, Promise]" = {
    "made": _("made"),
    "failed": _("failed"),
    "litige": _("litige"),
    "passed": _("all passed"),
    "manual": _("manual score"),
}


# ---------------------------------------------------------------------------------------------
# Errors: code -> (template, renames). A template shared between codes (or with the tournament
# file's) keeps its parameter names (`%(a)s`), so `renames` maps the engine's params onto them.

ERRORS: "dict[str, tuple[Promise, dict[str, str]]]" = {
    # The shape of a file (match, backup, tournament).
    "not_object": (_("must be an object"), {}),
    "unknown_key": (_("unknown key"), {}),
    "required": (_("missing"), {}),
    "deals_required": (_("missing (it may be an empty list)"), {}),
    "format_required": (_('missing: it must be "%(f)s"'), {"expected": "f"}),
    "unsupported_format": (_('unsupported format: expected "%(f)s"'), {"expected": "f"}),
    "not_integer": (_("must be a whole number"), {}),
    "out_of_range": (_("must be from %(a)s to %(b)s"), {"min": "a", "max": "b"}),
    "not_between": (_("must be between %(a)s and %(b)s"), {"min": "a", "max": "b"}),
    "not_multiple": (_("must be a multiple of %(n)s"), {"step": "n"}),
    "negative": (_("cannot be negative"), {}),
    "not_boolean": (_("must be true or false"), {}),
    "not_list": (_("must be a list"), {}),
    "length": (_("must have %(n)s items"), {"count": "n"}),
    "too_many": (_("at most %(max)s items"), {}),
    "choice": (_("must be one of %(c)s"), {"choices": "c"}),
    "not_string": (_("must be text"), {}),
    "not_set": (_("must be set"), {}),
    "control_character": (_("must not contain control characters (%(code)s)"), {"char": "code"}),
    "broken_character": (
        _("must not contain a broken character (%(code)s, half of a surrogate pair)"),
        {"char": "code"},
    ),
    "replacement_character": (
        _("must not contain a broken character (%(code)s, a stand-in for unreadable bytes)"),
        {"char": "code"},
    ),
    "direction_control": (
        _("must not contain a direction control (%(code)s): it can make a text read backwards"),
        {"char": "code"},
    ),
    "empty": (_("must not be empty"), {}),
    "invisible": (_("must not be empty: it holds only invisible characters"), {}),
    "too_long": (_("must be at most %(n)s characters"), {"max": "n"}),
    "duplicate_key": (_("the key %(key)s appears twice in one object"), {}),
    "json_not_utf8": (_("not valid JSON: the file is not UTF-8 text"), {}),
    "json_invalid": (_("not valid JSON (line %(line)s, column %(col)s)"), {"column": "col"}),
    "json_unreadable": (_("not valid JSON"), {}),
    "json_too_deep": (_("not valid JSON: nested too deeply"), {}),
    "cannot_read": (_("cannot read %(file)s: %(reason)s"), {}),
    # Rules (scoring/rules.py).
    "rules_not_object": (_("must be an object: a preset and any settings to change"), {}),
    "preset_required": (_("missing: one of %(c)s"), {"choices": "c"}),
    "unknown_preset": (_("unknown preset: choose one of %(c)s"), {"choices": "c"}),
    "preset_game": (
        _("the preset %(p)s is %(g)s: pick a preset of that game"),
        {"preset": "p", "game": "g"},
    ),
    "unknown_setting": (_("unknown setting"), {}),
    "not_a_setting_of": (_("is not a setting of %(g)s"), {"game": "g"}),
    "multipliers_shape": (_("must be two whole numbers: [coinche, surcoinche]"), {}),
    "multipliers_order": (
        _("the surcoinche multiplier must be above the coinche one (from %(a)s to %(b)s)"),
        {"min": "a", "max": "b"},
    ),
    "no_end": (_("a match needs a target or a deals limit to end"), {}),
    "max_below_min": (_("must not be below the lowest bid"), {}),
    "points_need_deal_scope": (_("scoring on points needs the multiplier on the whole deal"), {}),
    # A deal (scoring/deals.py, announcements.py, matchfile.py).
    "not_a_team": (_("must be 0 or 1"), {}),
    "sa_ta_not_allowed": (_("these rules do not allow sans atout or tout atout"), {}),
    "generale_bid_not_allowed": (_("these rules do not allow a générale bid"), {}),
    "capot_bid_not_allowed": (_("these rules do not allow a capot bid"), {}),
    "classic_has_no_bid": (_("classic belote has no bid (only a générale, if allowed)"), {}),
    "contract_required": (_("choose the contract that was bid"), {}),
    "not_a_bid": (_('must be a bid (80, 90, ...), "capot" or "generale"'), {}),
    "bid_not_multiple_of_ten": (_("a bid is a multiple of 10"), {}),
    "bid_too_low": (_("the lowest bid is %(n)s"), {"min": "n"}),
    "bid_too_high": (_("the highest bid is %(n)s (then capot)"), {"max": "n"}),
    "classic_has_no_coinche": (_("classic belote has no coinche"), {}),
    "taker_player_not_taker": (_("the player who took is one of the takers"), {}),
    "no_coinche": (_("there is no coinche on this deal"), {}),
    "coinche_player_not_defender": (_("the player who coinched is one of the defence"), {}),
    "surcoinche_player_not_taker": (_("the player who surcoinched is one of the takers"), {}),
    "capot_team": (_("choose the team that won every trick"), {}),
    "taker_points_required": (_("enter the takers' card points (or a capot)"), {}),
    "points_on_capot": (_("leave out the card points on a capot"), {}),
    "generale_without_capot": (
        _("a générale is a capot won by one player: choose the capot team too"),
        {},
    ),
    "belote_in_no_trump": (_("there is no belote in sans atout"), {}),
    "too_many_belotes_all_trump": (_("at most four belotes in tout atout (one per suit)"), {}),
    "too_many_belotes_suit": (_("only one belote-rebelote in a suit contract"), {}),
    "announcements_not_counted": (_("these rules do not count announcements"), {}),
    "announcements_to_choice": (_('must be 0, 1 or "none"'), {}),
    "no_such_carre": (_("there is no carré of 7s or 8s"), {}),
    "carre_in_trump": (_("only a sequence can be in the trump suit"), {}),
    "sequence_too_low": (_("a %(kind)s cannot end at %(high)s"), {}),
    "unsaid_top_not_lowest": (
        _("a %(kind)s whose top card was not said is recorded at its lowest, not %(high)s"),
        {},
    ),
    "carre_rank_said": (_("a carré's rank is always said"), {}),
    "no_trump_suit": (_("there is no single trump suit in sans atout or tout atout"), {}),
    "carre_twice": (_("only one carré of %(rank)s exists"), {}),
    "passed_extra_key": (_("a passed deal has no other key than note"), {}),
    "manual_extra_key": (_("a manual deal has no other key than note"), {}),
    "after_match_end": (_("the match was already over after deal %(n)s"), {"deal": "n"}),
    # The deal form's own checks (engine/scoring/form_reading.py), said on the form's field.
    "points_sum": (_("The two teams' card points add up to 162."), {}),
    "top_card_required": (_("Give the top card: it decides whose announcements count."), {}),
    # The app's own checks of match files and backups (matches/services.py, history/exports.py).
    "too_many_deals": (_("at most %(n)s deals"), {"max": "n"}),
    "sits_twice": (_("%(name)s sits twice at the table"), {}),
    "not_zip": (_("not a zip file"), {}),
    "zip_empty": (_("the zip holds no match file"), {}),
    "too_many_files": (_("at most %(n)s files"), {"max": "n"}),
    "file_too_large": (_("file too large"), {}),
    "zip_damaged": (_("damaged zip: this file cannot be read"), {}),
    "zip_too_large": (_("the zip is too large once unzipped"), {}),
    # Tournament files (concours/): entrants.
    "bad_date": (_("must be a date written YYYY-MM-DD"), {}),
    "duplicate": (_("%(value)s appears twice (first at %(first)s)"), {}),
    "bye_points": (_('must be a whole number or "average"'), {}),
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
    # Round robin and the final bracket (docs/tournaments.md §7).
    "round_robin_teams_only": (
        _("a round robin is for teams formed in advance, not à la mêlée"),
        {},
    ),
    "final_teams_only": (_("a final bracket is for teams formed in advance, not à la mêlée"), {}),
    "final_size": (_("a final bracket has 4, 8 or 16 teams"), {}),
    "consolation_size": (
        _("a consolation bracket needs a final bracket of 8 or 16 teams (not %(size)s)"),
        {},
    ),
    "round_robin_late_entry": (
        _("a round robin takes no late entry: every team plays from round 1"),
        {},
    ),
    "round_robin_rounds": (_("a round robin of %(teams)s teams has at most %(max)s rounds"), {}),
    "round_robin_bye": (
        _("in round %(round)s of the round robin, team %(id)s has a bye"),
        {},
    ),
    "round_robin_opponent": (
        _("in round %(round)s of the round robin, team %(id)s plays team %(expected)s"),
        {},
    ),
    "round_robin_not_bye": (
        _("in round %(round)s of the round robin, team %(id)s plays team %(expected)s, not a bye"),
        {},
    ),
    "no_final": (_("only a concours with a final bracket (settings.final) has a stage"), {}),
    "bracket_before_qualifying": (
        _("the final bracket starts after the %(rounds)s qualifying rounds"),
        {},
    ),
    "not_in_bracket": (_("a round of the final bracket has no byes and no withdrawals"), {}),
    "bracket_complete": (_("the final bracket is complete (%(max)s rounds in all)"), {}),
    "too_few_for_final": (
        _(
            "%(active)s active teams after the qualifying rounds: a final bracket of %(size)s "
            "needs %(size)s"
        ),
        {},
    ),
    "bracket_stage": (_("the next round of the final bracket is “%(expected)s”"), {}),
    "bracket_table": (_("this round of the final bracket has tables 1 to %(max)s"), {}),
    "bracket_side": (_("by the final bracket, team %(expected)s sits here at table %(table)s"), {}),
    "bracket_table_missing": (_("table %(table)s of the final bracket is missing"), {}),
    # A season's placement table (engine/season.py).
    "points_rise": (
        _("must not be more than the points of the place before (%(before)s)"),
        {},
    ),
}


def reason(code: str, **params: Param) -> str:
    """What is wrong, in the active language: the words of `code` with its params (the code
    itself if it has none, which a test forbids)."""
    if code not in ERRORS:
        return code
    template, renames = ERRORS[code]
    values = {
        renames.get(key, key): printable(value) if isinstance(value, str) else value
        for key, value in params.items()
    }
    return str(template) % values


def describe(error: InvalidInput) -> str:
    """An engine error's reason in the active language (the path is given apart)."""
    return reason(error.code, **error.params)


def explain(error: InvalidInput) -> str:
    """An engine error as one line in the active language: where (`deals[3].taker_points`, or
    the file in a backup), then what is wrong."""
    text = describe(error)
    if not error.path:
        return text
    return _("%(path)s: %(reason)s") % {"path": error.path, "reason": text}


# ---------------------------------------------------------------------------------------------
# Breakdowns: how a score was reached (scoring/breakdown.py's lines), line by line.

NOTES: "dict[str, Promise]" = {
    "took": pgettext_lazy("breakdown", "%(team)s took at %(trump)s"),
    "took_generale": pgettext_lazy("breakdown", "%(team)s announced a générale at %(trump)s"),
    "capot": pgettext_lazy("breakdown", "Capot by %(team)s"),
    "generale": pgettext_lazy("breakdown", "Générale: one player of %(team)s won every trick"),
    "made_bid_and_beat": pgettext_lazy(
        "breakdown", "Made: %(points)s ≥ %(contract)s and more than %(other)s"
    ),
    "made_bid_only": pgettext_lazy("breakdown", "Made: %(points)s ≥ %(contract)s"),
    "failed_below": pgettext_lazy("breakdown", "Failed: %(points)s < %(contract)s"),
    "failed_not_more": pgettext_lazy("breakdown", "Failed: %(points)s is not more than %(other)s"),
    "made_capot_bid": pgettext_lazy("breakdown", "Made: every trick won"),
    "failed_capot_bid": pgettext_lazy("breakdown", "Failed: the takers did not win every trick"),
    "made_generale_bid": pgettext_lazy("breakdown", "Made: one taker won every trick"),
    "failed_generale_bid": pgettext_lazy("breakdown", "Failed: no single taker won every trick"),
    "made_classic": pgettext_lazy("breakdown", "Made: %(points)s > %(other)s"),
    "failed_classic": pgettext_lazy("breakdown", "Failed (dedans): %(points)s < %(other)s"),
    "failed_equal": pgettext_lazy("breakdown", "Failed: equal totals, %(points)s each"),
    "made_capot": pgettext_lazy("breakdown", "Made: capot"),
    "failed_capot": pgettext_lazy("breakdown", "Failed: capot by the defence"),
    "litige": pgettext_lazy(
        "breakdown",
        "Litige: %(points)s each; the %(other)s of %(team)s are held for the next deal's winners",
    ),
    "litige_unawarded": pgettext_lazy(
        "breakdown",
        "Litige: %(points)s each; the %(other)s of %(team)s stay held in reserve, not awarded "
        "(the match is over)",
    ),
    "ann_team": pgettext_lazy("breakdown", "Announcements counted for %(team)s: %(items)s"),
    "ann_tie": pgettext_lazy("breakdown", "Announcements: equal best, none count"),
    "ann_ruling_none": pgettext_lazy(
        "breakdown", "Announcements: by the table's ruling, none count"
    ),
    "ann_ruling": pgettext_lazy(
        "breakdown", "Announcements: by the table's ruling, those of %(team)s count"
    ),
    "passed": pgettext_lazy("breakdown", "All passed"),
    "manual": pgettext_lazy("breakdown", "Scores entered by hand"),
    "reserve_received": pgettext_lazy("breakdown", "The %(points)s held in reserve go to %(team)s"),
    "coinched_points": pgettext_lazy(
        "breakdown", "Coinched contract scored on points: the defence keeps its total"
    ),
    "capot_bid_contract": pgettext_lazy(
        "breakdown", "A made %(contract)s bid scores its contract alone"
    ),
}
# The "contract" note, by coinche.
CONTRACT_NOTES: "dict[str, Promise]" = {
    "none": pgettext_lazy("breakdown", "Contract %(contract)s %(trump)s, taken by %(team)s"),
    "coinche": pgettext_lazy(
        "breakdown", "Contract %(contract)s %(trump)s coinched, taken by %(team)s"
    ),
    "surcoinche": pgettext_lazy(
        "breakdown", "Contract %(contract)s %(trump)s surcoinched, taken by %(team)s"
    ),
}
# What a term of a formula counts (Term.label).
TERMS: "dict[str, Promise]" = {
    "cards": pgettext_lazy("breakdown", "card points"),  # not "cards": points are counted
    "belote": pgettext_lazy("breakdown", "belote"),
    "announcements": pgettext_lazy("breakdown", "announcements"),
    "contract": pgettext_lazy("breakdown", "contract"),
    "base": pgettext_lazy("breakdown", "base"),
    "capot": pgettext_lazy("breakdown", "capot"),
    "generale": pgettext_lazy("breakdown", "générale"),
    "dedans": pgettext_lazy("breakdown", "dedans"),
    "reserve": pgettext_lazy("breakdown", "reserve"),
}
# The contract's trump in a breakdown (a bid that is not a number reads as its term).
BREAKDOWN_TRUMPS: "dict[str, Promise | str]" = {
    "spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣",
    "no_trump": pgettext_lazy("breakdown", "sans atout"),
    "all_trump": pgettext_lazy("breakdown", "tout atout"),
}  # fmt: skip
ANNOUNCEMENT_KINDS: "dict[str, Promise]" = {
    "tierce": pgettext_lazy("announcement", "tierce"),
    "quarte": pgettext_lazy("announcement", "quarte"),
    "quinte": pgettext_lazy("announcement", "quinte"),
    "carre": pgettext_lazy("announcement", "carré"),
}
FORMULA = pgettext_lazy("breakdown", "%(team)s: %(formula)s")
TRUMP_ANNOUNCEMENT = pgettext_lazy("breakdown", "%(announcement)s (trump)")


def default_team_names() -> tuple[str, str]:
    return gettext_now("Team 1"), gettext_now("Team 2")


@functools.cache
def _phrases_in(lang: str) -> Phrases:
    def resolved(table: "Mapping[str, Promise | str]") -> dict[str, str]:
        return {key: str(value) for key, value in table.items()}

    return Phrases(
        notes=resolved(NOTES),
        contract_notes=resolved(CONTRACT_NOTES),
        terms=resolved(TERMS),
        trumps=resolved(BREAKDOWN_TRUMPS),
        kinds=resolved(ANNOUNCEMENT_KINDS),
        ranks=resolved(RANK_LABELS),
        formula=str(FORMULA),
        trump_announcement=str(TRUMP_ANNOUNCEMENT),
    )


def _phrases() -> Phrases:
    return _phrases_in(get_language() or "")


def phrases_data(lang: str) -> dict[str, Any]:
    """The breakdown's words in `lang` as plain data (the in-browser engine's, offline)."""
    with translation.override(lang):
        return _phrases_in(lang).to_dict()


@receiver(setting_changed)
def _forget_phrases(*, setting: str, **kwargs: object) -> None:
    if setting in ("LANGUAGES", "LANGUAGE_CODE", "LOCALE_PATHS", "INSTALLED_APPS"):
        _phrases_in.cache_clear()


def announcement_words(item: Announcement) -> str:
    """ "tierce K", "carré V" in French, "quinte A (trump)"; "tierce" when its top card was not
    said."""
    return announcement_text(item.kind.value, item.high.value, item.trump, _phrases(), item.said)


def breakdown_line(line: Line, teams: Sequence[str] | None = None) -> str:
    """One line of a breakdown in the active language, with the teams' names."""
    return line_text(line, teams or default_team_names(), _phrases())


def breakdown(lines: Iterable[Line], teams: Sequence[str] | None = None) -> list[str]:
    """A deal's breakdown in the active language (`score_match`'s JSON, the scoreboard)."""
    return breakdown_text(lines, teams or default_team_names(), _phrases())


def stored_breakdown(data: Iterable[Mapping[str, Any]], teams: Sequence[str]) -> list[str]:
    """`breakdown` of the lines a deal row keeps as data (`line_to_data`), the same words."""
    words = _phrases()
    out = []
    for line in data:
        if "formula" in line:
            multiplier, rounded = line.get("multiplier", 1), line.get("rounded")
            out.append(formula_text(line["team"], line["terms"], multiplier, rounded, teams, words))
        else:
            values = {name: line.get(name) for name in NOTE_FIELDS}
            out.append(note_text(line["note"], values, line.get("items", ()), teams, words))
    return out


# ---------------------------------------------------------------------------------------------
# Deals in words: a scored deal's one-line summary, and a deal's inputs part by part.


def contract_name(contract: object) -> str:
    """A contract as the table says it: "110", "Capot", "Générale" (never the key "generale")."""
    if contract == "capot":
        return gettext_now("Capot")
    if contract == "generale":
        return gettext_now("Générale")
    return "" if contract is None else str(contract)


def _contract_head(contract: object, trump: str, coinche: str) -> str:
    """ "110 ♥ coinché", "Capot SA", "Générale ♠ surcoinché": what was played."""
    head = f"{contract_name(contract)} {TRUMP_SHORT.get(trump, '')}".strip()
    if coinche == "coinche":
        head += " " + gettext_now("coinché")
    elif coinche == "surcoinche":
        head += " " + gettext_now("surcoinché")
    return head


# The site's languages (settings.LANGUAGES).
Lang = Literal["en", "fr"]
LANGS: tuple[Lang, ...] = ("en", "fr")


def deal_summary(deal: Any, team_names: Sequence[str]) -> str:
    """One line in the active language for a scored deal row (its kind, contract, trump, coinche,
    taker, outcome, capot): what was played and how it went, e.g. "110 ♥ coinché · Nous · made"."""
    if deal.kind == "passed":
        return gettext_now("All passed")
    if deal.kind == "manual":
        return gettext_now("Manual score")
    parts = [_contract_head(deal.contract or "", deal.trump, deal.coinche)]
    if deal.taker is not None:
        parts.append(team_names[deal.taker])
    parts.append(str(OUTCOME_LABELS.get(deal.outcome, deal.outcome)))
    if deal.capot is not None:
        parts.append(gettext_now("capot"))
    return " · ".join(parts)


def reserve_received(own: int, held: int) -> str:
    """A deal's own score and the litige reserve it receives, in short (the deal form): "90 + 81
    from the last litige" (a reserve goes to the next deal's winners, never further)."""
    return gettext_now("%(own)s + %(held)s from the last litige") % {"own": own, "held": held}


def reserve_kept(points: int) -> str:
    """A litige's points held for the next deal's winners, in short: "81 kept for the next
    deal" (said apart from a reserve received: both are held points, one going, one staying)."""
    return gettext_now("%(points)s kept for the next deal") % {"points": points}


def deal_parts(data: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """A deal's inputs (a match-file dict, as kept in its change log) in words, part by part."""
    if data.get("passed"):
        return [gettext_now("All passed")]
    if "manual_scores" in data:
        first, second = data["manual_scores"]
        parts = [gettext_now("Manual score: %(a)s %(x)s, %(b)s %(y)s") % {
            "a": names[0], "x": first, "b": names[1], "y": second}]  # fmt: skip
    else:
        parts = [
            _contract_head(data.get("contract", ""), data.get("trump", ""), data.get("coinche", ""))
        ]
        parts.append(gettext_now("taken by %(team)s") % {"team": names[data["taker"]]})
        if "capot" in data:
            parts.append(gettext_now("capot %(team)s") % {"team": names[data["capot"]]})
            if data.get("generale"):
                parts.append(gettext_now("générale"))
        else:
            parts.append(
                gettext_now("%(points)s card points") % {"points": data.get("taker_points")}
            )
        for team, count in enumerate(data.get("belote", [0, 0])):
            if count:
                parts.append(
                    gettext_now("belote %(team)s ×%(n)s") % {"team": names[team], "n": count}
                )
        for team, items in enumerate(data.get("announcements", [[], []])):
            for item in items:
                kind = "carré" if item["kind"] == "carre" else item["kind"]
                top = f" {rank_label(item['high'])}" if item.get("high_said", True) else ""
                parts.append(f"{kind}{top} ({names[team]})")
    if data.get("note"):
        parts.append(f"— {data['note']}")
    return parts


# ---------------------------------------------------------------------------------------------
# French card-game words that English pages keep as they are (sans atout, coinché, capot...):
# marked lang="fr" there, so a screen reader says them in French. Longest alternatives first.
_FRENCH_TERMS = re.compile(
    r"(?<![\w-])(?:sans atout|tout atout|dix de der|belote-rebelote|rebelote|belotes?"
    r"|surcoinch(?:ée?s?|es?)|coinch(?:ée?s?|es?)|générales?|capots?|litiges?|dedans|carrés?)"
    r"(?![\w-])",
    re.IGNORECASE,
)


# What each French word starts with (or holds): a text with none of them skips the regex.
_FRENCH_HINTS = ("atout", "dix de der", "belote", "coinch", "général", "capot", "litige", "dedans",
                 "carré")  # fmt: skip


@functools.lru_cache(maxsize=4096)
def _marked(escaped: str) -> str:
    """An escaped text with its French words wrapped. Cached: a scoreboard shows the same deal
    lines at every poll (300 deals: 10 ms the first time, 1 ms more than escaping after)."""
    lowered = escaped.lower()
    if not any(hint in lowered for hint in _FRENCH_HINTS):
        return escaped
    return _FRENCH_TERMS.sub(r'<span lang="fr">\g<0></span>', escaped)


def french_terms(text: "str | Promise") -> SafeString:
    """`text` escaped (unless already safe) for HTML; on a page not in French, each French game
    word in it wrapped in <span lang="fr">. Only for text, never for markup with attributes."""
    # html.escape is what conditional_escape does to a plain str, without its checks.
    escaped = html.escape(text) if type(text) is str else str(conditional_escape(text))
    if (get_language() or "").startswith("fr"):
        return mark_safe(escaped)  # escaped above
    return mark_safe(_marked(escaped))  # escaped above, then only <span lang="fr"> added
