"""`tournament_standings FILE|-` and `pair_round FILE|- [--append]` (docs/tournaments.md §6): the JSON
they print, exactly in the spec's shapes, their exit codes, standard input, and no database."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import translation

from .builders import EXAMPLE_TEXT, Doc, doc, example, round_, table

ROOT = Path(__file__).resolve().parents[3]
EXIT_INVALID = 2
UNREACHABLE_DB = "postgres://nobody@127.0.0.1:1/none"
STANDING_KEYS = ["rank", "id", "name", "played", "won", "drawn", "lost", "byes", "wins", "points",
                 "conceded", "difference", "best_partie", "opponents_wins", "withdrawn"]  # fmt: skip


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> Any:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        input=stdin.encode() if stdin is not None else None,
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})},
        timeout=120,
        check=False,
    )


def ok(process: Any) -> Any:
    assert process.returncode == 0, process.stderr.decode()
    assert process.stderr == b""
    return json.loads(process.stdout.decode("utf-8"))


def refused(process: Any) -> dict[str, Any]:
    assert process.returncode == EXIT_INVALID, process.stderr.decode()
    data: dict[str, Any] = json.loads(process.stdout.decode("utf-8"))
    assert list(data) == ["error", "path"]
    assert isinstance(data["error"], str) and data["error"]
    assert b"Traceback" not in process.stderr
    return data


def write(tmp_path: Path, data: Doc, name: str = "concours.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def finished_example() -> Doc:
    data = example()
    data["rounds"][0]["tables"][1]["ended"] = True  # time called: 92 (+0) against 70
    return data


def test_standings_of_the_example(tmp_path: Path) -> None:
    out = ok(run("tournament_standings", "-", stdin=EXAMPLE_TEXT))
    assert list(out) == ["standings", "rounds"]
    for row in out["standings"]:
        assert list(row) == STANDING_KEYS
    first = out["standings"][0]
    assert first == {
        "rank": 1, "id": 1, "name": "Les As", "played": 1, "won": 1, "drawn": 0, "lost": 0,
        "byes": 0, "wins": 1, "points": 1712, "conceded": 1520, "difference": 192,
        "best_partie": 1712, "opponents_wins": 0, "withdrawn": False,
    }  # fmt: skip
    # Table 2 is under way: pending, its running totals, no winner; the bye's average counts
    # the finished table only: (1712 + 1520) / 2.
    assert out["rounds"] == [
        {
            "round": 1,
            "tables": [
                {"table": 1, "sides": [1, 3], "points": [1712, 1520], "winner": 0,
                 "status": "finished"},
                {"table": 2, "sides": [4, 5], "points": [92, 70], "winner": None,
                 "status": "pending"},
            ],
            "byes": [{"id": 6, "points": 1616}],
        }
    ]  # fmt: skip
    for item in out["rounds"][0]["tables"]:
        assert list(item) == ["table", "sides", "points", "winner", "status"]
    assert out == in_process("tournament_standings", str(write(tmp_path, example())))


def test_pair_round_and_append(tmp_path: Path) -> None:
    path = write(tmp_path, finished_example())
    drawn = in_process("pair_round", str(path))
    assert list(drawn) == ["round", "tables", "byes", "rematches"]
    assert drawn["round"] == 2
    assert all(list(t) == ["table", "sides"] for t in drawn["tables"])
    seated = sorted([e for t in drawn["tables"] for e in t["sides"]] + drawn["byes"])
    assert seated == [1, 2, 3, 4, 5, 6]  # 2 joins at round 2: six teams, no bye
    assert drawn["rematches"] == 0
    whole = ok(run("pair_round", "-", "--append", stdin=path.read_text(encoding="utf-8")))
    assert whole == {
        **finished_example(),
        "rounds": [
            *finished_example()["rounds"],
            {"tables": drawn["tables"], "byes": drawn["byes"], "withdrawn": []},
        ],
    }
    # Saved, it is a valid file whose standings list round 2 as pending.
    standings = in_process("tournament_standings", str(write(tmp_path, whole, "round2.json")))
    assert [t["status"] for t in standings["rounds"][1]["tables"]] == ["pending"] * 3
    assert standings["rounds"][1]["tables"][0]["points"] is None


def test_pair_round_refuses_while_a_table_plays() -> None:
    data = refused(run("pair_round", "-", stdin=EXAMPLE_TEXT))
    assert data == {
        "error": "table 2 of round 1 is not finished: the next round is drawn once every table "
        "has a result",
        "path": "rounds[0].tables[1]",
    }


def test_bad_files_exit_2_with_the_path(tmp_path: Path) -> None:
    bad = example()
    bad["rounds"][0]["byes"] = [6, 1]
    assert refused(run("tournament_standings", str(write(tmp_path, bad)))) == {
        "error": "entrant 1 has a table (rounds[0].tables[0].sides[0]) and a bye",
        "path": "rounds[0].byes[1]",
    }
    assert refused(run("pair_round", "-", stdin="{")) == {
        "error": "not valid JSON (line 1, column 2)",
        "path": "",
    }
    missing = refused(run("tournament_standings", str(tmp_path / "none.json")))
    assert missing["path"] == "" and "cannot read" in missing["error"]


def test_no_database_needed(tmp_path: Path) -> None:
    env = {"DATABASE_URL": UNREACHABLE_DB}
    ok(run("tournament_standings", "-", stdin=EXAMPLE_TEXT, env=env))
    ok(run("pair_round", str(write(tmp_path, finished_example())), env=env))
    missing = tmp_path / "no-folder" / "db.sqlite3"
    ok(
        run(
            "pair_round",
            "-",
            stdin=json.dumps(doc(4)),
            env={"DATABASE_URL": f"sqlite:///{missing}"},
        )
    )
    assert not missing.parent.exists()


# ---------------------------------------------------------------------------------------------
# In process (call_command): what the commands print, where the process itself is not the point
# (a process costs half a second of CPU; the tests above still run one for standard input, exit
# codes and the database left alone)


def call(*args: str, stdin: str | None = None) -> tuple[int, Any]:
    out = io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()))
    try:
        call_command(*args, stdout=out)
        code = 0
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    finally:
        sys.stdin = saved
    return code, json.loads(out.getvalue())


def in_process(*args: str) -> Any:
    """The JSON of a command that succeeds (exit code 0), run with call_command."""
    code, out = call(*args)
    assert code == 0, out
    return out


def test_call_command_withdraw_before_the_draw(tmp_path: Path) -> None:
    path = write(tmp_path, finished_example())
    code, whole = call("pair_round", str(path), "--append", "--withdraw", "3", "--withdraw", "6")
    assert code == 0
    last = whole["rounds"][-1]
    assert last["withdrawn"] == [3, 6]
    assert sorted(e for t in last["tables"] for e in t["sides"]) == [1, 2, 4, 5]
    code, error = call("pair_round", str(path), "--withdraw", "9")
    assert (code, error["path"]) == (EXIT_INVALID, "withdrawn[0]")


@pytest.mark.parametrize(
    ("data", "error", "path"),
    [
        (
            doc(4, rounds=[round_(table(1, 1, 2, (1, 0)), table(2, 3, 5, (1, 0)))]),
            "aucun inscrit n'a le numéro 5",
            "rounds[0].tables[1].sides[1]",
        ),
        (
            doc(4, pairing="dutch"),
            "doit être l'un de swiss, random, round_robin",
            "settings.pairing",
        ),
        (
            doc(4, rounds=[round_(table(1, 1, 2, (1, 0)), table(2, 3, 4))] * 2),
            "une partie tirée alors que la table 2 de la partie 1 n'est pas terminée",
            "rounds[1]",
        ),
    ],
)
def test_french_errors(tmp_path: Path, data: Doc, error: str, path: str) -> None:
    with translation.override("fr"):
        code, out = call("tournament_standings", str(write(tmp_path, data)), "--lang", "fr")
    assert code == EXIT_INVALID
    assert out == {"error": error, "path": path}


def test_a_scoring_error_is_worded_by_the_engine_texts(tmp_path: Path) -> None:
    data = doc(2, rounds=[round_(table(1, 1, 2, deals=[{"taker": 0, "trump": "hearts",
                                                        "taker_points": 170}]))])  # fmt: skip
    code, out = call("tournament_standings", str(write(tmp_path, data)))
    assert (code, out) == (
        EXIT_INVALID,
        {"error": "must be from 0 to 162", "path": "rounds[0].tables[0].deals[0].taker_points"},
    )
