"""The one rule of every free text the app stores (issue 23): names, places, prizes, titles, notes,
a club's texts, typed in a form or read from a file (match file, concours file, club archive).

`text_fault(text, kind)` classifies a text and returns what is wrong with it as a code (the
engine holds no sentence: `scorekeeper/web/words.py` words the codes for files,
`scorekeeper/web/validators.py` for the forms), or None:

- `control_character`: a C0/C1 control or DEL (PostgreSQL cannot store NUL; an escape sequence
  or a bell has no place in a text), except a tab, a line break or a CR+LF in a note;
- `broken_character`: a lone surrogate (half of a character, which no encoding can write);
- `replacement_character`: U+FFFD, what a decoder puts for bytes it could not read (a form body
  with a percent-encoded lone surrogate reaches Django as it): the text is broken;
- `direction_control`: a bidirectional control (U+202A–U+202E embeddings and overrides, U+2066–
  U+2069 isolates, U+200E/U+200F and U+061C marks), which can make a text read backwards or
  reorder what follows it on a page;
- `empty` (a name only): nothing once spaces are set aside;
- `invisible`: only spaces and characters that draw nothing (zero-width spaces and joiners, word
  joiner, byte order mark, blank-looking fillers).

A zero-width joiner *among* letters or emoji (👨‍👩‍👧, Chlo‍é) is kept: only a text made of them
alone is refused."""

import unicodedata
from dataclasses import dataclass
from typing import Literal

from .errors import InvalidInput

# `name`: a single line that must show something (a team, a player, a concours, a club, a
# season); `text`: a single line that may be empty (a place, a prize, a town); `note`: several
# lines (a deal's note, a pasted list), which may hold tabs and line breaks.
TextKind = Literal["name", "text", "note"]

# Allowed in notes only: a note written in a text editor may hold a tab or a line break; a
# browser sends a textarea's line breaks as CR+LF (a CR alone stays refused).
NOTE_CONTROLS = frozenset("\t\n")
# Bidirectional controls: embeddings and overrides, isolates, and the three marks.
DIRECTION_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
)
REPLACEMENT = "\ufffd"
# Characters that draw nothing though Unicode does not class them as spaces or format characters:
# combining grapheme joiner, Hangul fillers, braille blank, Mongolian vowel separator, and the
# variation selectors (which only change the look of the character before them).
_BLANK_LOOKING = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0") | frozenset(
    map(chr, [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])
)


@dataclass(frozen=True)
class TextFault:
    """What is wrong with a text: a stable `code` and, for a character, its `U+XXXX`."""

    code: str
    char: str | None = None

    @property
    def params(self) -> dict[str, str]:
        return {} if self.char is None else {"char": self.char}


def _code_point(char: str) -> str:
    return f"U+{ord(char):04X}"


def _character_fault(text: str, kind: TextKind) -> TextFault | None:
    for index, char in enumerate(text):
        if kind == "note" and (
            char in NOTE_CONTROLS or (char == "\r" and text[index + 1 : index + 2] == "\n")
        ):
            continue
        category = unicodedata.category(char)
        if category == "Cc":  # C0 (NUL included), DEL and C1 controls
            return TextFault("control_character", _code_point(char))
        if category == "Cs":
            return TextFault("broken_character", _code_point(char))
        if char == REPLACEMENT:
            return TextFault("replacement_character", _code_point(char))
        if char in DIRECTION_CONTROLS:
            return TextFault("direction_control", _code_point(char))
    return None


def is_invisible(text: str) -> bool:
    """Whether `text` draws nothing: spaces, format characters (zero-width spaces and joiners,
    word joiner, byte order mark, soft hyphen...) and blank-looking ones."""
    return all(
        char.isspace() or char in _BLANK_LOOKING or unicodedata.category(char) == "Cf"
        for char in text
    )


def text_fault(text: str, kind: TextKind = "text") -> TextFault | None:
    """What is wrong with `text` as a text of `kind` (see the module), or None: the first bad
    character, then emptiness."""
    fault = _character_fault(text, kind)
    if fault is not None:
        return fault
    shown = text.strip()
    if not shown:
        return TextFault("empty") if kind == "name" else None
    if is_invisible(shown):
        return TextFault("invisible")
    return None


def check_text(value: str, path: str, kind: TextKind = "text") -> str:
    """`value` stripped; InvalidInput at `path` if `text_fault` finds something wrong."""
    fault = text_fault(value, kind)
    if fault is not None:
        raise InvalidInput(path, fault.code, **fault.params)
    return value.strip()


def check_name(value: str, path: str) -> str:
    """A team or player name, stripped; InvalidInput at `path` if it cannot be one."""
    return check_text(value, path, "name")


def check_note(value: str, path: str) -> str:
    """A note, stripped (it may be empty, and hold tabs and line breaks)."""
    return check_text(value, path, "note")
