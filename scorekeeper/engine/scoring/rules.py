"""Rule settings (docs/rules.md), the five named presets of §7, and validation of every setting.

A `Rules` object is immutable and complete: a match stores all of it, so a past match recomputes to
the same scores even if a preset changes later. Settings that only one game uses are still present
on the object (with the preset's value) but are only read, written and overridable for that game.
"""

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any, Literal, cast

from .errors import InvalidInput

Game = Literal["coinche", "belote"]
Rounding = Literal["none", "half_up", "half_down"]
Resolution = Literal["best_team", "by_kind"]
Success = Literal["bid_and_beat", "bid_only"]
MadeScores = Literal["points_and_contract", "contract_only"]
Scope = Literal["deal", "contract"]
CoinchedScores = Literal["base", "points"]
CapotBidScores = Literal["total_and_contract", "contract"]
Litige = Literal["reserve", "none"]
EndTie = Literal["extra_deal", "last_deal_winner"]

# B in "m × (B + C + ...)" when the takers of a coinched contract made capot (docs/rules.md §4).
COINCHED_CAPOT_BASE = 250


@dataclass(frozen=True, slots=True)
class Rules:
    preset: str
    game: Game
    target: int | None
    deals_limit: int | None
    rounding: Rounding
    announcements: bool
    announcements_resolution: Resolution
    sa_ta: bool
    capot_cards: int
    belote_points: int
    generale_bid: int | None
    generale_cards: int | None
    end_tie: EndTie
    belote_cannot_clinch: bool
    # Coinche only.
    success: Success = "bid_and_beat"
    made_scores: MadeScores = "points_and_contract"
    multipliers: tuple[int, int] = (2, 4)
    multiplier_scope: Scope = "deal"
    # §4's two score-app variants, off in every preset: a made coinché contract as m × (the
    # takers' total + C), the defence keeping its total; a made capot bid as its contract alone.
    coinched_scores: CoinchedScores = "base"
    capot_bid_scores: CapotBidScores = "total_and_contract"
    failure_base: int = 160
    coinched_base: int = 160
    min_bid: int = 80
    max_bid: int | None = None
    capot_bid: int | None = 250
    # Classic belote only.
    failure_points: int = 162
    litige: Litige = "reserve"

    @property
    def is_coinche(self) -> bool:
        return self.game == "coinche"

    def setting_names(self) -> tuple[str, ...]:
        return tuple(spec.name for spec in SETTINGS if self.game in spec.games)

    def to_dict(self) -> dict[str, Any]:
        """Every setting of this game, resolved, as JSON-ready values (`preset` and `game` first)."""
        out: dict[str, Any] = {"preset": self.preset, "game": self.game}
        for name in self.setting_names():
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out

    def overrides(self) -> dict[str, Any]:
        """The settings that differ from the preset this rule set starts from."""
        base = PRESETS[self.preset].to_dict()
        return {k: v for k, v in self.to_dict().items() if base.get(k) != v}

    def bid_values(self) -> tuple[int, ...]:
        """The numeric bids a player may make, from `min_bid` up (to 180 when there is no maximum)."""
        top = self.max_bid if self.max_bid is not None else max(self.min_bid, 180)
        return tuple(range(self.min_bid, top + 1, 10))


@dataclass(frozen=True, slots=True)
class Setting:
    """How one setting is validated: its kind, the games it applies to, its allowed values."""

    name: str
    kind: Literal["int", "bool", "choice", "multipliers"]
    games: tuple[Game, ...] = ("coinche", "belote")
    nullable: bool = False
    choices: tuple[str, ...] = ()
    minimum: int = 0
    maximum: int = 100_000
    step: int = 1


BOTH: tuple[Game, ...] = ("coinche", "belote")
COINCHE: tuple[Game, ...] = ("coinche",)
BELOTE: tuple[Game, ...] = ("belote",)

SETTINGS: tuple[Setting, ...] = (
    Setting("target", "int", nullable=True, minimum=1, maximum=100_000),
    Setting("deals_limit", "int", nullable=True, minimum=1, maximum=1000),
    Setting("rounding", "choice", choices=("none", "half_up", "half_down")),
    Setting("announcements", "bool"),
    Setting("announcements_resolution", "choice", choices=("best_team", "by_kind")),
    Setting("sa_ta", "bool"),
    Setting("capot_cards", "int", minimum=162, maximum=1000),
    Setting("belote_points", "int", minimum=0, maximum=1000),
    Setting("generale_bid", "int", nullable=True, minimum=1, maximum=10_000),
    Setting("generale_cards", "int", nullable=True, minimum=162, maximum=10_000),
    Setting("end_tie", "choice", choices=("extra_deal", "last_deal_winner")),
    Setting("belote_cannot_clinch", "bool"),
    Setting("success", "choice", COINCHE, choices=("bid_and_beat", "bid_only")),
    Setting("made_scores", "choice", COINCHE, choices=("points_and_contract", "contract_only")),
    Setting("multipliers", "multipliers", COINCHE, minimum=2, maximum=100),
    Setting("multiplier_scope", "choice", COINCHE, choices=("deal", "contract")),
    Setting("coinched_scores", "choice", COINCHE, choices=("base", "points")),
    Setting("capot_bid_scores", "choice", COINCHE, choices=("total_and_contract", "contract")),
    Setting("failure_base", "int", COINCHE, minimum=0, maximum=1000),
    Setting("coinched_base", "int", COINCHE, minimum=0, maximum=1000),
    Setting("min_bid", "int", COINCHE, minimum=10, maximum=1000, step=10),
    Setting("max_bid", "int", COINCHE, nullable=True, minimum=10, maximum=1000, step=10),
    Setting("capot_bid", "int", COINCHE, nullable=True, minimum=1, maximum=10_000),
    Setting("failure_points", "int", BELOTE, minimum=0, maximum=1000),
    Setting("litige", "choice", BELOTE, choices=("reserve", "none")),
)
SETTINGS_BY_NAME = {spec.name: spec for spec in SETTINGS}
assert set(SETTINGS_BY_NAME) | {"preset", "game"} == {f.name for f in fields(Rules)}

_COMMON: dict[str, Any] = {
    "deals_limit": None,
    "announcements": True,
    "announcements_resolution": "best_team",
    "capot_cards": 252,
    "belote_points": 20,
    "generale_cards": None,
    "end_tie": "extra_deal",
    "belote_cannot_clinch": True,
}

PRESETS: dict[str, Rules] = {
    "coinche": Rules(
        **_COMMON,
        preset="coinche",
        game="coinche",
        target=2000,
        rounding="half_up",
        sa_ta=True,
        generale_bid=500,
    ),
    "coinche-funbelote": Rules(
        **{**_COMMON, "capot_cards": 250, "generale_cards": 350},
        preset="coinche-funbelote",
        game="coinche",
        target=1501,
        rounding="half_up",
        sa_ta=True,
        generale_bid=None,
    ),
    "coinche-x3": Rules(
        **{**_COMMON, "end_tie": "last_deal_winner"},
        preset="coinche-x3",
        game="coinche",
        target=1000,
        rounding="half_up",
        sa_ta=False,
        generale_bid=None,
        multipliers=(2, 3),
        multiplier_scope="contract",
        failure_base=162,
        coinched_base=162,
        max_bid=160,
    ),
    "belote": Rules(
        **_COMMON,
        preset="belote",
        game="belote",
        target=1000,
        rounding="none",
        sa_ta=False,
        generale_bid=None,
    ),
    "belote-501": Rules(
        **{**_COMMON, "announcements_resolution": "by_kind"},
        preset="belote-501",
        game="belote",
        target=501,
        rounding="none",
        sa_ta=False,
        generale_bid=None,
    ),
}


def _check_value(spec: Setting, value: object) -> object:
    """The validated value of one setting (lists become tuples); raises InvalidInput naming it."""
    if value is None:
        if spec.nullable:
            return None
        raise InvalidInput(spec.name, "not_set")
    if spec.kind == "bool":
        if not isinstance(value, bool):
            raise InvalidInput(spec.name, "not_boolean")
        return value
    if spec.kind == "choice":
        if value not in spec.choices:
            raise InvalidInput(spec.name, "choice", choices=", ".join(spec.choices))
        return value
    if spec.kind == "multipliers":
        if (
            not isinstance(value, list | tuple)
            or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        ):
            raise InvalidInput(spec.name, "multipliers_shape")
        low, high = cast(tuple[int, int], tuple(value))
        if not spec.minimum <= low < high <= spec.maximum:
            raise InvalidInput(spec.name, "multipliers_order", min=spec.minimum, max=spec.maximum)
        return (low, high)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInput(spec.name, "not_integer")
    if not spec.minimum <= value <= spec.maximum:
        raise InvalidInput(spec.name, "not_between", min=spec.minimum, max=spec.maximum)
    if value % spec.step:
        raise InvalidInput(spec.name, "not_multiple", step=spec.step)
    return value


def _check_consistency(rules: Rules) -> None:
    if rules.target is None and rules.deals_limit is None:
        raise InvalidInput("target", "no_end")
    if rules.max_bid is not None and rules.max_bid < rules.min_bid:
        raise InvalidInput("max_bid", "max_below_min")
    if rules.coinched_scores == "points" and rules.multiplier_scope != "deal":
        # §4 defines the "points" variant for the whole-deal multiplier only.
        raise InvalidInput("coinched_scores", "points_need_deal_scope")


def rules_from_dict(data: Mapping[str, object]) -> Rules:
    """Rules from `{"preset": name, <setting>: value, ...}`: a preset plus any overrides.

    Raises InvalidInput with the setting's name as path on an unknown preset, an unknown setting,
    a setting that the preset's game does not use, or a bad value.
    """
    if not isinstance(data, Mapping):
        raise InvalidInput("", "rules_not_object")
    preset_name = data.get("preset")
    if preset_name is None:
        raise InvalidInput("preset", "preset_required", choices=", ".join(PRESETS))
    if not isinstance(preset_name, str) or preset_name not in PRESETS:
        raise InvalidInput("preset", "unknown_preset", choices=", ".join(PRESETS))
    base = PRESETS[preset_name]
    changes: dict[str, object] = {}
    for key, value in data.items():
        if key == "preset":
            continue
        if key == "game":
            if value != base.game:
                raise InvalidInput("game", "preset_game", preset=preset_name, game=base.game)
            continue
        spec = SETTINGS_BY_NAME.get(key)
        if spec is None:
            raise InvalidInput(key, "unknown_setting")
        if base.game not in spec.games:
            raise InvalidInput(key, "not_a_setting_of", game=base.game)
        changes[key] = _check_value(spec, value)
    rules = replace(base, **changes)  # type: ignore[arg-type]
    _check_consistency(rules)
    return rules


def get_preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidInput("preset", "unknown_preset", choices=", ".join(PRESETS)) from None
