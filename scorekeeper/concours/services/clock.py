"""The round clock (docs/concours.md, "The round clock"): a round's stored start time and length,
started by the draw when the concours has `minutes` (docs/tournaments.md §1, §7), started again
by the organiser; and, at zero, time called at every table still playing, in one transaction.
What a page shows of the clock (running, at zero) is decided here from the stored times and
`timezone.now()`, never from what the page showed."""

from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from ..models import Round, Table
from .base import Refused
from .locks import busy_refused, locked_round
from .tables import call_time


def set_clock(round_: Round, minutes: int | None, now: datetime | None = None) -> None:
    """Start `round_`'s clock at `now` for `minutes` (None: no clock); not saved."""
    if minutes is None:
        round_.clock_started_at, round_.clock_minutes = None, None
    else:
        round_.clock_started_at, round_.clock_minutes = now or timezone.now(), minutes


@busy_refused
@transaction.atomic
def start_clock(*, round_: Round) -> Round:
    """Start the round's clock now, for the concours's `minutes` (again, from the full length,
    when it was running or at zero). Refused for a closed round (`round_closed`) or a concours
    without `minutes` (`no_clock`)."""
    round_ = (
        Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_.pk)
    )  # the round, then the concours (touched): the order of every write (services/locks.py)
    if round_.is_closed:
        raise Refused("clock_round_closed", round=round_.number)
    minutes = round_.tournament.engine_settings.minutes
    if minutes is None:
        raise Refused("no_clock")
    set_clock(round_, minutes)
    round_.save(update_fields=["clock_started_at", "clock_minutes"])
    round_.tournament.touch()  # the projector's poll shows the new time
    return round_


@busy_refused
@transaction.atomic
def call_time_everywhere(
    *,
    round_: Round,
    early: bool = False,
    author: User | None = None,
    author_label: str = "",
) -> tuple[list[int], list[int]]:
    """Time called at every table of the round still playing on its phone with at least one
    deal scored (`call_time`, each logged; each partie ends with the deals played and its
    phones take no more). A table with no deal yet is left as it is (its paper totals, or time
    called on it alone, say what it played). Refused for a closed round (`clock_round_closed`),
    before the clock's zero or without a clock unless `early` (the organiser confirmed:
    `clock_running`), and when no table is left to call (`no_table_playing`). Returns (the
    tables called, the tables left without a deal), by number."""
    round_ = locked_round(round_)  # its tables' matches, its tables, then itself
    if round_.is_closed:
        raise Refused("clock_round_closed", round=round_.number)
    if not early and not round_.time_up(timezone.now()):
        raise Refused("clock_running", round=round_.number)
    playing = list(
        Table.objects.filter(
            round=round_, finished=False, match__isnull=False, paper0__isnull=True
        ).order_by("number")
    )
    called = [t for t in playing if t.deal_count > 0]
    left = [t.number for t in playing if t.deal_count == 0]
    if not called:
        raise Refused("no_table_playing", round=round_.number)
    for table in called:
        call_time(table=table, author=author, author_label=author_label)
    round_.tournament.touch()
    return [t.number for t in called], left
