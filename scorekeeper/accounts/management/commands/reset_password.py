"""`python manage.py reset_password USERNAME [--password P]`: set a new password, no e-mail needed.
Without --password a random one is generated and printed once."""

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser


class Command(BaseCommand):
    help = "Reset a user's password (prints a generated one unless --password is given)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--password", help="the new password (default: a random one)")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["username"]).first()
        if user is None:
            raise CommandError(f"no user named {options['username']!r}", returncode=2)
        password = options["password"] or secrets.token_urlsafe(12)
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages), returncode=2) from None
        user.set_password(password)
        user.save(update_fields=["password"])
        if options["password"]:
            self.stdout.write(f"Password of {user.get_username()} changed.")
        else:
            self.stdout.write(f"New password of {user.get_username()}: {password}")
