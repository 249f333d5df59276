"""What the match forms share: number inputs, the words of a hidden field altered, and choices
ready to render."""

from typing import Any

from django.utils.choices import BaseChoiceIterator
from django.utils.translation import gettext_lazy as _

# Number inputs: every phone shows its digit keypad, and no browser offers old values.
NUMERIC = {"inputmode": "numeric", "autocomplete": "off"}


# The hidden fields of the deal and manual forms are never typed: an error there means the page
# was altered or is broken, so it is said in words rather than as a field nobody can see.
STALE_FORM = _("This form was altered outside the app: go back to the scoreboard and try again.")


HIDDEN_ERRORS = {
    "required": STALE_FORM,
    "invalid": STALE_FORM,
    "max_length": STALE_FORM,
    "min_value": STALE_FORM,
    "max_value": STALE_FORM,
}


class Ready(BaseChoiceIterator):
    """Choices already in Django's normal form, (value, label) pairs, handed to a field and its
    widget as they are. A plain list is normalised again for the field and once more for the
    widget, each time a form is built: 800 calls per deal cycle, 5 % of the server's CPU."""

    def __init__(self, pairs: Any) -> None:
        self.pairs: list[tuple[str, Any]] = list(pairs)

    def __iter__(self) -> Any:
        return iter(self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)
