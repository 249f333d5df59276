"""The JSON shapes the two commands print (docs/tournaments.md §6, §7)."""

from collections.abc import Mapping, Sequence
from typing import Any

from .bracket import Bracket, bracket_state
from .draws import Draw
from .settings import EXTRA_CRITERIA, Criterion
from .standings import RoundResult, Standing, half, round_results, standings
from .tfile import table_to_dict
from .tournament import Tournament


def _extra(row: Standing, name: Criterion) -> int | float:
    values: dict[str, int | float] = {
        "opponents_points": row.opponents_points,
        "opponents_opponents_wins": half(row.half_opponents_opponents_wins),
        "head_to_head": half(row.half_head_to_head),
        "lots": row.lots,
    }
    return values[name]


def standing_to_dict(
    row: Standing,
    ranking: Sequence[Criterion] = (),
    final_places: Mapping[int, int | None] | None = None,
) -> dict[str, Any]:
    """A standings row: the figures of §3, then each figure of `ranking` among
    `opponents_points`, `opponents_opponents_wins`, `head_to_head` and `lots` (in that order),
    then `withdrawn`, then `final_place` when `final_places` is given (a final bracket, §7)."""
    extra: dict[str, int | float] = {
        name: _extra(row, name) for name in EXTRA_CRITERIA if name in ranking
    }
    out: dict[str, Any] = {
        "rank": row.rank,
        "id": row.id,
        "name": row.name,
        "played": row.played,
        "won": row.won,
        "drawn": row.drawn,
        "lost": row.lost,
        "byes": row.byes,
        "wins": half(row.half_wins),
        "points": row.points,
        "conceded": row.conceded,
        "difference": row.difference,
        "best_partie": row.best_partie,
        "opponents_wins": half(row.half_opponents_wins),
        **extra,
        "withdrawn": row.withdrawn,
    }
    if final_places is not None:
        out["final_place"] = final_places[row.id]
    return out


def standings_report(tournament: Tournament) -> dict[str, Any]:
    """`tournament_standings`: the ranked standings, and every round's tables and byes. With a
    final bracket (§7): each row's `final_place`, and each bracket round's `stage`, its tables'
    `winner` being the side that goes through (the better seed on equal totals)."""
    results: tuple[RoundResult, ...] = round_results(tournament)
    settings = tournament.settings
    melee = settings.melee
    bracket = bracket_state(tournament, results)
    rounds = []
    for number, (round_, result) in enumerate(zip(tournament.rounds, results, strict=True), 1):
        through = _through(bracket, number)
        tables = [
            {
                "table": table.number,
                "sides": table_to_dict(table, melee)["sides"],
                "points": list(outcome.points) if outcome.points is not None else None,
                "winner": through.get(table.number, outcome.winner),
                "status": outcome.status,
            }
            for table, outcome in zip(round_.tables, result.tables, strict=True)
        ]
        if round_.stage is not None:
            rounds.append({"round": number, "stage": round_.stage, "tables": tables})
            continue
        byes = [{"id": entrant, "points": result.bye_points} for entrant in round_.byes]
        rounds.append({"round": number, "tables": tables, "byes": byes})
    rows = standings(tournament, results)
    places = bracket.places if bracket is not None else None
    out = [standing_to_dict(row, settings.ranking, places) for row in rows]
    return {"standings": out, "rounds": rounds}


def _through(bracket: Bracket | None, number: int) -> dict[int, object]:
    """Table number -> the side that went through, for the bracket round held by the file's
    round `number` (empty for a qualifying round)."""
    if bracket is None:
        return {}
    for round_ in bracket.rounds:
        if round_.round == number:
            return {t.number: t.winner for t in round_.tables if t.winner is not None}
    return {}


def draw_report(draw: Draw, melee: bool) -> dict[str, Any]:
    """`pair_round`: the drawn round (a bracket round: with its `stage`, §7)."""
    out: dict[str, Any] = {"round": draw.round}
    if draw.stage is not None:
        out["stage"] = draw.stage
    out["tables"] = [
        {"table": table.number, "sides": table_to_dict(table, melee)["sides"]}
        for table in draw.tables
    ]
    out["byes"] = list(draw.byes)
    out["rematches"] = draw.rematches
    return out
