"""gunicorn settings shipped with the app: `gunicorn -c gunicorn.conf.py scorekeeper.wsgi`.

Every value can be changed through an environment variable (GUNICORN_*), so one file serves a
laptop and a server. No request runs unbounded: a worker stuck longer than `timeout` is killed and
replaced, request lines and headers are capped, and workers are recycled now and then so a leak
cannot grow for ever. Measured on 2 cores with 50 tables scoring flat out (scripts/load_test.py,
see README "Running in production"): gthread, 2 workers x 4 threads, 39.8 deals/s, 25 ms of CPU
per deal, Save p95 0.75 s; sync with 4 workers 37.8 deals/s, 25 ms, 0.82 s. A thread waiting on
PostgreSQL lets another use the CPU without a process (and its memory) for each.
"""

import multiprocessing
import os


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


# Where to listen: a reverse proxy (nginx, Caddy) in front terminates TLS and forwards here.
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")

# gthread: each worker process runs a few threads; a request waiting on the database gives the
# CPU to another thread. One process per core is enough for this CPU-bound app.
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
workers = _int("GUNICORN_WORKERS", max(2, multiprocessing.cpu_count()))
threads = _int("GUNICORN_THREADS", 4)

# Bounds: a request that takes longer than `timeout` seconds gets its worker killed (the client
# sees a 502 from the proxy; the transaction is rolled back); on a restart, workers get
# `graceful_timeout` seconds to finish the requests they hold.
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

# Logs to stderr; the access log is off unless GUNICORN_ACCESS_LOG is set ("-" for stderr).
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")

# The proxy sets X-Forwarded-Proto; only trust it from these addresses (the proxy's).
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
