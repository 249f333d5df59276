"""The one error type of the engine: what is wrong, and where (a path such as `deals[3].taker_points`)."""

import unicodedata


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
    """Input the rules do not allow. `path` names the offending field, `message` says why."""

    def __init__(self, path: str, message: str) -> None:
        path = printable(path)
        super().__init__(f"{path}: {message}" if path else message)
        self.path = path
        self.message = message

    def under(self, prefix: str) -> "InvalidInput":
        """The same error seen from an enclosing object (`taker` under `deals[2]`)."""
        if not prefix:
            return self
        if not self.path:
            return InvalidInput(prefix, self.message)
        joiner = "" if self.path.startswith("[") else "."
        return InvalidInput(f"{prefix}{joiner}{self.path}", self.message)
