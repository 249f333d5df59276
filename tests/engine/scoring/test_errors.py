"""The engine's one error type: a path, a stable code and plain params, no sentence."""

from scorekeeper.engine.scoring import InvalidInput
from scorekeeper.engine.scoring.errors import join_path


def test_str_shows_path_code_and_params_for_a_log() -> None:
    error = InvalidInput("taker_points", "out_of_range", min=0, max=162)
    assert str(error) == "taker_points: out_of_range (min=0, max=162)"
    assert str(InvalidInput("", "json_too_deep")) == "json_too_deep"


def test_under_keeps_the_code_and_params() -> None:
    error = InvalidInput("high", "sequence_too_low", kind="tierce", high="8")
    seen = error.under("[1][0]").under("announcements").under("deals[2]")
    assert (seen.path, seen.code, seen.params) == (
        "deals[2].announcements[1][0].high", "sequence_too_low", {"kind": "tierce", "high": "8"},
    )  # fmt: skip
    assert InvalidInput("", "required").under("rules").path == "rules"
    assert error.under("") is error


def test_a_path_holding_a_control_character_is_printable() -> None:
    error = InvalidInput("teams[0].\x00", "unknown_key")
    assert error.path == "teams[0].\\u0000" and str(error).isprintable()
    assert join_path("deals[0]", "[1]") == "deals[0][1]"
