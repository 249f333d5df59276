"""The `belote-match/1` JSON format of docs/file-formats.md §1: strict parsing with errors that name the
path (`deals[3].taker_points`), serialising back, and the JSON shape of a scored match."""

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from .announcements import Announcement, Kind, Override, lowest_top
from .breakdown import Line
from .cards import Rank, Trump
from .deals import Coinche, Contract, Deal, ManualDeal, PassedDeal, PlayedDeal
from .errors import InvalidInput
from .free_text import check_name, check_note
from .match_scoring import MatchResult, score_match
from .rules import Rules, rules_from_dict

FORMAT = "belote-match/1"
MAX_NAME = 60
MAX_NOTE = 1000
TOP_KEYS = {"format", "rules", "teams", "first_dealer", "deals"}
DEAL_KEYS = {"passed", "note", "taker", "contract", "trump", "coinche", "taker_points", "capot",
             "generale", "belote", "announcements", "announcements_to", "manual_scores",
             "taker_player", "coinche_player"}  # fmt: skip
ANNOUNCEMENT_KEYS = {"kind", "high", "trump", "high_said"}


@dataclass(frozen=True, slots=True)
class Team:
    name: str
    players: tuple[str, str] | None = None


DEFAULT_TEAMS = (Team("Team 1"), Team("Team 2"))


@dataclass(frozen=True, slots=True)
class MatchFile:
    rules: Rules
    teams: tuple[Team, Team] = DEFAULT_TEAMS
    first_dealer: int = 0
    deals: tuple[Deal, ...] = ()

    def score(self) -> MatchResult:
        return score_match(self.rules, self.deals, self.first_dealer)


# Typed readers: each raises InvalidInput at the path it is given.
def _object(value: object, path: str, allowed: set[str]) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise InvalidInput(path, "not_object")
    for key in value:
        if key not in allowed:
            raise InvalidInput(_join(path, key), "unknown_key")
    return cast(Mapping[str, object], value)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _int(value: object, path: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInput(path, "not_integer")
    if not low <= value <= high:
        raise InvalidInput(path, "out_of_range", min=low, max=high)
    return value


def _bool(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidInput(path, "not_boolean")
    return value


def _text(value: object, path: str, limit: int, *, blank: bool = False) -> str:
    """A name (`blank=False`) or a note: no control character or broken one, a name visible."""
    if not isinstance(value, str):
        raise InvalidInput(path, "not_string")
    text = check_note(value, path) if blank else check_name(value, path)
    if len(text) > limit:
        raise InvalidInput(path, "too_long", max=limit)
    return text


def _list(value: object, path: str, length: int | None = None) -> Sequence[object]:
    if not isinstance(value, list):
        raise InvalidInput(path, "not_list")
    if length is not None and len(value) != length:
        raise InvalidInput(path, "length", count=length)
    return value


def _choice(value: object, path: str, choices: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in choices:
        raise InvalidInput(path, "choice", choices=", ".join(choices))
    return value


def _team(value: object, path: str) -> Team:
    data = _object(value, path, {"name", "players"})
    if "name" not in data:
        raise InvalidInput(_join(path, "name"), "required")
    name = _text(data["name"], _join(path, "name"), MAX_NAME)
    if "players" not in data:
        return Team(name)
    players = _list(data["players"], _join(path, "players"), 2)
    p1, p2 = (_text(p, f"{path}.players[{i}]", MAX_NAME) for i, p in enumerate(players))
    return Team(name, (p1, p2))


def _announcement(value: object, path: str) -> Announcement:
    data = _object(value, path, ANNOUNCEMENT_KEYS)
    for key in ("kind", "high"):
        if key not in data:
            raise InvalidInput(_join(path, key), "required")
    kind = Kind(_choice(data["kind"], _join(path, "kind"), [k.value for k in Kind]))
    high = Rank(_choice(data["high"], _join(path, "high"), [r.value for r in Rank]))
    trump = _bool(data.get("trump", False), _join(path, "trump"))
    # Not said at the table (it decided nothing): recorded as the lowest top card it can be.
    said = _bool(data.get("high_said", True), _join(path, "high_said"))
    if not said:
        if kind is Kind.CARRE:
            raise InvalidInput(_join(path, "high_said"), "carre_rank_said")
        if high is not lowest_top(kind):
            raise InvalidInput(
                _join(path, "high"), "unsaid_top_not_lowest", kind=kind.value, high=high.value
            )
    return Announcement(kind, high, trump, said)


def _pair_of_ints(value: object, path: str, high: int) -> tuple[int, int]:
    items = _list(value, path, 2)
    return (_int(items[0], f"{path}[0]", 0, high), _int(items[1], f"{path}[1]", 0, high))


def _played(data: Mapping[str, object], path: str) -> PlayedDeal:
    def at(key: str) -> str:
        return _join(path, key)

    for key in ("taker", "trump"):
        if key not in data:
            raise InvalidInput(at(key), "required")
    contract: Contract = None
    if "contract" in data:
        raw = data["contract"]
        if raw in ("capot", "generale"):
            contract = cast(Contract, raw)
        elif isinstance(raw, int) and not isinstance(raw, bool):
            contract = raw
        else:
            raise InvalidInput(at("contract"), "not_a_bid")
    announcements: tuple[tuple[Announcement, ...], tuple[Announcement, ...]] = ((), ())
    if "announcements" in data:
        teams = _list(data["announcements"], at("announcements"), 2)
        lists = [_list(items, f"{at('announcements')}[{t}]") for t, items in enumerate(teams)]
        a0, a1 = (
            tuple(
                _announcement(item, f"{at('announcements')}[{t}][{i}]")
                for i, item in enumerate(items)
            )
            for t, items in enumerate(lists)
        )
        announcements = (a0, a1)
    announcements_to: Override | None = None
    if "announcements_to" in data:
        raw = data["announcements_to"]
        # An exact type check: 1.0 == 1 and True == 1 would otherwise slip through.
        if not (raw == "none" or (type(raw) is int and raw in (0, 1))):
            raise InvalidInput(at("announcements_to"), "announcements_to_choice")
        announcements_to = cast(Override, raw)
    return PlayedDeal(
        taker=_int(data["taker"], at("taker"), 0, 1),
        trump=Trump(_choice(data["trump"], at("trump"), [t.value for t in Trump])),
        contract=contract,
        coinche=cast(
            Coinche,
            _choice(data.get("coinche", "none"), at("coinche"), ("none", "coinche", "surcoinche")),
        ),
        taker_points=(
            _int(data["taker_points"], at("taker_points"), 0, 162)
            if "taker_points" in data
            else None
        ),
        capot=_int(data["capot"], at("capot"), 0, 1) if "capot" in data else None,
        generale=_bool(data.get("generale", False), at("generale")),
        belote=_pair_of_ints(data["belote"], at("belote"), 4) if "belote" in data else (0, 0),
        announcements=announcements,
        announcements_to=announcements_to,
        note=_text(data["note"], at("note"), MAX_NOTE, blank=True) or None
        if "note" in data
        else None,
        taker_player=_seat(data, "taker_player", path),
        coinche_player=_seat(data, "coinche_player", path),
    )


def _seat(data: Mapping[str, object], key: str, path: str) -> int | None:
    """An optional seat (0-3): who took, who coinched."""
    return _int(data[key], _join(path, key), 0, 3) if key in data else None


def parse_deal(value: object, path: str = "") -> Deal:
    """One deal object, checked for shape only (the rules are checked by `check_deal`)."""
    data = _object(value, path, DEAL_KEYS)
    note = (
        _text(data["note"], _join(path, "note"), MAX_NOTE, blank=True) or None
        if "note" in data
        else None
    )
    if "passed" in data and _bool(data["passed"], _join(path, "passed")):
        for key in data:
            if key not in ("passed", "note"):
                raise InvalidInput(_join(path, key), "passed_extra_key")
        return PassedDeal(note)
    if "manual_scores" in data:
        for key in data:
            if key not in ("manual_scores", "note"):
                raise InvalidInput(_join(path, key), "manual_extra_key")
        return ManualDeal(
            _pair_of_ints(data["manual_scores"], _join(path, "manual_scores"), 100_000), note
        )
    return _played(data, path)


def parse_match(value: object) -> MatchFile:
    """A whole match document, checked in full: shape, rules, every deal, and no deal after the end.

    Raises InvalidInput whose path names the first offending field."""
    return parse_scored_match(value)[0]


def parse_scored_match(value: object) -> tuple[MatchFile, MatchResult]:
    """parse_match, and the match's result: scoring it is how every deal is checked."""
    data = _object(value, "", TOP_KEYS)
    if "format" not in data:
        raise InvalidInput("format", "format_required", expected=FORMAT)
    if data["format"] != FORMAT:
        raise InvalidInput("format", "unsupported_format", expected=FORMAT)
    if "rules" not in data:
        raise InvalidInput("rules", "required")
    if not isinstance(data["rules"], dict):
        raise InvalidInput("rules", "rules_not_object")
    try:
        rules = rules_from_dict(data["rules"])
    except InvalidInput as error:
        raise error.under("rules") from None
    teams = DEFAULT_TEAMS
    if "teams" in data:
        items = _list(data["teams"], "teams", 2)
        teams = (_team(items[0], "teams[0]"), _team(items[1], "teams[1]"))
    first_dealer = _int(data.get("first_dealer", 0), "first_dealer", 0, 3)
    if "deals" not in data:
        raise InvalidInput("deals", "deals_required")
    deals = tuple(parse_deal(d, f"deals[{i}]") for i, d in enumerate(_list(data["deals"], "deals")))
    match = MatchFile(rules, teams, first_dealer, deals)
    return match, match.score()  # rule checks of every deal, and none after the end of the match


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json keeps the last of two equal keys; a typo must never pass silently.
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise InvalidInput("", "duplicate_key", key=key)
        out[key] = value
    return out


def load_match(text: str | bytes) -> MatchFile:
    """Parse a match document from JSON text."""
    return parse_match(decode_json(text))


def load_scored_match(text: str | bytes) -> tuple[MatchFile, MatchResult]:
    """load_match, and the match's result."""
    return parse_scored_match(decode_json(text))


def decode_json(text: str | bytes) -> object:
    """The JSON value of `text`, or InvalidInput (empty path) that says where the JSON is wrong."""
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except UnicodeDecodeError:
        raise InvalidInput("", "json_not_utf8") from None
    except json.JSONDecodeError as error:
        raise InvalidInput(
            "", "json_invalid", line=error.lineno, column=error.colno, detail=error.msg
        ) from None
    except InvalidInput:  # a key written twice (_no_duplicate_keys), said as such
        raise
    except ValueError as error:  # e.g. a number too long to read
        raise InvalidInput("", "json_unreadable", detail=str(error)) from None
    except RecursionError:  # "[[[[..." nested deeper than the decoder can go
        raise InvalidInput("", "json_too_deep") from None


def deal_to_dict(deal: Deal) -> dict[str, Any]:
    """A deal as written in a match file, defaults left out."""
    out: dict[str, Any]
    if isinstance(deal, PassedDeal):
        out = {"passed": True}
    elif isinstance(deal, ManualDeal):
        out = {"manual_scores": list(deal.scores)}
    else:
        out = {"taker": deal.taker}
        if deal.contract is not None:
            out["contract"] = deal.contract
        out["trump"] = deal.trump.value
        if deal.coinche != "none":
            out["coinche"] = deal.coinche
        if deal.taker_points is not None:
            out["taker_points"] = deal.taker_points
        if deal.capot is not None:
            out["capot"] = deal.capot
        if deal.generale:
            out["generale"] = True
        if any(deal.belote):
            out["belote"] = list(deal.belote)
        if any(deal.announcements):
            out["announcements"] = [
                [
                    {
                        "kind": a.kind.value,
                        "high": a.high.value,
                        **({"trump": True} if a.trump else {}),
                        **({"high_said": False} if not a.said else {}),
                    }
                    for a in items
                ]
                for items in deal.announcements
            ]
        if deal.announcements_to is not None:
            out["announcements_to"] = deal.announcements_to
        if deal.taker_player is not None:
            out["taker_player"] = deal.taker_player
        if deal.coinche_player is not None:
            out["coinche_player"] = deal.coinche_player
    if deal.note:
        out["note"] = deal.note
    return out


def dump_match(match: MatchFile) -> dict[str, Any]:
    """The match document, with every rule setting written out so it recomputes the same forever."""
    teams = []
    for team in match.teams:
        item: dict[str, Any] = {"name": team.name}
        if team.players:
            item["players"] = list(team.players)
        teams.append(item)
    return {
        "format": FORMAT,
        "rules": match.rules.to_dict(),
        "teams": teams,
        "first_dealer": match.first_dealer,
        "deals": [deal_to_dict(deal) for deal in match.deals],
    }


def result_to_dict(
    result: MatchResult, breakdown: Callable[[Sequence[Line]], list[str]]
) -> dict[str, Any]:
    """The `score_match` output of docs/file-formats.md §1; `breakdown` turns a deal's lines into words
    (the engine has none: `scorekeeper.web.words.breakdown`)."""
    return {
        "rules": result.rules.to_dict(),
        "deals": [
            {
                "number": deal.number,
                "dealer": deal.dealer,
                "outcome": deal.outcome,
                "scores": list(deal.scores),
                "totals": list(deal.totals),
                "breakdown": breakdown(deal.breakdown),
            }
            for deal in result.deals
        ],
        "totals": list(result.totals),
        "reserve": result.reserve,
        "finished": result.finished,
        "winner": result.winner,
    }


def score_match_output(
    text: str | bytes, breakdown: Callable[[Sequence[Line], Sequence[str]], list[str]]
) -> dict[str, Any]:
    """What `score_match` prints for a match file's text: the file read, scored and shaped by
    `result_to_dict`; `breakdown(lines, team_names)` words a deal's lines (on the server
    `scorekeeper.web.words.breakdown`, in the browser the same wording with the phrases the server
    resolved: docs/offline-engine.md). Raises InvalidInput on a file the rules do not allow."""
    match = load_match(text)
    names = [team.name for team in match.teams]
    return result_to_dict(match.score(), lambda lines: breakdown(lines, names))


def error_to_dict(error: InvalidInput) -> dict[str, Any]:
    """An engine error as data (its words are rendered outside the engine)."""
    return {"code": error.code, "path": error.path, "params": dict(error.params)}
