"""The card-counting helper's form (matches/forms.py CountCardsForm): what the taps count, and
that nothing is refused (a value it does not know is left out, the defaults apply)."""

from dataclasses import replace

from django.http import QueryDict

from scorekeeper.engine.scoring import Trump, get_preset
from scorekeeper.matches.forms import CountCardsForm


def form(query: str, *, takers: str | None = None, preset: str = "coinche") -> CountCardsForm:
    return CountCardsForm(QueryDict(query), rules=get_preset(preset), takers=takers)


def test_nothing_tapped() -> None:
    empty = form("")
    assert empty.is_valid()
    assert empty.trump_value is Trump.SPADES
    assert empty.cards == [] and not empty.with_last_trick and empty.total == 0
    assert empty.won_by_team == "0"
    assert empty.points("0") == (0, 162)


def test_trump_cards_and_last_trick_count() -> None:
    counted = form("trump=hearts&card=J-hearts&card=9-hearts&card=A-spades&last_trick=on")
    assert counted.trump_value is Trump.HEARTS
    assert counted.picked == {"J-hearts", "9-hearts", "A-spades"}
    assert counted.total == 20 + 14 + 11 + 10
    assert counted.with_last_trick


def test_the_total_goes_to_the_team_that_won_the_cards() -> None:
    won = form("card=A-spades&won_by=1", takers="0")
    assert won.won_by_team == "1"
    assert won.points("0") == (162 - 11, 11)  # the defence's 11: the takers get the rest
    assert form("card=A-spades", takers="1").won_by_team == "1"  # the takers by default


def test_unknown_values_are_left_out_not_refused() -> None:
    forged = form("trump=stars&card=Z-hearts&card=A-spades&won_by=7")
    assert forged.is_valid()
    assert forged.trump_value is Trump.SPADES
    assert forged.picked == {"A-spades"}
    assert forged.won_by_team == "0"


def test_sans_atout_and_tout_atout_only_where_the_rules_allow_them() -> None:
    rules = get_preset("coinche")
    with_them = CountCardsForm(
        QueryDict("trump=no_trump"), rules=replace(rules, sa_ta=True), takers=None
    )
    without = CountCardsForm(
        QueryDict("trump=no_trump"), rules=replace(rules, sa_ta=False), takers=None
    )
    assert with_them.trump_value is Trump.NO_TRUMP
    assert without.trump_value is Trump.SPADES
    assert [t.value for t in without.trumps] == ["spades", "hearts", "diamonds", "clubs"]
