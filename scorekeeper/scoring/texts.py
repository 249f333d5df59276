"""What a name or a note may hold: no control character (PostgreSQL cannot store NUL; an escape
sequence or a bell has no place in a name), no lone surrogate (half of a character, which no
encoding can write), and a name must show something (only spaces, zero-width spaces and other
invisible characters count as empty). Used by the match file parser and by the web forms."""

import unicodedata

from .errors import InvalidInput

# Allowed in notes only: a note written in a text editor may hold a tab or a line break.
NOTE_CONTROLS = frozenset("\t\n")
# Characters that draw nothing though Unicode does not class them as spaces or format characters:
# combining grapheme joiner, Hangul fillers, braille blank, Mongolian vowel separator, and the
# variation selectors (which only change the look of the character before them).
_BLANK_LOOKING = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180e\u2800\u3164\uffa0") | frozenset(
    map(chr, [*range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])
)


def bad_character(text: str, *, allowed: frozenset[str] = frozenset()) -> str | None:
    """The first character of `text` that no text may hold (a control character or a lone
    surrogate, except those `allowed`), or `None`."""
    for char in text:
        if char not in allowed and unicodedata.category(char) in ("Cc", "Cs"):
            return char  # Cc: C0 (NUL included), DEL and C1 controls; Cs: lone surrogates
    return None


def _refuse(char: str, path: str) -> InvalidInput:
    code = f"U+{ord(char):04X}"
    if unicodedata.category(char) == "Cs":
        return InvalidInput(path, "broken_character", char=code)
    return InvalidInput(path, "control_character", char=code)


def is_invisible(text: str) -> bool:
    """Whether `text` draws nothing: spaces, format characters (zero-width spaces and joiners,
    word joiner, byte order mark, soft hyphen, bidirectional marks...) and blank-looking ones."""
    return all(
        char.isspace() or char in _BLANK_LOOKING or unicodedata.category(char) == "Cf"
        for char in text
    )


def check_name(value: str, path: str) -> str:
    """A team or player name, stripped; InvalidInput at `path` if it cannot be one."""
    char = bad_character(value)
    if char is not None:
        raise _refuse(char, path)
    text = value.strip()
    if not text:
        raise InvalidInput(path, "empty")
    if is_invisible(text):
        raise InvalidInput(path, "invisible")
    return text


def check_note(value: str, path: str) -> str:
    """A note, stripped (it may be empty, and hold tabs and line breaks)."""
    char = bad_character(value, allowed=NOTE_CONTROLS)
    if char is not None:
        raise _refuse(char, path)
    return value.strip()
