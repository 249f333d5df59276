"""The matches app's one extension point, for an app that holds some matches (a concours holds
its tables' matches: `Match.in_concours`). The matches app imports none of them: the holder's
implementation is named by the setting `MATCH_HOOKS` (a dotted path to a class built with no
argument, see concours/match_hooks.py) and loaded once, with `import_string`.

It is asked about held matches only (`in_concours`):

- `check_write(match, author=..., action=...)`: inside every write service's transaction, right
  after the match row is locked, before anything changes (add, edit, delete, undo, redo; an "All
  passed" or a manual score is an add). It raises `WriteRefused(reason, words)` to refuse the
  change: nothing is written, and the page says its words.
- `after_write(match)`: in the same transaction, once the deals are saved and the match
  re-scored (its cached totals, status and version are the new ones), so the holder stores what
  follows from the change with it (a table's result). It may renew the match's scorer link
  (`services.revoke_scorer_links`) and then sets the new `scorer_token` and `version` on `match`.
- `board_note(request, board)`: what the scoreboard says about where the match belongs (the
  table's header, "Result sent to the organiser") and whether it is shown read-only. It reads,
  never writes (GET pages write nothing).
- `organiser(request, match)`: whether this browser runs the holder (a concours's desk: its
  owner, or a co-organiser link): it writes as the match's owner (`Author.owner`), and keeps
  writing when a scorer link is renewed.

Without the setting, nothing is held: every check passes and no note is shown."""

from functools import cache
from typing import TYPE_CHECKING, Protocol

from django.conf import settings
from django.http import HttpRequest
from django.utils.module_loading import import_string

from .models import Match

if TYPE_CHECKING:  # the services and the board import this module
    from .board import Board, BoardNote
    from .services import Author


class WriteRefused(Exception):
    """A write the match's state does not allow, raised before anything changed: `reason` is a
    stable code, `words` what the page says (the holder words its own reasons, in the active
    language; empty: the matches app's words for its own codes, see views.py)."""

    def __init__(self, reason: str, words: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.words = words


class MatchHooks(Protocol):
    def check_write(self, match: Match, *, author: "Author", action: str) -> None: ...

    def after_write(self, match: Match) -> None: ...

    def board_note(self, request: HttpRequest, board: "Board") -> "BoardNote | None": ...

    def organiser(self, request: HttpRequest, match: Match) -> bool: ...


# The actions `check_write` is told (an "All passed" and a manual score are adds).
ADD, EDIT, DELETE, UNDO, REDO = "add", "edit", "delete", "undo", "redo"


class NoHooks:
    """No app holds any match."""

    def check_write(self, match: Match, *, author: "Author", action: str) -> None:
        return None

    def after_write(self, match: Match) -> None:
        return None

    def board_note(self, request: HttpRequest, board: "Board") -> "BoardNote | None":
        return None

    def organiser(self, request: HttpRequest, match: Match) -> bool:
        return False


@cache
def _load(path: str) -> MatchHooks:
    hooks: MatchHooks = import_string(path)()
    return hooks


def hooks() -> MatchHooks:
    """The holder's hooks (settings.MATCH_HOOKS), built once."""
    path = getattr(settings, "MATCH_HOOKS", "")
    return _load(path) if path else NoHooks()
