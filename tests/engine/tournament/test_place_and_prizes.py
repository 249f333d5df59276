"""The file's optional `place` and `prizes` (docs/tournaments.md §6, issue 42): read, refused
with their path, written back as they were, and ignored by the commands' rules (the standings and
the draw come out the same with or without them)."""

import json
from typing import Any

import pytest

from scorekeeper.engine.tournament import (
    Prize,
    TournamentError,
    append_round,
    draw_round,
    dump_tournament,
    load_tournament,
    parse_tournament,
    standings_report,
)

from .builders import Doc, doc, round_, table

PRIZES = [{"place": 1, "prize": "Un jambon"}, {"place": 2, "prize": "Deux bouteilles"},
          {"place": 4, "prize": "Une boîte de chocolats"}]  # fmt: skip


def with_them(**extra: Any) -> Doc:
    """Five teams, one round played, with `extra` beside the name and the date."""
    data = doc(5, rounds=[round_(table(1, 1, 2, (900, 800)), table(2, 3, 4, (700, 1000)),
                                 byes=[5])])  # fmt: skip
    out: Doc = {"format": data["format"], "name": "Concours", "date": "2026-11-11", **extra}
    return {**out, **{k: v for k, v in data.items() if k not in out}}


def test_place_and_prizes_are_read() -> None:
    tournament = parse_tournament(with_them(place="Salle des fêtes", prizes=PRIZES))
    assert tournament.place == "Salle des fêtes"
    assert tournament.prizes == (
        Prize(1, "Un jambon", ("place", "prize")),
        Prize(2, "Deux bouteilles", ("place", "prize")),
        Prize(4, "Une boîte de chocolats", ("place", "prize")),
    )
    bare = parse_tournament(with_them())
    assert bare.place is None and bare.prizes is None


@pytest.mark.parametrize(
    "extra",
    [
        {"place": "Salle des fêtes", "prizes": PRIZES},
        {"prizes": [{"prize": "Un jambon", "place": 3}], "place": " Foyer rural "},
        {"place": "", "prizes": []},
        {"prizes": list(reversed(PRIZES))},
    ],
    ids=["both", "written-in-another-order", "empty", "places-in-any-order"],
)
def test_written_back_as_they_were(extra: Doc) -> None:
    data = with_them(**extra)
    assert dump_tournament(parse_tournament(data)) == data
    assert json.dumps(dump_tournament(load_tournament(json.dumps(data)))) == json.dumps(data)


@pytest.mark.parametrize(
    ("extra", "path", "code"),
    [
        ({"place": 12}, "place", "not_string"),
        ({"place": "x" * 101}, "place", "too_long"),
        ({"place": "Salle\u202edes fêtes"}, "place", "direction_control"),
        ({"prizes": {"1": "Un jambon"}}, "prizes", "not_list"),
        ({"prizes": ["Un jambon"]}, "prizes[0]", "not_object"),
        ({"prizes": [{"place": 1}]}, "prizes[0].prize", "required"),
        ({"prizes": [{"prize": "Un jambon"}]}, "prizes[0].place", "required"),
        ({"prizes": [{"place": 1, "prize": "x", "rank": 1}]}, "prizes[0].rank", "unknown_key"),
        ({"prizes": [{"place": 0, "prize": "x"}]}, "prizes[0].place", "out_of_range"),
        ({"prizes": [{"place": "1", "prize": "x"}]}, "prizes[0].place", "not_integer"),
        ({"prizes": [{"place": 1, "prize": "   "}]}, "prizes[0].prize", "empty"),
        ({"prizes": [{"place": 1, "prize": "x" * 201}]}, "prizes[0].prize", "too_long"),
        ({"prizes": [*PRIZES, {"place": 2, "prize": "x"}]}, "prizes[3].place", "duplicate"),
    ],
)
def test_refusals_name_the_path(extra: Doc, path: str, code: str) -> None:
    with pytest.raises(TournamentError) as caught:
        parse_tournament(with_them(**extra))
    assert (caught.value.path, caught.value.code) == (path, code)


def test_a_place_twice_names_the_first() -> None:
    with pytest.raises(TournamentError) as caught:
        parse_tournament(with_them(prizes=[*PRIZES, {"place": 2, "prize": "x"}]))
    assert caught.value.params == {"value": 2, "first": "prizes[1].place"}


def test_the_rules_ignore_them() -> None:
    """The standings and the next draw are the same with the place and prizes or without."""
    plain = parse_tournament(with_them())
    dressed = parse_tournament(with_them(place="Salle des fêtes", prizes=PRIZES))
    assert standings_report(dressed) == standings_report(plain)
    assert draw_round(dressed) == draw_round(plain)
    # `pair_round --append` writes them back with the drawn round.
    longer = dump_tournament(append_round(dressed, draw_round(dressed)))
    assert longer["place"] == "Salle des fêtes" and longer["prizes"] == PRIZES
    assert len(longer["rounds"]) == 2
