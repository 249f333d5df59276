"""The club organiser's forms (issue 16): a club, a season. Each form only reads input (numbers
as numbers, dates as dates); the services and the seasons engine decide."""

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.season import DEFAULT_OTHERS, DEFAULT_TABLE, MAX_TABLE, SeasonRule
from scorekeeper.web.validators import validate_name, validate_text

from .services import MAX_CLUB_NAME, MAX_SEASON_NAME, MAX_TOWN

TABLE_TEXT_MAX = 8000  # characters of the placement table field


class ClubForm(forms.Form):
    name = forms.CharField(
        label=_("Club name"), max_length=MAX_CLUB_NAME, validators=[validate_name]
    )
    town = forms.CharField(
        label=_("Town"), max_length=MAX_TOWN, required=False, validators=[validate_text]
    )


_NUMBERS = re.compile(r"[\s,;]+")


def table_text(table: tuple[int, ...] | list[int]) -> str:
    return " ".join(str(value) for value in table)


class SeasonForm(forms.Form):
    name = forms.CharField(
        label=_("Season name"), max_length=MAX_SEASON_NAME, validators=[validate_name]
    )
    start = forms.DateField(label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))
    rank = forms.ChoiceField(
        label=_("Who is ranked"),
        choices=[
            ("players", _("Players (in a team concours each player gets the team's result)")),
            ("teams", _("Teams (mêlée concours left out)")),
        ],
        widget=forms.RadioSelect,
    )
    measure = forms.ChoiceField(
        label=_("Ranked by"),
        choices=[
            ("points", _("Total points scored in the concours")),
            ("placement", _("Placement points: the table below")),
        ],
        widget=forms.RadioSelect,
    )
    table = forms.CharField(
        label=_("Placement points"),
        max_length=TABLE_TEXT_MAX,
        required=False,
        validators=[validate_text],
        help_text=_("Points of the 1st place, the 2nd, the 3rd... separated by spaces."),
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    others = forms.IntegerField(
        label=_("Points of any place after the table"),
        min_value=0,
        max_value=100_000,
        required=False,
    )
    best = forms.IntegerField(
        label=_("Results counted for each one"),
        min_value=1,
        max_value=1000,
        required=False,
        help_text=_("Only each one's best N results count (“best 5 of 8”). Empty: every result."),
    )
    published = forms.BooleanField(label=_("Show on the club's public page"), required=False)

    @staticmethod
    def initial_for(rule: SeasonRule | None = None) -> dict[str, Any]:
        rule = rule or SeasonRule()
        return {
            "rank": rule.rank,
            "measure": rule.measure,
            "table": table_text(rule.table),
            "others": rule.others,
            "best": rule.best,
        }

    def clean_table(self) -> list[int]:
        text = self.cleaned_data["table"].strip()
        if not text:
            return list(DEFAULT_TABLE)
        items = [item for item in _NUMBERS.split(text) if item]
        if len(items) > MAX_TABLE:
            raise forms.ValidationError(
                _("At most %(max)s places."), code="too_many", params={"max": MAX_TABLE}
            )
        values = []
        for place, item in enumerate(items, start=1):
            if not item.isdecimal() or len(item) > 7:
                raise forms.ValidationError(
                    _("Place %(place)s: “%(value)s” is not a whole number."),
                    code="not_integer",
                    params={"place": place, "value": item[:20]},
                )
            values.append(int(item))
        return values

    def rule(self) -> dict[str, Any]:
        """The rule's JSON object for the seasons engine (checked there)."""
        data = self.cleaned_data
        others = data["others"]
        return {
            "measure": data["measure"],
            "table": data["table"],
            # Empty: a point for playing, or the table's last value when that is less.
            "others": min(DEFAULT_OTHERS, *data["table"][-1:]) if others is None else others,
            "best": data["best"],
            "rank": data["rank"],
        }
