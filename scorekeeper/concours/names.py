"""Names as a reader compares them (issue 22): "trefle" finds "Trèfle", "coeur" finds "Cœur",
"RENE  dupont" finds "René Dupont". Pure: no Django."""

import unicodedata

# Ligatures NFKD leaves whole (casefold already makes "ß" "ss").
LIGATURES = {"œ": "oe", "æ": "ae"}


def fold(text: str) -> str:
    """`text` with case, accents, ligatures and runs of spaces set aside ("  Cœur de  LION" and
    "coeur de lion" fold alike; "Écureuils" folds to "ecureuils")."""
    lowered = text.casefold()
    for ligature, letters in LIGATURES.items():
        lowered = lowered.replace(ligature, letters)
    bare = "".join(
        c for c in unicodedata.normalize("NFKD", lowered) if not unicodedata.combining(c)
    )
    return " ".join(bare.split())
