"""Names folded as a reader compares them (issue 22: Find my table found nothing for "trefle")."""

import pytest

from scorekeeper.web.folding import fold


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
