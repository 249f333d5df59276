"""A concours whose ties are broken by every kind of criterion (issue 42): eight teams, three
rounds typed from paper, ranked by wins, head to head, opponents' points, opponents' opponents'
wins and lots. Teams 1, 8 and 5 end on 3,100 points and 1.5 wins each; what orders them is
head to head, then opponents' points."""

import json
from typing import Any

from django.contrib.auth.models import User

from scorekeeper.concours import services
from scorekeeper.concours.models import Tournament

RANKING = ["wins", "head_to_head", "opponents_points", "opponents_opponents_wins", "lots"]
NAMES = [
    "Les As", "Pique Dame", "Trèfle d'Or", "Carreau Magique", "Cœur Vaillant", "Atout Maître",
    "Belote et Rebelote", "Les Rois du Pique",
]  # fmt: skip
# (table, side 0, side 1, totals) a round.
ROUNDS = [
    [(1, 1, 8, (1100, 1100)), (2, 2, 7, (900, 1100)), (3, 3, 6, (1100, 1100)),
     (4, 4, 5, (1100, 1100))],
    [(1, 1, 7, (900, 1100)), (2, 8, 6, (1000, 1000)), (3, 2, 5, (1100, 900)),
     (4, 3, 4, (1100, 1000))],
    [(1, 1, 6, (1100, 1000)), (2, 7, 5, (1000, 1100)), (3, 8, 4, (1000, 1000)),
     (4, 2, 3, (900, 900))],
]  # fmt: skip
# The standings, as the engine ranks them: (rank, id, the criterion that broke its tie with
# the row above).
EXPECTED = [
    (1, 3, None), (2, 7, "opponents_opponents_wins"), (3, 2, None), (4, 1, "head_to_head"),
    (5, 8, "opponents_points"), (6, 5, "head_to_head"), (7, 6, None), (8, 4, "lots"),
]  # fmt: skip


def document(
    names: list[str] = NAMES, ranking: list[str] = RANKING, **extra: Any
) -> dict[str, Any]:
    """The concours as a belote-tournament/1 document, its teams called `names`, ranked by
    `ranking` (`extra`: more top-level keys)."""
    return {
        "format": "belote-tournament/1",
        "name": "Concours de la Saint-Martin",
        "date": "2026-11-11",
        **extra,
        "settings": {
            "mode": "teams",
            "rounds": 3,
            "partie": {"preset": "belote", "deals_limit": 12, "target": None},
            "pairing": "swiss",
            "ranking": ranking,
            "bye": {"points": "average", "win": False},
            "seed": 20261111,
        },
        "entrants": [
            {"id": i, "name": name, "players": [f"Joueur {2 * i - 1}", f"Joueur {2 * i}"]}
            for i, name in enumerate(names, start=1)
        ],
        "rounds": [
            {
                "tables": [
                    {"table": t, "sides": [a, b], "totals": list(totals)}
                    for t, a, b, totals in tables
                ],
                "byes": [],
                "withdrawn": [],
            }
            for tables in ROUNDS
        ],
    }


def tied_concours(
    owner: User, names: list[str] = NAMES, ranking: list[str] = RANKING, **extra: Any
) -> Tournament:
    """The concours imported for `owner`: every round closed, finished."""
    text = json.dumps(document(names, ranking, **extra))
    return services.import_tournament(owner=owner, text=text)
