"""The round clock as the pages show it (docs/concours.md, "The round clock"): the projector,
the table phones (above their scoreboard, through the matches app's BoardNote) and the desk.
Every state shown (running, at zero) is computed here from the round's stored start and length
(services/clock.py writes them) and the server's time; the page's script (static/js/clock.js)
only counts down from the same end time, corrected by the server's time sent with it."""

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scorekeeper.matches.holder import BoardClock

from .models import Round, Table, Tournament


def round_clock(round_: Round | None, *, where: str, refresh_url: str = "") -> BoardClock | None:
    """The round's clock while it runs or waits at zero (None: no clock, the round closed or
    the concours finished). `where`: "projector" ("Time!" at zero), "phone" or "desk" ("Last
    deal")."""
    if round_ is None or round_.is_closed or round_.clock_ends_at is None:
        return None
    if round_.tournament.status == Tournament.Status.FINISHED:
        return None
    over = (
        pgettext("round clock at zero, on the projector", "Time!")
        if where in ("projector", "desk")
        else pgettext("round clock at zero, on a table phone", "Last deal")
    )
    return BoardClock(
        ends_at=round_.clock_ends_at,
        now=timezone.now(),
        over=over,
        label=_("Round %(round)s: time left") % {"round": round_.number},
        refresh_url=refresh_url,
        round_id=round_.pk,
        round_version=round_.live_version,
    )


def table_clock(table: Table) -> BoardClock | None:
    """A table phone's clock: its round's, refreshed from the table's link (None once the
    table's partie is over or its link renewed)."""
    if table.token is None or table.finished or table.ended or table.paper is not None:
        return None
    refresh = reverse("concours:table_clock", args=[table.token])
    return round_clock(table.round, where="phone", refresh_url=refresh)
