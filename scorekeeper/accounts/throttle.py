"""Login throttling with django-axes (its database handler, so every gunicorn worker and app server
counts the same failures): a user name, or a network address, that fails AXES_FAILURE_LIMIT times
within AXES_COOLOFF_TIME is refused until that time has passed since its last failure."""

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.http import HttpRequest


class LoginThrottleHandler(AxesDatabaseHandler):  # type: ignore[misc]  # axes ships no types
    """Axes' database handler, except what a successful login forgives: only the failures of that
    name from that address (a player's own typos). Axes would also forget every failure from the
    address, so whoever has an account could reset the address's count after each few guesses at
    other names."""

    def reset_user_attempts(
        self, request: HttpRequest, credentials: dict[str, Any] | None = None
    ) -> int:
        username = get_client_username(request, credentials)
        ip_address = getattr(request, "axes_ip_address", None)
        count, _ = AccessAttempt.objects.filter(username=username, ip_address=ip_address).delete()
        return int(count)
