"""Small display helpers: no scoring here, only labels for what the engine and the models hold."""

import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from django import template
from django.contrib.messages.storage.base import Message
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scorekeeper.engine.scoring import Rules
from scorekeeper.web.words import (
    PRESET_NAMES,
    contract_name,
    deal_parts,
    french_terms,
    rank_label,
    reserve_kept,
    reserve_received,
    rule_changes,
)
from scorekeeper.web.words import deal_summary as summary_of
from scorekeeper.web.words import rules_name as name_of_rules

from ..board import BoardDeal
from ..models import Deal, Match

register = template.Library()


@register.simple_tag
def pick(values: Sequence[Any], index: int) -> Any:
    """`values[index]` for an index held in a variable (forloop.counter0)."""
    return values[index]


register.filter("rank_label", rank_label)
register.filter("contract_name", contract_name)  # "Générale", not the key "generale"
# Text with its French game words marked lang="fr" on English pages (escaped, so safe).
register.filter("fr_terms", french_terms, is_safe=True)


@register.filter
def preset_name(name: str) -> str:
    return str(PRESET_NAMES.get(name, name))


@register.filter
def rules_name(rules: Rules) -> str:
    """ "Coinche (official)", or "Coinche (official), with changes" when a setting is off it."""
    return name_of_rules(rules)


register.filter("rule_changes", rule_changes)


@register.filter
def asks_undo(messages: Iterable[Message]) -> bool:
    """Whether a message of the page comes with Undo beside it (deal_passed's "Deal 5: all
    passed."): the scoreboard then shows no second Undo under its buttons."""
    return any("undo" in message.extra_tags.split() for message in messages)


@register.simple_tag
def received(own: int, held: int) -> SafeString:
    """ "90 + 81 from the last litige": a deal's score and the reserve it receives."""
    return french_terms(reserve_received(own, held))


@register.simple_tag
def kept(points: int) -> SafeString:
    """ "81 kept for the next deal": a litige's points held for the next deal's winners."""
    return french_terms(reserve_kept(points))


@register.simple_tag
def deal_summary(deal: Deal, match: Match) -> str:
    """One line: what was played and how it went, e.g. "110 ♥ coinché · Nous · made"."""
    return summary_of(deal, match.team_names)


@register.simple_tag
def describe_deal(
    data: dict[str, Any] | None, match: Match, other: dict[str, Any] | None = None
) -> SafeString:
    """A deal's inputs in words; with `other` (the deal on the other side of a change), the parts
    that changed are marked, so an edit reads at a glance."""
    if not data:
        return mark_safe("—")
    parts = deal_parts(data, match.team_names)
    unchanged = set(deal_parts(other, match.team_names)) if other else set(parts)
    return mark_safe(
        " · ".join(
            french_terms(part) if part in unchanged else f"<mark>{french_terms(part)}</mark>"
            for part in parts
        )
    )


@register.filter
def device_tag(key: str) -> str:
    """A short, stable name for the phone behind a change (not its secret key)."""
    return hashlib.sha256(key.encode()).hexdigest()[:4] if key else ""


@register.simple_tag
def deal_items(deals: Sequence[BoardDeal]) -> SafeString:
    """The <li> of each deal of a scoreboard or review, built here rather than in a template
    loop: a template costs ~0.3 ms a deal, too slow for a 300-deal match (50 ms budget)."""
    labels = (escape(_("Edit")), escape(_("Delete")), escape(_("History")))
    out = []
    for deal in deals:
        row = deal.row
        lines = "".join(f"<li>{french_terms(line)}</li>" for line in deal.lines)
        note = f'<p class="note">{escape(row.note)}</p>' if row.note else ""
        actions = ""
        if deal.links:
            urls = (deal.links.edit, deal.links.delete, deal.links.log)
            actions = (
                '<p class="deal-actions">'
                + " ".join(
                    f'<a class="btn btn-small" href="{escape(url)}">{label}</a>'
                    for url, label in zip(urls, labels, strict=True)
                )
                + "</p>"
            )
        out.append(
            f'<li class="deal outcome-{escape(row.outcome)}"><details><summary>'
            f'<span class="num">{row.number}</span> <span class="what">{french_terms(deal.summary)}</span> '
            f'<span class="pts"><span class="t0">{row.score0}</span> · '
            f'<span class="t1">{row.score1}</span></span> '
            f'<span class="run">{row.total0} – {row.total1}</span></summary>'
            f'<div class="deal-body"><p class="small">{escape(deal.dealt_by)}</p>'
            f'<ul class="breakdown">{lines}</ul>{note}{actions}</div></details></li>\n'
        )
    return mark_safe("".join(out))  # every value above is escaped (french_terms escapes)


# Characters: the outcome, both teams and their points fit two lines of a 360 px summary, with
# text at 125 % too (where the Save bar still sticks to the bottom of the screen).
SHORT_NAME = 12


@register.simple_tag
def short_names(
    names: Sequence[str], limit: int = SHORT_NAME, *, shared: bool = False
) -> tuple[str, str]:
    """The two team names for a line with no room to spare (the summary beside Save): in full
    when both fit, else shortened with "…" so that the two still differ ("Les Rouges" and
    "Les Roses" fit; "Les Joyeux Lurons du Mardi" and "... du Jeudi" become "…du Mardi" and
    "…du Jeudi"). `shared`: the line holds 2 × `limit` characters of names, and a short name
    leaves its room to the other ("L'Équipe d'Hélène" and "Nous" fit): at the usual text size,
    where a line holds more (deal_form.html shows these there, the others with larger text)."""
    first, second = names[0], names[1]
    limits = (limit, limit)
    if shared:
        room = 2 * limit
        limits = (max(limit, room - len(second)), max(limit, room - len(first)))
    if len(first) <= limits[0] and len(second) <= limits[1]:
        return (first, second)
    a, b = first.casefold(), second.casefold()
    differ = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), None)
    if differ is None:
        differ = min(len(a), len(b))
    return (_shorten(first, differ, limits[0]), _shorten(second, differ, limits[1]))


def _shorten(name: str, differ: int, limit: int) -> str:
    """`name` in at most `limit` characters, showing its character at `differ`."""
    if len(name) <= limit:
        return name
    if differ < limit - 1:  # their starts tell them apart
        kept = name[: limit - 1]
        space = kept.rfind(" ")
        # Cut inside a word: at the space before it, when that keeps half the room and `differ`.
        if name[limit - 1] != " " and space > max(differ, (limit - 1) // 2):
            kept = kept[:space]
        return kept.rstrip() + "…"
    if differ >= len(name) - (limit - 1):  # their ends do
        return "…" + _from_a_word(name[len(name) - (limit - 1) :], keep=differ - len(name))
    start = differ - (limit - 2) // 2
    middle = _from_a_word(name[start : start + limit - 2], keep=differ - start - (limit - 2))
    return "…" + middle.rstrip() + "…"


def _from_a_word(text: str, *, keep: int) -> str:
    """`text` from its first whole word, if that keeps its character at `keep` (counted from the
    end of `text`, as a negative index)."""
    space = text.find(" ")
    return text[space + 1 :] if 0 <= space < len(text) + keep else text


@register.inclusion_tag("partials/offline.html")
def offline_phone(match: Match, *, live: bool = True, last: Deal | str = "") -> dict[str, Any]:
    """What a match's phone page carries for working without signal (docs/offline.md, read by
    static/js/app.js and offline.js): the addresses to keep, whether the phone keeps them by
    itself (a concours's table phone); the outbox's words are a file of their own (kept with
    the pages: views/outbox.py offline_words), not in every page.
    `last`: the scoreboard's last deal. `live=False`: the page has its own live region (the
    deal form's #preview-status), which offline.js also gives the badge's words to; the badge
    is then only seen."""
    token = match.scorer_token
    # The scoreboard's last deal (no query: the board has read it), whose edit form is kept.
    edit = (
        reverse("matches:deal_edit", args=[token, last.seq])
        if isinstance(last, Deal) and last.kind != Deal.Kind.MANUAL
        else ""
    )
    engine = finders.find("js/offline-engine.js")
    return {
        "match": match,
        "live": live,
        "token": token,
        "edit_url": edit,
        "auto": match.in_concours,
        "offer": match.in_play,  # Keep this match on this phone: nothing to keep once it is over
        "engine_url": static("js/offline-engine.js") if engine else "",
    }
