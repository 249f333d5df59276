"""Fixtures of the jobs tests: the test kind (kinds.Steps) registered (`browser`, a test client
with its own device key, is the suite's: tests/conftest.py)."""

from collections.abc import Iterator

import pytest
from pytest_django.fixtures import Settings

from scorekeeper.jobs import services

from . import kinds


@pytest.fixture(autouse=True)
def steps_kind(settings: Settings) -> Iterator[None]:
    settings.JOB_KINDS = {**settings.JOB_KINDS, "steps": "tests.jobs.kinds.Steps"}
    services.kind_of.cache_clear()
    kinds.SEEN.clear()
    yield
    services.kind_of.cache_clear()
