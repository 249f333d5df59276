import os

from hypothesis import HealthCheck, settings

# "ci" runs the properties over thousands of deals; "dev" is quicker for local edits.
settings.register_profile(
    "ci", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=300, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
