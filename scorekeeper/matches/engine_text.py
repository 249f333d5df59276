"""Labels and translated messages for what the engine says. The engine stays free of Django; its
English error messages are matched here and given back in the page's language."""

import re
from typing import TYPE_CHECKING

from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper.scoring import InvalidInput

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise as Promise

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

# Engine messages (English, with figures) and their translatable form.
_MESSAGES: "list[tuple[str, Promise]]" = [
    (r"must be 0 or 1", _("must be 0 or 1")),
    (r"these rules do not allow sans atout or tout atout",
     _("these rules do not allow sans atout or tout atout")),
    (r"these rules do not allow a générale bid", _("these rules do not allow a générale bid")),
    (r"these rules do not allow a capot bid", _("these rules do not allow a capot bid")),
    (r"classic belote has no bid \(only a générale, if allowed\)",
     _("classic belote has no bid (only a générale, if allowed)")),
    (r"a coinche deal needs the contract that was bid", _("choose the contract that was bid")),
    (r"a bid is a multiple of 10", _("a bid is a multiple of 10")),
    (r"the lowest bid is (?P<n>\d+)", _("the lowest bid is %(n)s")),
    (r"the highest bid is (?P<n>\d+) \(then capot\)", _("the highest bid is %(n)s (then capot)")),
    (r"classic belote has no coinche", _("classic belote has no coinche")),
    (r"the player who took sits in the taking team",
     _("the player who took is one of the takers")),
    (r"there is no coinche on this deal", _("there is no coinche on this deal")),
    (r"the player who coinched sits in the defence",
     _("the player who coinched is one of the defence")),
    (r"the player who surcoinched sits in the taking team",
     _("the player who surcoinched is one of the takers")),
    (r"must be 0 or 1 \(the team that won every trick\)", _("choose the team that won every trick")),
    (r"the takers' card points are needed \(or a capot\)",
     _("enter the takers' card points (or a capot)")),
    (r"must be from (?P<a>\d+) to (?P<b>\d+)", _("must be from %(a)s to %(b)s")),
    (r"leave out the card points on a capot", _("leave out the card points on a capot")),
    (r"a générale is a capot won by one player: set capot too",
     _("a générale is a capot won by one player: choose the capot team too")),
    (r"there is no belote in sans atout", _("there is no belote in sans atout")),
    (r"at most four belotes in tout atout \(one per suit\)",
     _("at most four belotes in tout atout (one per suit)")),
    (r"only one belote-rebelote in a suit contract", _("only one belote-rebelote in a suit contract")),
    (r"these rules do not count announcements", _("these rules do not count announcements")),
    (r"there is no carré of 7s or 8s", _("there is no carré of 7s or 8s")),
    (r"only a sequence can be in the trump suit", _("only a sequence can be in the trump suit")),
    (r"a (?P<kind>\w+) cannot end at (?P<high>\w+)", _("a %(kind)s cannot end at %(high)s")),
    (r"there is no single trump suit in sans atout or tout atout",
     _("there is no single trump suit in sans atout or tout atout")),
    (r"only one carré of (?P<rank>\w+) exists", _("only one carré of %(rank)s exists")),
    (r"the match was over after deal (?P<n>\d+)", _("the match was already over after deal %(n)s")),
    (r"must be a whole number( or null)?", _("must be a whole number")),
    (r"must be between (?P<a>\d+) and (?P<b>\d+)", _("must be between %(a)s and %(b)s")),
    (r"must be a multiple of (?P<n>\d+)", _("must be a multiple of %(n)s")),
    (r"must be increasing, from (?P<a>\d+) to (?P<b>\d+)",
     _("the surcoinche multiplier must be above the coinche one (from %(a)s to %(b)s)")),
    (r"a match needs a target or a deals limit to end",
     _("a match needs a target or a deals limit to end")),
    (r"must not be below min_bid", _("must not be below the lowest bid")),
    (r"scoring on points needs multiplier_scope deal",
     _("scoring on points needs the multiplier on the whole deal")),
    (r"not valid JSON: the file is not UTF-8 text", _("not valid JSON: the file is not UTF-8 text")),
    (r"not valid JSON: .* at line (?P<line>\d+), column (?P<col>\d+)",
     _("not valid JSON (line %(line)s, column %(col)s)")),
    (r"not valid JSON: nested too deeply", _("not valid JSON: nested too deeply")),
    (r"the key (?P<key>.+) appears twice in one object",
     _("the key %(key)s appears twice in one object")),
    # The shape of a match file (matchfile.py) and of its rules (rules.py).
    (r"is required", _("missing")),
    (r"is required \(it may be an empty list\)", _("missing (it may be an empty list)")),
    (r'is required: "(?P<f>[^"]+)"', _('missing: it must be "%(f)s"')),
    (r"is required: one of (?P<c>.+)", _("missing: one of %(c)s")),
    (r'unsupported format; expected "(?P<f>[^"]+)"', _('unsupported format: expected "%(f)s"')),
    (r"unknown preset; choose one of (?P<c>.+)", _("unknown preset: choose one of %(c)s")),
    (r"the preset (?P<p>\S+) is (?P<g>\w+); pick a preset of the game",
     _("the preset %(p)s is %(g)s: pick a preset of that game")),
    (r"unknown key", _("unknown key")),
    (r"unknown setting", _("unknown setting")),
    (r"is not a setting of (?P<g>\w+)", _("is not a setting of %(g)s")),
    (r"must be set", _("must be set")),
    (r"must be an object", _("must be an object")),
    (r"must be an object: a preset and any settings to change",
     _("must be an object: a preset and any settings to change")),
    (r"must be an object with a preset and settings",
     _("must be an object with a preset and settings")),
    (r"must be a list", _("must be a list")),
    (r"must be a string", _("must be text")),
    (r"must be true or false", _("must be true or false")),
    (r"must not be empty", _("must not be empty")),
    (r"must not be empty: it holds only invisible characters",
     _("must not be empty: it holds only invisible characters")),
    (r"must not contain control characters \((?P<code>U\+[0-9A-F]+)\)",
     _("must not contain control characters (%(code)s)")),
    (r"must not contain a broken character \((?P<code>U\+[0-9A-F]+), half of a surrogate pair\)",
     _("must not contain a broken character (%(code)s, half of a surrogate pair)")),
    (r"must be at most (?P<n>\d+) characters", _("must be at most %(n)s characters")),
    (r"must have (?P<n>\d+) items", _("must have %(n)s items")),
    (r"must be one of (?P<c>.+)", _("must be one of %(c)s")),
    (r'must be 0, 1 or "none"', _('must be 0, 1 or "none"')),
    (r'must be a bid \(80, 90, \.\.\.\), "capot" or "generale"',
     _('must be a bid (80, 90, ...), "capot" or "generale"')),
    (r"must be two whole numbers: \[coinche, surcoinche\]",
     _("must be two whole numbers: [coinche, surcoinche]")),
    (r"a passed deal has no other key than note", _("a passed deal has no other key than note")),
    (r"a manual deal has no other key than note", _("a manual deal has no other key than note")),
    # The app's own checks of match files and backups (services.check_importable, exports).
    (r"at most (?P<n>\d+) deals", _("at most %(n)s deals")),
    (r"(?P<name>.+) sits twice at the table", _("%(name)s sits twice at the table")),
    (r"not a zip file", _("not a zip file")),
    (r"the zip holds no match file", _("the zip holds no match file")),
    (r"at most (?P<n>\d+) files", _("at most %(n)s files")),
    (r"file too large", _("file too large")),
    (r"damaged zip: this file cannot be read", _("damaged zip: this file cannot be read")),
    (r"the zip is too large once unzipped", _("the zip is too large once unzipped")),
]  # fmt: skip
_COMPILED = [(re.compile(f"^{pattern}$"), text) for pattern, text in _MESSAGES]


def translate_engine_message(message: str) -> str:
    """The engine's message in the active language (as is, if it has no translation)."""
    for pattern, text in _COMPILED:
        found = pattern.match(message)
        if found:
            params = found.groupdict()
            return str(text) % params if params else str(text)
    return message


def explain(error: InvalidInput) -> str:
    """An engine error as one line in the active language: where (`deals[3].taker_points`, or
    the file in a backup), then what is wrong."""
    reason = translate_engine_message(error.message)
    if not error.path:
        return reason
    return _("%(path)s: %(reason)s") % {"path": error.path, "reason": reason}


# French card-game words that English pages keep as they are (sans atout, coinché, capot...):
# marked lang="fr" there, so a screen reader says them in French. Longest alternatives first.
_FRENCH_TERMS = re.compile(
    r"(?<![\w-])(?:sans atout|tout atout|dix de der|belote-rebelote|rebelote|belotes?"
    r"|surcoinch(?:ée?s?|es?)|coinch(?:ée?s?|es?)|générales?|capots?|litiges?|dedans|carrés?)"
    r"(?![\w-])",
    re.IGNORECASE,
)


def french_terms(text: "str | Promise") -> SafeString:
    """`text` escaped (unless already safe) for HTML; on a page not in French, each French game
    word in it wrapped in <span lang="fr">. Only for text, never for markup with attributes."""
    escaped = conditional_escape(text)
    if (get_language() or "").startswith("fr"):
        return mark_safe(escaped)  # escaped above
    return mark_safe(_FRENCH_TERMS.sub(r'<span lang="fr">\g<0></span>', escaped))
