"""The paper check of docs/tournaments.md §2: the two totals of a classic belote partie with a deals
limit and no rounding must add up to `deals × 162 + belote_points × belotes + (capot_cards − 162)
× capots + announcements counted`. A mismatch is a warning, never a refusal: the check returns the
difference and a hint (as data: a code and a count), the words are rendered outside."""

from dataclasses import dataclass
from typing import Literal

from ..scoring import Rules

Hint = Literal["belote", "capot", "announcement", "deal", "typo"]
CARD_POINTS = 162  # every deal's card points, dix de der included
ANNOUNCEMENT_VALUES = (50, 100, 150, 200)  # quarte, quinte or carré, carré of 9s, of jacks


@dataclass(frozen=True, slots=True)
class PaperCheck:
    expected: int
    written: int  # both totals together
    difference: int  # written - expected: negative when points are missing
    hint: Hint | None  # the likeliest slip, when the difference looks like one
    count: int = 0  # how many of it (2 belotes, 1 deal...)

    @property
    def ok(self) -> bool:
        return self.difference == 0


def applies(rules: Rules) -> bool:
    """Classic belote, a deals limit, exact points: the only parties whose totals are known."""
    return rules.game == "belote" and rules.deals_limit is not None and rules.rounding == "none"


def _hint(rules: Rules, gap: int) -> tuple[Hint | None, int]:
    capot = rules.capot_cards - CARD_POINTS
    units: tuple[tuple[int, Hint], ...] = ((rules.belote_points, "belote"), (capot, "capot"))
    for unit, hint in units:
        if unit > 0 and gap % unit == 0 and gap // unit <= 2:
            return hint, gap // unit
    if gap in ANNOUNCEMENT_VALUES:
        return "announcement", 1
    if gap % CARD_POINTS == 0:
        return "deal", gap // CARD_POINTS
    digits = str(gap).rstrip("0")
    if len(digits) == 1:  # 10, 300, 7: one digit written wrong
        return "typo", 1
    return None, 0


def paper_check(
    rules: Rules,
    totals: tuple[int, int],
    *,
    belotes: int = 0,
    capots: int = 0,
    announcements: int = 0,
    deals: int | None = None,
) -> PaperCheck | None:
    """The check of a paper sheet's `totals`, with the belotes, capots and announcement points
    the organiser typed; `deals` defaults to the rules' deals limit. None when the rules do not
    allow the check (coinche, rounding, no deals limit)."""
    if not applies(rules):
        return None
    played = deals if deals is not None else rules.deals_limit
    assert played is not None
    expected = (
        played * CARD_POINTS
        + rules.belote_points * belotes
        + (rules.capot_cards - CARD_POINTS) * capots
        + announcements
    )
    written = totals[0] + totals[1]
    difference = written - expected
    hint, count = _hint(rules, abs(difference)) if difference else (None, 0)
    return PaperCheck(expected, written, difference, hint, count)
