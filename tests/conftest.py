import os
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis

from tests import shared_data
from tests.shared_data import shared_world_of_class, shared_world_of_module  # noqa: F401 (fixtures)

# The test database migrated once per run (its fixture, its hook).
pytest_plugins = ["tests.migrated_once"]

if TYPE_CHECKING:  # Django is set up after this file is read: the models are imported late
    from django.contrib.auth.models import User
    from django.test import Client

    from scorekeeper.engine.scoring import Deal as EngineDeal
    from scorekeeper.engine.scoring import Rules
    from scorekeeper.matches.models import Match

    MakeMatch = Callable[..., Match]

Browser = Callable[..., "Client"]  # the `browser` fixture (a folder may override it: tests/browser)

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


# The fixtures and marks through which a test reaches the database (pytest-django refuses it to any
# other test). `make_match`, `make_user`, `live_server`... request one of them: a test's fixture
# closure names it.
DB_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "django_db_serialized_rollback"}
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks `db` every test that touches the database, so CI's PostgreSQL pass runs those only
    (`-m db`): the others (the pure engines, forms, templates...) do the same on either database."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & DB_FIXTURES or item.get_closest_marker("django_db"):
            item.add_marker(pytest.mark.db)
    shared_data.check(items)


@pytest.fixture(scope="session")
def django_db_setup(
    _test_database_migrated_once: Callable[[], None], django_db_setup: None
) -> None:
    """pytest-django's, its test database migrated once per run (tests/migrated_once.py)."""
    _test_database_migrated_once()


@pytest.fixture(autouse=True, scope="session")
def fast_password_hasher() -> None:
    """Hashing a password the real way takes ~0.3 s; the tests sign up and log in often. (Set
    once for the session: a test parameter named `settings` would shadow pytest-django's.)"""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True, scope="session")
def tasks_run_at_once() -> Any:
    """Background jobs run as they are started, in the test's own thread and transaction
    (tests/jobs/test_worker.py runs the real database backend and its worker)."""
    from django.test import override_settings

    immediate = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
    with override_settings(TASKS=immediate):
        yield


# Django's private names (not in its stubs), read and set by name.
RENDERED = ("Template", "PartialTemplate")


def _set_render(render: "Sequence[Callable[..., Any]]") -> None:
    from django.template import base

    for name, function in zip(RENDERED, render, strict=True):
        setattr(getattr(base, name), "_render", function)  # noqa: B010


def _render_now() -> list[Callable[..., Any]]:
    from django.template import base

    return [getattr(base, name)._render for name in RENDERED]


@pytest.fixture(autouse=True, scope="session")
def templates_rendered_plainly(django_test_environment: None) -> Iterator[None]:
    """Django's test set-up wraps every template render (each include and partial too) to send
    its context to the test client, which copies it for `response.context`: about 40 % of a
    test-client test's CPU (tests/matches/test_bad_input.py: 40 s of CPU with it, 24 s without).
    Templates render as in production; a test that reads `response.context` asks for
    `template_context`."""
    from django.test import utils

    instrumented = _render_now()
    saved = getattr(utils, "_TestState").saved_data  # noqa: B009
    _set_render([saved.template_render, saved.partial_template_render])
    yield
    _set_render(instrumented)


@pytest.fixture
def template_context() -> Iterator[None]:
    """`response.context` filled in, as Django's test set-up does (see templates_rendered_plainly)."""
    from django.test import utils

    plain = _render_now()
    instrumented = getattr(utils, "instrumented_test_render")  # noqa: B009
    _set_render([instrumented, instrumented])
    yield
    _set_render(plain)


@pytest.fixture(autouse=True)
def default_language_after_each_test() -> Any:
    """A French request leaves its language active on the thread (the locale middleware activates
    it and a test client's request does not always end with a reset): without this, a test after
    a French one could render French and fail depending on the order."""
    yield
    from django.utils import translation

    translation.deactivate()


# Test data (tests/factories.py, factory-boy) -----------------------------------------------------


@pytest.fixture
def owner_key() -> str:
    """The key of the browser that creates `make_match`'s matches (a folder may override it)."""
    from tests.factories import OWNER_KEY

    return OWNER_KEY


def match_maker(owner_key: str) -> "MakeMatch":
    """`make_match`'s function, for shared data too (tests/shared_data.py)."""
    from tests.factories import MatchFactory

    def make(
        rules: "Rules | str" = "coinche", deals: "Sequence[EngineDeal]" = (), **fields: Any
    ) -> "Match":
        return MatchFactory.create(rules=rules, deals=deals, **{"owner_key": owner_key, **fields})

    return make


@pytest.fixture
def make_match(db: None, owner_key: str) -> "MakeMatch":
    """`make_match(rules="coinche", deals=(), **fields)`: a match made through the services by the
    browser `owner_key`, its deals recorded one by one (MatchFactory's fields: owner, team_names,
    players, first_dealer, created_at, owner_key)."""
    return match_maker(owner_key)


def new_user(name: str) -> "User":
    """An account whose password is tests.factories.PASSWORD."""
    from tests.factories import UserFactory

    return UserFactory.create(username=name)


@pytest.fixture
def make_user(db: None) -> "Callable[[str], User]":
    """`make_user(name)`: an account whose password is tests.factories.PASSWORD."""
    return new_user


def open_browser(
    key: str, user: "User | None" = None, kind: "type[Client] | None" = None
) -> "Client":
    """`browser`'s function: a test client (of `kind`, a Client by default) with its own device
    key, signed in to `user` if given."""
    from django.test import Client

    from scorekeeper.matches import access

    client = (kind or Client)()
    session = client.session
    session[access.DEVICE_KEY] = key
    session.save()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def browser(db: None) -> Browser:
    """`browser(key, user=None)`: a browser (a test client) with its own device key, signed in to
    `user` if given. (tests/browser's `browser` is Chromium instead.)"""
    return open_browser


@pytest.fixture
def back_and_forth(transactional_db: None) -> Iterator[None]:
    """For a test that takes the database back to an earlier migration (tests/migrating.py):
    the latest state again for the next test, whatever happens."""
    from tests.migrating import migrate

    yield
    migrate()
