"""The card-counting helper: the cards a team won, tapped, and their points."""

from typing import Any, cast

from django import forms

from scorekeeper.engine.scoring import CARD_VALUES, DECK, Card, Rules, Suit, Trump, count_points
from scorekeeper.engine.scoring.cards import TOTAL_CARD_POINTS, card_table


class KnownChoice(forms.ChoiceField):
    """A choice that is never refused: a value it does not know (a stale or forged link) is
    taken as none, and the form's default applies."""

    def to_python(self, value: Any) -> str:
        text = super().to_python(value)
        return text if self.valid_value(text) else ""


class KnownChoices(forms.MultipleChoiceField):
    """Several choices; values it does not know are left out."""

    def to_python(self, value: Any) -> list[str]:
        return [text for text in super().to_python(value) if self.valid_value(text)]


def card_code(card: Card) -> str:
    """A card as the helper's URLs name it: "J-hearts"."""
    return f"{card.rank.value}-{card.suit.value}"


class CountCardsForm(forms.Form):
    """The card-counting helper's taps (a link's query, or htmx's POST as they change): the
    trump, the cards a team won, the last trick, and which team won them. Nothing is refused;
    `takers` (the deal form's, "0", "1" or None) is the team the total goes to by default."""

    trump = KnownChoice(required=False)
    card = KnownChoices(required=False)
    last_trick = forms.BooleanField(required=False)
    won_by = KnownChoice(choices=[("0", "0"), ("1", "1")], required=False)

    def __init__(self, data: Any, *, rules: Rules, takers: str | None) -> None:
        super().__init__(data)
        self.trumps = [t for t in Trump if t.is_suit or rules.sa_ta]
        cast(KnownChoice, self.fields["trump"]).choices = [(t.value, t.value) for t in self.trumps]
        codes = [(card_code(card), card_code(card)) for card in DECK]
        cast(KnownChoices, self.fields["card"]).choices = codes
        self.takers = takers
        self.full_clean()  # never refused: see the fields

    @property
    def trump_value(self) -> Trump:
        chosen = self.cleaned_data.get("trump")
        return Trump(chosen) if chosen else Trump.SPADES

    @property
    def picked(self) -> set[str]:
        return set(self.cleaned_data.get("card") or [])

    @property
    def cards(self) -> list[Card]:
        return [card for card in DECK if card_code(card) in self.picked]

    @property
    def with_last_trick(self) -> bool:
        return bool(self.cleaned_data.get("last_trick"))

    @property
    def total(self) -> int:
        return count_points(self.cards, self.trump_value, last_trick=self.with_last_trick)

    @property
    def won_by_team(self) -> str:
        """ "0" or "1": the team these cards went to (the takers when none is chosen)."""
        return self.cleaned_data.get("won_by") or self.takers or "0"

    def points(self, taker: str) -> tuple[int, int]:
        """The takers' and the defence's card points once the counted cards go to their team:
        the total (162 at most) to that team, the rest to the other."""
        counted = min(self.total, TOTAL_CARD_POINTS)
        takers_points = counted if self.won_by_team == taker else TOTAL_CARD_POINTS - counted
        return takers_points, TOTAL_CARD_POINTS - takers_points

    def suits(self) -> list[tuple[Suit, list[tuple[Card, str, int]]]]:
        """Each suit's cards, with their code and their value under the trump chosen."""
        trump = self.trump_value
        return [
            (
                suit,
                [
                    (card, card_code(card), CARD_VALUES[card_table(suit, trump)][card.rank])
                    for card in DECK
                    if card.suit == suit
                ],
            )
            for suit in Suit
        ]
