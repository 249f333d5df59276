"""The settings of a concours (docs/tournaments.md §1): one validated, immutable object."""

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from ..scoring import InvalidInput, Rules, rules_from_dict
from .errors import TournamentError, from_scoring
from .readers import read_bool, read_choice, read_int, read_list, read_object

Mode = Literal["teams", "melee"]
Pairing = Literal["swiss", "random", "round_robin"]
Criterion = Literal[
    "points", "wins", "difference", "best_partie", "opponents_wins", "conceded",
    "opponents_points", "opponents_opponents_wins", "head_to_head", "lots",
]  # fmt: skip
Stage = Literal["final", "consolation"]

MODES: tuple[Mode, ...] = ("teams", "melee")
PAIRINGS: tuple[Pairing, ...] = ("swiss", "random", "round_robin")
CRITERIA: tuple[Criterion, ...] = (
    "points", "wins", "difference", "best_partie", "opponents_wins", "conceded",
    "opponents_points", "opponents_opponents_wins", "head_to_head", "lots",
)  # fmt: skip
# The criteria whose figure the standings output adds only when `ranking` uses them (§3).
EXTRA_CRITERIA: tuple[Criterion, ...] = (
    "opponents_points", "opponents_opponents_wins", "head_to_head", "lots",
)  # fmt: skip
DEFAULT_RANKING: tuple[Criterion, ...] = ("points", "wins", "difference", "best_partie")
MAX_ROUNDS = 20
MAX_POINTS = 100_000
SEED_RANGE = (-(2**63), 2**63 - 1)
KEYS = ("mode", "rounds", "partie", "pairing", "ranking", "bye", "seed", "final", "minutes")
BYE_KEYS = ("points", "win")
FINAL_KEYS = ("size", "partie", "consolation", "third_place")
FINAL_SIZES = (4, 8, 16)
MINUTES_RANGE = (1, 600)  # the round clock: a minute to ten hours
DEFAULT_PARTIE: dict[str, Any] = {"preset": "belote", "deals_limit": 12, "target": None}


@dataclass(frozen=True, slots=True)
class ByeRule:
    """§4: what an entrant without a table gets: fixed points or the round's average, a win or
    not."""

    points: int | Literal["average"] = "average"
    win: bool = False
    written: tuple[str, ...] = BYE_KEYS  # the keys the file wrote, in its order


@dataclass(frozen=True, slots=True)
class Final:
    """§7: the final bracket after the qualifying rounds: `size` entrants (4, 8 or 16), its
    tables played with `partie` (None: the concours partie), an optional consolation bracket of
    the first-round losers (size 8 or 16) and an optional third-place table."""

    size: int
    partie: Rules | None = None
    consolation: bool = False
    third_place: bool = False
    partie_source: str | None = None  # the `partie` object as the file wrote it (JSON text)
    written: tuple[str, ...] = ("size",)  # the keys the file wrote, in its order


@dataclass(frozen=True, slots=True)
class Settings:
    seed: int
    mode: Mode = "teams"
    rounds: int = 4
    partie: Rules = field(default_factory=lambda: rules_from_dict(DEFAULT_PARTIE))
    pairing: Pairing = "swiss"
    ranking: tuple[Criterion, ...] = DEFAULT_RANKING
    bye: ByeRule = ByeRule()
    # The `partie` object as the file wrote it (JSON text), to write it back unchanged; None:
    # written from the rules themselves (the preset and what differs from it).
    partie_source: str | None = None
    written: tuple[str, ...] = KEYS[:7]  # the keys the file wrote, in its order
    final: Final | None = None  # §7: a final bracket after the `rounds` qualifying rounds
    minutes: int | None = None  # §7: the round clock's length, in minutes

    @property
    def melee(self) -> bool:
        return self.mode == "melee"

    def rules_for(self, stage: Stage | None) -> Rules:
        """The partie rules of a round: the concours partie for a qualifying round (`stage`
        None), the final's own (or the concours partie) for a bracket round."""
        if stage is not None and self.final is not None and self.final.partie is not None:
            return self.final.partie
        return self.partie

    def partie_dict(self) -> dict[str, Any]:
        """The `partie` object as written: the file's own when it still gives these rules."""
        if self.partie_source is not None:
            source = cast(dict[str, Any], json.loads(self.partie_source))
            if rules_from_dict(source) == self.partie:
                return source
        return {"preset": self.partie.preset, **self.partie.overrides()}


def _partie(value: object, path: str = "partie") -> tuple[Rules, str]:
    if not isinstance(value, dict):
        raise TournamentError(path, "not_object")
    try:
        rules = rules_from_dict(value)
    except InvalidInput as error:
        raise from_scoring(error, path) from None
    return rules, json.dumps(value, ensure_ascii=False)


def _final(value: object) -> Final:
    data = read_object(value, "final", FINAL_KEYS, ("size",))
    size = data["size"]
    if not isinstance(size, int) or isinstance(size, bool):
        raise TournamentError("final.size", "not_integer")
    if size not in FINAL_SIZES:
        raise TournamentError("final.size", "final_size", sizes="4, 8, 16")
    partie, source = _partie(data["partie"], "final.partie") if "partie" in data else (None, None)
    consolation = (
        read_bool(data["consolation"], "final.consolation") if "consolation" in data else False
    )
    if consolation and size < 8:
        raise TournamentError("final.consolation", "consolation_size", size=size)
    third = read_bool(data["third_place"], "final.third_place") if "third_place" in data else False
    return Final(size, partie, consolation, third, source, tuple(data))


def _ranking(value: object) -> tuple[Criterion, ...]:
    items = read_list(value, "ranking", most=len(CRITERIA))
    if not items:
        raise TournamentError("ranking", "empty")
    seen: dict[str, int] = {}
    for index, item in enumerate(items):
        name = read_choice(item, f"ranking[{index}]", CRITERIA)
        if name in seen:
            raise TournamentError(
                f"ranking[{index}]", "duplicate", value=name, first=f"ranking[{seen[name]}]"
            )
        seen[name] = index
    return cast(tuple[Criterion, ...], tuple(seen))


def _bye(value: object) -> ByeRule:
    data = read_object(value, "bye", BYE_KEYS)
    points: int | Literal["average"] = "average"
    if "points" in data and data["points"] != "average":
        if isinstance(data["points"], str):
            raise TournamentError("bye.points", "bye_points")
        points = read_int(data["points"], "bye.points", 0, MAX_POINTS)
    win = read_bool(data["win"], "bye.win") if "win" in data else False
    return ByeRule(points, win, tuple(data))


def settings_from_dict(value: object) -> Settings:
    """Settings from the `settings` object of a tournament file; TournamentError with a path
    inside it (`ranking[2]`, `partie.target`, `bye.points`) on anything wrong."""
    data: Mapping[str, object] = read_object(value, "", KEYS, required=("seed",))
    partie, source = _partie(data["partie"]) if "partie" in data else (None, None)
    # Read in the order the keys were always read, so the first fault reported stays the same.
    seed = read_int(data["seed"], "seed", *SEED_RANGE)
    mode = cast(Mode, read_choice(data["mode"], "mode", MODES) if "mode" in data else "teams")
    rounds = read_int(data["rounds"], "rounds", 1, MAX_ROUNDS) if "rounds" in data else 4
    pairing = cast(
        Pairing, read_choice(data["pairing"], "pairing", PAIRINGS) if "pairing" in data else "swiss"
    )
    ranking = _ranking(data["ranking"]) if "ranking" in data else DEFAULT_RANKING
    bye = _bye(data["bye"]) if "bye" in data else ByeRule()
    if pairing == "round_robin" and mode == "melee":
        raise TournamentError("pairing", "round_robin_teams_only")
    final = _final(data["final"]) if "final" in data else None
    if final is not None and mode == "melee":
        raise TournamentError("final", "final_teams_only")
    minutes = read_int(data["minutes"], "minutes", *MINUTES_RANGE) if "minutes" in data else None
    return Settings(
        seed=seed,
        mode=mode,
        rounds=rounds,
        partie=partie if partie is not None else rules_from_dict(DEFAULT_PARTIE),
        pairing=pairing,
        ranking=ranking,
        bye=bye,
        partie_source=source,
        written=tuple(data),
        final=final,
        minutes=minutes,
    )


def final_to_dict(final: Final) -> dict[str, Any]:
    """The `final` object: the keys the file wrote (in its order), then any other whose value is
    not the default."""
    partie: dict[str, Any] | None = None
    if final.partie is not None:
        partie = {"preset": final.partie.preset, **final.partie.overrides()}
        if final.partie_source is not None:
            source = cast(dict[str, Any], json.loads(final.partie_source))
            if rules_from_dict(source) == final.partie:
                partie = source
    values: dict[str, tuple[bool, Any]] = {
        "size": (True, final.size),
        "partie": (final.partie is not None, partie),
        "consolation": (final.consolation, final.consolation),
        "third_place": (final.third_place, final.third_place),
    }
    out: dict[str, Any] = {}
    for key in final.written:
        if key in values and (key != "partie" or final.partie is not None):
            out[key] = values[key][1]
    for key, (always, value) in values.items():
        if key not in out and always:
            out[key] = value
    return out


def settings_to_dict(settings: Settings) -> dict[str, Any]:
    """The `settings` object: the keys the file wrote (in its order), then any other whose value
    is not the default."""
    default = Settings(seed=0)
    bye: dict[str, Any] = {}
    for key in (*settings.bye.written, *BYE_KEYS):
        if key in bye:
            continue
        value = settings.bye.points if key == "points" else settings.bye.win
        if key in settings.bye.written or value != getattr(ByeRule(), key):
            bye[key] = value
    values: dict[str, Any] = {
        "mode": settings.mode,
        "rounds": settings.rounds,
        "partie": settings.partie_dict(),
        "pairing": settings.pairing,
        "ranking": list(settings.ranking),
        "bye": bye,
        "seed": settings.seed,
        "final": final_to_dict(settings.final) if settings.final is not None else None,
        "minutes": settings.minutes,
    }
    differs = {
        "mode": settings.mode != default.mode,
        "rounds": settings.rounds != default.rounds,
        "partie": settings.partie != default.partie,
        "pairing": settings.pairing != default.pairing,
        "ranking": settings.ranking != default.ranking,
        "bye": (settings.bye.points, settings.bye.win) != ("average", False),
        "seed": True,
        "final": settings.final is not None,
        "minutes": settings.minutes is not None,
    }
    out: dict[str, Any] = {}
    for key in (*settings.written, *KEYS):
        if key in ("final", "minutes") and values[key] is None:
            continue  # an optional setting dropped: not written
        if key not in out and (key in settings.written or differs[key]):
            out[key] = values[key]
    return out
