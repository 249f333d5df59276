"""The forms of teams registering themselves (issue 45): the public Register form (and the
team's changes through its link), the organiser's opening of registration, a refusal's reason,
check-in by code. Each only reads input (the text rules of every form: web/validators.py); the
services decide."""

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils.translation import gettext_lazy as _

from scorekeeper.web.validators import validate_name, validate_text

from .services import CONTACT_KEPT_DAYS, MAX_NAME

MAX_CONTACT = 120
PHONE = re.compile(r"\+?[\d\s().-]+")


def validate_contact(value: str) -> None:
    """A phone number (6 to 20 digits, with spaces, dots, dashes, brackets, a leading +) or an
    e-mail address."""
    text = " ".join(value.split())
    if "@" in text:
        try:
            validate_email(text)
        except ValidationError:
            raise ValidationError(
                _("Type an e-mail address such as name@example.org, or a phone number."),
                code="contact",
            ) from None
        return
    digits = sum(c.isdigit() for c in text)
    if not PHONE.fullmatch(text) or not 6 <= digits <= 20:
        raise ValidationError(
            _("Type a phone number such as 06 12 34 56 78, or an e-mail address."),
            code="contact",
        )


def _text(label: Any, *, required: bool = True, **attrs: str) -> forms.CharField:
    return forms.CharField(
        label=label,
        max_length=MAX_NAME,
        required=required,
        validators=[validate_name],
        widget=forms.TextInput(attrs={"autocomplete": "off", **attrs}),
    )


class RegisterForm(forms.Form):
    """A team (à la mêlée, a player) and how the organiser reaches it. Changing a registration,
    the contact may stay empty: the one given is kept (it is never shown back)."""

    name = _text(_("Team name"))
    player1 = _text(_("Player 1"), required=False, autocomplete="name")
    player2 = _text(_("Player 2"), required=False)
    contact = forms.CharField(
        label=_("Phone or e-mail, for the organiser only"),
        max_length=MAX_CONTACT,
        validators=[validate_text, validate_contact],
        widget=forms.TextInput(attrs={"autocomplete": "tel"}),
    )

    def __init__(self, *args: Any, melee: bool, change: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["contact"].help_text = _(
            "Never shown on the site, nor to the other teams; erased %(days)s days after the "
            "concours."
        ) % {"days": CONTACT_KEPT_DAYS}
        if melee:
            self.fields["name"].label = _("Your name")
            self.fields["name"].widget.attrs["autocomplete"] = "name"
            del self.fields["player1"]
            del self.fields["player2"]
        else:
            self.fields["player1"].required = True
            self.fields["player2"].required = True
        if change:
            contact = self.fields["contact"]
            contact.required = False
            contact.label = _("New phone or e-mail, for the organiser only")
            contact.help_text = _(
                "Leave it empty to keep the one you gave: it is not shown here, nor anywhere "
                "on the site."
            )

    def players(self) -> tuple[str, str]:
        data = self.cleaned_data
        return (data.get("player1", ""), data.get("player2", ""))


class OpeningForm(forms.Form):
    """The organiser opens (or closes) registration on the public page."""

    opened = forms.BooleanField(label=_("Teams may register on the public page"), required=False)
    closes_at = forms.DateTimeField(
        label=_("Registration closes at (optional)"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    max_teams = forms.IntegerField(
        label=_("At most this many teams (optional; then a waiting list)"),
        required=False,
        min_value=2,
        max_value=1000,
    )
    note = forms.CharField(
        label=_("A note above the form (optional)"),
        max_length=200,
        required=False,
        validators=[validate_text],
        help_text=_("The entry fee, the time to arrive…"),
    )


class RefuseForm(forms.Form):
    reason = forms.CharField(
        label=_("The reason, which the team reads on its link"),
        max_length=200,
        validators=[validate_text],
    )


class CheckInForm(forms.Form):
    code = forms.CharField(
        label=_("The team's code"),
        max_length=300,  # a scanned link
        validators=[validate_text],
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        ),
    )
