"""Small display helpers: no scoring here, only labels for what the engine and the models hold."""

from collections.abc import Sequence
from typing import Any

from django import template
from django.utils.translation import gettext as _

from ..engine_text import OUTCOME_LABELS, PRESET_NAMES, TRUMP_SHORT
from ..models import Deal, Match

register = template.Library()


@register.simple_tag
def pick(values: Sequence[Any], index: int) -> Any:
    """`values[index]` for an index held in a variable (forloop.counter0)."""
    return values[index]


@register.filter
def preset_name(name: str) -> str:
    return str(PRESET_NAMES.get(name, name))


@register.simple_tag
def deal_summary(deal: Deal, match: Match) -> str:
    """One line: what was played and how it went, e.g. "110 ♥ coinché · Nous · made"."""
    if deal.kind == Deal.Kind.PASSED:
        return _("All passed")
    if deal.kind == Deal.Kind.MANUAL:
        return _("Manual score")
    parts = []
    contract = {"capot": _("Capot"), "generale": _("Générale")}.get(deal.contract, deal.contract)
    parts.append(f"{contract} {TRUMP_SHORT.get(deal.trump, '')}".strip())
    if deal.coinche == "coinche":
        parts[-1] += " " + _("coinché")
    elif deal.coinche == "surcoinche":
        parts[-1] += " " + _("surcoinché")
    if deal.taker is not None:
        parts.append(match.team_names[deal.taker])
    parts.append(str(OUTCOME_LABELS.get(deal.outcome, deal.outcome)))
    if deal.capot is not None:
        parts.append(_("capot"))
    return " · ".join(parts)


@register.simple_tag
def describe_deal(data: dict[str, Any] | None, match: Match) -> str:
    """A deal's inputs (a match-file dict, as kept in its history) in words."""
    if not data:
        return "—"
    if data.get("passed"):
        return _("All passed")
    names = match.team_names
    if "manual_scores" in data:
        first, second = data["manual_scores"]
        text = _("Manual score: %(a)s %(x)s, %(b)s %(y)s") % {
            "a": names[0], "x": first, "b": names[1], "y": second}  # fmt: skip
    else:
        contract = data.get("contract", "")
        contract = {"capot": _("Capot"), "generale": _("Générale")}.get(contract, contract)
        parts = [f"{contract} {TRUMP_SHORT.get(data.get('trump', ''), '')}".strip()]
        if data.get("coinche") == "coinche":
            parts[-1] += " " + _("coinché")
        elif data.get("coinche") == "surcoinche":
            parts[-1] += " " + _("surcoinché")
        parts.append(_("taken by %(team)s") % {"team": names[data["taker"]]})
        if "capot" in data:
            parts.append(_("capot %(team)s") % {"team": names[data["capot"]]})
            if data.get("generale"):
                parts.append(_("générale"))
        else:
            parts.append(_("%(points)s card points") % {"points": data.get("taker_points")})
        for team, count in enumerate(data.get("belote", [0, 0])):
            if count:
                parts.append(_("belote %(team)s ×%(n)s") % {"team": names[team], "n": count})
        for team, items in enumerate(data.get("announcements", [[], []])):
            for item in items:
                kind = "carré" if item["kind"] == "carre" else item["kind"]
                parts.append(f"{kind} {item['high']} ({names[team]})")
        text = " · ".join(parts)
    if data.get("note"):
        text += f" — {data['note']}"
    return text
