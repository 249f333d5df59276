"""A new match: its preset, its settings, its teams and players."""

import re
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.scoring import PRESETS, SETTINGS, InvalidInput, Rules, rules_from_dict
from scorekeeper.engine.scoring.rules import Setting
from scorekeeper.web.validators import validate_name, validate_text
from scorekeeper.web.words import (
    CHOICE_LABELS,
    PRESET_NAMES,
    SETTING_HELP,
    SETTING_LABELS,
    describe,
    setting_value,
)

from .common import NUMERIC

NONE_VALUE = 0  # typed in a nullable number setting, it means "none"


# Names and notes: what a match file takes (engine/scoring/free_text.py), said as a form says it
# (scorekeeper/web/validators.py).
SEAT: dict[str, Any] = {"max_length": 60, "required": False, "validators": [validate_name]}


def setting_field(spec: Setting) -> forms.Field:
    label = SETTING_LABELS[spec.name]
    if spec.kind == "bool":
        return forms.TypedChoiceField(
            label=label,
            required=False,
            choices=[("", _("as the preset")), ("on", _("yes")), ("off", _("no"))],
        )
    if spec.kind == "choice":  # radios: a long choice shows whole at 360 px (a select cuts it)
        return forms.ChoiceField(
            label=label,
            required=False,
            choices=[("", _("as the preset"))] + [(c, CHOICE_LABELS[c]) for c in spec.choices],
            help_text=SETTING_HELP.get(spec.name, ""),
            widget=forms.RadioSelect,
        )
    if spec.kind == "multipliers":
        return forms.CharField(
            label=label,
            required=False,
            max_length=20,
            help_text=_("e.g. 2, 4"),
            validators=[validate_text],
        )
    help_text = _("0 for none") if spec.nullable else ""
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=0 if spec.nullable else spec.minimum,
        max_value=spec.maximum,
        help_text=help_text,
        widget=forms.NumberInput(attrs=NUMERIC),
    )


@dataclass(frozen=True)
class SettingRow:
    field: forms.BoundField
    preset_values: list[tuple[str, str]]  # (preset name, its value in words)


def _preset_value(spec: Setting, value: object) -> str:
    return setting_value(spec.kind, value)


class NewMatchForm(forms.Form):
    preset = forms.ChoiceField(
        label=_("Rules"),
        choices=[(name, PRESET_NAMES[name]) for name in PRESETS],
        initial="coinche",
        widget=forms.RadioSelect,
    )
    team0_name = forms.CharField(
        label=_("Team 1"), max_length=60, initial=_("Us"), validators=[validate_name]
    )
    team1_name = forms.CharField(
        label=_("Team 2"), max_length=60, initial=_("Them"), validators=[validate_name]
    )
    seat0 = forms.CharField(**SEAT, label=_("Team 1, player 1"))
    seat1 = forms.CharField(**SEAT, label=_("Team 2, player 1"))
    seat2 = forms.CharField(**SEAT, label=_("Team 1, player 2"))
    seat3 = forms.CharField(**SEAT, label=_("Team 2, player 2"))
    first_dealer = forms.ChoiceField(
        label=_("First dealer"),
        choices=[
            ("random", _("Draw at random")),
            ("0", _("Team 1, player 1")),
            ("1", _("Team 2, player 1")),
            ("2", _("Team 1, player 2")),
            ("3", _("Team 2, player 2")),
        ],
        initial="random",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for spec in SETTINGS:
            self.fields[spec.name] = setting_field(spec)
        for seat in range(4):  # suggest the names this browser already knows
            self.fields[f"seat{seat}"].widget.attrs.update(list="known-players", autocomplete="off")
        self.rules: Rules | None = None

    def _settings_of(self, games: tuple[str, ...]) -> list[SettingRow]:
        """Each setting's field with what every preset of its games sets it to (the page shows
        the value of the preset picked, with CSS only)."""
        return [
            SettingRow(
                self[spec.name],
                [
                    (name, _preset_value(spec, getattr(rules, spec.name)))
                    for name, rules in PRESETS.items()
                    if rules.game in spec.games
                ],
            )
            for spec in SETTINGS
            if spec.games == games
        ]

    def has_setting_errors(self) -> bool:
        """Whether a rule setting is wrong (the folded settings then open by themselves)."""
        return any(spec.name in self.errors for spec in SETTINGS)

    def coinche_setting_fields(self) -> list[SettingRow]:
        return self._settings_of(("coinche",))

    def belote_setting_fields(self) -> list[SettingRow]:
        return self._settings_of(("belote",))

    def common_setting_fields(self) -> list[SettingRow]:
        return self._settings_of(("coinche", "belote"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self.clean_seats()
        preset = data.get("preset")
        if not preset:
            return data
        game = PRESETS[preset].game
        overrides: dict[str, object] = {"preset": preset}
        for spec in SETTINGS:
            raw = data.get(spec.name)
            if raw in (None, ""):
                continue
            if game not in spec.games:
                continue  # a setting of the other game: it does not apply, so it is ignored
            value: object = raw
            if spec.kind == "bool":
                value = raw == "on"
            elif spec.kind == "multipliers":
                parts = [p for p in re.split(r"[,\s;/x×]+", str(raw)) if p]
                if len(parts) != 2 or not all(p.isdecimal() for p in parts):
                    self.add_error(spec.name, _("Two whole numbers, e.g. 2, 4."))
                    continue
                value = [int(parts[0]), int(parts[1])]
            elif spec.nullable and raw == NONE_VALUE:
                value = None
            overrides[spec.name] = value
        try:
            self.rules = rules_from_dict(overrides)
        except InvalidInput as error:
            field = error.path if error.path in self.fields else None
            self.add_error(field, describe(error))
        return data

    def clean_seats(self) -> None:
        """Four different people: one name in two seats would be one player twice."""
        seen: set[str] = set()
        for seat in range(4):
            name = " ".join((self.cleaned_data.get(f"seat{seat}") or "").split())
            if name and name.casefold() in seen:
                self.add_error(f"seat{seat}", _("This name is already at the table."))
            seen.add(name.casefold())

    def players(self) -> list[str | None]:
        return [self.cleaned_data.get(f"seat{i}") or None for i in range(4)]

    def first_dealer_value(self) -> int | None:
        value = self.cleaned_data["first_dealer"]
        return None if value == "random" else int(value)
