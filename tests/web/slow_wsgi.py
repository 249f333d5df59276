"""A tiny WSGI app for the gunicorn tests (tests/web/test_gunicorn_timeout.py), in a process with
the project's settings loaded as in production (so a cut-off request gets the app's page): /slow
sleeps SLOW_SECONDS (a runaway request), anything else answers "ok" at once."""

import os
import time
from collections.abc import Callable, Iterable
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
django.setup()

SLOW_SECONDS = float(os.environ.get("SLOW_SECONDS", "20"))


def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    if environ.get("PATH_INFO") == "/slow":
        time.sleep(SLOW_SECONDS)
        body = b"slow done"
    else:
        body = b"ok"
    start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
    return [body]
