"""The one order in which every write of a concours locks its rows (docs/architecture.md,
"Locks"): **a table's match, then the table, then its round, then the concours**; several of one
kind in the order of their ids. It is the order of a phone's save, which the matches app starts
(it locks the match; the concours's hook then writes the table's result and moves the concours's
version): the desk's writes lock the same rows the same way (`locked_tables`, `locked_round`),
so two writes never wait for each other in a circle (a deadlock on PostgreSQL). Every wait is
bounded (DB_SAVE_LOCK_TIMEOUT_MS): a desk's write that waited too long is refused (`busy`), a
phone's is told its match is busy (`MatchBusy`), nothing written either way."""

import functools
from collections.abc import Callable, Sequence

from django.db import OperationalError

from scorekeeper.matches.models import Match, bound_lock_waits, lock_wait_ended

from ..models import Round, Table
from .base import Refused


def locked_tables(table_ids: Sequence[int]) -> list[Table]:
    """These tables (with their round and concours read), their matches' rows locked first,
    then theirs, each kind by id."""
    bound_lock_waits()
    match_ids = Table.objects.filter(pk__in=table_ids, match__isnull=False).values_list(
        "match_id", flat=True
    )
    Match.objects.locked_many(match_ids)
    tables = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .filter(pk__in=table_ids)
        .order_by("pk")
    )
    return list(tables)


def locked_table(table: Table) -> Table:
    """The table, read again with its match's row and then its own locked."""
    (found,) = locked_tables([table.pk])
    return found


def locked_round(round_: Round) -> Round:
    """The round, read again, after its tables' matches and its tables are locked (a write
    over the whole round: close it, call time everywhere)."""
    locked_tables(list(Table.objects.filter(round=round_).values_list("pk", flat=True)))
    return (
        Round.objects.select_for_update(of=("self",)).select_related("tournament").get(pk=round_.pk)
    )


def busy_refused[**P, T](write: Callable[P, T]) -> Callable[P, T]:
    """A desk's write (outside its transaction) whose lock wait ran out: refused (`busy`), the
    transaction rolled back."""

    @functools.wraps(write)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return write(*args, **kwargs)
        except OperationalError as error:
            if lock_wait_ended(error):
                raise Refused("busy") from error
            raise

    return guarded
