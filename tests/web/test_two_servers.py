"""Two app servers sharing one PostgreSQL (issue 43), as behind a proxy (the test alternates
between them): each is gunicorn (one sync worker) with its streams' server (uvicorn) beside it,
started on loopback ports. A deal saved through server A reaches a viewer whose stream is on
server B within a second; a session, its CSRF cookie, a login lockout and a fragment's version
tag are the same whichever server answers. Lean: one worker each, one match."""

import http.client
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import pytest
from django.conf import settings as django_settings
from django.contrib.auth.models import User
from django.db import connection

from scorekeeper.matches.models import Deal, Match
from scorekeeper.web.live.topics import sign
from tests.factories import MatchFactory
from tests.web.test_gunicorn_timeout import GUNICORN, free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="two servers share one PostgreSQL"
)


class Server:
    def __init__(self, env: dict[str, str]) -> None:
        self.port, self.live_port = free_port(), free_port()
        env = {**env, "GUNICORN_BIND": f"127.0.0.1:{self.port}", "GUNICORN_WORKERS": "1"}
        self.processes = [
            subprocess.Popen(
                [GUNICORN or "gunicorn", "-c", "gunicorn.conf.py", "scorekeeper.wsgi"],
                cwd=ROOT, env=env,
            ),
            subprocess.Popen(
                [sys.executable, "-m", "scorekeeper.web.live.serve", f"--bind=127.0.0.1:{self.live_port}"],
                cwd=ROOT, env=env,
            ),
        ]  # fmt: skip

    def ready(self) -> None:
        for port in (self.port, self.live_port):

            def up(port: int = port) -> bool | None:
                return _status(port, "/healthz") == 200 or None

            wait_for(up, within=60, what=f"a server on port {port}")

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


def _status(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"X-Forwarded-Proto": "https"})
        return conn.getresponse().status
    finally:
        conn.close()


class Phone:
    """One browser: its cookies, whichever server it reaches."""

    def __init__(self) -> None:
        self.cookies: dict[str, str] = {}

    def request(
        self,
        port: int,
        method: str,
        path: str,
        data: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], str]:
        sent = {"X-Forwarded-Proto": "https", "Host": "127.0.0.1", **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if data is not None:
            body = urlencode(data)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["Origin"] = sent["Referer"] = "https://127.0.0.1"
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            text = response.read().decode()
            for header in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(header).items():
                    self.cookies[name] = morsel.value
            return response.status, dict(response.headers.items()), text
        finally:
            conn.close()


def inputs(html: str) -> dict[str, str]:
    found = {}
    for tag in re.findall(r"<input[^>]*>", html):
        attrs = dict(re.findall(r'(\w[\w-]*)="([^"]*)"', tag))
        if "name" in attrs:
            found[attrs["name"]] = attrs.get("value", "")
    return found


@pytest.fixture
def servers(transactional_db: None) -> Iterator[tuple[Server, Server]]:
    settings = connection.settings_dict
    url = f"postgres://{settings['USER']}@{settings['HOST']}:{settings['PORT']}/{settings['NAME']}"
    env = {
        **os.environ,
        "DATABASE_URL": url, "DEBUG": "true",  # no collected static files needed
        "SECRET_KEY": django_settings.SECRET_KEY,
        "ALLOWED_HOSTS": "127.0.0.1", "SECURE_HSTS_SECONDS": "0", "LOGIN_FAILURE_LIMIT": "3",
        "GUNICORN_LOG_LEVEL": "warning", "LIVE_HEARTBEAT_SECONDS": "1",
    }  # fmt: skip
    pair = (Server(env), Server(env))
    try:
        for server in pair:
            server.ready()
        yield pair
    finally:
        for server in pair:
            server.stop()


def test_two_servers_share_deals_streams_sessions_lockouts_and_tags(
    servers: tuple[Server, Server],
) -> None:
    a, b = servers
    match = MatchFactory.create()
    topic = f"m{match.pk}"
    # A viewer's stream on B.
    stream = http.client.HTTPConnection("127.0.0.1", b.live_port, timeout=10)
    stream.request(
        "GET",
        f"/live/?t={sign(topic)}&v={topic}={match.version}",
        headers={"X-Forwarded-Proto": "https"},
    )
    events = stream.getresponse()
    assert events.status == 200
    assert events.readline().startswith(b"retry:")
    # A phone with the scorer link: the form through A, Save through B, then again the other way.
    phone = Phone()
    board = f"/score/{match.scorer_token}/"
    _, _, form = phone.request(a.port, "GET", f"{board}deal/")
    fields = inputs(form)
    deal = {"taker": "0", "contract": "80", "trump": "hearts", "coinche": "none",
            "taker_points": "100", "defence_points": "", "capot": "", "belote0": "0",
            "belote1": "0", "note": ""}  # fmt: skip
    post = {**deal, **{k: fields[k] for k in ("csrfmiddlewaretoken", "version", "submission")}}
    status, headers, _ = phone.request(b.port, "POST", f"{board}deal/", post)
    saved = time.monotonic()
    assert status == 302 and headers["Location"].endswith(board)
    line = b""
    while not line.startswith(b"data:"):
        line = events.readline()
    assert time.monotonic() - saved < 1, "the viewer on B was not told within a second"
    assert line.decode().strip() == f"data: {topic} {match.version + 1}"
    stream.close()
    assert Deal.objects.filter(match=match).count() == 1
    # The fragment's tag from A holds on B, and moves on both after the next deal.
    viewer = Phone()
    fragment = {"HX-Request": "true", "HX-Target": "scoreboard"}
    _, tagged, _ = viewer.request(a.port, "GET", f"/view/{match.view_token}/", headers=fragment)
    tag = tagged["ETag"]
    status, _, _ = viewer.request(
        b.port, "GET", f"/view/{match.view_token}/", headers={**fragment, "If-None-Match": tag}
    )
    assert status == 304
    _, _, form = phone.request(b.port, "GET", f"{board}deal/")
    fields = inputs(form)
    post = {**deal, **{k: fields[k] for k in ("csrfmiddlewaretoken", "version", "submission")}}
    assert phone.request(a.port, "POST", f"{board}deal/", post)[0] == 302
    status, moved, _ = viewer.request(
        b.port, "GET", f"/view/{match.view_token}/", headers={**fragment, "If-None-Match": tag}
    )
    assert status == 200 and moved["ETag"] != tag
    assert Match.objects.get(pk=match.pk).deal_count == 2
    # Login failures counted once for both: three wrong passwords across A and B lock the name.
    User.objects.create_user("anna", password="a-good-password-1")
    intruder = Phone()
    for server in (a, b, a):
        _, _, page = intruder.request(server.port, "GET", "/accounts/login/")
        token = inputs(page)["csrfmiddlewaretoken"]
        login = {"csrfmiddlewaretoken": token, "username": "anna", "password": "wrong"}
        intruder.request(server.port, "POST", "/accounts/login/", login)
    _, _, page = intruder.request(b.port, "GET", "/accounts/login/")
    good = {"csrfmiddlewaretoken": inputs(page)["csrfmiddlewaretoken"], "username": "anna",
            "password": "a-good-password-1"}  # fmt: skip
    assert intruder.request(b.port, "POST", "/accounts/login/", good)[0] == 429
