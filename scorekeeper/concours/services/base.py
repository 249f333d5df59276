"""What every write of a concours shares: its refusal (`Refused`), the limits on names and
seeds, and the key owning its table matches. (A change standings readers notice is
`Tournament.touch`.)"""

from typing import Any

from ..models import Tournament
from ..selectors import CONCOURS_KEY

MAX_NAME = 60
SEED_LIMIT = 2**31


class Refused(Exception):
    """A change the concours's state does not allow: a stable `code` and plain `params`."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def match_owner_key(tournament: Tournament) -> str:
    """The key owning a concours's table matches (and its players' names): never a browser's
    (the organiser's account owns them through Match.owner: see _create_match)."""
    return f"{CONCOURS_KEY}{tournament.pk}"
