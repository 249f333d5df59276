"""Announcements (docs/rules.md §2): their values, how two of them compare, and which ones count."""

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import product
from typing import Literal

from .cards import SEQUENCE_ORDER, Rank, Trump
from .errors import InvalidInput


class Kind(StrEnum):
    TIERCE = "tierce"
    QUARTE = "quarte"
    QUINTE = "quinte"
    CARRE = "carre"


SEQUENCE_LENGTH = {Kind.TIERCE: 3, Kind.QUARTE: 4, Kind.QUINTE: 5}
SEQUENCE_VALUE = {Kind.TIERCE: 20, Kind.QUARTE: 50, Kind.QUINTE: 100}
CARRE_VALUE = {Rank.JACK: 200, Rank.NINE: 150, Rank.ACE: 100, Rank.TEN: 100, Rank.KING: 100,
               Rank.QUEEN: 100}  # fmt: skip
CARRE_VALUE_NO_TRUMP = {Rank.ACE: 200, Rank.TEN: 150, Rank.KING: 100, Rank.QUEEN: 100,
                        Rank.JACK: 100, Rank.NINE: 100}  # fmt: skip
# Carrés of equal value are ranked A 10 K Q J 9 (listed lowest first here).
CARRE_ORDER = (Rank.NINE, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.TEN, Rank.ACE)

Override = Literal[0, 1, "none"]
Resolution = Literal["best_team", "by_kind"]


@dataclass(frozen=True, slots=True)
class Announcement:
    kind: Kind
    high: Rank  # top card of a sequence, rank of a carré
    trump: bool = False  # a sequence in the trump suit
    # False: the table did not say a sequence's top card (it decided nothing, see deciding_tops);
    # `high` is then the lowest it can be, and words never name it ("tierce", not "tierce 9").
    said: bool = True

    @property
    def is_carre(self) -> bool:
        return self.kind is Kind.CARRE

    def check(self, contract: Trump) -> None:
        """Raise InvalidInput (path `high`, `trump`) if no hand can hold this announcement."""
        if self.is_carre:
            if self.high not in CARRE_VALUE:
                raise InvalidInput("high", "no_such_carre")
            if self.trump:
                raise InvalidInput("trump", "carre_in_trump")
            return
        if SEQUENCE_ORDER.index(self.high) < SEQUENCE_LENGTH[self.kind] - 1:
            raise InvalidInput(
                "high", "sequence_too_low", kind=self.kind.value, high=self.high.value
            )
        if self.trump and not contract.is_suit:
            raise InvalidInput("trump", "no_trump_suit")

    def value(self, contract: Trump) -> int:
        if self.is_carre:
            table = CARRE_VALUE_NO_TRUMP if contract is Trump.NO_TRUMP else CARRE_VALUE
            return table[self.high]
        return SEQUENCE_VALUE[self.kind]

    def strength(self, contract: Trump) -> tuple[int, int, int, int]:
        """Comparison key: value, then carré over sequence, then top card, then trump sequence."""
        top = CARRE_ORDER.index(self.high) if self.is_carre else SEQUENCE_ORDER.index(self.high)
        return (self.value(contract), int(self.is_carre), top, int(self.trump))


TeamAnnouncements = tuple[tuple[Announcement, ...], tuple[Announcement, ...]]


@dataclass(frozen=True, slots=True)
class Counted:
    """Which announcements count: the points per team, and how that was decided."""

    points: tuple[int, int]
    counted: TeamAnnouncements
    reason: Literal["none", "best", "tie", "ruling"]


def check_announcements(announcements: TeamAnnouncements, contract: Trump) -> None:
    seen_carres: set[Rank] = set()
    for team, items in enumerate(announcements):
        for i, item in enumerate(items):
            try:
                item.check(contract)
            except InvalidInput as error:
                raise error.under(f"[{team}][{i}]") from None
            if item.is_carre:
                if item.high in seen_carres:
                    raise InvalidInput(f"[{team}][{i}].high", "carre_twice", rank=item.high.value)
                seen_carres.add(item.high)


def _winner(
    announcements: TeamAnnouncements, contract: Trump, keep: Sequence[bool]
) -> int | Literal["tie"] | None:
    """The team holding the single best announcement among those kept, None if nobody has any."""
    bests = [
        max((a.strength(contract) for a in items if keep[int(a.is_carre)]), default=None)
        for items in announcements
    ]
    if bests[0] is None and bests[1] is None:
        return None
    if bests[1] is None or (bests[0] is not None and bests[0] > bests[1]):
        return 0
    if bests[0] is None or bests[1] > bests[0]:
        return 1
    return "tie"


def resolve(
    announcements: TeamAnnouncements,
    contract: Trump,
    resolution: Resolution,
    override: Override | None = None,
) -> Counted:
    """Apply §2: only the best team's announcements count (or by kind, or the table's ruling)."""
    counted: list[list[Announcement]] = [[], []]
    reason: Literal["none", "best", "tie", "ruling"] = "none"
    if override is not None:
        reason = "ruling"
        if override != "none":
            counted[override] = list(announcements[override])
    else:
        # best_team: one contest over everything; by_kind: sequences (0) and carrés (1) apart.
        contests = [(True, True)] if resolution == "best_team" else [(True, False), (False, True)]
        for keep in contests:
            winner = _winner(announcements, contract, keep)
            if winner == "tie":
                reason = "tie" if reason == "none" else reason
            elif winner is not None:
                reason = "best"
                counted[winner] += [a for a in announcements[winner] if keep[int(a.is_carre)]]
    c0, c1 = tuple(counted[0]), tuple(counted[1])
    points = (sum(a.value(contract) for a in c0), sum(a.value(contract) for a in c1))
    return Counted(points=points, counted=(c0, c1), reason=reason)


@dataclass(frozen=True, slots=True)
class Declared:
    """An announcement as the table declares it: a sequence's top card may not be given yet
    (`high` None: only asked when it decides whose announcements count)."""

    kind: Kind
    high: Rank | None
    trump: bool = False


DeclaredTeams = tuple[tuple[Declared, ...], tuple[Declared, ...]]


def lowest_top(kind: Kind) -> Rank:
    """The lowest top card a sequence of this kind can have (a tierce's is the 9)."""
    return SEQUENCE_ORDER[SEQUENCE_LENGTH[kind] - 1]


def _with_tops(declared: DeclaredTeams, highest: dict[tuple[int, int], bool]) -> TeamAnnouncements:
    """The announcements with each missing top card at its lowest, or (True in `highest`) the
    ace."""
    teams: tuple[list[Announcement], list[Announcement]] = ([], [])
    for team, items in enumerate(declared):
        for i, item in enumerate(items):
            if item.high is None:
                high = Rank.ACE if highest[(team, i)] else lowest_top(item.kind)
                teams[team].append(Announcement(item.kind, high, item.trump, said=False))
            else:
                teams[team].append(Announcement(item.kind, item.high, item.trump))
    return (tuple(teams[0]), tuple(teams[1]))


def deciding_tops(
    declared: DeclaredTeams, contract: Trump, resolution: Resolution
) -> frozenset[tuple[int, int]]:
    """The missing top cards (as (team, index in the team's announcements)) that decide whose
    announcements count: flipping one alone between its lowest and the ace, the others at either
    extreme, changes the points that count. At most 2^n resolutions for n missing top cards
    (the deal form has at most six)."""
    missing = [(team, i) for team, items in enumerate(declared) for i, item in enumerate(items)
               if item.high is None]  # fmt: skip
    if not missing:
        return frozenset()
    outcomes = {
        combo: resolve(
            _with_tops(declared, dict(zip(missing, combo, strict=True))), contract, resolution
        ).points
        for combo in product((False, True), repeat=len(missing))
    }
    return frozenset(
        missing[i]
        for combo, points in outcomes.items()
        for i in range(len(missing))
        if outcomes[(*combo[:i], not combo[i], *combo[i + 1 :])] != points
    )


def with_lowest_tops(declared: DeclaredTeams) -> TeamAnnouncements:
    """The announcements to record: a top card not given takes the lowest possible one (when it
    decides nothing, see deciding_tops, any top card scores the same)."""
    return _with_tops(
        declared, {(team, i): False for team in (0, 1) for i in range(len(declared[team]))}
    )
