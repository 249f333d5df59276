"""A manual score: each team's points typed as they are."""

import uuid
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.scoring.deals import ManualDeal
from scorekeeper.web.validators import validate_note

from .common import NUMERIC
from .deal import DealStamp

MANUAL_ERRORS = {
    "min_value": _("Points cannot be negative: give a penalty as points to the other team."),
    "max_value": _("At most 100,000 points."),
}


class ManualDealForm(forms.Form):
    """Points for each team, typed into empty fields: a blank one counts 0, both 0 is refused."""

    score0 = forms.IntegerField(
        min_value=0,
        max_value=100_000,
        required=False,
        error_messages=MANUAL_ERRORS,
        widget=forms.NumberInput(attrs=NUMERIC),
    )
    score1 = forms.IntegerField(
        min_value=0,
        max_value=100_000,
        required=False,
        error_messages=MANUAL_ERRORS,
        widget=forms.NumberInput(attrs=NUMERIC),
    )
    note = forms.CharField(
        label=_("Why (penalty, misdeal, ruling...)"),
        max_length=1000,
        required=False,
        validators=[validate_note],
    )
    version = DealStamp.base_fields["version"]  # the deal form's stamp, its limits
    submission = DealStamp.base_fields["submission"]

    def __init__(self, *args: Any, team_names: tuple[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["score0"].label = team_names[0]
        self.fields["score1"].label = team_names[1]
        if not self.is_bound:
            self.initial.setdefault("submission", uuid.uuid4().hex)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in ("score0", "score1"):
            if name in data and data[name] is None:
                data[name] = 0  # left blank
        if data.get("score0") == 0 and data.get("score1") == 0:
            raise forms.ValidationError(
                _("Nothing to record: enter the points of at least one team."), code="nothing"
            )
        return data

    def to_deal(self) -> ManualDeal:
        data = self.cleaned_data
        return ManualDeal((data["score0"], data["score1"]), data.get("note") or None)
