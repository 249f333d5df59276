"""Typed readers of JSON values: each returns the value or raises a TournamentError at the path it
is given, with a stable code (`not_object`, `unknown_key`, `out_of_range`, ...)."""

import re
from collections.abc import Mapping, Sequence
from datetime import date
from typing import cast

from ..scoring.free_text import TextKind, text_fault
from .errors import TournamentError

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def read_object(
    value: object, path: str, allowed: Sequence[str], required: Sequence[str] = ()
) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise TournamentError(path, "not_object")
    for key in value:
        if key not in allowed:
            raise TournamentError(join(path, str(key)), "unknown_key")
    for key in required:
        if key not in value:
            raise TournamentError(join(path, key), "required")
    return cast(Mapping[str, object], value)


def read_int(value: object, path: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TournamentError(path, "not_integer")
    if not low <= value <= high:
        raise TournamentError(path, "out_of_range", min=low, max=high)
    return value


def read_bool(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise TournamentError(path, "not_boolean")
    return value


def read_list(
    value: object, path: str, length: int | None = None, most: int | None = None
) -> Sequence[object]:
    if not isinstance(value, list):
        raise TournamentError(path, "not_list")
    if length is not None and len(value) != length:
        raise TournamentError(path, "length", count=length)
    if most is not None and len(value) > most:
        raise TournamentError(path, "too_many", max=most)
    return value


def read_choice(value: object, path: str, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise TournamentError(path, "choice", choices=", ".join(choices))
    return value


def read_text(value: object, path: str, limit: int, kind: TextKind = "text") -> str:
    """A text of `kind` (engine/scoring/free_text.py, the one rule of every free text: no control character,
    direction control or broken character; a name shows something), at most `limit`
    characters. Kept as written (spaces around it included), so a file is written back unchanged."""
    if not isinstance(value, str):
        raise TournamentError(path, "not_string")
    fault = text_fault(value, kind)
    if fault is not None:
        raise TournamentError(path, fault.code, **fault.params)
    if len(value) > limit:
        raise TournamentError(path, "too_long", max=limit)
    return value


def read_name(value: object, path: str, limit: int) -> str:
    """A name: `read_text` of a text that must show something."""
    return read_text(value, path, limit, "name")


def read_date(value: object, path: str) -> str:
    """A calendar date written `YYYY-MM-DD`, kept as written."""
    if not isinstance(value, str) or not DATE.match(value):
        raise TournamentError(path, "bad_date")
    try:
        date.fromisoformat(value)
    except ValueError:
        raise TournamentError(path, "bad_date") from None
    return value
