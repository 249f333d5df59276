"""Names folded as a reader compares them (issue 22: Find my table found nothing for "trefle"),
and found by their words in any order, hyphens as spaces (issue 42: "saint jean" found nothing)."""

from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.web.folding import finds, fold, name_words, word_key


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("trefle", "Trèfle"),
        ("rene dupont", "René Dupont"),
        ("RENE  DUPONT ", "René Dupont"),
        ("coeur", "Cœur"),
        ("ecureuils", "Écureuils"),
        ("aeschylus", "Æschylus"),
        ("strasse", "Straße"),
        ("noel", "Noël"),
    ],
)
def test_fold(typed: str, name: str) -> None:
    assert fold(typed) == fold(name)


def test_fold_keeps_what_differs() -> None:
    assert fold("Les As") != fold("Les Rois")
    assert fold("Cœur") == "coeur" and fold("  Pique   Dame ") == "pique dame"


# Issue 42: a search finds a name by its words, hyphens as spaces, in any order ----------------

NAMES = ["Saint-Jean-de-Luz", "René Dupont", "Trèfle d'Or", "Alice & Bruno", "Les As", "Cœur"]


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("saint jean", ["Saint-Jean-de-Luz"]),
        ("jean saint", ["Saint-Jean-de-Luz"]),
        ("saint-jean", ["Saint-Jean-de-Luz"]),
        ("Luz  SAINT", ["Saint-Jean-de-Luz"]),
        ("dupont rene", ["René Dupont"]),
        ("rene dupont", ["René Dupont"]),
        ("dup ren", ["René Dupont"]),  # parts of words, as before
        ("trefle d'or", ["Trèfle d'Or"]),
        ("trefle dor", ["Trèfle d'Or"]),
        ("or", ["Trèfle d'Or"]),
        ("bruno alice", ["Alice & Bruno"]),
        ("coeur", ["Cœur"]),
        ("saint paul", []),  # every word typed must be there
        ("dupont rené jean", []),
        ("", []),
        ("  - ", []),
    ],
)
def test_finds_every_word_typed_in_any_order(typed: str, found: list[str]) -> None:
    wanted = name_words(typed)
    assert [name for name in NAMES if finds(wanted, name_words(name))] == found


def test_name_words_and_word_key() -> None:
    assert name_words("Saint-Jean-de-Luz") == ("saint", "jean", "de", "luz")
    assert name_words("  Trèfle  d’Or ") == ("trefle", "dor")
    assert name_words("Jean–René") == ("jean", "rene")  # an en dash too
    assert word_key("Dupont Jean") == word_key("jean-dupont") == word_key("JEAN DUPONT")
    assert word_key("Jean Dupont") != word_key("Jean Dupond")


WORD = st.text(st.characters(categories=["L", "Nd"]), min_size=1, max_size=8)


@given(st.lists(WORD, min_size=1, max_size=5), st.randoms(use_true_random=False))
def test_a_name_is_found_by_its_own_words_in_any_order(words: list[str], rng: Random) -> None:
    """Property: a name written with spaces or hyphens is found by its words typed in any order,
    in any case, and has the same word key whatever the order."""
    name = "-".join(words[:2]) + " " + " ".join(words[2:])
    typed = list(words)
    rng.shuffle(typed)
    typed_text = " ".join(typed).upper()
    assert finds(name_words(typed_text), name_words(name)) or not name_words(name)
    assert word_key(" ".join(typed)) == word_key(name)
