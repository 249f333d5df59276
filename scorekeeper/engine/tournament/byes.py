"""Byes (docs/tournaments.md §4): how many entrants sit out, what a bye is worth, who sits out."""

from collections.abc import Sequence
from fractions import Fraction
from math import ceil, floor

from ..scoring import Rules
from .random_source import DrawRandom
from .results import TableResult
from .settings import ByeRule, Settings


def bye_count(settings: Settings, active: int) -> int:
    """Teams: one bye for an odd number of active teams. Mêlée: active players mod 4."""
    return active % 4 if settings.melee else active % 2


def round_like_a_deal(value: Fraction, rules: Rules) -> int:
    """`value` rounded as a deal score of `rules`: to the nearest ten, a 5 up (half_up) or down
    (half_down); with no rounding, to the nearest integer, halves up."""
    if rules.rounding == "half_up":
        return floor(value / 10 + Fraction(1, 2)) * 10
    if rules.rounding == "half_down":
        return ceil(value / 10 - Fraction(1, 2)) * 10
    return floor(value + Fraction(1, 2))


def bye_points(rule: ByeRule, rules: Rules, results: Sequence[TableResult]) -> int:
    """What a bye of a round is worth: the fixed number, or "average": the mean of the points of
    every side at a finished table of that round, rounded like a deal score (0 while none is
    finished)."""
    if rule.points != "average":
        return rule.points
    sides = [p for result in results if result.finished and result.points for p in result.points]
    if not sides:
        return 0
    return round_like_a_deal(Fraction(sum(sides), len(sides)), rules)


def choose_byes(
    count: int,
    candidates: Sequence[int],
    had_bye: set[int],
    rng: DrawRandom | None = None,
) -> list[int]:
    """Who sits out after round 1. `candidates` are the active entrants in standing order (best
    first) for Swiss: the lowest-ranked without a bye yet, or the lowest-ranked of all when every
    one has had a bye. With `rng` (random pairing, mêlée): at random among those without a bye
    yet (in id order), then at random among the others if there are too few."""
    chosen: list[int] = []
    if rng is None:
        for _ in range(count):
            left = [c for c in candidates if c not in chosen]
            fresh = [c for c in left if c not in had_bye]
            chosen.append((fresh or left)[-1])
        return chosen
    fresh = sorted(c for c in candidates if c not in had_bye)
    others = sorted(c for c in candidates if c in had_bye)
    for _ in range(count):
        pool = fresh or others
        pick = rng.choice(pool)
        pool.remove(pick)
        chosen.append(pick)
    return chosen
