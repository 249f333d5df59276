"""The one error type of the tournament engine: where (`rounds[1].tables[2].sides[0]`), a stable
`code` and its `params` (plain values). Words for people are rendered outside this package
(`scorekeeper/web/words.py`), from the code and the params."""

from ..scoring import InvalidInput


class TournamentError(InvalidInput):
    """Input the tournament rules do not allow. A subclass of the scoring engine's InvalidInput
    (the same path, code and params), so a caller catches one type for both engines."""


def from_scoring(error: InvalidInput, prefix: str) -> TournamentError:
    """A scoring-engine error (a table's deals, the partie rules, a name) as a tournament error,
    its path prefixed; its code and params are kept."""
    if isinstance(error, TournamentError):
        return error.under(prefix)
    return TournamentError(error.path, error.code, **error.params).under(prefix)
