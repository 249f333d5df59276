"""Test data built once for a module (or a test class) and shared by its tests: pytest-django's
counterpart of Django's TestCase.setUpTestData.

    @shared_data                        # or @shared_data(scope="class")
    def concours() -> Concours:
        ...  # built through the factories and services, as a per-test fixture would
        return Concours(...)

    def test_something(concours: Concours) -> None: ...

How it stays as isolated as building the data for each test:
- the builder runs once per module (class), inside an outer transaction that is rolled back when
  the module (class) is done, as TestCase.setUpClass's atomic blocks are;
- each test runs in its own savepoint within it (pytest-django's `db` wraps a test in an atomic
  block, which nests as a savepoint), rolled back after the test: its writes never reach the next;
- each test gets a deep copy of what the builder returned (as setUpTestData's TestData does), so a
  test that changes an instance in memory changes its own copy; a SharedClient in it is copied
  as a new test client holding the same cookies (its session rows are in the shared data).

Rules, checked at collection (`check`, from tests/conftest.py), which fails the run otherwise:
- a test that uses shared data runs in a transaction: not transactional_db, live_server or
  django_db(transaction=True) (those commit, and cannot run inside the outer transaction);
- every database test of the module (class) uses the same shared data: a test of it that runs
  while the data exists sees it, so one that needs another world goes to another class or file;
- a builder takes no fixture (fixtures are built per test): it calls the factories and services.
It works per pytest-xdist worker: a worker builds the data for the tests it runs, on SQLite and on
PostgreSQL alike (both nest savepoints)."""

import copy
from collections.abc import Callable, Iterator
from typing import Any, Literal, overload

import pytest
from django.test import Client
from pytest_django import DjangoDbBlocker

Scope = Literal["module", "class"]
Key = tuple[str, str]  # (module, class qualname or "" for the module's scope)

# (module, fixture name) -> its scope and builder: filled as the test modules are read.
BUILDERS: dict[Key, tuple[Scope, Callable[[], object]]] = {}
# A module's or a class's key -> the builders its tests use: filled at collection (`check`).
NEEDED: dict[Key, dict[str, Callable[[], object]]] = {}

TRANSACTIONAL = frozenset({"transactional_db", "live_server", "django_db_reset_sequences"})


class SharedClient(Client):
    """A test client that shared data may hold (a signed-in browser, one that opened a link):
    each test gets a new client with a copy of its cookies, and so the same session."""

    def __deepcopy__(self, memo: dict[int, Any]) -> "SharedClient":
        twin = type(self)(self.handler.enforce_csrf_checks, self.raise_request_exception)
        twin.defaults = copy.deepcopy(self.defaults, memo)  # headers and query string included
        twin.cookies = copy.deepcopy(self.cookies, memo)
        return twin


@overload
def shared_data[T](build: Callable[[], T]) -> Any: ...
@overload
def shared_data[T](*, scope: Scope) -> Callable[[Callable[[], T]], Any]: ...
def shared_data[T](build: Callable[[], T] | None = None, *, scope: Scope = "module") -> Any:
    """Makes `build` a fixture of the same name whose value is built once per module (or class)
    and deep-copied for each test (see the module's doc)."""

    def decorate(build: Callable[[], T]) -> Any:
        name = build.__name__
        BUILDERS[(build.__module__, name)] = (scope, build)

        def of_module(shared_world_of_module: dict[str, object], db: None) -> object:
            return copy.deepcopy(shared_world_of_module[name])

        def of_class(shared_world_of_class: dict[str, object], db: None) -> object:
            return copy.deepcopy(shared_world_of_class[name])

        fresh = of_module if scope == "module" else of_class
        fresh.__doc__ = build.__doc__
        return pytest.fixture(name=name)(fresh)

    return decorate if build is None else decorate(build)


def _world(key: Key, blocker: DjangoDbBlocker) -> Iterator[dict[str, object]]:
    """The outer transaction (as TestCase.setUpClass's, marked as the test case's own so that
    a durable atomic block inside a test behaves as under TestCase) around the built data."""
    from django.db import transaction

    with blocker.unblock():
        outer = transaction.atomic()
        setattr(outer, "_from_testcase", True)  # noqa: B010 (Django's private flag)
        outer.__enter__()
        try:
            world = {name: build() for name, build in NEEDED[key].items()}
        except BaseException:
            _roll_back(outer)
            raise
    try:
        yield world
    finally:
        with blocker.unblock():
            _roll_back(outer)


def _roll_back(outer: Any) -> None:
    from django.db import transaction

    transaction.set_rollback(True)
    outer.__exit__(None, None, None)


@pytest.fixture(scope="module")
def shared_world_of_module(
    request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: DjangoDbBlocker
) -> Iterator[dict[str, object]]:
    yield from _world((request.module.__name__, ""), django_db_blocker)


@pytest.fixture(scope="class")
def shared_world_of_class(
    request: pytest.FixtureRequest, django_db_setup: None, django_db_blocker: DjangoDbBlocker
) -> Iterator[dict[str, object]]:
    assert request.cls is not None, "class-scoped shared data is for the tests of a class"
    yield from _world((request.module.__name__, request.cls.__qualname__), django_db_blocker)


def _transactional(item: pytest.Item, names: set[str]) -> bool:
    marker = item.get_closest_marker("django_db")
    if marker is not None and (
        marker.kwargs.get("transaction") or marker.kwargs.get("reset_sequences")
    ):
        return True
    return bool(names & TRANSACTIONAL)


def check(items: list[pytest.Item]) -> None:
    """Fills NEEDED and enforces the rules of the module's doc (`db` marks are set first)."""
    uses: dict[Key, dict[str, set[str]]] = {}  # scope key -> test id -> the shared data it uses
    errors: list[str] = []
    for item in items:
        module = getattr(item, "module", None)
        if module is None:
            continue
        cls = getattr(item, "cls", None)
        names = set(getattr(item, "fixturenames", ()))
        shared = {n for n in names if (module.__name__, n) in BUILDERS}
        if shared and _transactional(item, names):
            errors.append(f"{item.nodeid}: a transactional test cannot use shared data {shared}")
        keys: list[tuple[Key, Scope]] = [((module.__name__, ""), "module")]
        if cls is not None:
            keys.append(((module.__name__, cls.__qualname__), "class"))
        for key, scope in keys:
            mine = {n for n in shared if BUILDERS[(module.__name__, n)][0] == scope}
            if mine or item.get_closest_marker("db"):
                uses.setdefault(key, {})[item.nodeid] = mine
            for name in mine:
                NEEDED.setdefault(key, {})[name] = BUILDERS[(module.__name__, name)][1]
        if cls is None and any(BUILDERS[(module.__name__, n)][0] == "class" for n in shared):
            errors.append(f"{item.nodeid}: class-scoped shared data used outside a class")
    for key, tests in uses.items():
        wanted = set(NEEDED.get(key, {}))
        errors += [
            f"{test}: uses {sorted(mine)} of shared data, not all of {sorted(wanted)} that the "
            "other database tests of its module (class) share: move it to another class or file"
            for test, mine in tests.items()
            if wanted and mine != wanted
        ]
    if errors:
        raise pytest.UsageError("shared data (tests/shared_data.py):\n" + "\n".join(errors))
