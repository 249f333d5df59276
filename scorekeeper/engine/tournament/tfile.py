"""The `belote-tournament/1` file of docs/tournaments.md §6: strict parsing (unknown keys refused, every
error a TournamentError naming its path, the later place when something appears twice, reading the
file in order, a round's tables before its byes) and writing it back unchanged."""

import json
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..scoring import Deal, InvalidInput, deal_to_dict, parse_deal
from . import round_robin
from .bracket import check_bracket, sequence
from .draws import Draw
from .errors import TournamentError, from_scoring
from .readers import (
    join,
    read_bool,
    read_choice,
    read_date,
    read_int,
    read_list,
    read_name,
    read_object,
    read_text,
)
from .results import table_result
from .settings import Settings, Stage, settings_from_dict, settings_to_dict
from .standings import round_results
from .tournament import Entrant, Prize, Round, Side, Table, Tournament

FORMAT = "belote-tournament/1"
TOP_KEYS = ("format", "name", "date", "place", "prizes", "settings", "entrants", "rounds")
PRIZE_KEYS = ("place", "prize")
TEAM_KEYS = ("id", "name", "players", "from_round")
PLAYER_KEYS = ("id", "name", "from_round")
ROUND_KEYS = ("tables", "byes", "withdrawn", "stage")
STAGES: tuple[Stage, ...] = ("final", "consolation")
TABLE_KEYS = ("table", "sides", "totals", "deals", "first_dealer", "ended")
MAX_ID = 2**31 - 1
MAX_ENTRANTS = 1000
MAX_TABLES = 500
MAX_DEALS = 1000
MAX_NAME = 60
MAX_TOURNAMENT_NAME = 100
MAX_PLACE = 100  # the hall
MAX_PRIZE = 200
MAX_PRIZES = MAX_ENTRANTS
MAX_POINTS = 100_000


# ---------------------------------------------------------------------------------------------
# Shape


def _entrant(value: object, path: str, settings: Settings) -> Entrant:
    keys = PLAYER_KEYS if settings.melee else TEAM_KEYS
    required = ("id", "name") if settings.melee else ("id", "name", "players")
    data = read_object(value, path, keys, required)
    players = None
    if "players" in data:
        items = read_list(data["players"], join(path, "players"), 2)
        p1, p2 = (read_name(p, f"{path}.players[{i}]", MAX_NAME) for i, p in enumerate(items))
        players = (p1, p2)
    return Entrant(
        id=read_int(data["id"], join(path, "id"), 1, MAX_ID),
        name=read_name(data["name"], join(path, "name"), MAX_NAME),
        players=players,
        from_round=(
            read_int(data["from_round"], join(path, "from_round"), 1, settings.rounds)
            if "from_round" in data
            else 1
        ),
        written=tuple(data),
    )


def _prizes(value: object, path: str) -> tuple[Prize, ...]:
    """`prizes`: a list of {"place": 1, "prize": "a ham"}, each place once (the later one named
    when twice), each prize showing something."""
    items = read_list(value, path, most=MAX_PRIZES)
    out: list[Prize] = []
    seen: dict[int, int] = {}
    for index, item in enumerate(items):
        where = f"{path}[{index}]"
        data = read_object(item, where, PRIZE_KEYS, PRIZE_KEYS)
        place = read_int(data["place"], join(where, "place"), 1, MAX_ID)
        prize = read_name(data["prize"], join(where, "prize"), MAX_PRIZE)
        if place in seen:
            raise TournamentError(
                join(where, "place"), "duplicate", value=place, first=f"{path}[{seen[place]}].place"
            )
        seen[place] = index
        out.append(Prize(place, prize, tuple(data)))
    return tuple(out)


def _side(value: object, path: str, melee: bool) -> Side:
    if not melee:
        return (read_int(value, path, 1, MAX_ID),)
    items = read_list(value, path, 2)
    return tuple(read_int(item, f"{path}[{i}]", 1, MAX_ID) for i, item in enumerate(items))


def _deals(value: object, path: str) -> tuple[tuple[Deal, ...], str]:
    items = read_list(value, path, most=MAX_DEALS)
    try:
        deals = tuple(parse_deal(item, f"{path}[{i}]") for i, item in enumerate(items))
    except InvalidInput as error:
        raise from_scoring(error, "") from None
    return deals, json.dumps(items, ensure_ascii=False)


def _table(value: object, path: str, melee: bool) -> Table:
    data = read_object(value, path, TABLE_KEYS, ("table", "sides"))
    sides = read_list(data["sides"], join(path, "sides"), 2)
    side0, side1 = (_side(side, f"{path}.sides[{i}]", melee) for i, side in enumerate(sides))
    if "totals" in data and "deals" in data:
        later = max("totals", "deals", key=list(data).index)
        raise TournamentError(join(path, later), "totals_and_deals")
    for key in ("first_dealer", "ended"):
        if key in data and "deals" not in data:
            raise TournamentError(join(path, key), "needs_deals")
    totals = None
    if "totals" in data:
        items = read_list(data["totals"], join(path, "totals"), 2)
        t0, t1 = (read_int(t, f"{path}.totals[{i}]", 0, MAX_POINTS) for i, t in enumerate(items))
        totals = (t0, t1)
    deals, source = _deals(data["deals"], join(path, "deals")) if "deals" in data else (None, None)
    return Table(
        number=read_int(data["table"], join(path, "table"), 1, MAX_TABLES),
        sides=(side0, side1),
        totals=totals,
        deals=deals,
        first_dealer=(
            read_int(data["first_dealer"], join(path, "first_dealer"), 0, 3)
            if "first_dealer" in data
            else 0
        ),
        ended=read_bool(data["ended"], join(path, "ended")) if "ended" in data else False,
        written=tuple(data),
        deals_source=source,
    )


def _ids(value: object, path: str) -> tuple[int, ...]:
    items = read_list(value, path, most=MAX_ENTRANTS)
    return tuple(read_int(item, f"{path}[{i}]", 1, MAX_ID) for i, item in enumerate(items))


def _stage(data: Mapping[str, object], path: str, settings: Settings, index: int) -> Stage | None:
    """A round's `stage` (§7): none for the `rounds` qualifying rounds, "final" or "consolation"
    for the final bracket's, which have tables only."""
    if "stage" not in data:
        if index >= settings.rounds:  # only with a final: more rounds are refused before
            raise TournamentError(join(path, "stage"), "required")
        return None
    stage = read_choice(data["stage"], join(path, "stage"), STAGES)
    if settings.final is None:
        raise TournamentError(join(path, "stage"), "no_final")
    if index < settings.rounds:
        raise TournamentError(
            join(path, "stage"), "bracket_before_qualifying", rounds=settings.rounds
        )
    for key in ("byes", "withdrawn"):
        if key in data:
            raise TournamentError(join(path, key), "not_in_bracket")
    return "final" if stage == "final" else "consolation"


def _round(value: object, path: str, settings: Settings, index: int) -> Round:
    data = read_object(value, path, ROUND_KEYS, ("tables",))
    stage = _stage(data, path, settings, index)
    tables = read_list(data["tables"], join(path, "tables"), most=MAX_TABLES)
    melee = settings.melee
    return Round(
        tables=tuple(_table(t, f"{path}.tables[{i}]", melee) for i, t in enumerate(tables)),
        byes=_ids(data["byes"], join(path, "byes")) if "byes" in data else (),
        withdrawn=_ids(data["withdrawn"], join(path, "withdrawn")) if "withdrawn" in data else (),
        written=tuple(data),
        stage=stage,
    )


# ---------------------------------------------------------------------------------------------
# Meaning: ids, who is active, each entrant once a round, no round after a pending table


def _side_path(table_path: str, side: int, place: int, melee: bool) -> str:
    return f"{table_path}.sides[{side}]" + (f"[{place}]" if melee else "")


class _RoundCheck:
    """Each entrant at most once in a round (tables, then byes), known, and active."""

    def __init__(self, tournament: Tournament, by_id: dict[int, int], gone: dict[int, str]):
        self.tournament, self.by_id, self.gone = tournament, by_id, gone
        self.seen: dict[int, str] = {}

    def place(self, entrant_id: int, where: str, round_number: int, *, bye: bool) -> None:
        if entrant_id not in self.by_id:
            raise TournamentError(where, "unknown_entrant", id=entrant_id)
        if entrant_id in self.seen:
            first = self.seen[entrant_id]
            code = "playing_and_bye" if bye and ".byes[" not in first else "twice_in_round"
            raise TournamentError(where, code, id=entrant_id, first=first)
        entrant = self.tournament.entrants[self.by_id[entrant_id]]
        if entrant.from_round > round_number:
            raise TournamentError(
                where, "not_joined", id=entrant_id, round=round_number,
                from_round=entrant.from_round,
            )  # fmt: skip
        if entrant_id in self.gone:
            raise TournamentError(
                where, "withdrawn_entrant", id=entrant_id, first=self.gone[entrant_id]
            )
        self.seen[entrant_id] = where


def _check_entrants(tournament: Tournament) -> dict[int, int]:
    by_id: dict[int, int] = {}
    for index, entrant in enumerate(tournament.entrants):
        if entrant.id in by_id:
            raise TournamentError(
                f"entrants[{index}].id", "duplicate", value=entrant.id,
                first=f"entrants[{by_id[entrant.id]}].id",
            )  # fmt: skip
        by_id[entrant.id] = index
        if entrant.from_round > 1 and tournament.settings.pairing == "round_robin":
            raise TournamentError(f"entrants[{index}].from_round", "round_robin_late_entry")
        if entrant.from_round > tournament.settings.rounds:
            raise TournamentError(
                f"entrants[{index}].from_round", "out_of_range", min=1,
                max=tournament.settings.rounds,
            )  # fmt: skip
    return by_id


def _check_round_robin(tournament: Tournament, r: int, teams: list[int]) -> None:
    """§7: a round of a round robin is the schedule's round (its pairs and its byes; table
    numbers and which side a team sits on are free)."""
    path, number = f"rounds[{r}]", r + 1
    round_ = tournament.rounds[r]
    schedule = round_robin.schedule_round(
        teams, number, round_robin.gone_before(tournament, number)
    )
    for t, table in enumerate(round_.tables):
        a, b = table.sides[0][0], table.sides[1][0]
        expected = schedule.opponent(a)
        if expected is None:
            raise TournamentError(
                f"{path}.tables[{t}].sides[0]", "round_robin_bye", id=a, round=number
            )
        if b != expected:
            raise TournamentError(
                f"{path}.tables[{t}].sides[1]", "round_robin_opponent", id=a, expected=expected,
                round=number,
            )  # fmt: skip
    for k, entrant_id in enumerate(round_.byes):
        if entrant_id not in schedule.byes:
            raise TournamentError(
                f"{path}.byes[{k}]", "round_robin_not_bye", id=entrant_id,
                expected=schedule.opponent(entrant_id), round=number,
            )  # fmt: skip


def round_limit(settings: Settings) -> int:
    """How many rounds a file may hold: the qualifying rounds, and the final bracket's."""
    return settings.rounds + (len(sequence(settings.final)) if settings.final else 0)


def _too_many_rounds(settings: Settings) -> TournamentError:
    limit = round_limit(settings)
    if settings.final is not None:
        return TournamentError(f"rounds[{limit}]", "bracket_complete", max=limit)
    return TournamentError(f"rounds[{limit}]", "too_many_rounds", max=settings.rounds)


def check_tournament(tournament: Tournament) -> None:
    """Every rule of §4-§7 that ties the parts of a file together; TournamentError at the later
    place of the first fault, reading the file in order."""
    settings = tournament.settings
    by_id = _check_entrants(tournament)
    if len(tournament.rounds) > round_limit(settings):
        raise _too_many_rounds(settings)
    teams = round_robin.entered(tournament)
    if settings.pairing == "round_robin" and tournament.rounds:
        most = round_robin.max_rounds(len(teams))
        if settings.rounds > most:
            raise TournamentError(
                "settings.rounds", "round_robin_rounds", max=max(most, 0), teams=len(teams)
            )
    gone: dict[int, str] = {}  # withdrawn entrant -> where
    pending: tuple[int, int] | None = None  # (round, table number) of a table not finished
    for r, round_ in enumerate(tournament.rounds):
        path = f"rounds[{r}]"
        if pending is not None:
            raise TournamentError(path, "round_after_pending", round=pending[0], table=pending[1])
        rules = settings.rules_for(round_.stage)
        if round_.stage is not None:
            _check_numbers(round_, path)
            pending = _pending(tournament, r)
            continue
        for k, entrant_id in enumerate(round_.withdrawn):
            where = f"{path}.withdrawn[{k}]"
            if entrant_id not in by_id:
                raise TournamentError(where, "unknown_entrant", id=entrant_id)
            if entrant_id in gone:
                raise TournamentError(
                    where, "already_withdrawn", id=entrant_id, first=gone[entrant_id]
                )
            gone[entrant_id] = where
        check = _RoundCheck(tournament, by_id, gone)
        _check_numbers(round_, path)
        for t, table in enumerate(round_.tables):
            table_path = f"{path}.tables[{t}]"
            for side, index, entrant_id in table.entrants():
                where = _side_path(table_path, side, index, settings.melee)
                check.place(entrant_id, where, r + 1, bye=False)
        for k, entrant_id in enumerate(round_.byes):
            check.place(entrant_id, f"{path}.byes[{k}]", r + 1, bye=True)
        for entrant_id in tournament.active(r + 1):
            if entrant_id not in check.seen:
                raise TournamentError(path, "not_drawn", id=entrant_id, round=r + 1)
        if settings.pairing == "round_robin":
            _check_round_robin(tournament, r, teams)
        for t, table in enumerate(round_.tables):
            if not table_result(rules, table, f"{path}.tables[{t}]").finished:
                pending = pending or (r + 1, table.number)
    if len(tournament.rounds) > settings.rounds:
        check_bracket(tournament, round_results(tournament))


def _check_numbers(round_: Round, path: str) -> None:
    """No table number twice in a round."""
    numbers: dict[int, int] = {}
    for t, table in enumerate(round_.tables):
        if table.number in numbers:
            raise TournamentError(
                f"{path}.tables[{t}].table", "duplicate", value=table.number,
                first=f"{path}.tables[{numbers[table.number]}].table",
            )  # fmt: skip
        numbers[table.number] = t


def _pending(tournament: Tournament, r: int) -> tuple[int, int] | None:
    """(round, table number) of the first table of round `r` (0-based) not finished."""
    round_ = tournament.rounds[r]
    rules = tournament.settings.rules_for(round_.stage)
    for t, table in enumerate(round_.tables):
        if not table_result(rules, table, f"rounds[{r}].tables[{t}]").finished:
            return (r + 1, table.number)
    return None


# ---------------------------------------------------------------------------------------------
# Reading and writing


def parse_tournament(value: object) -> Tournament:
    """A whole tournament document, checked in full. TournamentError (a subclass of the scoring
    engine's InvalidInput) whose path names the first offending field."""
    data = read_object(value, "", TOP_KEYS, ())
    if "format" not in data:
        raise TournamentError("format", "required")
    if data["format"] != FORMAT:
        raise TournamentError("format", "unsupported_format", expected=FORMAT)
    for key in ("name", "settings", "entrants", "rounds"):
        if key not in data:
            raise TournamentError(key, "required")
    try:
        settings = settings_from_dict(data["settings"])
    except TournamentError as error:
        raise error.under("settings") from None
    entrants = read_list(data["entrants"], "entrants", most=MAX_ENTRANTS)
    rounds = read_list(data["rounds"], "rounds")
    if len(rounds) > round_limit(settings):
        raise _too_many_rounds(settings)
    tournament = Tournament(
        settings=settings,
        entrants=tuple(_entrant(e, f"entrants[{i}]", settings) for i, e in enumerate(entrants)),
        rounds=tuple(_round(r, f"rounds[{i}]", settings, i) for i, r in enumerate(rounds)),
        name=read_name(data["name"], "name", MAX_TOURNAMENT_NAME),
        date=read_date(data["date"], "date") if "date" in data else None,
        written=tuple(data),
        place=read_text(data["place"], "place", MAX_PLACE) if "place" in data else None,
        prizes=_prizes(data["prizes"], "prizes") if "prizes" in data else None,
    )
    check_tournament(tournament)
    return tournament


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:  # json would keep the last one: a typo must never pass silently
            raise TournamentError("", "duplicate_key", key=key)
        out[key] = value
    return out


def load_tournament(text: str | bytes) -> Tournament:
    """Parse a tournament document from JSON text."""
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except UnicodeDecodeError:
        raise TournamentError("", "json_not_utf8") from None
    except json.JSONDecodeError as error:
        raise TournamentError("", "json_invalid", line=error.lineno, column=error.colno) from None
    except RecursionError:
        raise TournamentError("", "json_too_deep") from None
    except TournamentError:
        raise
    except ValueError:  # e.g. a number too long to read
        raise TournamentError("", "json_unreadable") from None
    return parse_tournament(data)


def _ordered(written: Sequence[str], values: Mapping[str, tuple[bool, Any]]) -> dict[str, Any]:
    """`values` maps each key to (write it even if the file did not, its value), in the format's
    order; keys the file wrote come first, in its order (a key with no value any more is left
    out: `values` has no entry for it)."""
    out: dict[str, Any] = {}
    for key in written:
        if key in values:
            out[key] = values[key][1]
    for key, (always, value) in values.items():
        if key not in out and always:
            out[key] = value
    return out


def _side_out(side: Side, melee: bool) -> Any:
    return list(side) if melee else side[0]


def _deals_out(table: Table) -> list[Any]:
    assert table.deals is not None
    if table.deals_source is not None:
        source = json.loads(table.deals_source)
        if tuple(parse_deal(d) for d in source) == table.deals:
            return list(source)
    return [deal_to_dict(deal) for deal in table.deals]


def table_to_dict(table: Table, melee: bool) -> dict[str, Any]:
    values: dict[str, tuple[bool, Any]] = {
        "table": (True, table.number),
        "sides": (True, [_side_out(side, melee) for side in table.sides]),
    }
    if table.totals is not None:
        values["totals"] = (True, list(table.totals))
    if table.deals is not None:
        values["deals"] = (True, _deals_out(table))
        values["first_dealer"] = (table.first_dealer != 0, table.first_dealer)
        values["ended"] = (table.ended, table.ended)
    return _ordered(table.written, values)


def round_to_dict(round_: Round, melee: bool) -> dict[str, Any]:
    values: dict[str, tuple[bool, Any]] = {}
    if round_.stage is not None:
        values["stage"] = (True, round_.stage)
    values["tables"] = (True, [table_to_dict(table, melee) for table in round_.tables])
    if round_.stage is None:
        values["byes"] = (bool(round_.byes), list(round_.byes))
        values["withdrawn"] = (bool(round_.withdrawn), list(round_.withdrawn))
    return _ordered(round_.written, values)


def entrant_to_dict(entrant: Entrant) -> dict[str, Any]:
    values: dict[str, tuple[bool, Any]] = {"id": (True, entrant.id), "name": (True, entrant.name)}
    if entrant.players is not None:
        values["players"] = (True, list(entrant.players))
    values["from_round"] = (entrant.from_round != 1, entrant.from_round)
    return _ordered(entrant.written, values)


def prize_to_dict(prize: Prize) -> dict[str, Any]:
    values: dict[str, tuple[bool, Any]] = {
        "place": (True, prize.place),
        "prize": (True, prize.prize),
    }
    return _ordered(prize.written, values)


def dump_tournament(tournament: Tournament) -> dict[str, Any]:
    """The tournament document: a parsed file comes back as it was written (same keys, same
    order, same values); what the engine added (a drawn round) in the format's own order."""
    melee = tournament.settings.melee
    values: dict[str, tuple[bool, Any]] = {"format": (True, FORMAT)}
    if tournament.name is not None:
        values["name"] = (True, tournament.name)
    if tournament.date is not None:
        values["date"] = (True, tournament.date)
    if tournament.place is not None:
        values["place"] = (True, tournament.place)
    if tournament.prizes is not None:
        values["prizes"] = (True, [prize_to_dict(prize) for prize in tournament.prizes])
    values["settings"] = (True, settings_to_dict(tournament.settings))
    values["entrants"] = (True, [entrant_to_dict(e) for e in tournament.entrants])
    values["rounds"] = (True, [round_to_dict(r, melee) for r in tournament.rounds])
    return _ordered(tournament.written, values)


def append_round(tournament: Tournament, draw: Draw) -> Tournament:
    """The tournament with a drawn round added (tables without results)."""
    return replace(tournament, rounds=(*tournament.rounds, draw.as_round()))
