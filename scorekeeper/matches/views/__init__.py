"""Match pages, one module per topic: home, a new match and imports (new.py), the scoreboard,
recording deals (deals.py), undo and redo, managing a match, sharing it, and the card counter.
Thin views: parse the request, call a service, render. Every page works as plain forms with
POST-redirect-GET; htmx requests get the matching partial (name = element id). What they share
is in ../view_helpers.py: no view module imports another."""

from .count import count_cards
from .deals import deal_delete, deal_edit, deal_log, deal_manual, deal_new, deal_passed
from .home import RECENT, home
from .manage import abandon, delete_match, manage, resume
from .new import import_match, new_match
from .outbox import offline_words, outbox
from .preview import card_image
from .scoreboard import scoreboard, viewer
from .share import (
    export_scorer,
    export_viewer,
    qr_code,
    regenerate_links,
    rematch,
    share,
    unlink_player,
)
from .undo import redo, undo

__all__ = [
    "RECENT",
    "abandon",
    "card_image",
    "count_cards",
    "deal_delete",
    "deal_edit",
    "deal_log",
    "deal_manual",
    "deal_new",
    "deal_passed",
    "delete_match",
    "export_scorer",
    "export_viewer",
    "home",
    "import_match",
    "manage",
    "new_match",
    "offline_words",
    "outbox",
    "qr_code",
    "redo",
    "regenerate_links",
    "rematch",
    "resume",
    "scoreboard",
    "share",
    "undo",
    "unlink_player",
    "viewer",
]
