"""Fixtures of the jobs tests: the test kind (kinds.Steps) registered, and browsers (test clients)
with their own device key and optionally an account."""

from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import User
from django.test import Client
from pytest_django.fixtures import Settings

from scorekeeper.jobs import services
from scorekeeper.matches import access

from . import kinds

Browser = Callable[..., Client]


@pytest.fixture(autouse=True)
def steps_kind(settings: Settings) -> Iterator[None]:
    settings.JOB_KINDS = {**settings.JOB_KINDS, "steps": "tests.jobs.kinds.Steps"}
    services.kind_of.cache_clear()
    kinds.SEEN.clear()
    yield
    services.kind_of.cache_clear()


@pytest.fixture
def browser(db: None) -> Browser:
    """A browser with its own device key, signed in to `user` if given."""

    def make(key: str, user: User | None = None) -> Client:
        client = Client()
        session = client.session
        session[access.DEVICE_KEY] = key
        session.save()
        if user is not None:
            client.force_login(user)
        return client

    return make
