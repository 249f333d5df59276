"""The JSON shapes the two commands print (docs/tournaments.md §6)."""

from typing import Any

from .draws import Draw
from .standings import RoundResult, Standing, half, round_results, standings
from .tfile import table_to_dict
from .tournament import Tournament


def standing_to_dict(row: Standing) -> dict[str, Any]:
    return {
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
        "withdrawn": row.withdrawn,
    }


def standings_report(tournament: Tournament) -> dict[str, Any]:
    """`tournament_standings`: the ranked standings, and every round's tables and byes."""
    results: tuple[RoundResult, ...] = round_results(tournament)
    melee = tournament.settings.melee
    rounds = []
    for number, (round_, result) in enumerate(zip(tournament.rounds, results, strict=True), 1):
        tables = [
            {
                "table": table.number,
                "sides": table_to_dict(table, melee)["sides"],
                "points": list(outcome.points) if outcome.points is not None else None,
                "winner": outcome.winner,
                "status": outcome.status,
            }
            for table, outcome in zip(round_.tables, result.tables, strict=True)
        ]
        byes = [{"id": entrant, "points": result.bye_points} for entrant in round_.byes]
        rounds.append({"round": number, "tables": tables, "byes": byes})
    return {
        "standings": [standing_to_dict(row) for row in standings(tournament, results)],
        "rounds": rounds,
    }


def draw_report(draw: Draw, melee: bool) -> dict[str, Any]:
    """`pair_round`: the drawn round."""
    return {
        "round": draw.round,
        "tables": [
            {"table": table.number, "sides": table_to_dict(table, melee)["sides"]}
            for table in draw.tables
        ],
        "byes": list(draw.byes),
        "rematches": draw.rematches,
    }
