"""A runaway request under the project's gunicorn.conf.py: with its default (sync) workers a request
longer than GUNICORN_TIMEOUT is cut off well before it would end, logged with its method and path,
and the replaced worker serves again; with gthread workers the same request runs to its end (why
sync is the default; docs/production.md). Real gunicorn, in a subprocess, serving the
tiny app of tests/web/slow_wsgi.py; every wait is on a condition with a deadline."""

import http.client
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = shutil.which("gunicorn", path=str(Path(sys.executable).parent))
TIMEOUT = 2  # GUNICORN_TIMEOUT of these runs


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def get(port: int, path: str, timeout: float = 30) -> tuple[int, bytes]:
    status, _, body = get_with_headers(port, path, timeout)
    return status, body


def get_with_headers(
    port: int, path: str, timeout: float = 30
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def wait_for[T](check: Callable[[], T | None], *, within: float, what: str) -> T:
    """Poll `check` until it gives something, for at most `within` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            found = check()
        except OSError:
            found = None
        if found is not None:
            return found
        time.sleep(0.05)
    raise AssertionError(f"not within {within} s: {what}")


class Server:
    def __init__(self, port: int, log: Path) -> None:
        self.port, self.log = port, log

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def ok(self) -> bool | None:
        return True if get(self.port, "/ok", timeout=2) == (200, b"ok") else None


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """A function that starts gunicorn with gunicorn.conf.py, one worker, GUNICORN_TIMEOUT=2,
    serving slow_wsgi, and answers once /ok does."""
    assert GUNICORN is not None
    started: list[subprocess.Popen[bytes]] = []

    def start(slow_seconds: float, **env: str) -> Server:
        port, log = free_port(), tmp_path / f"gunicorn-{len(started)}.log"
        environ = {k: v for k, v in os.environ.items() if not k.startswith("GUNICORN_")}
        environ.update(
            GUNICORN_BIND=f"127.0.0.1:{port}",
            GUNICORN_WORKERS="1",
            GUNICORN_TIMEOUT=str(TIMEOUT),
            GUNICORN_LOG_LEVEL="info",
            SLOW_SECONDS=str(slow_seconds),
            **env,
        )
        with log.open("wb") as stderr:
            started.append(
                subprocess.Popen(
                    [GUNICORN, "-c", "gunicorn.conf.py", "tests.web.slow_wsgi:application"],
                    cwd=ROOT,
                    env=environ,
                    stdout=subprocess.DEVNULL,
                    stderr=stderr,
                )
            )
        server = Server(port, log)
        wait_for(server.ok, within=30, what="gunicorn answers /ok")
        return server

    yield start
    for process in started:
        process.terminate()
        process.wait(timeout=30)


def timed_slow(server: Server) -> tuple[float, str, dict[str, str]]:
    """GET /slow: the seconds it took, what came back (the status and body, or the connection's
    end) and the headers."""
    started = time.monotonic()
    headers: dict[str, str] = {}
    try:
        status, headers, body = get_with_headers(server.port, "/slow")
        outcome = f"{status} {body.decode()}"
    except (http.client.HTTPException, ConnectionError) as closed:
        outcome = f"closed: {type(closed).__name__}"
    return time.monotonic() - started, outcome, headers


def test_a_runaway_request_is_cut_off_logged_and_the_worker_serves_again(
    serve: Callable[..., Server],
) -> None:
    slow = 20.0
    server = serve(slow)  # the default worker class: sync
    took, outcome, headers = timed_slow(server)
    assert TIMEOUT <= took < TIMEOUT + 5 < slow, (took, outcome)  # cut off, not run to its end
    assert "Using worker: sync" in server.log_text()
    # The app's page, not gunicorn's bare 500.
    assert outcome.startswith("503 "), outcome[:300]
    assert "<h1>This took too long</h1>" in outcome
    assert headers["Retry-After"] == "10" and headers["Connection"] == "close"
    line = wait_for(
        lambda: next(
            (line for line in server.log_text().splitlines() if "Request cut off after" in line),
            None,
        ),
        within=10,
        what="the cut-off logged",
    )
    assert line.endswith("(GUNICORN_TIMEOUT): GET /slow"), line
    assert int(line.split("Request cut off after ")[1].split(" s")[0]) >= TIMEOUT
    assert wait_for(server.ok, within=30, what="a new worker serves /ok") is True
    print(f"sync: /slow ({slow:.0f} s of work) cut off after {took:.2f} s")


def test_with_gthread_workers_the_timeout_does_not_bound_a_request(
    serve: Callable[..., Server],
) -> None:
    """Why sync is the default: the gthread worker's main thread keeps telling the arbiter it
    is alive while the request's thread sleeps on, so the request runs to its end."""
    slow = 3 * TIMEOUT
    server = serve(slow, GUNICORN_WORKER_CLASS="gthread")
    took, outcome, _ = timed_slow(server)
    assert outcome == "200 slow done"
    assert took >= slow
    assert "Request cut off" not in server.log_text()
    print(f"gthread: /slow ({slow:.0f} s of work) ran to its end after {took:.2f} s")


def test_the_cut_off_page_is_drawn_in_each_language() -> None:
    from django.utils import translation

    from scorekeeper.web.errors import cut_off_answers

    answers = cut_off_answers()
    assert set(answers) == {"en", "fr"}
    for code, answer in answers.items():
        head, body = answer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 503 Service Unavailable\r\n")
        assert b"\r\nRetry-After: 10\r\n" in head
        assert f"Content-Length: {len(body)}".encode() in head
        with translation.override(code):
            title = translation.gettext("This took too long")
        assert f"<h1>{title}</h1>".encode() in body
    assert b"<h1>This took too long</h1>" not in answers["fr"]
