"""Error pages in the site's look, in the visitor's language, that never touch the database (it
may be what failed): 500 says to try again and that Back keeps what was typed; a lost database
connection answers 503 with Retry-After; 400, 403 (and an expired form), 404 and 429 have pages too.
And on PostgreSQL, a connection the server killed between two requests costs nothing: the next
request gets a fresh one (connection health checks) instead of a 500."""

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from scorekeeper.engine.scoring import get_preset
from scorekeeper.matches import services
from scorekeeper.matches.models import Match
from tests.matches.support import OWNER_KEY, new_match_post

ROOT = Path(__file__).resolve().parents[2]
errors = override_settings(ROOT_URLCONF="tests.web.error_urls")


def get(path: str, *, language: str = "en", user: User | None = None) -> tuple[object, int]:
    """The response to a GET, and how many queries answering it took."""
    client = Client(raise_request_exception=False, headers={"accept-language": language})
    if user is not None:
        client.force_login(user)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    return response, len(queries)


def looks_like_the_site(html: str) -> None:
    assert '<link rel="stylesheet" href="/static/css/app.css">' in html
    assert 'class="topbar"' in html and 'class="brand" href="/"' in html
    assert "<script>" not in html and "style=" not in html  # the CSP forbids inline code


@errors
@pytest.mark.django_db
def test_a_bug_gets_a_friendly_500_that_says_to_try_again(django_user_model: type[User]) -> None:
    user = django_user_model.objects.create_user("alice", password="a-long-enough-password-42")
    response, queries = get("/boom/", user=user)
    assert response.status_code == 500  # type: ignore[attr-defined]
    html = response.content.decode()  # type: ignore[attr-defined]
    assert queries == 0  # a signed-in visitor's page is drawn without reading the session
    looks_like_the_site(html)
    assert "Something went wrong" in html
    assert "Try again in a moment." in html
    assert "go Back in your browser: what you typed is still there" in html
    assert '<a class="btn btn-primary btn-block" href="/">Home</a>' in html


@errors
@pytest.mark.django_db
def test_the_500_page_is_in_the_visitors_language() -> None:
    response, _ = get("/boom/", language="fr")
    html = response.content.decode()  # type: ignore[attr-defined]
    assert response.status_code == 500  # type: ignore[attr-defined]
    assert '<html lang="fr">' in html
    assert "Un problème est survenu" in html  # in the catalogue already
    with translation.override("fr"):
        assert translation.gettext("Try again in a moment.") in html


@errors
@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/boom/database/", "/boom/connection/"])
def test_a_lost_database_gets_503_try_again_with_retry_after(path: str) -> None:
    response, queries = get(path)
    assert response.status_code == 503  # type: ignore[attr-defined]
    assert response["Retry-After"] == "10"  # type: ignore[index]
    html = response.content.decode()  # type: ignore[attr-defined]
    assert queries == 0
    looks_like_the_site(html)
    assert "Try again in a moment" in html
    assert "go Back in your browser: what you typed is still there" in html


@errors
@pytest.mark.django_db
def test_an_error_page_that_cannot_be_drawn_still_says_try_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With DEBUG off and no static files manifest (collectstatic not run), drawing the page
    fails too: the handler must still answer, in words, not leave gunicorn's bare 500."""

    def broken(*args: object, **kwargs: object) -> str:
        raise ValueError("Missing staticfiles manifest entry for 'css/app.css'")

    monkeypatch.setattr("scorekeeper.web.errors.render_to_string", broken)
    response, _ = get("/boom/database/")
    assert response.status_code == 503  # type: ignore[attr-defined]
    html = response.content.decode()  # type: ignore[attr-defined]
    assert "Try again in a moment" in html and "what you typed is still there" in html
    response, _ = get("/boom/")
    assert response.status_code == 500  # type: ignore[attr-defined]
    assert "Try again in a moment" in response.content.decode()  # type: ignore[attr-defined]


@errors
@pytest.mark.django_db
def test_permission_denied_has_a_page() -> None:
    response, _ = get("/boom/forbidden/")
    assert response.status_code == 403  # type: ignore[attr-defined]
    html = response.content.decode()  # type: ignore[attr-defined]
    looks_like_the_site(html)
    assert "You may not open this page." in html


def test_a_bad_request_has_a_page() -> None:
    response = Client().get("/", headers={"host": "evil.example"})
    assert response.status_code == 400
    looks_like_the_site(response.text)
    assert "The request was not understood." in response.text


@pytest.mark.django_db
def test_an_expired_form_says_go_back_reload_and_send_again() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post("/new/", new_match_post())
    assert response.status_code == 403
    looks_like_the_site(response.text)
    assert "This form has expired" in response.text
    assert "reload the page" in response.text
    assert not Match.objects.exists()


def test_too_many_requests_has_a_page() -> None:
    html = render_to_string("429.html", {"minutes": 2})
    looks_like_the_site(html)
    assert "Too many requests" in html
    assert "Wait 2 minutes, then try again." in html


@pytest.mark.django_db
def test_not_found_keeps_the_site_look() -> None:
    response = Client().get("/no-such-page/")
    assert response.status_code == 404
    assert 'class="topbar"' in response.text and "This page does not exist" in response.text


def test_the_error_messages_have_french_translations() -> None:
    for english in (
        "Try again in a moment.",
        "This form has expired",
        "Too many requests",
        "The request was not understood.",
        "You may not open this page.",
    ):
        with translation.override("fr"):
            assert translation.gettext(english) != english, english


# A real dropped connection (PostgreSQL) ------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    try:
        with urllib.request.urlopen(url, timeout=20) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.fixture
def gunicorn(transactional_db: None) -> Iterator[object]:
    """A function that starts the app under gunicorn (one worker, one thread: every request uses
    the same kept database connection) on the test database, named so it can be found."""
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL=postgres://...)")
    started: list[subprocess.Popen[bytes]] = []

    def start(name: str, **env: str) -> str:
        port = free_port()
        db = connection.settings_dict
        environ = {
            **os.environ,
            "DEBUG": "false",
            "SECRET_KEY": "a-test-secret-key-long-enough-for-the-deploy-checks-0123456789",
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "false",
            "CONN_MAX_AGE": "600",
            "DATABASE_URL": (
                f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
                f"?application_name={name}"
            ),
            **env,
        }
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "scorekeeper.wsgi",
                "--bind",
                f"127.0.0.1:{port}",
                "--workers",
                "1",
                "--threads",
                "1",
                "--worker-class",
                "gthread",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=environ,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        started.append(server)
        url = f"http://127.0.0.1:{port}"
        for _ in range(150):
            try:
                if fetch(f"{url}/healthz")[0] == 200:
                    return url
            except OSError:
                time.sleep(0.1)
        raise AssertionError("gunicorn did not start")

    yield start
    for server in started:
        server.terminate()
        server.wait(timeout=20)


def kill_connections(name: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = %s",
            [name],
        )
        return int(cursor.fetchone()[0])


@pytest.mark.django_db(transaction=True)
def test_a_connection_killed_by_the_database_is_replaced_on_the_next_request(
    gunicorn: object,
) -> None:
    match = services.create_match(
        owner_key=OWNER_KEY, rules=get_preset("coinche"), team_names=("Nous", "Eux")
    )
    name = f"scorekeeper-drop-{os.getpid()}"
    url = gunicorn(name)  # type: ignore[operator]
    page = f"{url}/view/{match.view_token}/match.json"
    assert fetch(page)[0] == 200
    assert kill_connections(name) == 1  # the app's kept connection, as a database restart would
    status, _, body = fetch(page)
    assert status == 200
    assert json.loads(body)["teams"][0]["name"] == "Nous"
    assert kill_connections(name) == 1  # a fresh connection served it, and is kept again


@pytest.mark.django_db(transaction=True)
def test_without_health_checks_the_killed_connection_gets_the_try_again_page(
    gunicorn: object,
) -> None:
    """What the health checks prevent, and what a visitor sees when it happens anyway."""
    match = services.create_match(
        owner_key=OWNER_KEY, rules=get_preset("coinche"), team_names=("Nous", "Eux")
    )
    name = f"scorekeeper-nocheck-{os.getpid()}"
    url = gunicorn(name, CONN_HEALTH_CHECKS="false")  # type: ignore[operator]
    page = f"{url}/view/{match.view_token}/match.json"
    assert fetch(page)[0] == 200
    assert kill_connections(name) == 1
    status, headers, body = fetch(page)
    assert status == 503, body[:300]
    assert headers["Retry-After"] == "10"
    assert b"Try again in a moment" in body
    assert fetch(page)[0] == 200  # the broken connection was closed after that request
