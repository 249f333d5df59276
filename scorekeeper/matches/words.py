"""What a person reads when a change of a match is refused: ONE table (`SAID`) from each refusal
to its stable code (the outbox's JSON `code`), the HTTP status of the outbox's answer, its words
and the level of a page's message; `refusal(error)` finds the refusal of a service's exception
(`KINDS`). The pages (`view_helpers.attempt`, `refused_here`), the outbox's JSON (views/outbox.py) and
its body limits (middleware.py) all say a refusal through it, so a phone reads the same words
with signal and without.

The app holding a match words its own reasons for refusing a write (`holder.WriteRefused.words`:
a concours's, concours/words.py `WRITE_REFUSALS`); they are said as they come, under the code
`refused`. Engine errors keep the engines' words (web/words.py)."""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.scoring import InvalidInput
from scorekeeper.web.words import describe

from . import services
from .holder import WriteRefused

if TYPE_CHECKING:
    from django.utils.functional import Promise


@dataclass(frozen=True, slots=True)
class Said:
    code: str  # the outbox's JSON `code` (docs/offline.md): two refusals may share one
    status: int  # of the outbox's JSON answer
    words: "Promise"
    level: int  # of a page's message (django.contrib.messages)


SAID: dict[str, Said] = {  # by refusal
    # Another phone saved first: the version the match is at now goes with the answer.
    "changed": Said(
        "changed",
        409,
        _("The match changed on another phone meanwhile. Check the scores and try again."),
        messages.WARNING,
    ),
    "over": Said("over", 409, _("The match is over: no more deals."), messages.INFO),
    "abandoned": Said(
        "abandoned",
        409,
        _("This match was abandoned: no more deals. Its owner can resume it."),
        messages.INFO,
    ),
    "frozen": Said(
        "frozen",
        409,
        _(
            "This table's round is closed: its deals change no more. Show this deal to the "
            "organiser, who corrects the result."
        ),
        messages.ERROR,
    ),
    "held": Said(
        "held",
        409,
        _(
            "This match is a table of a concours: it is deleted or abandoned only with its concours."
        ),
        messages.ERROR,
    ),
    # A write the match's holder refuses (its words come with it), or this account's scorer
    # right withdrawn (holder.WriteRefused "link_renewed").
    "refused": Said(
        "refused", 409, _("This change is not allowed: nothing was saved."), messages.ERROR
    ),
    "revoked": Said(
        "revoked",
        409,
        _(
            "This scorer link was renewed: this account no longer scores the match (it stays in "
            "your matches, read-only). Nothing was saved."
        ),
        messages.ERROR,
    ),
    "gone": Said(
        "gone",
        409,
        _("This form was already saved, and that deal was undone since: nothing saved."),
        messages.INFO,
    ),
    "no_deal": Said("gone", 409, _("This deal is no longer there: nothing saved."), messages.ERROR),
    "nothing": Said("nothing", 409, _("Nothing to undo."), messages.INFO),
    "nothing_to_redo": Said("nothing", 409, _("Nothing to redo."), messages.INFO),
    "busy": Said(
        "busy",
        503,
        _("Another phone is saving this match right now: nothing was saved. Try again."),
        messages.ERROR,
    ),
    # Input refused: the deal's own errors or an altered stamp (their words come with them), a
    # change the outbox does not know; a body over Django's limits (DATA_UPLOAD_MAX_*).
    "invalid": Said(
        "invalid", 400, _("This change is not allowed: nothing was saved."), messages.ERROR
    ),
    "too_big": Said(
        "too_big", 413, _("This change is too large: nothing was saved."), messages.ERROR
    ),
}

# The services' refusals by class (found along the class's MRO: an abandoned match is a
# MatchOver, said as abandoned).
KINDS: dict[type[Exception], str] = {
    services.MatchChanged: "changed",
    services.MatchAbandoned: "abandoned",
    services.MatchOver: "over",
    services.MatchFrozen: "frozen",
    services.MatchHeld: "held",
    WriteRefused: "refused",
    services.SubmissionGone: "gone",
    services.NothingToUndo: "nothing",
    services.NothingToRedo: "nothing_to_redo",
    services.MatchBusy: "busy",
    InvalidInput: "invalid",
}
REFUSALS = tuple(KINDS)  # what a page or the outbox catches around a service's change


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refusal as it is said: its `code`, the outbox's `status`, the `words` in the active
    language, a page's message `level`, and for `changed` the match's `version` now."""

    code: str
    status: int
    words: str
    level: int
    version: int | None = None

    def as_json(self) -> dict[str, Any]:
        """The outbox's answer: `{"ok": false, "code", "message"}`, and `version` if known."""
        answer: dict[str, Any] = {"ok": False, "code": self.code, "message": self.words}
        if self.version is not None:
            answer["version"] = self.version
        return answer


def said(kind: str, words: str = "", *, version: int | None = None) -> Refusal:
    """The refusal `kind` (a key of SAID), with `words` in place of the table's when given."""
    entry = SAID[kind]
    return Refusal(entry.code, entry.status, words or str(entry.words), entry.level, version)


def refusal(error: Exception) -> Refusal:
    """How a refusal of the services (one of REFUSALS) is said."""
    kind = next(KINDS[cls] for cls in type(error).__mro__ if cls in KINDS)
    if isinstance(error, WriteRefused):  # the holder's words for its reasons, if any
        return said("revoked" if error.reason == "link_renewed" else kind, error.words)
    if isinstance(error, InvalidInput):
        return said(kind, describe(error))
    if isinstance(error, services.MatchChanged):
        return said(kind, version=error.match.version)
    return said(kind)
