from typing import Any

from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _


class SignupForm(UserCreationForm[User]):
    """A username and a password: no e-mail needed to start."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Short help a player reads at a café table, instead of Django's rules in full (the
        # validators still explain any refusal).
        self.fields["username"].help_text = _("Letters, digits and . _ - @ +, no spaces.")
        self.fields["password1"].help_text = _(
            "At least 8 characters, not only digits, not a common password, not close to your name."
        )  # what settings.AUTH_PASSWORD_VALIDATORS check
        self.fields["password2"].help_text = ""
        self.fields["username"].widget.attrs.update(autocapitalize="none", autocomplete="username")
