"""How a score was reached, as data: what is added, to whom, and why.

The engine builds lines of data (no words), so the same result reads in any language and with the
real team names; the words are rendered outside the engine (`scorekeeper/words.py`).
"""

from dataclasses import dataclass
from typing import Literal

from .announcements import Announcement

# The keys a Term's label and a Note's key take (each has words in `scorekeeper/words.py`).
TermLabel = Literal[
    "cards", "belote", "announcements", "contract", "base", "capot", "generale", "dedans",
    "reserve",
]  # fmt: skip
NoteKey = Literal[
    "contract", "took", "took_generale", "capot", "generale", "made_bid_and_beat", "made_bid_only",
    "failed_below", "failed_not_more", "made_capot_bid", "failed_capot_bid", "made_generale_bid",
    "failed_generale_bid", "made_classic", "failed_classic", "failed_equal", "made_capot",
    "failed_capot", "litige", "litige_unawarded", "ann_team", "ann_tie", "ann_ruling_none",
    "ann_ruling", "passed", "manual", "reserve_received", "coinched_points", "capot_bid_contract",
]  # fmt: skip


@dataclass(frozen=True, slots=True)
class Term:
    value: int
    label: TermLabel  # what the points are
    times: int = 1  # value = times × a single amount, shown as "2 × 100 contract"


@dataclass(frozen=True, slots=True)
class Formula:
    """`team`'s total or score: terms added up, times `multiplier`, then rounded."""

    key: Literal["total", "score"]
    team: int
    terms: tuple[Term, ...]
    multiplier: int = 1
    rounded: int | None = None  # None when rounding changed nothing

    @property
    def exact(self) -> int:
        return self.multiplier * sum(term.value for term in self.terms)

    @property
    def result(self) -> int:
        return self.exact if self.rounded is None else self.rounded


@dataclass(frozen=True, slots=True)
class Note:
    key: NoteKey  # what happened
    team: int | None = None
    points: int | None = None
    other: int | None = None
    contract: int | str | None = None
    trump: str | None = None
    coinche: str | None = None
    items: tuple[Announcement, ...] = ()


Line = Formula | Note
