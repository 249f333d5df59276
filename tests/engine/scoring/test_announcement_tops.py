"""docs/rules.md §2, announcements: which missing top cards of sequences decide whose announcements
count (scoring/announcements.py `deciding_tops`), and what is recorded when they decide nothing
(`with_lowest_tops`). The deal form asks a sequence's top card only when it decides.

A row: team 0's and team 1's announcements written as "tierce?" (top card not given), "tierce K",
"tierce* A" (in the trump suit), "carre J"; the contract; the resolution; and the missing top
cards that decide, as (team, index in the team's announcements)."""

import pytest

from scorekeeper.engine.scoring import Announcement, Kind, Rank, Trump
from scorekeeper.engine.scoring.announcements import (
    Declared,
    DeclaredTeams,
    Resolution,
    deciding_tops,
    lowest_top,
    resolve,
    with_lowest_tops,
)

RANKS = {"7": Rank.SEVEN, "8": Rank.EIGHT, "9": Rank.NINE, "10": Rank.TEN, "J": Rank.JACK,
         "Q": Rank.QUEEN, "K": Rank.KING, "A": Rank.ACE}  # fmt: skip


def one(text: str) -> Declared:
    name, _, top = text.partition(" ")
    trump = "*" in name
    name = name.replace("*", "")
    if name.endswith("?"):
        return Declared(Kind(name[:-1]), None, trump)
    return Declared(Kind(name), RANKS[top], trump)


def teams(team0: str, team1: str) -> DeclaredTeams:
    def parse(text: str) -> tuple[Declared, ...]:
        return tuple(one(item.strip()) for item in text.split(",") if item.strip())

    return (parse(team0), parse(team1))


SPADES, NO_TRUMP = Trump.SPADES, Trump.NO_TRUMP
BEST: Resolution = "best_team"
BY_KIND: Resolution = "by_kind"

CASES: list[tuple[str, str, str, Trump, Resolution, set[tuple[int, int]]]] = [
    # (why, team 0, team 1, contract, resolution, deciding)
    ("every top card given", "tierce K", "tierce Q", SPADES, BEST, set()),
    ("alone: its announcements count whatever the top", "tierce?", "", SPADES, BEST, set()),
    ("higher top card wins at equal value", "tierce?", "tierce K", SPADES, BEST, {(0, 0)}),
    ("both unknown: both decide", "tierce?", "tierce?", SPADES, BEST, {(0, 0), (1, 0)}),
    ("higher value wins first: a quarte beats any tierce", "tierce?", "quarte K", SPADES, BEST,
     set()),
    ("still higher value, both unknown", "quarte?", "tierce?", SPADES, BEST, set()),
    ("equal top card: a tie counts nobody's, against the other's 20", "tierce?", "tierce A",
     SPADES, BEST, {(0, 0)}),
    ("then the trump sequence beats one that is not", "tierce*?", "tierce A", SPADES, BEST,
     {(0, 0)}),
    ("a carré of jacks (200) beats any quinte (100)", "quinte?", "carre J", SPADES, BEST, set()),
    ("at equal value a carré beats a sequence", "quinte?", "carre K", SPADES, BEST, set()),
    ("the team's best announcement decides, not its others", "tierce?, quarte K", "quarte Q",
     SPADES, BEST, set()),
    ("sans atout: two quintes, the top card decides", "quinte?", "quinte K", NO_TRUMP, BEST,
     {(0, 0)}),
    ("best team: the carré wins everything", "tierce?, carre K", "tierce Q", SPADES, BEST,
     set()),
    ("by kind: the sequences are a contest of their own", "tierce?, carre K", "tierce Q", SPADES,
     BY_KIND, {(0, 0)}),
    ("by kind: a carré's contest is not changed by a sequence's top", "tierce?", "carre K, "
     "quarte J", SPADES, BY_KIND, set()),
]  # fmt: skip


@pytest.mark.parametrize(
    ("team0", "team1", "contract", "resolution", "deciding"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_which_top_cards_decide(
    team0: str,
    team1: str,
    contract: Trump,
    resolution: Resolution,
    deciding: set[tuple[int, int]],
) -> None:
    assert deciding_tops(teams(team0, team1), contract, resolution) == deciding


@pytest.mark.parametrize(
    ("team0", "team1", "contract", "resolution"),
    [case[1:5] for case in CASES if not case[5]],
    ids=[case[0] for case in CASES if not case[5]],
)
def test_a_top_card_that_decides_nothing_scores_the_same_at_any_height(
    team0: str, team1: str, contract: Trump, resolution: Resolution
) -> None:
    declared = teams(team0, team1)
    lowest = resolve(with_lowest_tops(declared), contract, resolution).points
    highest = tuple(
        tuple(Announcement(d.kind, d.high or Rank.ACE, d.trump) for d in items)
        for items in declared
    )
    assert resolve((highest[0], highest[1]), contract, resolution).points == lowest


def test_the_lowest_top_cards() -> None:
    """7 8 9 10 J Q K A: a tierce ends at the 9 at least, a quarte at the 10, a quinte at the J."""
    assert lowest_top(Kind.TIERCE) is Rank.NINE
    assert lowest_top(Kind.QUARTE) is Rank.TEN
    assert lowest_top(Kind.QUINTE) is Rank.JACK


def test_with_lowest_tops_keeps_what_was_given() -> None:
    declared = teams("tierce?, carre J", "quinte*?, quarte K")
    assert with_lowest_tops(declared) == (  # a top card filled in is marked not said (issue 22)
        (Announcement(Kind.TIERCE, Rank.NINE, said=False), Announcement(Kind.CARRE, Rank.JACK)),
        (
            Announcement(Kind.QUINTE, Rank.JACK, True, said=False),
            Announcement(Kind.QUARTE, Rank.KING),
        ),
    )


def test_no_announcements() -> None:
    assert deciding_tops(((), ()), SPADES, BEST) == frozenset()
    assert with_lowest_tops(((), ())) == ((), ())
