"""A `belote-tournament/1` file imported as a new concours: read, checked and scored first with
nothing written (`prepare_import`), then written in one transaction (`write_import`)."""

import datetime
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from scorekeeper.engine import tournament as tournament_engine
from scorekeeper.engine.scoring import MatchFile, MatchResult, Team
from scorekeeper.engine.tournament import TournamentError
from scorekeeper.engine.tournament.settings import settings_to_dict
from scorekeeper.matches import services as match_services
from scorekeeper.matches.models import Match
from scorekeeper.web.folding import fold

from ..models import Entrant, Place, Round, Table, Tournament
from .base import Refused, match_owner_key
from .concours import _place, _prizes, concours_complete, store_final_standings
from .rounds import _table_names
from .tables import apply_result

# Deals a tournament file may hold to be imported (150 teams, 5 rounds of 12 deals: 4,500).
IMPORT_MAX_DEALS = 6_000


def _hold(tables: Sequence[Table]) -> None:
    """Imported tables' matches are held by the concours, those whose time was called ended
    (as call_time ends a drawn table's), those of closed rounds frozen (as a drawn table's match
    is, and as closing its round freezes it)."""
    Match.objects.filter(pk__in=[t.match_id for t in tables if t.match_id]).update(in_concours=True)
    for table in tables:
        if table.ended and table.match_id is not None:
            match_services.end_match(match_id=table.match_id)
    closed = [t.match_id for t in tables if t.match_id and t.round.closed_at is not None]
    Match.objects.filter(pk__in=closed).update(frozen_at=timezone.now())


@dataclass(frozen=True)
class PreparedImport:
    """A tournament file read, checked and scored, nothing written yet (`prepare_import`)."""

    engine: tournament_engine.Tournament
    entrants: dict[int, Entrant]
    files: list[MatchFile]
    scored: list[MatchResult]

    @property
    def deals(self) -> int:
        return file_deals(self.engine)


def file_deals(engine: tournament_engine.Tournament) -> int:
    """The deals a read tournament file holds: each is scored and stored on import."""
    return sum(len(table.deals or ()) for round_ in engine.rounds for table in round_.tables)


def import_tournament(*, owner: User, text: str | bytes) -> Tournament:
    """A `belote-tournament/1` file as a new concours of `owner` (a concours scored on paper,
    typed in later): its place and prizes, entrants, rounds, tables (paper totals, or deals: the
    table's match, owned as a drawn table's), byes and withdrawals. Every round whose tables are all finished
    is closed; the concours is finished when every planned round is. TournamentError (with its
    path) on a bad file or two entrants of one name, Refused over IMPORT_MAX_DEALS deals.

    The engine reads the file and scores every table's deals first, with nothing written
    (`prepare_import`); then one transaction writes it all in a few bulk inserts
    (`write_import`)."""
    return write_import(owner=owner, prepared=prepare_import(text))


def prepare_import(
    text: str | bytes, *, progress: Callable[[int, int], object] | None = None
) -> PreparedImport:
    """The file read and checked by the engine, two entrants of one name refused as the desk
    refuses them (`_name_taken`'s rule; TournamentError `duplicate` at the second one's name),
    its deals counted (Refused over IMPORT_MAX_DEALS, before any scoring), then every table's
    match scored. Nothing written; `progress(done, total)` after each round."""
    engine = tournament_engine.load_tournament(text)
    first: dict[str, int] = {}
    for index, entrant in enumerate(engine.entrants):
        seen = first.setdefault(fold(entrant.name), index)
        if seen != index:
            raise TournamentError(
                f"entrants[{index}].name", "duplicate", value=entrant.name,
                first=f"entrants[{seen}].name",
            )  # fmt: skip
    deals = file_deals(engine)
    if deals > IMPORT_MAX_DEALS:  # bounded work per file
        raise Refused("too_many_deals", deals=deals, limit=IMPORT_MAX_DEALS)
    gone = engine.withdrawal_round()
    entrants = {
        e.id: Entrant(
            number=e.id,
            name=e.name,
            player1=e.players[0] if e.players else "",
            player2=e.players[1] if e.players else "",
            from_round=e.from_round,
            present=True,
            withdrawn_before_round=gone.get(e.id),
        )
        for e in engine.entrants
    }
    files: list[MatchFile] = []
    scored: list[MatchResult] = []
    for number, round_ in enumerate(engine.rounds, start=1):
        for table in round_.tables:
            if table.totals is None:
                sides = [[entrants[n] for n in side] for side in table.sides]
                files.append(_match_file(engine.settings, sides, table, round_.stage))
                scored.append(files[-1].score())
        if progress is not None:
            progress(number, len(engine.rounds))
    return PreparedImport(engine, entrants, files, scored)


def _match_file(
    settings: tournament_engine.Settings,
    sides: Sequence[Sequence[Entrant]],
    table: tournament_engine.Table,
    stage: tournament_engine.Stage | None = None,
) -> MatchFile:
    """A table of a tournament file as a match file (its deals, none for a table not started),
    with the names `_create_match` gives a drawn table and its round's rules (a bracket round:
    the final's partie)."""
    teams, names = _table_names(settings.melee, sides)
    return MatchFile(
        rules=settings.rules_for(stage),
        teams=(Team(teams[0], (names[0], names[2])), Team(teams[1], (names[1], names[3]))),
        first_dealer=table.first_dealer or 0,
        deals=tuple(table.deals or ()),
    )


def write_import(*, owner: User, prepared: PreparedImport) -> Tournament:
    """A prepared file written as a new concours of `owner`, in one transaction."""
    return _write_import(owner, prepared.engine, prepared.entrants, prepared.files, prepared.scored)


@transaction.atomic
def _write_import(
    owner: User,
    engine: tournament_engine.Tournament,
    entrants: dict[int, Entrant],
    files: list[MatchFile],
    scored: list[MatchResult],
) -> Tournament:
    settings = engine.settings
    tournament = Tournament.objects.create(
        owner=owner,
        name=engine.name or "",
        date=datetime.date.fromisoformat(engine.date) if engine.date else None,
        place=_place(engine.place or ""),
        prizes=_prizes({prize.place: prize.prize for prize in engine.prizes or ()}),
        settings=settings_to_dict(settings),
    )
    for entrant in entrants.values():
        entrant.tournament = tournament
    Entrant.objects.bulk_create(entrants.values())
    results = tournament_engine.round_results(engine)
    tables: list[tuple[Table, list[list[Entrant]]]] = []
    byes: list[Place] = []
    for number, (drawn, result) in enumerate(zip(engine.rounds, results, strict=True), start=1):
        round_ = Round.objects.create(
            tournament=tournament,
            number=number,
            stage=drawn.stage or "",
            closed_at=timezone.now() if result.finished else None,
        )
        for table_data in drawn.tables:
            sides = [[entrants[n] for n in side] for side in table_data.sides]
            table = Table(round=round_, number=table_data.number, ended=table_data.ended)
            if table_data.totals is not None:
                table.paper0, table.paper1 = table_data.totals
            tables.append((table, sides))
        byes += [Place(round=round_, entrant=entrants[n]) for n in drawn.byes]
    matches = iter(
        match_services.import_matches(
            match_files=files,
            owner_key=match_owner_key(tournament),
            owner=owner,
            results=scored,
        )
    )
    for table, _sides in tables:
        if table.paper is None:  # the files are in the tables' order
            table.match = next(matches)
        apply_result(table, table.match)
    Table.objects.bulk_create([table for table, _sides in tables])
    _hold([table for table, _sides in tables])
    Place.objects.bulk_create(
        [
            Place(round=table.round, entrant=e, table=table, side=side, seat=seat)
            for table, sides in tables
            for side, members in enumerate(sides)
            for seat, e in enumerate(members)
        ]
        + byes
    )
    if engine.rounds:
        if concours_complete(engine, results):
            tournament.status = Tournament.Status.FINISHED
            tournament.finished_at = timezone.now()
        else:
            tournament.status = Tournament.Status.PLAYING
        tournament.save(update_fields=["status", "finished_at"])
        if tournament.status == Tournament.Status.FINISHED:
            store_final_standings(tournament=tournament)
    return tournament
