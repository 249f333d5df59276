"""The streams' server: `python -m scorekeeper.web.live.serve --bind 127.0.0.1:8001 [--bind ...]`.

uvicorn serving the project's ASGI application (scorekeeper/asgi.py) on one or more addresses
(the hall binds the laptop's network address and 127.0.0.1, as its gunicorn does; uvicorn's own
command line takes one). Only /live/ is meant to reach it: `make run` and `make hall` name its
port to the pages (LIVE_PORT), a proxy routes /live/ to it in production (docs/production.md).
Why uvicorn: the most used and kept of the three (uvicorn, granian, daphne), pure Python with
uvloop and httptools when installed, and Django's documentation's first; granian is as fast but
a compiled binary whose workers' bounds differ from gunicorn's, daphne carries Channels' weight."""

import argparse
import os
import socket
import sys

import uvicorn


def _socket(bind: str) -> socket.socket:
    host, _, port = bind.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, int(port)))
    sock.set_inheritable(True)
    return sock


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bind", action="append", required=True, help="host:port (repeatable)")
    parser.add_argument("--log-level", default=os.environ.get("LIVE_LOG_LEVEL", "warning"))
    options = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
    config = uvicorn.Config(
        "scorekeeper.asgi:application",
        lifespan="off",
        log_level=options.log_level,
        access_log=False,
        # A restart closes the open streams after this long; their browsers reconnect.
        timeout_graceful_shutdown=int(os.environ.get("LIVE_GRACEFUL_SECONDS", "3")),
        proxy_headers=True,
        forwarded_allow_ips=os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1"),
    )
    uvicorn.Server(config).run(sockets=[_socket(bind) for bind in options.bind])


if __name__ == "__main__":
    main(sys.argv[1:])
