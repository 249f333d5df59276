"""The matches app's one extension point, for an app that holds some matches (a concours holds
its tables' matches: `Match.in_concours`). The matches app imports none of them: the holder's
implementation is named by the setting `MATCH_HOLDER` (a dotted path to a class built with no
argument, see concours/holds_matches.py) and loaded once, with `import_string`.

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

Without the setting, nothing is held: every check passes and no note is shown.

The protocol's own words are defined here (`Author`, `BoardClock`, `BoardNote`, `ShownBoard`, `WriteRefused`),
so that this module imports only the models: the services and the board import it, never the
other way round."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Protocol

from django.conf import settings
from django.http import HttpRequest
from django.utils.module_loading import import_string

from .models import Deal, Match


@dataclass(frozen=True)
class Author:
    """Who made a change: the browser's key and how it was allowed in. `account_id`: the
    signed-in account of a scorer who does not own the match; its first change makes it a
    scorer of the match (MatchScorer: in its history on every device). Opening the scorer
    link writes nothing. `owner`: the match's owner (its creating browser or account: a
    concours's organiser for its tables), whom a holder may allow more than a scorer."""

    key: str
    label: str
    account_id: int | None = None
    owner: bool = False


class ShownBoard(Protocol):
    """What `board_note` is shown of a scoreboard (board.Board): the match, its deals, how many
    of them scored and the winner's name (None while no team has won)."""

    @property
    def match(self) -> Match: ...

    @property
    def rows(self) -> Sequence[Deal]: ...

    @property
    def scored_deals(self) -> int: ...

    @property
    def winner_name(self) -> str | None: ...


@dataclass(frozen=True)
class BoardClock:
    """A countdown the holder shows above the scoreboard (a concours round's clock): when it
    reaches zero (`ends_at`), the server's time when the page was made (`now`: the page's
    script counts from it, so a phone whose own clock is wrong still shows the right time),
    its words at zero (`over`: "Last deal"), its name (`label`), and the address that answers
    it again (`refresh_url`, polled and asked again when its round's live topic moves: a clock
    started again shows without a reload; "" none)."""

    ends_at: datetime
    now: datetime
    over: str
    label: str
    refresh_url: str = ""
    # Its live topic (scorekeeper/web/live: `r<round_id>`) and the version shown (0: none).
    round_id: int = 0
    round_version: str = ""

    @property
    def up(self) -> bool:
        return self.now >= self.ends_at

    @property
    def ends_ms(self) -> int:
        return int(self.ends_at.timestamp() * 1000)

    @property
    def now_ms(self) -> int:
        return int(self.now.timestamp() * 1000)


@dataclass(frozen=True)
class BoardNote:
    """What the app holding a match says on its scoreboard about where the match belongs (a
    concours's table: "Table 7 · round 2 · ..."), through MatchHolder.board_note, so that this app
    imports none of them. `read_only`: the match is shown without its scoring buttons (its
    phones are done); `banner`: a line in the board's banner ("Result sent to the organiser");
    `links`: (words, address) pairs under it; `win_title`: the banner's title once the match is
    won, in that app's words ("Partie won by Les As"; empty: the board's own "Winner: ...").
    Words and flags are for the request asking: a phone and the organiser may read them
    differently (the organiser still corrects a finished table's deals). `clock`: a countdown
    shown above the board (BoardClock), None for none."""

    header: str
    win_title: str = ""
    read_only: bool = False
    banner: str = ""
    links: tuple[tuple[str, str], ...] = ()
    clock: BoardClock | None = None  # a countdown above the board (a concours round's clock)


class WriteRefused(Exception):
    """A write the match's state does not allow, raised before anything changed: `reason` is a
    stable code, `words` what the page says (the holder words its own reasons, in the active
    language; empty: the matches app's words for its own codes, see view_helpers.py)."""

    def __init__(self, reason: str, words: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.words = words


class MatchHolder(Protocol):
    def check_write(self, match: Match, *, author: Author, action: str) -> None: ...

    def after_write(self, match: Match) -> None: ...

    def board_note(self, request: HttpRequest, board: ShownBoard) -> BoardNote | None: ...

    def organiser(self, request: HttpRequest, match: Match) -> bool: ...


# The actions `check_write` is told (an "All passed" and a manual score are adds).
ADD, EDIT, DELETE, UNDO, REDO = "add", "edit", "delete", "undo", "redo"


class NoHolder:
    """No app holds any match."""

    def check_write(self, match: Match, *, author: Author, action: str) -> None:
        return None

    def after_write(self, match: Match) -> None:
        return None

    def board_note(self, request: HttpRequest, board: ShownBoard) -> BoardNote | None:
        return None

    def organiser(self, request: HttpRequest, match: Match) -> bool:
        return False


@cache
def _load(path: str) -> MatchHolder:
    found: MatchHolder = import_string(path)()
    return found


def get_holder() -> MatchHolder:
    """The app holding some matches (settings.MATCH_HOLDER), built once."""
    path = getattr(settings, "MATCH_HOLDER", "")
    return _load(path) if path else NoHolder()
