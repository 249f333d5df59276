"""The settings of a concours (docs/tournaments.md §1): one validated, immutable object."""

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from ..scoring import InvalidInput, Rules, rules_from_dict
from .errors import TournamentError, from_scoring
from .readers import read_bool, read_choice, read_int, read_list, read_object

Mode = Literal["teams", "melee"]
Pairing = Literal["swiss", "random"]
Criterion = Literal["points", "wins", "difference", "best_partie", "opponents_wins", "conceded"]

MODES: tuple[Mode, ...] = ("teams", "melee")
PAIRINGS: tuple[Pairing, ...] = ("swiss", "random")
CRITERIA: tuple[Criterion, ...] = (
    "points", "wins", "difference", "best_partie", "opponents_wins", "conceded",
)  # fmt: skip
DEFAULT_RANKING: tuple[Criterion, ...] = ("points", "wins", "difference", "best_partie")
MAX_ROUNDS = 20
MAX_POINTS = 100_000
SEED_RANGE = (-(2**63), 2**63 - 1)
KEYS = ("mode", "rounds", "partie", "pairing", "ranking", "bye", "seed")
BYE_KEYS = ("points", "win")
DEFAULT_PARTIE: dict[str, Any] = {"preset": "belote", "deals_limit": 12, "target": None}


@dataclass(frozen=True, slots=True)
class ByeRule:
    """§4: what an entrant without a table gets: fixed points or the round's average, a win or
    not."""

    points: int | Literal["average"] = "average"
    win: bool = False
    written: tuple[str, ...] = BYE_KEYS  # the keys the file wrote, in its order


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
    written: tuple[str, ...] = KEYS  # the keys the file wrote, in its order

    @property
    def melee(self) -> bool:
        return self.mode == "melee"

    def partie_dict(self) -> dict[str, Any]:
        """The `partie` object as written: the file's own when it still gives these rules."""
        if self.partie_source is not None:
            source = cast(dict[str, Any], json.loads(self.partie_source))
            if rules_from_dict(source) == self.partie:
                return source
        return {"preset": self.partie.preset, **self.partie.overrides()}


def _partie(value: object) -> tuple[Rules, str]:
    if not isinstance(value, dict):
        raise TournamentError("partie", "not_object")
    try:
        rules = rules_from_dict(value)
    except InvalidInput as error:
        raise from_scoring(error, "partie") from None
    return rules, json.dumps(value, ensure_ascii=False)


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
    return Settings(
        seed=read_int(data["seed"], "seed", *SEED_RANGE),
        mode=cast(Mode, read_choice(data["mode"], "mode", MODES) if "mode" in data else "teams"),
        rounds=read_int(data["rounds"], "rounds", 1, MAX_ROUNDS) if "rounds" in data else 4,
        partie=partie if partie is not None else rules_from_dict(DEFAULT_PARTIE),
        pairing=cast(
            Pairing,
            read_choice(data["pairing"], "pairing", PAIRINGS) if "pairing" in data else "swiss",
        ),
        ranking=_ranking(data["ranking"]) if "ranking" in data else DEFAULT_RANKING,
        bye=_bye(data["bye"]) if "bye" in data else ByeRule(),
        partie_source=source,
        written=tuple(data),
    )


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
    }
    differs = {
        "mode": settings.mode != default.mode,
        "rounds": settings.rounds != default.rounds,
        "partie": settings.partie != default.partie,
        "pairing": settings.pairing != default.pairing,
        "ranking": settings.ranking != default.ranking,
        "bye": (settings.bye.points, settings.bye.win) != ("average", False),
        "seed": True,
    }
    out: dict[str, Any] = {}
    for key in (*settings.written, *KEYS):
        if key not in out and (key in settings.written or differs[key]):
            out[key] = values[key]
    return out
