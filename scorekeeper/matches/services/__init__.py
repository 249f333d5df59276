"""Every write to matches and deals, by topic: a match as a whole (matches.py), its deals
(deals.py), undo and redo (undo.py), match files (imports.py), the names at its tables
(players.py), the scores cached on its rows (scores.py), and what every write of its deals checks
first (writes.py: `open_for_change`). Each function is keyword-only and atomic: it locks the match
row, checks the version the caller saw, applies the change, re-scores the whole match through the
engine and rewrites the cached scores, all in one transaction. A failure changes nothing.

A match held by another app (`in_concours`: a concours's table) is also checked by that app
before each deal is written, and told of the change after the re-score, in the same transaction
(holder.py): `WriteRefused` says why it refused.

Callers import this package (`from scorekeeper.matches import services`): it names them all."""

from ..holder import Author, WriteRefused
from ..models import MatchBusy  # raised by Match.objects.locked: the views word it
from .deals import delete_deal, edit_deal, record_deal
from .imports import (
    MAX_DEALS,
    check_importable,
    deals_in,
    import_match,
    import_matches,
    match_file_for,
    new_deal_rows,
)
from .matches import (
    IMPORT_BATCH,
    PURGE_BATCH,
    MatchHeld,
    NotRestorable,
    abandon_match,
    create_match,
    delete_match,
    end_match,
    purge_deleted,
    regenerate_links,
    rematch,
    restore_match,
    revoke_scorer_links,
    seat_players,
    type_result,
)
from .phones import phone_contact
from .players import (
    ClaimRefused,
    claim_player,
    get_or_create_player,
    known_player_names,
    release_player,
    this_is_me,
    unlink_player,
)
from .scores import (
    CACHE_FIELDS,
    MATCH_CACHE_FIELDS,
    cache_deal,
    higher_total,
    refresh_scores,
    rescore,
    set_result,
    store_breakdown,
    tell_holder,
)
from .undo import ConfirmUndo, NothingToRedo, NothingToUndo, redo_last_undo, undo_last_change
from .writes import (
    MatchAbandoned,
    MatchChanged,
    MatchFrozen,
    MatchOver,
    SubmissionGone,
    check_write,
    log_change,
    open_for_change,
    unfrozen,
)

__all__ = [
    "CACHE_FIELDS",
    "IMPORT_BATCH",
    "MATCH_CACHE_FIELDS",
    "MAX_DEALS",
    "PURGE_BATCH",
    "Author",
    "ClaimRefused",
    "ConfirmUndo",
    "MatchAbandoned",
    "MatchBusy",
    "MatchChanged",
    "MatchFrozen",
    "MatchHeld",
    "MatchOver",
    "NotRestorable",
    "NothingToRedo",
    "NothingToUndo",
    "SubmissionGone",
    "WriteRefused",
    "abandon_match",
    "cache_deal",
    "check_importable",
    "check_write",
    "claim_player",
    "create_match",
    "deals_in",
    "delete_deal",
    "delete_match",
    "edit_deal",
    "end_match",
    "get_or_create_player",
    "higher_total",
    "import_match",
    "import_matches",
    "known_player_names",
    "log_change",
    "match_file_for",
    "new_deal_rows",
    "open_for_change",
    "phone_contact",
    "purge_deleted",
    "record_deal",
    "redo_last_undo",
    "refresh_scores",
    "regenerate_links",
    "release_player",
    "rematch",
    "rescore",
    "restore_match",
    "revoke_scorer_links",
    "seat_players",
    "set_result",
    "store_breakdown",
    "tell_holder",
    "this_is_me",
    "type_result",
    "undo_last_change",
    "unfrozen",
    "unlink_player",
]
