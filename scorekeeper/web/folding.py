"""Names compared as a reader compares them: `fold(text)` sets case, accents, ligatures and
extra spaces aside ("Cœur", "COEUR" and "coeur" are one; "Trèfle" is "trefle"; "Straße" is
"strasse"). One rule for every search and comparison of names: the club's merge tool and Find,
a concours's Find my table. Project-level: imports no app."""

import re
import unicodedata

# Letters that Unicode does not decompose into a base letter and a mark (NFKD leaves them
# whole), written as a French or German reader would type them without the key.
_LETTERS = str.maketrans(
    {
        "œ": "oe",
        "æ": "ae",
        "ø": "o",
        "ł": "l",
        "đ": "d",
        "ð": "d",
        "þ": "th",
        "ħ": "h",
        "ı": "i",
        "ŀ": "l",
        "ŧ": "t",
        # Apostrophes as phones and word processors write them.
        "’": "'",
        "‘": "'",
        "ʼ": "'",
        "`": "'",
        "´": "'",
    }
)
_SPACES = re.compile(r"\s+")


def fold(text: str) -> str:
    """`text` case-folded (ß is ss), its ligatures and special letters spelled out (œ is oe, æ
    is ae, ø is o, ł is l), its accents dropped, its spaces collapsed and trimmed. Punctuation
    stays ("jean-rene")."""
    plain = unicodedata.normalize("NFKD", text.casefold().translate(_LETTERS))
    bare = "".join(c for c in plain if not unicodedata.combining(c))
    return _SPACES.sub(" ", bare.translate(_LETTERS)).strip()
