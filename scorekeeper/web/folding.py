"""Names compared as a reader compares them: `fold(text)` sets case, accents, ligatures and
extra spaces aside ("Cœur", "COEUR" and "coeur" are one; "Trèfle" is "trefle"; "Straße" is
"strasse"); `name_words(text)` are its words as a reader types them (hyphens as spaces,
punctuation left out), and `finds(wanted, name)` is a search: every word typed is in the name,
in any order ("saint jean" finds "Saint-Jean-de-Luz", "dupont rene" René Dupont). One rule for
every search and comparison of names: the club's merge tool and Find, a concours's desk search
and Find my table. Project-level: imports no app."""

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


# What parts words: spaces, hyphens and dashes (Saint-Jean-de-Luz), "&" and "/" (Alice & Bruno).
_SEPARATORS = re.compile(r"[\s\-‐‑‒–—―&/]+")


def name_words(text: str) -> tuple[str, ...]:
    """`text`'s words as a reader types them: folded (`fold`), parted at spaces, hyphens, "&" and
    "/", each kept to its letters and digits ("Saint-Jean-de-Luz" is saint, jean, de, luz;
    "Trèfle d'Or" is trefle, dor)."""
    words = ("".join(c for c in word if c.isalnum()) for word in _SEPARATORS.split(fold(text)))
    return tuple(word for word in words if word)


def word_key(text: str) -> str:
    """`text`'s words in order: one key for "Dupont Jean", "jean-dupont" and "Jean DUPONT"."""
    return " ".join(sorted(name_words(text)))


def finds(wanted: tuple[str, ...], words: tuple[str, ...]) -> bool:
    """Whether a name of `words` (`name_words`) holds every word `wanted` (`name_words` of what
    was typed), each inside one of its words, in any order: "saint jean", "jean-de" and "luz
    saint" find Saint-Jean-de-Luz; "dupont rene" and "ren dup" find René Dupont. Nothing typed
    finds nothing."""
    return bool(wanted) and all(any(part in word for word in words) for part in wanted)
