"""A table's result: stored from its match (what the matches app asks and tells the concours:
`check_table_write`, `table_moved`) or from paper totals, corrected, time called; its phones
ended and its link renewed."""

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from scorekeeper.engine.tournament import PaperCheck, TournamentError, paper_check
from scorekeeper.matches import services as match_services
from scorekeeper.matches.holder import ADD, WriteRefused
from scorekeeper.matches.models import Match, new_token

from ..models import ResultChange, Table, Tournament
from .base import Refused
from .concours import store_final_standings
from .locks import busy_refused, locked_table


def _higher(points: tuple[int, int]) -> int | None:
    """The side with more points; None for a draw."""
    if points[0] == points[1]:
        return None
    return 0 if points[0] > points[1] else 1


def apply_result(table: Table, match: Match | None) -> bool:
    """Set `table`'s cached result (not saved) from its paper totals, or its match's cached
    totals (finished when the match is, or when time was called). Whether anything changed."""
    before = (table.finished, table.points0, table.points1, table.winner, table.reserve_lost,
              table.deal_count, table.match_version)  # fmt: skip
    if table.paper is not None:
        table.finished, (table.points0, table.points1) = True, table.paper
        table.winner, table.reserve_lost = _higher(table.paper), 0
    elif match is None:
        table.finished, table.points0, table.points1 = False, None, None
        table.winner, table.reserve_lost = None, 0
    else:
        table.deal_count = match.deal_count
        table.match_version = match.version
        played = match.deal_count > 0 or table.ended
        table.points0, table.points1 = (match.total0, match.total1) if played else (None, None)
        if match.status == Match.Status.FINISHED:
            table.finished, table.winner = True, match.winner  # None: the engine's draw
            table.reserve_lost = match.reserve
        elif table.ended:
            table.finished = True
            table.winner = _higher((match.total0, match.total1))
            table.reserve_lost = match.reserve
        else:
            table.finished, table.winner, table.reserve_lost = False, None, 0
    after = (table.finished, table.points0, table.points1, table.winner, table.reserve_lost,
             table.deal_count, table.match_version)  # fmt: skip
    if table.finished and table.finished_at is None:
        table.finished_at = timezone.now()
    elif not table.finished:
        table.finished_at = None
    return before != after


RESULT_FIELDS = [
    "finished", "points0", "points1", "winner", "reserve_lost", "deal_count", "match_version",
    "finished_at",
]  # fmt: skip


# What a concours says to the matches app about its tables' matches (holder.py, through
# holds_matches.ConcoursTables): every write to a table's match is checked here first, and the
# table's result is stored with the change, in the same transaction. So the result is stored
# once, no page writes while it is read, and a table's state is enforced here, not by what a
# page shows.
def check_table_write(*, match: Match, owner: bool, action: str) -> None:
    """Whether this write to a table's match may go ahead (WriteRefused otherwise, with the
    reason): a paper result locks the deals for everyone (the desk decides); once time is called
    or the partie is over, its phones and the accounts that scored are refused everything,
    and the organiser (the match's owner) still corrects the deals (edit, delete, undo, redo)
    while the round is open, but adds none. A closed round's match is frozen (MatchFrozen)."""
    table = Table.objects.select_related("round").filter(match_id=match.pk).first()
    if table is None:
        return
    if table.paper is not None:
        raise WriteRefused("paper_result")
    if table.round.is_closed:
        raise WriteRefused("round_closed")
    if not (table.ended or match.is_finished):
        return
    if owner and action != ADD:
        return
    raise WriteRefused("time_called" if table.ended else "partie_over")


def table_moved(*, match: Match) -> None:
    """A table's match has just changed (its deals re-scored, in the transaction that saves
    them): the table's result follows at once. A partie that this change ends ends its phones
    too (a new scorer link, set on `match`)."""
    table = Table.objects.select_related("round").filter(match_id=match.pk).first()
    if table is None or table.round.is_closed:
        return
    was = table.finished
    if not apply_result(table, match):
        return
    if table.finished and not was and table.paper is None:
        renewed = end_phones([table]).get(match.pk)
        if renewed is not None:
            match.scorer_token, match.version = renewed.scorer_token, renewed.version
            table.match_version = renewed.version
    table.save(update_fields=RESULT_FIELDS)
    # One concours, one queue no more (issue 43): a deal at a table that plays on moves only its
    # own rows (the match, the table); the concours's change key sums its open tables' match
    # versions, and the table's row tells the live pages (web/live). Only a result the standings
    # count (a table finishing, or a finished one corrected) moves the concours's own version,
    # once per table and round rather than at every deal of every table.
    if table.finished or was:
        Tournament.objects.filter(pk=table.round.tournament_id).update(version=F("version") + 1)


def end_phones(tables: Sequence[Table], *, accounts: bool = False) -> dict[int, Match]:
    """The phones of these tables are done (their partie is over, their round closed, or their
    link renewed): their matches get new scorer links (`matches.services.revoke_scorer_links`),
    so whoever scored through the old one may score no more; the table link then shows the
    table read-only. `accounts` (a renewed link): the accounts that scored through the old link
    lose the right to write too. The matches with their new links, by id."""
    ids = [table.match_id for table in tables if table.match_id is not None]
    if not ids:
        return {}
    renewed = match_services.revoke_scorer_links(match_ids=ids, accounts=accounts)
    return {match.pk: match for match in renewed}


def _log(
    table: Table, action: str, before: dict[str, Any], author: User | None, label: str
) -> None:
    ResultChange.objects.create(
        table=table,
        author=author,
        author_label=label[:60],
        action=action,
        before=before,
        after=table.result_dict(),
    )


MAX_POINTS = 100_000


def _check_totals(totals: tuple[int, int]) -> tuple[int, int]:
    for index, value in enumerate(totals):
        if not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
            raise TournamentError(f"totals[{index}]", "out_of_range", min=0, max=MAX_POINTS)
    return (totals[0], totals[1])


def _set_paper(
    table: Table,
    totals: tuple[int, int],
    action: str,
    author: User | None,
    label: str,
    belotes: int,
    capots: int,
    announcements: int,
) -> PaperCheck | None:
    """The table's result from typed totals, and its match's with it (typed: the match, its
    scoreboard and the lists it is in say the same result, typed from paper)."""
    before = table.result_dict()
    table.paper0, table.paper1 = _check_totals(totals)
    table.paper_belotes, table.paper_capots = belotes, capots
    table.paper_announcements = announcements
    if table.match_id is not None:
        match = match_services.type_result(match_id=table.match_id, totals=totals)
        table.match_version = match.version
    apply_result(table, None)
    table.save()
    _log(table, action, before, author, label)
    table.round.tournament.touch()
    rules = table.round.tournament.engine_settings.partie
    return paper_check(
        rules, table.paper or (0, 0), belotes=belotes, capots=capots, announcements=announcements
    )


def scored_on_phone(table: Table) -> Match | None:
    """The table's match when its phone scored deals there (what paper totals would set
    aside), else None."""
    if table.match_id is None or table.paper is not None:
        return None
    match = Match.objects.filter(pk=table.match_id).first()
    return match if match is not None and match.deal_count > 0 else None


@busy_refused
@transaction.atomic
def record_paper_totals(
    *,
    table: Table,
    totals: tuple[int, int],
    belotes: int = 0,
    capots: int = 0,
    announcements: int = 0,
    author: User | None = None,
    author_label: str = "",
    over_deals: bool = False,
) -> PaperCheck | None:
    """The two totals of a paper score sheet (with the belotes, capots and announcement points
    written on it): the table is finished with them, its phones are done and its match's deals
    change no more (its match shows the typed result). A table whose phone scored deals is
    refused (`table_has_deals`) unless `over_deals`: the organiser has seen both and said the
    paper is right. Returns the engine's paper check (a warning when `not check.ok`, never a
    refusal; None when the partie's rules allow no check). Logged."""
    table = locked_table(table)
    if table.round.is_closed:
        raise Refused("round_closed", round=table.round.number)
    scored = scored_on_phone(table)
    if scored is not None and not over_deals:
        raise Refused("table_has_deals", table=table.number, deals=scored.deal_count)
    end_phones([table])  # the sheet wins: its phones are done
    return _set_paper(table, totals, "paper", author, author_label, belotes, capots, announcements)


@busy_refused
@transaction.atomic
def correct_result(
    *,
    table: Table,
    totals: tuple[int, int],
    author: User | None = None,
    author_label: str = "",
) -> PaperCheck | None:
    """Replace a finished table's result by these totals (also once its round is closed: later
    standings change, draws already made stay); its match shows them as typed. Logged with the
    result before."""
    table = locked_table(table)
    if not table.finished:
        raise Refused("table_not_finished", table=table.number)
    check = _set_paper(table, totals, "correction", author, author_label, 0, 0, 0)
    tournament = table.round.tournament
    if tournament.status == Tournament.Status.FINISHED:
        store_final_standings(tournament=tournament)
    return check


@busy_refused
@transaction.atomic
def call_time(*, table: Table, author: User | None = None, author_label: str = "") -> Table:
    """Time is up: the partie ends with the deals played, the higher total wins (a reserve still
    held is lost). Its match ends with it (`matches.services.end_match`), which stores the
    table's result and ends its phones (table_moved). Logged."""
    table = locked_table(table)
    if table.round.is_closed:
        raise Refused("round_closed", round=table.round.number)
    if table.match_id is None:
        raise Refused("no_match", table=table.number)
    if table.finished:
        raise Refused("table_finished", table=table.number)
    before = table.result_dict()
    table.ended = True
    table.save(update_fields=["ended"])
    match_services.end_match(match_id=table.match_id)
    table.refresh_from_db()
    _log(table, "time", before, author, author_label)
    return table


@busy_refused
@transaction.atomic
def regenerate_table_link(*, table: Table) -> Table:
    """A new phone link for the table: the old one stops working at once, and so does the
    scorer link its phones were using (the new link leads to a new one); the accounts that
    scored through it lose the right to write (they keep the match in their history,
    read-only). The organiser keeps it while the round is open."""
    table = locked_table(table)
    table.token = new_token()
    table.save(update_fields=["token"])
    end_phones([table], accounts=True)
    return table
