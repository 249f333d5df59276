"""Rounds: drawn by the engine (each table a match), drawn again, two entrants swapped
before play, closed."""

import secrets
from collections.abc import Sequence

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from scorekeeper.engine import tournament as tournament_engine
from scorekeeper.matches import services as match_services
from scorekeeper.matches.models import Match, new_token

from ..models import Entrant, Place, Round, Table, Tournament
from ..selectors import snapshot
from .base import MAX_NAME, SEED_LIMIT, Refused, match_owner_key
from .clock import set_clock
from .locks import busy_refused, locked_round
from .tables import apply_result, end_phones


def _seat_names(names: list[str], teams: tuple[str, str]) -> list[str]:
    """The four seats' names (playing order), a name met twice at one table told apart by its
    team (one Player per name at a match)."""
    seen: set[str] = set()
    out = []
    for seat, name in enumerate(names):
        if name.casefold() in seen:
            name = f"{name} ({teams[seat % 2]})"[:MAX_NAME]
        seen.add(name.casefold())
        out.append(name)
    return out


def _table_names(
    melee: bool, sides: Sequence[Sequence[Entrant]]
) -> tuple[tuple[str, str], list[str]]:
    """A table's two team names and its four seats' names, in playing order."""
    if melee:
        teams = (
            " & ".join(e.name for e in sides[0])[:MAX_NAME],
            " & ".join(e.name for e in sides[1])[:MAX_NAME],
        )
        names = [sides[0][0].name, sides[1][0].name, sides[0][1].name, sides[1][1].name]
    else:
        a, b = sides[0][0], sides[1][0]
        teams = (a.name, b.name)
        names = [a.player1, b.player1, a.player2, b.player2]
    return teams, _seat_names(names, teams)


def _create_match(
    tournament: Tournament, sides: list[list[Entrant]], stage: str | None = None
) -> Match:
    """A table's match: its round's partie rules (a bracket round: the final's, §7), the two
    sides' names and players."""
    teams, names = _table_names(tournament.melee, sides)
    # The organiser's account owns every table (their history and player pages show them; their
    # My matches lists a table once a deal is scored); the key stays the concours's, never a
    # browser's, so signing in on some device claims none of them.
    return match_services.create_match(
        owner_key=match_owner_key(tournament),
        owner=tournament.owner,
        rules=tournament.engine_settings.rules_for(
            "final" if stage in ("final", "consolation") else None
        ),
        team_names=teams,
        players=names,
        first_dealer=0,
        in_concours=True,
    )


def _store_draw(tournament: Tournament, draw: tournament_engine.Draw) -> Round:
    by_number = {e.number: e for e in tournament.entrants.all()}
    round_ = Round.objects.create(
        tournament=tournament,
        number=draw.round,
        rematches=draw.rematches,
        stage=draw.stage or "",
    )
    tables = []
    places = []
    for drawn in draw.tables:
        sides = [[by_number[n] for n in side] for side in drawn.sides]
        match = _create_match(tournament, sides, draw.stage)
        table = Table(round=round_, number=drawn.number, match=match)
        apply_result(table, table.match)
        tables.append(table)
        for side, entrants in enumerate(sides):
            places += [
                Place(round=round_, entrant=e, table=table, side=side, seat=seat)
                for seat, e in enumerate(entrants)
            ]
    Table.objects.bulk_create(tables)
    places += [Place(round=round_, entrant=by_number[n]) for n in draw.byes]
    Place.objects.bulk_create(places)
    return round_


@transaction.atomic
def draw_round(*, tournament: Tournament) -> Round:
    """Draw the next round with the engine (docs/tournaments.md §5) and create its tables, one match
    each, and its byes; its clock starts when the concours has `minutes`. Refused while the last
    round is open or once the concours is finished; the engine's TournamentError when it cannot
    draw (every round drawn, too few entrants)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status == Tournament.Status.FINISHED:
        raise Refused("finished")
    last = tournament.rounds.order_by("-number").first()
    if last is not None and not last.is_closed:
        raise Refused("round_open", round=last.number)
    snap = snapshot(tournament)
    number = len(snap.rounds) + 1
    settings = snap.engine.settings
    withdrawn = sorted(e.number for e in snap.entrants if e.withdrawn_before_round == number)
    if settings.final is not None and number > settings.rounds:
        withdrawn = []  # a bracket round: its entrants are the bracket's (§7)
    draw = tournament_engine.draw_round(snap.engine, withdrawn=withdrawn, results=snap.results)
    round_ = _store_draw(tournament, draw)
    # The round clock starts with the draw when the concours has one (docs/concours.md).
    minutes = tournament.engine_settings.minutes
    if minutes is not None:
        set_clock(round_, minutes)
        round_.save(update_fields=["clock_started_at", "clock_minutes"])
    if tournament.status == Tournament.Status.REGISTRATION:
        tournament.status = Tournament.Status.PLAYING
        tournament.save(update_fields=["status"])
    tournament.touch()
    return round_


def _untouched(round_: Round) -> None:
    """Refused once any table of the round has a result or a deal."""
    if round_.is_closed:
        raise Refused("round_closed", round=round_.number)
    started = (
        round_.tables.filter(finished=True).exists()
        or round_.tables.filter(deal_count__gt=0).exists()
    )
    if started:
        raise Refused("round_started", round=round_.number)


def _drop_matches(tables: Sequence[Table]) -> None:
    Match.objects.filter(pk__in=[t.match_id for t in tables if t.match_id]).delete()


@busy_refused
@transaction.atomic
def swap_entrants(*, round_: Round, first: Entrant, second: Entrant) -> Round:
    """Swap two entrants' places (tables, or a table and a bye) before any table of the round
    has a result or a deal; the tables concerned get new matches (and links). Refused in a
    round robin (its schedule is fixed, docs/tournaments.md §7) and in a round of the final
    bracket (its tables follow the seeds)."""
    if round_.stage:
        raise Refused("swap_bracket")
    if round_.tournament.settings.get("pairing") == "round_robin":
        raise Refused("swap_round_robin")
    round_ = locked_round(round_)  # no phone's first deal slips in between check and swap
    _untouched(round_)
    a = round_.places.select_related("table").get(entrant=first)
    b = round_.places.select_related("table").get(entrant=second)
    spots = [(a.table, a.side, a.seat), (b.table, b.side, b.seat)]
    a.table, a.side = None, None
    a.save()
    b.table, b.side, b.seat = spots[0]
    b.save()
    a.table, a.side, a.seat = spots[1]
    a.save()
    tables = [t for t in {spots[0][0], spots[1][0]} if t is not None]
    _drop_matches(tables)
    tournament = round_.tournament
    for table in tables:
        sides: list[list[Entrant]] = [[], []]
        for place in sorted(table.places.select_related("entrant"), key=lambda p: p.seat):
            assert place.side is not None
            sides[place.side].append(place.entrant)
        table.match = _create_match(tournament, sides, round_.stage or None)
        table.token = new_token()
        table.match_version = None
        apply_result(table, table.match)
        table.save()
    tournament.touch()
    return round_


@busy_refused
@transaction.atomic
def redraw_round(*, round_: Round) -> Round:
    """Draw the last round again, before any of its tables has a result or a deal. The seed of
    the draws changes (the same seed would give the same draw); a Swiss round after the first
    depends only on the standings and comes out the same."""
    tournament = round_.tournament
    if round_.stage or tournament.settings.get("pairing") == "round_robin":
        # The same teams would meet again (a schedule, a bracket), and a new seed would move
        # a ranking's drawing of lots (docs/tournaments.md §3, §7).
        raise Refused("redraw_fixed")
    if tournament.rounds.filter(number__gt=round_.number).exists():
        raise Refused("not_last_round", round=round_.number)
    round_ = locked_round(round_)  # no phone's first deal slips in between check and redraw
    _untouched(round_)
    _drop_matches(list(round_.tables.all()))
    round_.delete()
    tournament.settings = {**tournament.settings, "seed": secrets.randbelow(SEED_LIMIT)}
    tournament.save(update_fields=["settings"])
    return draw_round(tournament=tournament)


@busy_refused
@transaction.atomic
def close_round(*, round_: Round) -> Round:
    """Close the round when every table is finished; its tables' links turn read-only, and the
    next round may be drawn. Its tables' matches, its tables and itself are locked first (a
    phone saving meanwhile is saved before, or refused after)."""
    round_ = locked_round(round_)
    if round_.is_closed:
        return round_
    pending = list(round_.tables.filter(finished=False).values_list("number", flat=True))
    if pending:
        raise Refused("tables_pending", round=round_.number, tables=pending)
    round_.closed_at = timezone.now()
    round_.save(update_fields=["closed_at"])
    end_phones(list(round_.tables.filter(match__isnull=False)))  # table links read-only now
    # Its tables' results are the concours's now: their matches take no more changes (a
    # late correction goes through correct_result, which the standings read).
    Match.objects.filter(concours_table__round=round_).update(
        frozen_at=round_.closed_at, version=F("version") + 1
    )
    round_.tournament.touch()
    return round_
