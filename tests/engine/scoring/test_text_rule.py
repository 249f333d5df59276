"""Issue 23: the one rule of every free text (engine/scoring/free_text.py, `text_fault`): what it refuses and
what it keeps, for a name, a line of text and a note."""

import pytest

from scorekeeper.engine.scoring.free_text import DIRECTION_CONTROLS, TextFault, TextKind, text_fault

KINDS: tuple[TextKind, ...] = ("name", "text", "note")

# Texts people write: accents, ligatures, curly quotes, guillemets with no-break spaces, emoji
# (a family joined by zero-width joiners, a flag, a skin tone), Arabic and Hebrew letters (they
# read right to left by themselves: no control needed), a joiner among letters.
LEGITIMATE = [
    "Salle des fêtes",
    "L’Œuf d’or ‘Cœur’",
    "« Les As »\u00a0!",
    "Ren\u00e9e & Zoë",
    "👨\u200d👩\u200d👧 la famille",
    "🇫🇷 Pique 🃏",
    "👍🏽",
    "نادي البلوت",
    "שלום",
    "Chlo\u200dé",
    "Saint\u2011Étienne",  # a no-break hyphen
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("text", LEGITIMATE)
def test_what_people_write_is_kept(kind: TextKind, text: str) -> None:
    assert text_fault(text, kind) is None


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("char", sorted(DIRECTION_CONTROLS))
def test_every_direction_control_is_refused(kind: TextKind, char: str) -> None:
    assert text_fault(f"Salle{char} des fêtes", kind) == TextFault(
        "direction_control", f"U+{ord(char):04X}"
    )


def test_the_direction_controls_are_those_of_the_issue() -> None:
    marks = {"\u200e", "\u200f", "\u061c"}
    expected = {*map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A)), *marks}
    assert expected == DIRECTION_CONTROLS


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\x7f", "\x85", "\x9b", "\r", "\x0b"])
def test_control_characters_are_refused(kind: TextKind, char: str) -> None:
    assert text_fault(f"a{char}b", kind) == TextFault("control_character", f"U+{ord(char):04X}")


@pytest.mark.parametrize("text", ["a\tb", "line 1\nline 2", "line 1\r\nline 2\r\n", "\tindent"])
def test_a_note_may_hold_tabs_and_line_breaks(text: str) -> None:
    assert text_fault(text, "note") is None
    assert text_fault(text, "text") is not None
    assert text_fault(text, "name") is not None


def test_a_carriage_return_alone_is_refused_in_a_note() -> None:
    assert text_fault("a\rb", "note") == TextFault("control_character", "U+000D")
    assert text_fault("a\n\rb", "note") == TextFault("control_character", "U+000D")


@pytest.mark.parametrize("kind", KINDS)
def test_broken_characters_are_refused(kind: TextKind) -> None:
    assert text_fault("Caf\ud800", kind) == TextFault("broken_character", "U+D800")
    assert text_fault("Caf\udfff", kind) == TextFault("broken_character", "U+DFFF")
    # What a decoder puts for bytes it cannot read (a form body's %ED%A0%80).
    assert text_fault("Caf\ufffd", kind) == TextFault("replacement_character", "U+FFFD")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "text", ["\u200b", "\u200c\u200d", " \u2060 ", "\ufeff", "\u200b \u200b", "\u3164", "\u00ad"]
)
def test_a_text_of_only_invisible_characters_is_refused(kind: TextKind, text: str) -> None:
    assert text_fault(text, kind) == TextFault("invisible")


def test_an_empty_text_is_refused_only_as_a_name() -> None:
    for blank in ("", "   "):
        assert text_fault(blank, "name") == TextFault("empty")
        assert text_fault(blank, "text") is None
        assert text_fault(blank, "note") is None
    assert text_fault("\n\t", "note") is None


def test_the_first_fault_is_said() -> None:
    assert text_fault("\u202e\x00", "text") == TextFault("direction_control", "U+202E")
    assert text_fault("\u200b\x07", "name") == TextFault("control_character", "U+0007")
    assert TextFault("invisible").params == {}
    assert TextFault("control_character", "U+0007").params == {"char": "U+0007"}
