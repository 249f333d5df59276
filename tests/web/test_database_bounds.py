"""PostgreSQL bounds every request: each connection starts with statement_timeout
(DB_STATEMENT_TIMEOUT_MS) and idle_in_transaction_session_timeout
(DB_IDLE_IN_TRANSACTION_TIMEOUT_MS); a query past its timeout is cancelled and a page that ran
into it says it took too long (503); a phone's save waits at most DB_SAVE_LOCK_TIMEOUT_MS for its
match's row, then is told the match is busy, keeps its input and writes nothing. PostgreSQL only
(DATABASE_URL=postgres://...): SQLite keeps its busy timeout (checked here too)."""

import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.db import OperationalError, connection, transaction
from django.test import RequestFactory
from django.urls import reverse
from pytest_django.fixtures import Settings

from scorekeeper.matches.models import Deal, Match
from scorekeeper.web.errors import server_error
from tests.matches.conftest import MakeMatch, client_with_device
from tests.matches.support import OWNER_KEY, deal_post

ROOT = Path(__file__).resolve().parents[2]
HELD_SECONDS = 8
BUSY = "Another phone is saving this match right now: nothing was saved. Try again."

postgresql_only = pytest.mark.skipif(
    not settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
    reason="PostgreSQL bounds (DATABASE_URL=postgres://...); SQLite has its busy timeout",
)


def pg_setting(name: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT setting FROM pg_settings WHERE name = %s", [name])
        return str(cursor.fetchone()[0])


def test_sqlite_keeps_its_busy_timeout() -> None:
    from scorekeeper.settings import SQLITE_OPTIONS

    assert SQLITE_OPTIONS["timeout"] == 20
    assert (
        settings.DB_STATEMENT_TIMEOUT_MS,
        settings.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
        settings.DB_SAVE_LOCK_TIMEOUT_MS,
    ) == (15000, 30000, 5000)


@postgresql_only
@pytest.mark.django_db
def test_each_connection_starts_with_the_timeouts_of_the_settings() -> None:
    assert pg_setting("statement_timeout") == str(settings.DB_STATEMENT_TIMEOUT_MS) == "15000"
    assert pg_setting("idle_in_transaction_session_timeout") == "30000"
    assert pg_setting("lock_timeout") == "0"  # only a save's transaction bounds its wait


@postgresql_only
@pytest.mark.django_db
def test_the_environment_sets_them_and_a_query_past_the_timeout_is_cancelled() -> None:
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "DB_STATEMENT_TIMEOUT_MS": "300",
        "DB_IDLE_IN_TRANSACTION_TIMEOUT_MS": "4000",
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
    }
    code = (
        "import time, django\n"
        "django.setup()\n"
        "from django.db import connection, OperationalError\n"
        "cursor = connection.cursor()\n"
        "cursor.execute('SHOW statement_timeout'); print(cursor.fetchone()[0])\n"
        "cursor.execute('SHOW idle_in_transaction_session_timeout'); print(cursor.fetchone()[0])\n"
        "started = time.monotonic()\n"
        "try:\n"
        "    cursor.execute('SELECT pg_sleep(5)')\n"
        "except OperationalError as error:\n"
        "    print(type(error.__cause__).__name__, round(time.monotonic() - started, 1))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    shown, idle, cancelled = done.stdout.splitlines()
    assert (shown, idle) == ("300ms", "4s")
    name, seconds = cancelled.split()
    assert name == "QueryCanceled" and float(seconds) < 3, cancelled  # not the 5 s asked


@postgresql_only
@pytest.mark.django_db
def test_a_page_whose_query_was_cancelled_says_it_took_too_long() -> None:
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET LOCAL statement_timeout = 50")
            cursor.execute("SELECT pg_sleep(2)")
    except OperationalError:
        response = server_error(RequestFactory().get("/"))
    assert response.status_code == 503 and response["Retry-After"] == "10"
    assert "This took too long" in response.content.decode()


@pytest.fixture
def row_held(transactional_db: None, make_match: MakeMatch) -> Iterator[Match]:
    """A match whose row another connection holds locked (as a long save would), until the
    test ends or HELD_SECONDS have passed."""
    match = make_match()
    db = connection.settings_dict
    other = psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], dbname=db["NAME"], autocommit=False
    )
    other.execute("SELECT id FROM matches_match WHERE id = %s FOR UPDATE", [match.pk])
    # Let go after HELD_SECONDS whatever happens: without a lock timeout the save would wait
    # that long, then go through (the failure this module guards against), not hang the run.
    release = threading.Timer(HELD_SECONDS, other.rollback)
    release.start()
    yield match
    release.cancel()
    release.join()
    other.rollback()
    other.close()


@postgresql_only
def test_a_save_blocked_by_another_holding_the_match_is_told_it_is_busy(
    row_held: Match, settings: Settings
) -> None:
    settings.DB_SAVE_LOCK_TIMEOUT_MS = 400
    match = row_held
    client = client_with_device(OWNER_KEY)
    url = reverse("matches:deal_new", kwargs={"token": match.scorer_token})
    data = deal_post(match.version, note="typed while busy")
    started = time.monotonic()
    refused = client.post(url, data)
    took = time.monotonic() - started
    assert refused.status_code == 200
    assert BUSY in refused.text
    assert 'value="typed while busy"' in refused.text  # the input is kept
    assert 0.4 <= took < 3, took  # waited its lock timeout, not the statement timeout
    assert not Deal.objects.filter(match=match).exists()
    assert Match.objects.get(pk=match.pk).version == match.version


@postgresql_only
def test_a_one_tap_action_on_a_busy_match_says_so_on_the_scoreboard(
    row_held: Match, settings: Settings
) -> None:
    settings.DB_SAVE_LOCK_TIMEOUT_MS = 200
    match = row_held
    client = client_with_device(OWNER_KEY)
    url = reverse("matches:deal_passed", kwargs={"token": match.scorer_token})
    refused = client.post(url, {"version": match.version}, follow=True)
    assert refused.status_code == 200
    assert BUSY in refused.text
    assert not Deal.objects.filter(match=match).exists()


def test_the_busy_message_has_french() -> None:
    from django.utils import translation

    with translation.override("fr"):
        assert translation.gettext(BUSY) != BUSY
