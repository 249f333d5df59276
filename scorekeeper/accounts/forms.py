from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User


class SignupForm(UserCreationForm[User]):
    """A username and a password: no e-mail needed to start."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)
