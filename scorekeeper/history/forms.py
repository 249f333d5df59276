from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scorekeeper.matches.models import Match
from scorekeeper.web.forms import too_large
from scorekeeper.web.validators import validate_text
from scorekeeper.web.words import PRESET_NAMES

from .selectors import ABANDONED, HistoryFilters


class HistoryFilterForm(forms.Form):
    q = forms.CharField(
        label=_("Search a team or a player"),
        required=False,
        max_length=60,
        validators=[validate_text],
    )
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    game = forms.ChoiceField(
        label=_("Game"),
        required=False,
        choices=[("", _("All")), ("coinche", _("Coinche")), ("belote", _("Classic belote"))],
    )
    preset = forms.ChoiceField(
        label=_("Rules"),
        required=False,
        choices=[
            ("", pgettext_lazy("all the rule sets", "All")),
            *((name, label) for name, label in PRESET_NAMES.items()),
        ],
    )
    player = forms.CharField(
        label=_("Player"), required=False, max_length=60, validators=[validate_text]
    )
    status = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=[("", _("All")), *Match.Status.choices, (ABANDONED, _("Abandoned"))],
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            raise forms.ValidationError(_("The start date is after the end date."))
        return data

    def filters(self) -> HistoryFilters:
        if not self.is_valid():
            return HistoryFilters()
        data = self.cleaned_data
        return HistoryFilters(
            date_from=data.get("date_from"),
            date_to=data.get("date_to"),
            game=data.get("game") or "",
            preset=data.get("preset") or "",
            player=(data.get("player") or "").strip(),
            status=data.get("status") or "",
            q=(data.get("q") or "").strip(),
        )


class RestoreForm(forms.Form):
    file = forms.FileField(label=_("Backup (.zip of match files)"))

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        if upload.size > settings.BACKUP_MAX_BYTES:
            raise too_large(settings.BACKUP_MAX_BYTES)
        data: bytes = upload.read()
        return data
