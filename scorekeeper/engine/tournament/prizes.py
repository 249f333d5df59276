"""The prizes of a ranking (issue 22): who gets which prize when entrants share a rank.

Standings share a rank among equal entrants (1, 1, 3: docs/tournaments.md §3). A group of k entrants
at rank r covers the places r to r + k − 1: the prizes of those places are theirs to share out
(the organiser decides who takes which), so no prize is given twice and none is dropped (before,
both tied firsts showed the first prize and the second went to nobody). An entrant alone at its
rank gets that rank's prize. Every page, print and file that shows prizes reads them here.
Pure: no Django."""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Award:
    """What one entrant of a ranking gets: `prize`, its own (alone at its rank); or `shared`,
    the prizes its tied group shares out (ex æquo on a prize rank), in rank order."""

    prize: str = ""
    shared: tuple[str, ...] = ()

    @property
    def ex_aequo(self) -> bool:
        return bool(self.shared)


def award_prizes(ranks: Sequence[int], prizes: Mapping[int, str]) -> list[Award]:
    """Each entrant's award, in the order of `ranks` (a ranking's ranks, as standings give
    them: equal entrants share the rank of the first of them); `prizes`: rank → prize (a rank
    missing, or an empty prize: none)."""
    sizes: dict[int, int] = {}
    for rank in ranks:
        sizes[rank] = sizes.get(rank, 0) + 1
    awards = []
    for rank in ranks:
        size = sizes[rank]
        if size == 1:
            awards.append(Award(prize=prizes.get(rank, "")))
            continue
        shared = tuple(prizes[place] for place in range(rank, rank + size) if prizes.get(place))
        awards.append(Award(shared=shared))
    return awards


def prize_table(stored: object) -> dict[int, str]:
    """A concours's prizes as stored (`{"1": "a ham"}`) by rank, anything else left out."""
    if not isinstance(stored, Mapping):
        return {}
    out = {}
    for rank, text in stored.items():
        key, value = str(rank), " ".join(str(text).split())
        if key.isascii() and key.isdecimal() and int(key) >= 1 and value:
            out[int(key)] = value
    return out
