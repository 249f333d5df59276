"""A deal in words, in every language of the site, written once when the match is re-scored so
the scoreboard only reads text (the engine is not run to show a page)."""

from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _

from scorekeeper.scoring import MatchDeal, render
from scorekeeper.scoring.breakdown import Lang

from .engine_text import OUTCOME_LABELS, TRUMP_SHORT
from .models import Deal

LANGS: tuple[Lang, ...] = ("en", "fr")  # settings.LANGUAGES, which a test checks


def deal_summary(deal: Deal, team_names: tuple[str, str]) -> str:
    """One line in the active language: what was played and how it went, e.g.
    "110 ♥ coinché · Nous · made"."""
    if deal.kind == Deal.Kind.PASSED:
        return _("All passed")
    if deal.kind == Deal.Kind.MANUAL:
        return _("Manual score")
    contract = {"capot": _("Capot"), "generale": _("Générale")}.get(deal.contract, deal.contract)
    head = f"{contract} {TRUMP_SHORT.get(deal.trump, '')}".strip()
    if deal.coinche == "coinche":
        head += " " + _("coinché")
    elif deal.coinche == "surcoinche":
        head += " " + _("surcoinché")
    parts = [head]
    if deal.taker is not None:
        parts.append(team_names[deal.taker])
    parts.append(str(OUTCOME_LABELS.get(deal.outcome, deal.outcome)))
    if deal.capot is not None:
        parts.append(_("capot"))
    return " · ".join(parts)


def deal_texts(deal: Deal, scored: MatchDeal, team_names: tuple[str, str]) -> dict[str, Any]:
    """{"en": {"summary": ..., "lines": [...]}, "fr": {...}} for `deal` once `scored` (its
    outcome must already be on `deal`)."""
    texts: dict[str, Any] = {}
    for lang in LANGS:
        with translation.override(lang):
            texts[lang] = {
                "summary": deal_summary(deal, team_names),
                "lines": render(scored.breakdown, lang, team_names),
            }
    return texts
