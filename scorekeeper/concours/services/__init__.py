"""Every write to a concours. Keyword-only, each in one transaction: a refusal changes nothing.

State refusals raise `Refused(code, **params)` (words for pages come with the pages); what the
engine refuses (a name, a setting, too few entrants to draw) raises its TournamentError, whose
codes `scorekeeper/web/words.py` already words.

Each table is a match of `matches` (created by the draw, scored deal by deal by its phone through
`matches.services`). A table's result is stored on the Table row, in the transaction of the
change that makes it: the match services ask the concours before each write to a table's match
and tell it after (matches/holder.py, through holds_matches.ConcoursTables: `check_table_write`,
`table_moved`); paper totals, corrections and time called are written here. No reader writes.

One module a topic: `concours` (created, settings, finished, deleted), `entrants` (registration),
`entrant_lines` (a pasted list or a CSV file of entrants), `rounds` (draw, redraw, swap, close),
`tables` (a table's result: its match, paper totals, correction, time called, its link),
`registrations` (teams registering themselves on the public page, issue 45),
`clock` (the round clock: started, time called at every table at zero),
`imports` (a tournament file as a new concours); `base` what they share, `locks` the one order
in which every write locks its rows (a table's match, the table, its round, the concours: no
deadlock with a phone's save; docs/architecture.md). Callers import this
package (`from scorekeeper.concours import services`): every public name is here."""

from .base import MAX_NAME, SEED_LIMIT, Refused, match_owner_key
from .clock import call_time_everywhere, set_clock, start_clock
from .concours import (
    FORMATS,
    MAX_PLACE,
    MAX_PRIZE,
    create_tournament,
    delete_tournament,
    finish,
    regenerate_co_link,
    store_final_standings,
    update_tournament,
)
from .entrant_lines import (
    CSV_HEADER_WORDS,
    CSV_MAX_BYTES,
    CSV_MAX_ERRORS,
    CSV_MAX_ROWS,
    CsvRefused,
    LineRefused,
    add_entrants_from_csv,
    add_entrants_from_text,
    split_line,
)
from .entrants import (
    add_entrant,
    cancel_withdrawal,
    check_in,
    edit_entrant,
    entry_refusal,
    withdraw,
)
from .imports import (
    IMPORT_MAX_DEALS,
    PreparedImport,
    file_deals,
    import_tournament,
    prepare_import,
    write_import,
)
from .registrations import (
    CONTACT_KEPT_DAYS,
    REGISTRATIONS_MAX,
    WAITING_LIST_MAX,
    accept_registration,
    change_registration,
    check_in_registration,
    contact_expired,
    erase_old_contacts,
    find_registration,
    places_left,
    places_taken,
    refuse_registration,
    register,
    registration_of,
    registration_refusal,
    set_registration,
    waiting_position,
    withdraw_registration,
)
from .rounds import close_round, draw_round, redraw_round, swap_entrants
from .tables import (
    MAX_POINTS,
    RESULT_FIELDS,
    apply_result,
    call_time,
    check_table_write,
    correct_result,
    end_phones,
    record_paper_totals,
    regenerate_table_link,
    scored_on_phone,
    table_moved,
)

__all__ = [
    "CONTACT_KEPT_DAYS",
    "CSV_HEADER_WORDS",
    "CSV_MAX_BYTES",
    "CSV_MAX_ERRORS",
    "CSV_MAX_ROWS",
    "FORMATS",
    "IMPORT_MAX_DEALS",
    "MAX_NAME",
    "MAX_PLACE",
    "MAX_POINTS",
    "MAX_PRIZE",
    "REGISTRATIONS_MAX",
    "RESULT_FIELDS",
    "SEED_LIMIT",
    "WAITING_LIST_MAX",
    "CsvRefused",
    "LineRefused",
    "PreparedImport",
    "Refused",
    "accept_registration",
    "add_entrant",
    "add_entrants_from_csv",
    "add_entrants_from_text",
    "apply_result",
    "call_time",
    "call_time_everywhere",
    "cancel_withdrawal",
    "change_registration",
    "check_in",
    "check_in_registration",
    "check_table_write",
    "close_round",
    "contact_expired",
    "correct_result",
    "create_tournament",
    "delete_tournament",
    "draw_round",
    "edit_entrant",
    "end_phones",
    "entry_refusal",
    "erase_old_contacts",
    "file_deals",
    "find_registration",
    "finish",
    "import_tournament",
    "match_owner_key",
    "places_left",
    "places_taken",
    "prepare_import",
    "record_paper_totals",
    "redraw_round",
    "refuse_registration",
    "regenerate_co_link",
    "regenerate_table_link",
    "register",
    "registration_of",
    "registration_refusal",
    "scored_on_phone",
    "set_clock",
    "set_registration",
    "split_line",
    "start_clock",
    "store_final_standings",
    "swap_entrants",
    "table_moved",
    "update_tournament",
    "waiting_position",
    "withdraw",
    "withdraw_registration",
    "write_import",
]
