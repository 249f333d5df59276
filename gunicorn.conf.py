"""gunicorn settings shipped with the app: `gunicorn -c gunicorn.conf.py scorekeeper.wsgi`.

Every value can be changed through an environment variable (GUNICORN_*), so one file serves a
laptop and a server. No request runs unbounded: `sync` workers, so a request that takes longer
than `timeout` gets its worker killed and replaced (logged: "Request cut off after N s"), request
lines and headers are capped, and workers are recycled now and then so a leak cannot grow for
ever. With `gthread` workers `timeout` bounds no request: the worker's main thread keeps telling
the arbiter it is alive while a request thread runs on (a 40 s restore ran to its end), so only
PostgreSQL's statement_timeout bounds anything there. Measured on 2 cores with 50 tables scoring
flat out (scripts/load_test.py, see README "Running in production"): gthread, 2 workers x 4
threads, 39.8 deals/s, 25 ms of CPU per deal, Save p95 0.75 s; sync with 4 workers 37.8 deals/s,
25 ms, 0.82 s: the same CPU, for two more processes' memory.
"""

import multiprocessing
import os
import socket
import time
from typing import Any


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


# Where to listen: a reverse proxy (nginx, Caddy) in front terminates TLS and forwards here.
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")

# sync: one request at a time per worker process, two processes per core (a request waiting on
# the database leaves the CPU to the other). The only class whose `timeout` cuts off a request.
# It needs a buffering proxy in front (nginx does by default): a slow client must not hold a
# worker. gthread (GUNICORN_WORKER_CLASS=gthread, 4 threads each) serves more at once per
# process, but nothing cuts off a runaway request (see the README's table).
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "sync")
_sync = worker_class == "sync"
workers = _int("GUNICORN_WORKERS", max(2, (2 if _sync else 1) * multiprocessing.cpu_count()))
threads = _int("GUNICORN_THREADS", 1 if _sync else 4)  # sync with threads > 1 becomes gthread

# Bounds: with sync workers a request that takes longer than `timeout` seconds gets its worker
# killed (the client sees a 502 from the proxy; its transaction is rolled back); on a restart,
# workers get `graceful_timeout` seconds to finish the requests they hold.
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30)
keepalive = _int("GUNICORN_KEEPALIVE", 5)  # seconds an idle keep-alive connection is kept

# Recycle each worker after about this many requests (jitter: not all at once).
max_requests = _int("GUNICORN_MAX_REQUESTS", 2000)
max_requests_jitter = _int("GUNICORN_MAX_REQUESTS_JITTER", 200)

# Request size bounds (bodies are bounded by Django's DATA_UPLOAD_MAX_MEMORY_SIZE and the views).
limit_request_line = 4094  # bytes of the request line (method, URL, version)
limit_request_fields = 100  # header count
limit_request_field_size = 8190  # bytes per header

# gunicorn 25+ opens a control socket (for `gunicornc`) at one path per user, shared by every
# instance the user runs: off unless GUNICORN_CONTROL_SOCKET names a path for this one.
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET", "")
control_socket_disable = not control_socket

# Logs to stderr; the access log is off unless GUNICORN_ACCESS_LOG is set ("-" for stderr).
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")

# The proxy sets X-Forwarded-Proto; only trust it from these addresses (the proxy's).
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")


# A request cut off by `timeout` is logged with what it was (gunicorn itself only says "WORKER
# TIMEOUT (pid)") and answered with the app's 503 page in its language (drawn when the worker
# starts: scorekeeper.web.errors.cut_off_answers) instead of gunicorn's bare 500, unless its answer
# had already begun (then the connection just closes). The arbiter sends the worker SIGABRT,
# whose handler calls worker_abort, which ends the worker at once; the arbiter starts a new one.
# Each worker remembers the request it serves (one at a time with sync workers) and whether its
# answer has begun.
CUT_OFF_FALLBACK = (
    b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
    b"Retry-After: 10\r\nConnection: close\r\n\r\nThis took too long: try again in a moment.\n"
)


def post_worker_init(worker: Any) -> None:
    try:
        from scorekeeper.web.errors import cut_off_answers

        worker.cut_off_answers = cut_off_answers()
    except Exception:  # another app, or the page cannot be drawn: the fallback's words
        worker.log.warning("No cut-off page: a cut-off request gets a plain text answer")
        worker.cut_off_answers = {}
    app = worker.wsgi

    def application(environ: Any, start_response: Any) -> Any:
        def start(*args: Any) -> Any:
            worker.answer_begun = True
            return start_response(*args)

        return app(environ, start)

    worker.wsgi = application


def pre_request(worker: Any, req: Any) -> None:
    worker.log.debug("%s %s", req.method, req.path)
    worker.answer_begun = False
    sock = getattr(getattr(req, "unreader", None), "sock", None)
    worker.current_request = (time.monotonic(), req.method, req.path, sock)


def post_request(worker: Any, req: Any, environ: Any, resp: Any) -> None:
    worker.current_request = None


def _language() -> str:
    try:
        from django.utils import translation

        return translation.get_language() or ""  # the request's, set by LocaleMiddleware
    except Exception:
        return ""


def worker_abort(worker: Any) -> None:
    current = getattr(worker, "current_request", None)
    if current is None:
        worker.log.error("Worker aborted (GUNICORN_TIMEOUT) between requests")
        return
    started, method, path, sock = current
    worker.log.error(
        "Request cut off after %d s (GUNICORN_TIMEOUT): %s %s",
        round(time.monotonic() - started),
        method,
        path,
    )
    one_at_a_time = worker.cfg.worker_class_str == "sync"  # else the memo is any thread's
    if one_at_a_time and sock is not None and not getattr(worker, "answer_begun", True):
        answers = getattr(worker, "cut_off_answers", {})
        answer = answers.get(_language()) or next(iter(answers.values()), CUT_OFF_FALLBACK)
        try:
            sock.sendall(answer)
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
    # Out now: unwinding the request and the interpreter (Django and the app loaded) can take
    # longer than the second before the arbiter's SIGKILL. The database rolls back the open
    # transaction when the connection drops.
    os._exit(1)
