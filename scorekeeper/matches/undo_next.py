"""What Undo and Redo would do next, read from a match's DealChange rows, and those changes in
words ("deal 6 edited").

The rows form one history. A change made by a scorer (add, edit, delete) and a redo are
"doings"; an undo is a row of action `undo` that reverses one doing (`undoes`) and marks it
`undone`. A redo reverses an undo: it is a row with the action it brings back (add, edit or
delete) whose `undoes` is that undo row (an undo of an undo, no new action). So:

- Undo reverses the newest doing not yet undone (a scorer's change or a redo);
- Redo reverses the newest undo not yet redone, made after the scorer's last own change: any new
  add, edit or delete ends the chain of what can be redone.

Undos and redos walk the history as a stack: the deal numbers their rows keep are those the
deals have again when the change is undone or redone."""

from django.db.models import OuterRef, Subquery
from django.utils.translation import gettext as _

from .models import DealChange, Match

UNDO = DealChange.Action.UNDO


def next_undo(match: Match) -> DealChange | None:
    """The change Undo reverses: the newest doing not yet undone."""
    return match.changes.filter(undone=False).exclude(action=UNDO).order_by("-id").first()


def next_redo(match: Match) -> DealChange | None:
    """The undo Redo reverses (with the change it undid), if no scorer changed a deal since."""
    last_own = (
        DealChange.objects.filter(match=OuterRef("match"), undoes__isnull=True)
        .exclude(action=UNDO)
        .order_by("-id")
        .values("id")[:1]
    )
    return (
        match.changes.filter(action=UNDO, undone=False, undoes__isnull=False)
        .filter(id__gt=Subquery(last_own))
        .select_related("undoes")
        .order_by("-id")
        .first()
    )


def undo_and_redo(match: Match) -> tuple[DealChange | None, DealChange | None]:
    """(next_undo, next_redo) for the scoreboard. While scoring goes on the newest row is a
    scorer's own change: it is what Undo reverses and nothing can be redone, which one cheap query
    tells (the redo search is the costly part of a scoreboard); otherwise ask both."""
    newest = match.changes.order_by("-id").first()
    if newest is None:
        return None, None
    if newest.action != UNDO and newest.undoes_id is None and not newest.undone:
        return newest, None
    return next_undo(match), next_redo(match)


def change_words(change: DealChange) -> str:
    """A doing in words: "deal 6 edited", "deal 3 recorded (all passed)"."""
    number = {"n": change.number}
    if change.action == DealChange.Action.ADD:
        words = _("deal %(n)s recorded") % number
    elif change.action == DealChange.Action.EDIT:
        words = _("deal %(n)s edited") % number
    else:
        words = _("deal %(n)s deleted") % number
    deal = change.before if change.action == DealChange.Action.DELETE else change.after
    if deal and deal.get("passed"):
        return _("%(change)s (all passed)") % {"change": words}
    if deal and "manual_scores" in deal:
        return _("%(change)s (manual score)") % {"change": words}
    return words


def reversed_words(undo: DealChange) -> str:
    """The change an undo row reversed, in words (what Redo brings back)."""
    return (
        change_words(undo.undoes)
        if undo.undoes is not None
        else _("deal %(n)s") % {"n": undo.number}
    )


def undo_label(change: DealChange) -> str:
    # Translators: the Undo button. French: "Défaire", never "Annuler" (read as Cancel).
    return _("Undo: %(change)s") % {"change": change_words(change)}


def redo_label(undo: DealChange) -> str:
    return _("Redo: %(change)s") % {"change": reversed_words(undo)}
