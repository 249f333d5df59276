"""A concours's words in templates: a place in a ranking ("3rd", in French "3e"), a standings
row's figure by its column, the criterion that broke a tie."""

from collections.abc import Mapping

from django import template
from django.utils.translation import pgettext

from ..words import criterion_words

register = template.Library()


@register.filter
def figure(row: Mapping[str, object], key: str) -> object:
    """A standings row's figure named by a column's key (words.Column), "" when it has none."""
    return row.get(key, "")


@register.filter
def criterion(code: str | None) -> str:
    """The criterion that broke a tie, in words ("head to head"); "" for none."""
    return criterion_words(code)


@register.filter
def place(rank: object) -> str:
    """A final place as an ordinal in the active language: 1st, 2nd, 3rd, 4th, 11th, 21st (in
    French 1er, 2e, 3e...); anything but a positive whole number is left as it is."""
    if not isinstance(rank, int) or isinstance(rank, bool) or rank < 1:
        return "" if rank is None else str(rank)
    if rank == 1:
        return pgettext("place in a ranking", "1st")
    if rank % 100 in (11, 12, 13):
        text = pgettext("place in a ranking", "%(n)sth")
    elif rank % 10 == 1:
        text = pgettext("place in a ranking", "%(n)sst")
    elif rank % 10 == 2:
        text = pgettext("place in a ranking", "%(n)snd")
    elif rank % 10 == 3:
        text = pgettext("place in a ranking", "%(n)srd")
    else:
        text = pgettext("place in a ranking", "%(n)sth")
    return text % {"n": rank}
