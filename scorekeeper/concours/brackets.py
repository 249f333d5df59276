"""The final bracket (docs/tournaments.md §7) as the pages draw it: the engine's `Bracket` (see
`selectors.bracket_of`) turned into columns, one per round of each bracket (the main one, then
the consolation), each table with its two sides' names, seeds, points and who goes through,
in words. No query: the caller gives the entrants' names. Shared by the desk, the public page,
the projector and the print."""

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from scorekeeper.engine.tournament import (
    Bracket,
    BracketRound,
    BracketTable,
    Settings,
    sequence,
    standard_order,
)


def round_title(round_: BracketRound) -> str:
    """ "Quarter-finals", "Final", "Consolation semi-finals"..."""
    return title_of(round_.stage, round_.entrants)


def stage_title(settings: Settings, number: int) -> str:
    """The title of round `number` (1-based) when it is a round of the final bracket ("" for a
    qualifying round), from the settings alone (`sequence`: no standings read)."""
    final = settings.final
    index = number - settings.rounds - 1
    if final is None or index < 0:
        return ""
    steps = sequence(final)
    if index >= len(steps):
        return ""
    step = steps[index]
    size = final.size if step.stage == "final" else final.size // 2
    return title_of(step.stage, size >> (step.depth - 1))


def planned_rounds(settings: Settings) -> int:
    """Every round a concours plays: its qualifying rounds and its bracket's (§7)."""
    return settings.rounds + (len(sequence(settings.final)) if settings.final else 0)


def title_of(stage: str, entrants: int) -> str:
    """A bracket round's title from its stage and how many entrants it starts with."""
    main = stage == "final"
    if entrants == 2:
        return pgettext("bracket", "Final") if main else _("Consolation final")
    if entrants == 4:
        return _("Semi-finals") if main else _("Consolation semi-finals")
    if entrants == 8:
        return _("Quarter-finals") if main else _("Consolation quarter-finals")
    return (
        _("Round of %(count)s") % {"count": entrants}
        if main
        else _("Consolation round of %(count)s") % {"count": entrants}
    )


def _placeholder(round_: BracketRound, table: BracketTable, side: int, size: int) -> str:
    """What a side not known yet will be: a seed, the winner (or loser) of a table before."""
    if round_.depth == 1 and round_.stage == "final":
        return _("Seed %(seed)s") % {"seed": standard_order(size)[2 * (table.number - 1) + side]}
    if round_.depth == 1:
        return _("A first-round loser")
    if table.third_place:
        return _("Loser of semi-final %(table)s") % {"table": side + 1}
    return _("Winner of table %(table)s") % {"table": 2 * (table.number - 1) + side + 1}


def _table(
    round_: BracketRound, table: BracketTable, names: dict[int, str], size: int
) -> dict[str, Any]:
    sides = []
    for side in (0, 1):
        entrant = table.sides[side]
        sides.append(
            {
                "id": entrant,
                "name": names.get(entrant, "") if entrant is not None else "",
                "placeholder": ""
                if entrant is not None
                else _placeholder(round_, table, side, size),
                "seed": table.seeds[side],
                "points": table.points[side] if table.points is not None else None,
                "through": table.winner == side,
                "out": table.winner is not None and table.winner != side,
            }
        )
    tie = (
        table.status == "finished"
        and table.points is not None
        and table.points[0] == table.points[1]
    )
    better = sides[table.winner]["seed"] if tie and table.winner is not None else None
    return {
        "number": table.number,
        "round": round_.round,
        "status": table.status,
        "third_place": table.third_place,
        "title": pgettext("bracket", "Third place") if table.third_place else "",
        "sides": sides,
        "tie_note": (
            _("Equal totals: the better seed (%(seed)s) goes through.") % {"seed": better}
            if better is not None
            else ""
        ),
    }


def bracket_view(bracket: Bracket, names: dict[int, str]) -> dict[str, Any]:
    """The bracket for a template: `brackets` (the main one, then the consolation), each with
    its `columns` (a round each: title, file round number, tables), the `champion`'s name once
    the final is played, `short` (too few entrants to seed it), `seeded`."""
    groups: list[dict[str, Any]] = []
    for stage, title in (("final", _("Main bracket")), ("consolation", _("Consolation"))):
        columns = [
            {
                "title": round_title(round_),
                "round": round_.round,
                "depth": round_.depth,
                "tables": [_table(round_, t, names, bracket.size) for t in round_.tables],
            }
            for round_ in bracket.rounds
            if round_.stage == stage
        ]
        if columns:
            groups.append({"stage": stage, "title": title, "columns": columns})
    champion = next((n for n, place in bracket.places.items() if place == 1), None)
    return {
        "size": bracket.size,
        "columns": max((len(group["columns"]) for group in groups), default=1),
        "brackets": groups,
        "seeded": bool(bracket.seeds),
        "short": bracket.short,
        "complete": bracket.complete,
        "champion": names.get(champion, "") if champion is not None else "",
        "seeds": [
            {"seed": i, "name": names.get(entrant, "")}
            for i, entrant in enumerate(bracket.seeds, start=1)
        ],
    }
