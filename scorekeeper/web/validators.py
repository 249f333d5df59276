"""The validators of every free text the app stores (issue 23): on each model text field a person
can type and on each form field, so what a form accepts a file (match file, concours file, club
archive) can carry back, and what a file may hold a form accepts. The rule is the engine's
(`engine/scoring/free_text.py`, `text_fault`); here it is said as a form says it, on the field.

- `validate_name`: a single line that must show something (a team, a player, a concours, a
  club, a season);
- `validate_text`: a single line that may be empty (a place, a town, a prize, a search);
- `validate_note`: several lines (a deal's note, a pasted list, the prizes' lines).

Stored rows are not touched: a text saved before these rules keeps its characters (see README,
"Text fields")."""

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.scoring.free_text import TextKind, text_fault

if TYPE_CHECKING:
    from django_stubs_ext import StrPromise as Promise

# A form's words for each code of `text_fault` (a file's are in words.ERRORS).
FORM_WORDS: "dict[str, Promise]" = {
    "control_character": _("Remove the control character (%(code)s): it cannot be shown."),
    "broken_character": _(
        "Remove the broken character (%(code)s): the text was damaged on its way. Type it again."
    ),
    "replacement_character": _(
        "Remove the broken character (%(code)s): the text was damaged on its way. Type it again."
    ),
    "direction_control": _(
        "Remove the direction control (%(code)s): it can make the text read backwards."
    ),
    "empty": _("Write a name that shows: this one has only spaces or invisible characters."),
    "invisible": _("Write a text that shows: this one has only spaces or invisible characters."),
}
NAME_INVISIBLE = FORM_WORDS["empty"]


def _validate(value: Any, kind: TextKind) -> None:
    if not isinstance(value, str):  # a JSON field's value, or None: not a text
        return
    fault = text_fault(value, kind)
    if fault is None:
        return
    code = fault.code
    words = NAME_INVISIBLE if kind == "name" and code == "invisible" else FORM_WORDS[code]
    raise ValidationError(words, code=code, params={"code": fault.char or ""})


def validate_name(value: Any) -> None:
    """A name: one line that shows something (an empty value is left to the field: Django
    runs no validator on it)."""
    _validate(value, "name")


def validate_text(value: Any) -> None:
    """One line of text, which may be empty."""
    _validate(value, "text")


def validate_note(value: Any) -> None:
    """Several lines: tabs and line breaks (a browser's CR+LF too) allowed."""
    _validate(value, "note")


def validate_prizes(value: Any) -> None:
    """A concours's prizes as stored ({"1": "a ham"}): each a line of text."""
    if isinstance(value, dict):
        for text in value.values():
            validate_text(text)
