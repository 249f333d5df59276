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
