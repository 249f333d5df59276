"""Card values of docs/rules.md §1, for the card-counting helper and for checks."""

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

DIX_DE_DER = 10
TOTAL_CARD_POINTS = 162  # 152 in the cards + 10 for the last trick, whatever the contract


class Rank(StrEnum):
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"
    ACE = "A"


class Suit(StrEnum):
    SPADES = "spades"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"
    CLUBS = "clubs"


class Trump(StrEnum):
    """What a contract is played in: a suit, sans atout or tout atout."""

    SPADES = "spades"
    HEARTS = "hearts"
    DIAMONDS = "diamonds"
    CLUBS = "clubs"
    NO_TRUMP = "no_trump"
    ALL_TRUMP = "all_trump"

    @property
    def is_suit(self) -> bool:
        return self not in (Trump.NO_TRUMP, Trump.ALL_TRUMP)


# Sequence order, lowest first (docs/rules.md §2).
SEQUENCE_ORDER: tuple[Rank, ...] = tuple(Rank)
SUIT_SYMBOLS = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}

CardTable = Literal["trump", "plain", "no_trump", "all_trump"]

CARD_VALUES: dict[CardTable, dict[Rank, int]] = {
    "trump": {Rank.JACK: 20, Rank.NINE: 14, Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4,
              Rank.QUEEN: 3, Rank.EIGHT: 0, Rank.SEVEN: 0},
    "plain": {Rank.JACK: 2, Rank.NINE: 0, Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4,
              Rank.QUEEN: 3, Rank.EIGHT: 0, Rank.SEVEN: 0},
    "no_trump": {Rank.JACK: 2, Rank.NINE: 0, Rank.ACE: 19, Rank.TEN: 10, Rank.KING: 4,
                 Rank.QUEEN: 3, Rank.EIGHT: 0, Rank.SEVEN: 0},
    "all_trump": {Rank.JACK: 13, Rank.NINE: 9, Rank.ACE: 6, Rank.TEN: 5, Rank.KING: 3,
                  Rank.QUEEN: 2, Rank.EIGHT: 0, Rank.SEVEN: 0},
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Card:
    rank: Rank
    suit: Suit


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in Rank)


def card_table(suit: Suit, trump: Trump) -> CardTable:
    """Which row of the §1 table a card of `suit` is worth in a contract played in `trump`."""
    if trump is Trump.NO_TRUMP:
        return "no_trump"
    if trump is Trump.ALL_TRUMP:
        return "all_trump"
    return "trump" if suit.value == trump.value else "plain"


def card_value(card: Card, trump: Trump) -> int:
    return CARD_VALUES[card_table(card.suit, trump)][card.rank]


def count_points(cards: Iterable[Card], trump: Trump, *, last_trick: bool) -> int:
    """Card points of the cards a team won, plus the dix de der if it took the last trick."""
    return sum(card_value(card, trump) for card in cards) + (DIX_DE_DER if last_trick else 0)
