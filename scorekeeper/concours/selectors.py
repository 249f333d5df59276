"""Reads of a concours: the tournament as the engine's data, its standings (after round k, or
final) from the stored table results, and its `belote-tournament/1` file.

The standings read a fixed number of queries whatever the number of teams (tournament, entrants,
rounds, tables, places), never score a deal and never write: each table's result is stored by the
change that made it (a deal saved at its match, paper totals, time called: see services)."""

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from django.db.models import Q, QuerySet, Sum, Value

from scorekeeper.engine import tournament as tournament_engine
from scorekeeper.engine.tournament import RoundResult, Standing, TableResult, bye_points
from scorekeeper.engine.tournament.prizes import award_prizes, prize_table
from scorekeeper.matches.models import Deal, Seat

from .models import Entrant, Place, Round, Table, Tournament


class TableRow(NamedTuple):
    """A table as the reads need it, from one `values_list` row (no model instance: a big
    concours has ten thousand tables): its number, its match, its paper totals and its cached
    result (Table's fields of the same names)."""

    pk: int
    round_id: int
    number: int
    match_id: int | None
    paper0: int | None
    paper1: int | None
    ended: bool
    finished: bool
    points0: int | None
    points1: int | None
    winner: int | None
    reserve_lost: int
    deal_count: int
    first_dealer: int  # its match's (0 unless read `with dealers`)

    @property
    def paper(self) -> tuple[int, int] | None:
        if self.paper0 is None or self.paper1 is None:
            return None
        return (self.paper0, self.paper1)

    @property
    def points(self) -> tuple[int, int] | None:
        if self.points0 is None or self.points1 is None:
            return None
        return (self.points0, self.points1)


TABLE_FIELDS = (
    "pk", "round_id", "number", "match_id", "paper0", "paper1", "ended", "finished", "points0",
    "points1", "winner", "reserve_lost", "deal_count",
)  # fmt: skip


def table_rows(query: QuerySet[Table], *, dealers: bool = False) -> list[TableRow]:
    """The tables of `query` as TableRows, in one query (`dealers`: with their match's first
    dealer, joined)."""
    dealer = "match__first_dealer" if dealers else Value(0)
    make = TableRow._make
    return [make(row) for row in query.values_list(*TABLE_FIELDS, dealer)]


@dataclass(frozen=True)
class Snapshot:
    """A tournament as the engine sees it, with each round's results from the stored cache.
    `tables[r]` are the rows of round r + 1 in the engine's order (by number); `entrants` those
    in the concours (`in_concours`), `everyone` every entrant registered (by number)."""

    engine: tournament_engine.Tournament
    results: tuple[RoundResult, ...]
    rounds: tuple[Round, ...]
    tables: tuple[tuple[TableRow, ...], ...]
    entrants: tuple[Entrant, ...]
    everyone: tuple[Entrant, ...] = ()


def in_concours(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The entrants the engine knows: all but those checked in absent."""
    return [entrant for entrant in entrants if entrant.present is not False]


def engine_entrant(entrant: Entrant, melee: bool) -> tournament_engine.Entrant:
    return tournament_engine.Entrant(
        id=entrant.number,
        name=entrant.name,
        players=None if melee else (entrant.player1, entrant.player2),
        from_round=entrant.from_round,
        written=("id", "name", "from_round") if melee else ("id", "name", "players", "from_round"),
    )


def table_result(table: Table | TableRow) -> TableResult:
    """The stored result as the engine's TableResult (no deal scored)."""
    if not table.finished:
        return TableResult("pending", table.points, None)
    return TableResult(
        "finished",
        table.points or (0, 0),
        "draw" if table.winner is None else table.winner,
        table.reserve_lost,
    )


def snapshot(tournament: Tournament, *, with_results: bool = False) -> Snapshot:
    """The tournament as the engine's Tournament and its RoundResults, in five queries, from the
    stored results (nothing written). `with_results`: each table also carries its paper totals
    or its deals (for the file: one more query for all the deals). Tables and places are read
    as plain rows (a 1,000-team concours of 20 rounds: 10,000 tables, 20,000 places)."""
    settings = tournament.engine_settings
    melee = settings.melee
    everyone = tuple(tournament.entrants.all())
    entrants = tuple(in_concours(everyone))
    number_of = {entrant.pk: entrant.number for entrant in everyone}
    rounds = tuple(tournament.rounds.all())
    tables_of: dict[int, list[TableRow]] = defaultdict(list)
    round_ids = [round_.pk for round_ in rounds]  # no join to the rounds: their ids
    query = Table.objects.filter(round_id__in=round_ids).order_by("round", "number")
    for table in table_rows(query, dealers=with_results):
        tables_of[table.round_id].append(table)
    sides: dict[int, tuple[list[tuple[int, int]], list[tuple[int, int]]]] = {}
    byes: dict[int, list[int]] = defaultdict(list)
    places = Place.objects.filter(round_id__in=round_ids).values_list(
        "round_id", "table_id", "side", "seat", "entrant_id"
    )
    for round_id, table_id, side, seat, entrant_pk in places:
        number = number_of[entrant_pk]
        if table_id is None or side is None:
            byes[round_id].append(number)
        else:
            pair = sides.get(table_id)
            if pair is None:
                pair = sides[table_id] = ([], [])
            pair[side].append((seat, number))
    deals = _deals(tournament) if with_results else {}
    gone: dict[int, list[int]] = defaultdict(list)
    for entrant in entrants:
        if entrant.withdrawn_before_round is not None:
            gone[entrant.withdrawn_before_round].append(entrant.number)
    engine_rounds = []
    results = []
    for round_ in rounds:
        rows = tables_of[round_.pk]
        engine_tables = []
        for table in rows:
            pair = sides[table.pk]
            engine_tables.append(
                _engine_table(table, (_side(pair[0]), _side(pair[1])), deals, with_results)
            )
        stage = round_.engine_stage
        if stage is not None:  # a round of the final bracket: tables only (§7)
            engine_rounds.append(
                tournament_engine.Round(
                    tuple(engine_tables), written=("stage", "tables"), stage=stage
                )
            )
        else:
            engine_rounds.append(
                tournament_engine.Round(
                    tuple(engine_tables),
                    tuple(sorted(byes[round_.pk])),
                    tuple(sorted(gone.get(round_.number, ()))),
                    ("tables", "byes", "withdrawn"),
                )
            )
        outcomes = tuple(table_result(table) for table in rows)
        results.append(RoundResult(outcomes, bye_points(settings.bye, settings.partie, outcomes)))
    engine = tournament_engine.Tournament(
        settings=settings,
        entrants=tuple(engine_entrant(entrant, melee) for entrant in entrants),
        rounds=tuple(engine_rounds),
        name=tournament.name,
        date=tournament.date.isoformat() if tournament.date else None,
    )
    return Snapshot(
        engine,
        tuple(results),
        rounds,
        tuple(tuple(tables_of[r.pk]) for r in rounds),
        entrants,
        everyone,
    )


def _side(seats: list[tuple[int, int]]) -> tuple[int, ...]:
    if len(seats) == 1:
        return (seats[0][1],)
    return tuple(number for _, number in sorted(seats))


def _deals(tournament: Tournament) -> dict[int, list[Deal]]:
    """Every table match's deals in playing order, by match id (one query)."""
    out: dict[int, list[Deal]] = defaultdict(list)
    rows = Deal.objects.filter(match__concours_table__round__tournament=tournament).order_by(
        "match_id", "seq"
    )
    for row in rows:
        out[row.match_id].append(row)
    return out


def _engine_table(
    table: TableRow,
    sides: tuple[tuple[int, ...], tuple[int, ...]],
    deals: dict[int, list[Deal]],
    with_results: bool,
) -> tournament_engine.Table:
    if not with_results:
        return tournament_engine.Table(table.number, sides, written=("table", "sides"))
    if table.paper is not None:
        return tournament_engine.Table(
            table.number, sides, totals=table.paper, written=("table", "sides", "totals")
        )
    rows = deals.get(table.match_id or 0, [])
    if not rows and not table.ended:
        return tournament_engine.Table(table.number, sides, written=("table", "sides"))
    return tournament_engine.Table(
        table.number,
        sides,
        deals=tuple(row.to_engine() for row in rows),
        first_dealer=table.first_dealer,
        ended=table.ended,
        written=("table", "sides", "deals", "first_dealer", "ended"),
    )


def cut(
    snap: Snapshot, after_round: int | None
) -> tuple[tournament_engine.Tournament, tuple[RoundResult, ...]]:
    """The engine's tournament and results up to round `after_round` (None: every round)."""
    engine, results = snap.engine, snap.results
    if after_round is None:
        return engine, results
    engine = tournament_engine.Tournament(
        settings=engine.settings,
        entrants=engine.entrants,
        rounds=engine.rounds[:after_round],
        name=engine.name,
        date=engine.date,
    )
    return engine, results[:after_round]


def standings(tournament: Tournament, after_round: int | None = None) -> tuple[Standing, ...]:
    """The ranked standings after round `after_round` (1-based; None: every round drawn, the
    final ranking once the concours is finished), with every tie-break figure."""
    return standings_of(snapshot(tournament), after_round)


def standings_of(snap: Snapshot, after_round: int | None = None) -> tuple[Standing, ...]:
    """`standings` from a snapshot already read (a page computes them once)."""
    return tournament_engine.standings(*cut(snap, after_round))


def standings_rows(
    tournament: Tournament, after_round: int | None = None, *, snap: Snapshot | None = None
) -> list[dict[str, Any]]:
    """The standings as plain rows (docs/tournaments.md §6's `standings`), with each entrant's prize
    (`with_prizes`) and its `tie_break` (the criterion that put it after the row above, level
    until then; None where no tie was broken: words.criterion_words says it); `snap`: the
    tournament's snapshot when the caller has read it already.
    With a final bracket played out (§7) and every round read (`after_round` None or the last),
    the final ranking: the rows ordered by `final_place` (not settled yet: last, in qualifying
    order), each with its `qualifying_rank` and its `rank` the final place, prizes by place."""
    if snap is None:
        snap = snapshot(tournament)
    ranking = snap.engine.settings.ranking
    rows_ = standings_of(snap, after_round)
    places = final_places(snap) if after_round is None or after_round >= len(snap.rounds) else None
    rows = [tournament_engine.standing_to_dict(row, ranking, places) for row in rows_]
    for row, standing in zip(rows, rows_, strict=True):
        row["tie_break"] = standing.tie_break
    if places is not None:
        rows = by_final_place(rows, bracket_size(snap))
    with_prizes(rows, tournament.prizes)
    return rows


def bracket_of(snap: Snapshot) -> tournament_engine.Bracket | None:
    """The final bracket as the engine walks it (docs/tournaments.md §7), None without one."""
    return tournament_engine.bracket_state(snap.engine, snap.results)


def bracket_size(snap: Snapshot) -> int:
    """How many entrants the final bracket seeds (0 without one)."""
    final = snap.engine.settings.final
    return final.size if final is not None else 0


def final_places(snap: Snapshot) -> dict[int, int | None] | None:
    """Each entrant's final place once the bracket is complete (None for a concours without a
    final bracket, or while its bracket is not played out: the standings stay those of the
    qualifying rounds until then)."""
    bracket = bracket_of(snap)
    if bracket is None or not bracket.seeds or not bracket.complete:
        return None
    return bracket.places


def by_final_place(rows: list[dict[str, Any]], size: int) -> list[dict[str, Any]]:
    """Rows with a `final_place` as the final ranking: by place (an unsettled one after, in
    their qualifying order), `rank` the place, `qualifying_rank` the standings' rank. `size`:
    the bracket's; a qualifying tie broken (`tie_break`) still says why a row follows the one
    above only outside the bracket, where both keep their qualifying order one after the
    other (a bracket's places are not ties broken by a criterion)."""

    def outside(row: dict[str, Any]) -> bool:
        return row["final_place"] is not None and row["final_place"] > size

    order = sorted(
        range(len(rows)),
        key=lambda i: (rows[i]["final_place"] is None, rows[i]["final_place"] or 0, i),
    )
    out = []
    for at, i in enumerate(order):
        row = rows[i]
        row["qualifying_rank"] = row["rank"]
        if row["final_place"] is not None:
            row["rank"] = row["final_place"]
        follows = at > 0 and order[at - 1] == i - 1 and outside(rows[i - 1])
        if not (follows and outside(row)):
            row["tie_break"] = None
        out.append(row)
    return out


@dataclass(frozen=True)
class Progress:
    """Where a concours stands: `more`: a round may still be drawn once the last is closed
    (a qualifying round, or the next round of the final bracket); `complete`: every planned
    round is played (with a final bracket: the bracket is complete, or it cannot be seeded);
    `bracket`: the final bracket, None without one."""

    more: bool
    complete: bool
    bracket: tournament_engine.Bracket | None


def progress(snap: Snapshot) -> Progress:
    settings = snap.engine.settings
    drawn = len(snap.rounds)
    if settings.final is None:
        return Progress(drawn < settings.rounds, drawn >= settings.rounds, None)
    bracket = bracket_of(snap)
    assert bracket is not None
    if drawn < settings.rounds:
        return Progress(True, False, bracket)
    if not (not snap.results or snap.results[-1].finished):
        return Progress(True, False, bracket)  # the last round still playing
    complete = bracket.complete or bracket.short is not None
    return Progress(bracket.next is not None, complete, bracket)


def with_prizes(rows: Sequence[dict[str, Any]], prizes: object) -> None:
    """Gives each row of a ranking (a dict with its "rank") its "prize", its own, and "shared":
    ex æquo on a prize rank, the prizes its tied group shares out (tournament_engine.prizes: no prize
    given twice, none dropped). `prizes`: a concours's as stored. The one place every ranking
    that shows prizes reads them: the desk, the public page, the projector, the CSV, the print,
    the club pages."""
    awards = award_prizes([int(row["rank"]) for row in rows], prize_table(prizes))
    for row, award in zip(rows, awards, strict=True):
        row["prize"] = award.prize
        row["shared"] = list(award.shared)


def prize_ties(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The groups of rows ex æquo on a prize rank (`with_prizes`), for the note under a ranking:
    each its rank, its entrants' names and the prizes they share out."""
    ties: dict[int, dict[str, Any]] = {}
    for row in rows:
        if row.get("shared"):
            group = ties.setdefault(
                int(row["rank"]), {"rank": row["rank"], "names": [], "prizes": row["shared"]}
            )
            group["names"].append(row["name"])
    return list(ties.values())


def final_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """The final ranking as the club pages keep it (`Tournament.final_standings["rows"]`): each
    entrant's rank, number, name, points, wins and, for a team, its two players' names. With a
    final bracket (docs/tournaments.md §7) the rank is the final place, in its order."""
    melee = tournament.melee
    players = {
        entrant.number: [entrant.player1, entrant.player2]
        for entrant in tournament.entrants.all()
        if not melee
    }
    snap = snapshot(tournament)
    places = final_places(snap)
    rows = [tournament_engine.standing_to_dict(row, (), places) for row in standings_of(snap)]
    if places is not None:
        rows = by_final_place(rows, bracket_size(snap))
    return [
        {
            "rank": row["rank"],
            "id": row["id"],
            "name": row["name"],
            "points": row["points"],
            "wins": row["wins"],
            "players": players.get(row["id"], []),
        }
        for row in rows
    ]


def export_document(tournament: Tournament) -> dict[str, Any]:
    """The tournament as a `belote-tournament/1` document (tournament_engine.tfile), each table with its
    paper totals or its deals, and its place and prizes (by place) when it has them: an import
    gives them back, and with them the same ex æquo prize notes."""
    snap = snapshot(tournament, with_results=True)
    prizes = tuple(
        tournament_engine.Prize(place, prize)
        for place, prize in sorted(prize_table(tournament.prizes).items())
    )
    engine = replace(snap.engine, place=tournament.place or None, prizes=prizes or None)
    return tournament_engine.dump_tournament(engine)


def change_key(*, public_token: str) -> str | None:
    """What a standings poll compares (the projector's ETag): the tournament's version and the
    sum of the versions of the matches of its open rounds (a match's version only grows, so any
    deal scored anywhere moves it), in one query; None for an unknown token."""
    found = (
        Tournament.objects.filter(public_token=public_token)
        .annotate(
            moves=Sum("rounds__tables__match__version", filter=Q(rounds__closed_at__isnull=True))
        )
        .values_list("version", "moves")
        .first()
    )
    if found is None:
        return None
    return f"{found[0]}.{found[1] or 0}"


def table_match_count(tournament: Tournament) -> int:
    """How many table matches of the concours are alive (what deleting it deletes with it)."""
    return Table.objects.filter(
        round__tournament=tournament, match__isnull=False, match__deleted_at__isnull=True
    ).count()


# Where a match was played: a table of a concours (the history's rows, a player page) ---------

# How a table match's owner key starts (services.match_owner_key: "concours-<id>"); whether a
# match is a table is Match.in_concours (a list asks for its concours only when one is).
CONCOURS_KEY = "concours-"


@dataclass(frozen=True)
class Seated:
    """An entrant at a table: its name and, once the concours is finished, its final place."""

    name: str
    rank: int | None


@dataclass(frozen=True)
class PlayedIn:
    """A table match's concours: its name, the table's round of the rounds planned, the table's
    number, whether the concours is finished, and the entrants of each side with their final
    place (None while the concours runs)."""

    tournament_id: int
    name: str
    round: int
    rounds: int
    table: int
    finished: bool
    sides: tuple[tuple[Seated, ...], tuple[Seated, ...]]


def planned_rounds(tournament: Tournament) -> int:
    """Every round the concours plays: its qualifying rounds and its final bracket's (§7)."""
    settings = tournament.settings
    rounds = int(settings.get("rounds", 0))
    final = tournament.engine_settings.final if settings.get("final") else None
    return rounds + (len(tournament_engine.sequence(final)) if final is not None else 0)


def _final_ranks(tournament: Tournament) -> dict[int, int]:
    """A finished concours's final place of each entrant (by number), as its finish stored it
    (`final_standings`); empty while it runs, or when none is stored."""
    if tournament.status != Tournament.Status.FINISHED or not tournament.final_standings:
        return {}
    rows = tournament.final_standings.get("rows", [])
    return {int(row["id"]): int(row["rank"]) for row in rows if "id" in row and "rank" in row}


def played_in(match_ids: Sequence[int]) -> dict[int, PlayedIn]:
    """The concours of each of these matches that is a table (by match id), in two queries
    whatever their number: the tables with their rounds and concours, then who sat there."""
    if not match_ids:
        return {}
    tables = list(
        Table.objects.filter(match_id__in=list(match_ids)).select_related("round__tournament")
    )
    if not tables:
        return {}
    places: dict[int, list[Place]] = defaultdict(list)
    for place in Place.objects.filter(table__in=tables).select_related("entrant"):
        assert place.table_id is not None
        places[place.table_id].append(place)
    ranks: dict[int, dict[int, int]] = {}
    out = {}
    for table in tables:
        tournament = table.round.tournament
        if tournament.pk not in ranks:
            ranks[tournament.pk] = _final_ranks(tournament)
        sides: list[list[Seated]] = [[], []]
        for place in sorted(places[table.pk], key=lambda p: (p.side or 0, p.seat)):
            rank = ranks[tournament.pk].get(place.entrant.number)
            sides[place.side or 0].append(Seated(place.entrant.name, rank))
        assert table.match_id is not None
        out[table.match_id] = PlayedIn(
            tournament_id=tournament.pk,
            name=tournament.name,
            round=table.round.number,
            rounds=planned_rounds(tournament),
            table=table.number,
            finished=tournament.status == Tournament.Status.FINISHED,
            sides=(tuple(sides[0]), tuple(sides[1])),
        )
    return out


@dataclass(frozen=True)
class PlayerConcours:
    """A concours a player played in (as far as the viewer may see): its name and date, the
    entrant they played as, its final place once finished, else the last round they played."""

    tournament_id: int
    name: str
    date: Any
    entrant: str
    rank: int | None
    finished: bool
    round: int
    rounds: int


def player_concours(seats: QuerySet[Seat]) -> list[PlayerConcours]:
    """The concours of a player's seats (the caller's Seat query: the player's names, at the
    matches the viewer may see), newest first, in three queries: the seats at tables, who sat
    there, and the concours."""
    rows = list(
        seats.filter(match__concours_table__isnull=False).values_list(
            "position",
            "match__concours_table__id",
            "match__concours_table__round__number",
            "match__concours_table__round__tournament_id",
        )
    )
    if not rows:
        return []
    tables = {table_id for _, table_id, _, _ in rows}
    entrants = {
        (table_id, side, seat): (number, name)
        for table_id, side, seat, number, name in Place.objects.filter(
            table_id__in=tables
        ).values_list("table_id", "side", "seat", "entrant__number", "entrant__name")
    }
    tournaments = Tournament.objects.in_bulk({t for _, _, _, t in rows})
    latest: dict[int, tuple[int, int, str]] = {}  # tournament -> (round, entrant number, name)
    for position, table_id, round_number, tournament_id in rows:
        melee = tournaments[tournament_id].melee
        key = (table_id, position % 2, position // 2 if melee else 0)
        if key not in entrants:
            continue
        number, name = entrants[key]
        if tournament_id not in latest or round_number > latest[tournament_id][0]:
            latest[tournament_id] = (round_number, number, name)
    out = []
    for tournament_id, (round_number, number, name) in latest.items():
        tournament = tournaments[tournament_id]
        finished = tournament.status == Tournament.Status.FINISHED
        out.append(
            PlayerConcours(
                tournament_id=tournament_id,
                name=tournament.name,
                date=tournament.date,
                entrant=name,
                rank=_final_ranks(tournament).get(number) if finished else None,
                finished=finished,
                round=round_number,
                rounds=planned_rounds(tournament),
            )
        )
    return sorted(out, key=lambda c: (c.date is not None, c.date, c.tournament_id), reverse=True)
