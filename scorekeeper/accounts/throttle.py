"""Login throttling with django-axes (its database handler, so every gunicorn worker and app server
counts the same failures): a user name, or a network address, that fails AXES_FAILURE_LIMIT times
within AXES_COOLOFF_TIME is refused until that time has passed since its last failure. Sign-up
throttling with the app's own counters (web.RateLimit): per address and for the whole site."""

from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.db import transaction
from django.http import HttpRequest

from scorekeeper.web import throttle


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


HOUR = 3600  # the window of the sign-up limits


@transaction.atomic
def signup_wait(*, address: str | None) -> int | None:
    """Count one sign-up attempt (every POST of the form, valid or not, as an imported file is
    counted whether it imports or not): at most SIGNUPS_PER_HOUR_PER_IP from one address and
    SIGNUPS_PER_HOUR on the whole site. None: counted, go ahead. A number: the seconds to wait;
    nothing is counted then (the address's count is undone when the site's ceiling refuses)."""
    limits = [
        (f"signup:ip:{address or 'unknown'}", settings.SIGNUPS_PER_HOUR_PER_IP),
        ("signup:all", settings.SIGNUPS_PER_HOUR),
    ]
    for key, limit in limits:
        wait = throttle.hit(key=key, limit=limit, window=HOUR)
        if wait is not None:
            transaction.set_rollback(True)
            return wait
    return None
