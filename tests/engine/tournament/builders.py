"""Small builders of belote-tournament/1 documents for the tests."""

import copy
import json
from typing import Any

from scorekeeper.engine.tournament import Tournament, parse_tournament

Doc = dict[str, Any]
FORMAT = "belote-tournament/1"

# The example of docs/tournaments.md §6, completed so it is a valid file: the entrants it draws
# (3 to 6) are listed, and table 2's partie is under way.
EXAMPLE_TEXT = """
{
  "format": "belote-tournament/1",
  "name": "Concours de la Saint-Martin",
  "date": "2026-11-11",
  "settings": {"mode": "teams", "rounds": 4, "partie": {"preset": "belote", "deals_limit": 12, "target": null},
               "pairing": "swiss", "ranking": ["points", "wins", "difference"],
               "bye": {"points": "average", "win": false}, "seed": 20261111},
  "entrants": [
    {"id": 1, "name": "Les As", "players": ["Alice", "Bruno"]},
    {"id": 2, "name": "Pique Dame", "players": ["Chloé", "David"], "from_round": 2},
    {"id": 3, "name": "Trèfle", "players": ["Emma", "Farid"]},
    {"id": 4, "name": "Carreau", "players": ["Gilles", "Hana"]},
    {"id": 5, "name": "Cœur", "players": ["Inès", "Jules"]},
    {"id": 6, "name": "Atout", "players": ["Karim", "Léa"]}
  ],
  "rounds": [
    {"tables": [
       {"table": 1, "sides": [1, 3], "totals": [1712, 1520]},
       {"table": 2, "sides": [4, 5], "deals": [{"taker": 0, "trump": "hearts", "taker_points": 92}], "ended": false}
     ],
     "byes": [6],
     "withdrawn": []}
  ]
}
"""  # noqa: E501  (the example, as the spec lays it out)


def example() -> Doc:
    data: Doc = json.loads(EXAMPLE_TEXT)
    return data


def doc(
    teams: int = 4,
    *,
    mode: str = "teams",
    rounds: list[Doc] | None = None,
    entrants: list[Doc] | None = None,
    **settings: Any,
) -> Doc:
    """A document with `teams` entrants (ids 1..n; players in mêlée), seed 7, and `settings`."""
    if entrants is None:
        if mode == "melee":
            entrants = [{"id": i, "name": f"Player {i}"} for i in range(1, teams + 1)]
        else:
            entrants = [
                {"id": i, "name": f"Team {i}", "players": [f"P{i}a", f"P{i}b"]}
                for i in range(1, teams + 1)
            ]
    return {
        "format": FORMAT,
        "name": "Test concours",
        "settings": {"mode": mode, "seed": 7, **settings},
        "entrants": entrants,
        "rounds": rounds or [],
    }


def table(number: int, a: Any, b: Any, totals: tuple[int, int] | None = None, **extra: Any) -> Doc:
    out: Doc = {"table": number, "sides": [a, b]}
    if totals is not None:
        out["totals"] = list(totals)
    out.update(extra)
    return out


def round_(*tables: Doc, byes: list[int] | None = None, withdrawn: list[int] | None = None) -> Doc:
    out: Doc = {"tables": list(tables), "byes": byes or []}
    if withdrawn is not None:
        out["withdrawn"] = withdrawn
    return out


def parse(data: Doc) -> Tournament:
    return parse_tournament(copy.deepcopy(data))
