"""The one error type of the engine: where (a path such as `deals[3].taker_points`), a stable
`code` (`out_of_range`) and its `params` (plain values: `low=0, high=162`). The engine holds no
sentence: the words for people are rendered outside it, from the code and the params
(`scorekeeper/web/words.py`)."""

import unicodedata
from typing import Self

Param = str | int | float | bool | None


def printable(text: str) -> str:
    """`text` with every control character and lone surrogate written as an escape (`\\u0000`):
    a path may hold a key of the input, and a page or a JSON output must be able to show it."""
    if text.isprintable():
        return text
    return "".join(
        f"\\u{ord(char):04x}" if unicodedata.category(char) in ("Cc", "Cs") else char
        for char in text
    )


class InvalidInput(ValueError):
    """Input the rules do not allow. `path` names the offending field, `code` says why (a stable
    snake_case name), `params` the figures that go with it. `str()` shows all three, for logs."""

    def __init__(self, path: str, code: str, **params: Param) -> None:
        path = printable(path)
        self.path = path
        self.code = code
        self.params = params
        detail = code
        if params:
            detail += " (" + ", ".join(f"{key}={value!r}" for key, value in params.items()) + ")"
        super().__init__(printable(f"{path}: {detail}" if path else detail))

    def under(self, prefix: str) -> Self:
        """The same error seen from an enclosing object (`taker` under `deals[2]`)."""
        if not prefix:
            return self
        return type(self)(join_path(prefix, self.path), self.code, **self.params)


def join_path(prefix: str, path: str) -> str:
    """`path` seen from `prefix`: `deals[2]` + `taker` is `deals[2].taker`, + `[0]` is
    `deals[2][0]`."""
    if not path:
        return prefix
    joiner = "" if path.startswith("[") else "."
    return f"{prefix}{joiner}{path}"
