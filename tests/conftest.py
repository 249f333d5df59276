import os

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis

# CI runs the properties over thousands of deals, derandomized so a run never fails by chance; a
# local `make test` takes the quick profile; `make fuzz` is the long random hunt for new cases.
hypothesis.register_profile(
    "ci",
    max_examples=2000,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
hypothesis.register_profile("dev", max_examples=200, deadline=None, derandomize=True)
hypothesis.register_profile(
    "fuzz", max_examples=20_000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev")
)


@pytest.fixture(autouse=True, scope="session")
def fast_password_hasher() -> None:
    """Hashing a password the real way takes ~0.3 s; the tests sign up and log in often. (Set
    once for the session: a test parameter named `settings` would shadow pytest-django's.)"""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
