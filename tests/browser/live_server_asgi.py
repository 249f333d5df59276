"""The streams' server for browser tests: uvicorn in a thread of the test's process, serving the
project's ASGI application (so the test database and settings are the test's), on a free port
that the pages' `LIVE_PORT` names (as `make run` does), the CSP allowing it."""

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from django.conf import settings
from django.core.asgi import get_asgi_application
from django.test import override_settings


class Streams:
    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.server: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        config = uvicorn.Config(
            get_asgi_application(), lifespan="off", log_level="warning", access_log=False,
            timeout_graceful_shutdown=1,
        )  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the streams' server did not start"
            time.sleep(0.02)

    def stop(self) -> None:
        assert self.server is not None and self.thread is not None
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


@contextmanager
def streams() -> Iterator[Streams]:
    server = Streams()
    csp = dict(settings.SECURE_CSP)
    hosts = ("localhost", "127.0.0.1")
    csp["connect-src"] = ["'self'", *(f"http://{h}:{server.port}" for h in hosts)]
    with override_settings(LIVE_PORT=str(server.port), SECURE_CSP=csp, LIVE_POLL_SECONDS=0.05):
        server.start()
        try:
            yield server
        finally:
            server.stop()
