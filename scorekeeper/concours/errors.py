"""The one error type of the tournament engine: where (`rounds[1].tables[2].sides[0]`), a stable
`code` and its `params` (plain values). Words for people are rendered outside this package
(`scorekeeper/tournaments/texts.py`), from the code and the params."""

from ..scoring import InvalidInput

Param = str | int | float | bool | None


class TournamentError(InvalidInput):
    """Input the tournament rules do not allow. A subclass of the scoring engine's InvalidInput,
    so a caller catches one type for both engines; `message` holds the code (the scoring engine's
    own message for a wrapped scoring error, code `"scoring"`)."""

    def __init__(self, path: str, code: str, **params: Param) -> None:
        message = params["message"] if code == "scoring" else code
        super().__init__(path, str(message))
        self.code = code
        self.params = params

    def under(self, prefix: str) -> "TournamentError":
        """The same error seen from an enclosing object (`sides[0]` under `rounds[1].tables[2]`)."""
        if not prefix:
            return self
        joiner = "" if self.path.startswith("[") or not self.path else "."
        return TournamentError(f"{prefix}{joiner}{self.path}", self.code, **self.params)


def from_scoring(error: InvalidInput, prefix: str) -> TournamentError:
    """A scoring-engine error (a table's deals, the partie rules, a name) as a tournament error,
    its path prefixed; the engine's message is kept as the `message` param."""
    if isinstance(error, TournamentError):
        return error.under(prefix)
    return TournamentError(error.path, "scoring", message=error.message).under(prefix)
