"""`python manage.py score_match FILE|-` (docs/file-formats.md §1): the JSON it prints, its exit codes, and
that it needs no database."""

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]
FORMAT = "belote-match/1"
EXIT_INVALID = 2

# The example document of docs/file-formats.md §1.
EXAMPLE_TEXT = """
{
  "format": "belote-match/1",
  "rules": {"preset": "coinche", "target": 1000},
  "teams": [
    {"name": "Nous", "players": ["Alice", "Bruno"]},
    {"name": "Eux", "players": ["Chloé", "David"]}
  ],
  "first_dealer": 0,
  "deals": [
    {"taker": 0, "contract": 110, "trump": "hearts", "coinche": "coinche", "taker_points": 120, "belote": [1, 0]},
    {"taker": 1, "contract": 90, "trump": "no_trump", "taker_points": 95,
     "announcements": [[], [{"kind": "tierce", "high": "K"}]]},
    {"passed": true},
    {"taker": 0, "contract": "capot", "trump": "spades", "capot": 0}
  ]
}
"""  # noqa: E501  (the example, verbatim)

# Every resolved setting of the example's rules (preset `coinche` of docs/rules.md §7, target 1000).
EXAMPLE_RULES = {
    "preset": "coinche", "game": "coinche", "target": 1000, "deals_limit": None,
    "rounding": "half_up", "announcements": True, "announcements_resolution": "best_team",
    "sa_ta": True, "capot_cards": 252, "belote_points": 20, "generale_bid": 500,
    "generale_cards": None, "end_tie": "extra_deal", "belote_cannot_clinch": True,
    "success": "bid_and_beat", "made_scores": "points_and_contract", "multipliers": [2, 4],
    "multiplier_scope": "deal", "coinched_scores": "base",
    "capot_bid_scores": "total_and_contract", "failure_base": 160, "coinched_base": 160, "min_bid": 80,
    "max_bid": None, "capot_bid": 250,
}  # fmt: skip

# (number, dealer, outcome, scores, totals) of each deal of the example.
EXAMPLE_DEALS = [
    (1, 0, "made", [580, 0], [580, 0]),  # 2 × (160 + 110 + 20 belote)
    (2, 1, "made", [70, 210], [650, 210]),  # 95 + 20 tierce + 90 = 205 -> 210; 67 -> 70
    (3, 2, "passed", [0, 0], [650, 210]),
    (4, 3, "made", [500, 0], [1150, 210]),  # capot bid: 252 + 250 = 502 -> 500
]

OUTPUT_KEYS = ["rules", "deals", "totals", "reserve", "finished", "winner"]
DEAL_KEYS = {"number", "dealer", "outcome", "scores", "totals", "breakdown"}
OUTCOMES = {"made", "failed", "litige", "passed", "manual"}
CLASSIC_SETTINGS = {
    "preset", "game", "target", "deals_limit", "rounding", "announcements",
    "announcements_resolution", "sa_ta", "capot_cards", "belote_points", "generale_bid",
    "generale_cards", "end_tie", "belote_cannot_clinch", "failure_points", "litige",
}  # fmt: skip

# Classic belote, litige on the last deal: 81 each, the takers' 81 are held in reserve.
LITIGE: dict[str, Any] = {
    "format": FORMAT,
    "rules": {"preset": "belote"},
    "deals": [
        {"taker": 0, "trump": "hearts", "taker_points": 90, "belote": [1, 0]},
        {"taker": 1, "trump": "clubs", "taker_points": 81},
    ],
}

UNREACHABLE_DB = "postgres://nobody@127.0.0.1:1/none"


def run(
    *args: str, stdin: str | bytes | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """The real command, in a fresh interpreter, from the repository root."""
    return subprocess.run(
        [sys.executable, "manage.py", "score_match", *args],
        cwd=ROOT,
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})},
        timeout=120,
        check=False,
    )


def output(process: subprocess.CompletedProcess[bytes]) -> Any:
    return json.loads(process.stdout.decode("utf-8"))


def ok(process: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    assert process.returncode == 0, process.stderr.decode()
    data = output(process)
    assert isinstance(data, dict)
    return data


def refused(process: subprocess.CompletedProcess[bytes]) -> dict[str, Any]:
    assert process.returncode == EXIT_INVALID, process.stderr.decode()
    data = output(process)
    assert isinstance(data, dict)
    assert set(data) == {"error", "path"}
    assert isinstance(data["error"], str) and data["error"]
    assert isinstance(data["path"], str)
    assert b"Traceback" not in process.stderr
    return data


@pytest.fixture
def example_file(tmp_path: Path) -> Path:
    path = tmp_path / "match.json"
    path.write_text(EXAMPLE_TEXT, encoding="utf-8")
    return path


def write(tmp_path: Path, document: object, name: str = "match.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    return path


def assert_example_output(data: dict[str, Any]) -> None:
    """The exact shape of docs/file-formats.md §1's output, with the example's numbers."""
    assert list(data) == OUTPUT_KEYS
    assert data["rules"] == EXAMPLE_RULES
    assert isinstance(data["deals"], list)
    for deal in data["deals"]:
        assert set(deal) == DEAL_KEYS
        assert deal["outcome"] in OUTCOMES
        assert isinstance(deal["breakdown"], list) and deal["breakdown"]
        assert all(isinstance(line, str) and line for line in deal["breakdown"])
    rows = [
        (d["number"], d["dealer"], d["outcome"], d["scores"], d["totals"]) for d in data["deals"]
    ]
    assert rows == EXAMPLE_DEALS
    assert data["totals"] == [1150, 210]
    assert data["reserve"] == 0
    assert data["finished"] is True
    assert data["winner"] == 0


# ---------------------------------------------------------------------------------------------
# The real command, in a subprocess


def test_scores_a_file(example_file: Path) -> None:
    process = run(str(example_file))
    data = ok(process)
    assert_example_output(data)
    assert process.stderr == b""
    # One JSON object and nothing else on standard output.
    assert json.loads(process.stdout) == data


def test_reads_standard_input_with_a_dash(example_file: Path) -> None:
    from_stdin = ok(run("-", stdin=EXAMPLE_TEXT))
    assert_example_output(from_stdin)
    assert from_stdin == scored(str(example_file))  # the file, read in process


def test_bad_json_exits_2() -> None:
    data = refused(run("-", stdin='{"format": "belote-match/1", '))
    assert data["path"] == ""
    assert "JSON" in data["error"]


def test_json_nested_too_deeply_exits_2() -> None:
    assert refused(run("-", stdin="[" * 100_000))["path"] == ""


def test_bad_deal_exits_2(tmp_path: Path) -> None:
    document = json.loads(EXAMPLE_TEXT)
    document["deals"][3] = {"taker": 0, "contract": 80, "trump": "spades", "taker_points": 163}
    data = refused(run(str(write(tmp_path, document))))
    assert data["path"] == "deals[3].taker_points"


def test_deal_after_the_end_exits_2(tmp_path: Path) -> None:
    document = json.loads(EXAMPLE_TEXT)
    document["deals"].append({"passed": True})
    assert refused(run(str(write(tmp_path, document))))["path"] == "deals[4]"


def test_missing_file_exits_2(tmp_path: Path) -> None:
    data = refused(run(str(tmp_path / "no-such-match.json")))
    assert data["path"] == ""
    assert "no-such-match.json" in data["error"]


def test_needs_no_database(example_file: Path, tmp_path: Path) -> None:
    # An unreachable PostgreSQL server: any connection attempt would fail.
    data = ok(run(str(example_file), env={"DATABASE_URL": UNREACHABLE_DB}))
    assert_example_output(data)
    bad = refused(run("-", stdin="[", env={"DATABASE_URL": UNREACHABLE_DB}))
    assert bad["path"] == ""
    # An SQLite file in a folder that does not exist: opening it would fail, and nothing is
    # created.
    missing = tmp_path / "no-folder" / "db.sqlite3"
    data = ok(run("-", stdin=EXAMPLE_TEXT, env={"DATABASE_URL": f"sqlite:///{missing}"}))
    assert_example_output(data)
    assert not missing.parent.exists()


def test_an_output_that_is_not_utf8_still_gets_the_json(example_file: Path) -> None:
    process = run(str(example_file), env={"PYTHONIOENCODING": "ascii"})
    assert process.returncode == 0, process.stderr.decode()
    assert_example_output(json.loads(process.stdout.decode("ascii")))


# ---------------------------------------------------------------------------------------------
# The same command through call_command, for what it prints (a process costs half a second of
# CPU; the tests above cover the process's own part). pytest-django forbids database access in
# these tests, so they also show that scoring never touches it.


def call(*args: str, stdin: str | None = None) -> tuple[int, Any]:
    out = io.StringIO()
    saved = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8")
    try:
        call_command("score_match", *args, stdout=out)
        code = 0
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    finally:
        sys.stdin = saved
    return code, json.loads(out.getvalue())


def scored(*args: str) -> dict[str, Any]:
    """The command's JSON, run in process, for a match it scores (exit code 0)."""
    code, data = call(*args)
    assert code == 0
    assert isinstance(data, dict)
    return data


def test_french_breakdowns(example_file: Path) -> None:
    english = scored(str(example_file))
    french = scored(str(example_file), "--lang", "fr")

    def without_breakdowns(data: dict[str, Any]) -> dict[str, Any]:
        return {**data, "deals": [{**d, "breakdown": None} for d in data["deals"]]}

    assert without_breakdowns(french) == without_breakdowns(english)
    for en_deal, fr_deal in zip(english["deals"], french["deals"], strict=True):
        assert fr_deal["breakdown"] != en_deal["breakdown"]
    text = "\n".join(line for deal in french["deals"] for line in deal["breakdown"])
    assert "coinché" in text
    for word in ("Contract", "coinched", "Made", "All passed", "cards"):
        assert word not in text
    # The teams are named by their names, in both languages.
    assert "Nous" in text and "Eux" in text


def test_a_finished_match_reports_its_winner(tmp_path: Path) -> None:
    document = json.loads(EXAMPLE_TEXT)
    document["deals"] = [
        {"taker": 1, "contract": 160, "trump": "spades", "coinche": "surcoinche",
         "taker_points": 152, "belote": [0, 1]},
    ]  # fmt: skip
    data = scored(str(write(tmp_path, document)))
    # 4 × (160 + 160 + 20) = 1360 >= 1000.
    assert data["deals"][0]["scores"] == [0, 1360]
    assert (data["totals"], data["finished"], data["winner"]) == ([0, 1360], True, 1)


def test_a_match_under_way_has_no_winner(tmp_path: Path) -> None:
    document = json.loads(EXAMPLE_TEXT)
    del document["deals"][3]
    data = scored(str(write(tmp_path, document)))
    assert (data["totals"], data["finished"], data["winner"]) == ([650, 210], False, None)


def test_a_litige_keeps_a_reserve(tmp_path: Path) -> None:
    data = scored(str(write(tmp_path, LITIGE)))
    assert set(data["rules"]) == CLASSIC_SETTINGS
    assert data["rules"]["litige"] == "reserve"
    assert [d["outcome"] for d in data["deals"]] == ["made", "litige"]
    assert data["deals"][0]["scores"] == [110, 72]  # 90 + belote vs 72
    assert data["deals"][1]["scores"] == [81, 0]  # the defence scores; the takers' 81 are held
    assert data["reserve"] == 81
    assert (data["finished"], data["winner"]) == (False, None)


def test_call_command_file_and_stdin(example_file: Path) -> None:
    code, data = call(str(example_file))
    assert code == 0
    assert_example_output(data)
    assert call("-", stdin=EXAMPLE_TEXT) == (0, data)


def test_call_command_french(example_file: Path) -> None:
    code, data = call(str(example_file), "--lang", "fr")
    assert code == 0
    assert data["deals"][2]["breakdown"] != ["All passed"]
    assert any("coinché" in line for line in data["deals"][0]["breakdown"])


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"deals": [{"taker": 0, "contract": 75, "trump": "hearts", "taker_points": 90}]},
         "deals[0].contract"),
        ({"deals": [{"taker": 0, "contract": 80, "trump": "hearts", "taker_points": 90,
                     "belote": [0, 1], "bonus": 10}]}, "deals[0].bonus"),
        ({"rules": {"preset": "coinche-x3"},
          "deals": [{"taker": 1, "contract": 80, "trump": "no_trump", "taker_points": 90}]},
         "deals[0].trump"),
        ({"teams": [{"name": "A", "players": ["a", ""]}, {"name": "B"}]}, "teams[0].players[1]"),
        ({"first_dealer": 4}, "first_dealer"),
        ({"format": "belote-match/2"}, "format"),
    ],
)  # fmt: skip
def test_call_command_bad_input(tmp_path: Path, change: dict[str, Any], path: str) -> None:
    document = {**json.loads(EXAMPLE_TEXT), **change}
    code, data = call(str(write(tmp_path, document)))
    assert code == EXIT_INVALID
    assert set(data) == {"error", "path"}
    assert data["path"] == path


def test_call_command_litige_and_draw(tmp_path: Path) -> None:
    code, data = call(str(write(tmp_path, LITIGE)))
    assert (code, data["reserve"]) == (0, 81)

    draw = {
        "format": FORMAT,
        "rules": {"preset": "coinche", "target": None, "deals_limit": 2},
        "deals": [{"manual_scores": [100, 0]}, {"passed": True}, {"manual_scores": [0, 100]}],
    }
    code, data = call(str(write(tmp_path, draw, "draw.json")))
    assert code == 0
    assert [d["outcome"] for d in data["deals"]] == ["manual", "passed", "manual"]
    assert (data["totals"], data["finished"], data["winner"]) == ([100, 100], True, "draw")
