"""How a score was reached, as data: what is added, to whom, and why.

The engine builds lines of data (no words), so the same result reads in any language and with the
real team names; the words are rendered outside the engine (`scorekeeper/web/words.py`).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .announcements import Announcement, Kind
from .cards import Rank

# The keys a Term's label and a Note's key take (each has words in `scorekeeper/web/words.py`).
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


# The key under which a deal row keeps its lines' data (Deal.texts in the web app).
STORED_BREAKDOWN = "breakdown"


def line_to_data(line: Line) -> dict[str, Any]:
    """A line as JSON-ready data (what a deal row keeps, in no language): `line_from_data` reads
    it back equal."""
    if isinstance(line, Formula):
        out: dict[str, Any] = {
            "formula": line.key,
            "team": line.team,
            "terms": [[term.value, term.label, term.times] for term in line.terms],
        }
        if line.multiplier != 1:
            out["multiplier"] = line.multiplier
        if line.rounded is not None:
            out["rounded"] = line.rounded
        return out
    note: dict[str, Any] = {"note": line.key}
    for name in ("team", "points", "other", "contract", "trump", "coinche"):
        value = getattr(line, name)
        if value is not None:
            note[name] = value
    if line.items:
        # A fourth value, False, for a top card not said (issue 22); older rows have three.
        note["items"] = [
            [item.kind.value, item.high.value, item.trump, *([] if item.said else [False])]
            for item in line.items
        ]
    return note


def line_from_data(data: Mapping[str, Any]) -> Line:
    """The line `line_to_data` wrote."""
    if "formula" in data:
        return Formula(
            key=data["formula"],
            team=data["team"],
            terms=tuple(Term(value, label, times) for value, label, times in data["terms"]),
            multiplier=data.get("multiplier", 1),
            rounded=data.get("rounded"),
        )
    return Note(
        key=data["note"],
        team=data.get("team"),
        points=data.get("points"),
        other=data.get("other"),
        contract=data.get("contract"),
        trump=data.get("trump"),
        coinche=data.get("coinche"),
        items=tuple(
            Announcement(Kind(item[0]), Rank(item[1]), item[2], *item[3:])
            for item in data.get("items", ())
        ),
    )
