"""`manage.py hall` (`make hall`): the organiser's laptop serves the app to the hall's own Wi-Fi or
a phone's hotspot, no internet needed (docs/hall.md). It finds the laptop's network address
(or takes `--address` / HALL_ADDRESS), refuses DEBUG on it and an unsafe secret key (a key is
made on the first run, kept in the data directory), migrates the SQLite database, collects the
static files (served by WhiteNoise), then runs gunicorn on that address and on 127.0.0.1 with
the background jobs' worker (started again should it exit), and prints the address with its QR
code once the server answers. Every QR code and link the app prints carries that address
(PUBLIC_BASE_URL). Ctrl-C, or SIGTERM, stops both."""

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import FrameType
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scorekeeper.web import hall

READY_WITHIN = 60.0  # seconds the server has to answer its health check
STOP_WITHIN = 40.0  # seconds each process has to stop (gunicorn's graceful timeout is 30)
# The jobs' worker waits out a database error by itself; should it exit all the same, it is
# started again after WORKER_RESTART_FIRST seconds, doubled while it keeps exiting within
# WORKER_STEADY seconds (up to WORKER_RESTART_MOST).
WORKER_RESTART_FIRST = 1.0
WORKER_RESTART_MOST = 30.0
WORKER_STEADY = 60.0


class Stop(Exception):
    """SIGTERM received: stop as Ctrl-C does."""


def _terminate(signum: int, frame: FrameType | None) -> None:
    raise Stop


def _debug_asked() -> bool:
    return os.environ.get("DEBUG", "").strip().lower() in {"1", "true", "yes", "on"}


class Command(BaseCommand):
    help = "Serve the app to the hall's own network from this laptop (docs/hall.md)."
    requires_system_checks = ()  # the server checks its own settings as it starts
    requires_migrations_checks = False

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--address",
            default=os.environ.get("HALL_ADDRESS", ""),
            help="the laptop's address on the hall's network (default: found; HALL_ADDRESS)",
        )
        parser.add_argument(
            "--port",
            default=os.environ.get("HALL_PORT", str(hall.DEFAULT_PORT)),
            help=f"the port (default {hall.DEFAULT_PORT}; HALL_PORT)",
        )
        parser.add_argument(
            "--data-dir",
            default=os.environ.get("HALL_DATA_DIR", ""),
            help="where the database, the secret key and the static files are kept "
            "(default: hall-data/ in the project; HALL_DATA_DIR)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        port = str(options["port"]).strip()
        if not (port.isascii() and port.isdecimal() and 0 < int(port) < 65536):
            raise CommandError(f"--port must be a number from 1 to 65535 (got {port!r}).")
        data_dir = Path(options["data_dir"] or settings.BASE_DIR / "hall-data").resolve()
        try:
            if options["address"]:
                address = hall.check_address(options["address"])
            else:
                found = hall.lan_address()
                if found is None:
                    raise hall.HallRefused(
                        "This laptop is on no network: join the hall's Wi-Fi or a phone's "
                        "hotspot first, or give the address with --address."
                    )
                address = found
            debug = _debug_asked()
            hall.check_debug(debug=debug, address=address)
            env = hall.server_environment(
                os.environ, address=address, port=int(port), data_dir=data_dir, debug=debug
            )
            hall.check_port_free(address, int(port))
            if not hall.is_loopback(address):  # the organiser's own browser binds there too
                hall.check_port_free("127.0.0.1", int(port))
        except hall.HallRefused as refused:
            raise CommandError(str(refused)) from None
        self._serve(env, address=address, port=int(port))

    def _manage(self, env: dict[str, str], *command: str) -> None:
        manage = str(Path(settings.BASE_DIR) / "manage.py")
        done = subprocess.run(
            [sys.executable, manage, *command], env=env, cwd=settings.BASE_DIR, check=False
        )
        if done.returncode:
            raise CommandError(f"`manage.py {' '.join(command)}` failed: nothing is served.")

    def _serve(self, env: dict[str, str], *, address: str, port: int) -> None:
        url = env["PUBLIC_BASE_URL"]
        local = hall.is_loopback(address)
        local_url = url if local else f"http://127.0.0.1:{port}"
        self.stdout.write(f"Preparing the database and static files for {url}...")
        self._manage(env, "migrate", "--noinput", "--verbosity", "0")
        self._manage(env, "collectstatic", "--noinput", "--verbosity", "0")
        binds = ["-b", f"{hall.host_of(address)}:{port}"]
        if not local:  # the organiser's own browser, on this laptop
            binds += ["-b", f"127.0.0.1:{port}"]
        conf = str(Path(settings.BASE_DIR) / "gunicorn.conf.py")
        manage = str(Path(settings.BASE_DIR) / "manage.py")
        previous = signal.signal(signal.SIGTERM, _terminate)
        processes: list[subprocess.Popen[bytes]] = []

        def start_worker() -> subprocess.Popen[bytes]:
            return subprocess.Popen(
                [sys.executable, manage, "db_worker"], env=env, cwd=settings.BASE_DIR
            )

        try:
            processes.append(start_worker())
            server = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", conf, *binds, "scorekeeper.wsgi"],
                env=env,
                cwd=settings.BASE_DIR,
            )
            processes.append(server)
            self._wait_ready(server, f"{local_url}/healthz")
            self.stdout.write(hall.banner(url=url + "/", local_url=local_url + "/"), ending="")
            self.stdout.flush()
            delay, started = WORKER_RESTART_FIRST, time.monotonic()
            while True:
                if server.poll() is not None:
                    raise CommandError(f"The server stopped (exit {server.returncode}).")
                worker = processes[0]
                if worker.poll() is not None:  # the hall goes on: the worker starts again
                    if time.monotonic() - started > WORKER_STEADY:
                        delay = WORKER_RESTART_FIRST
                    self.stderr.write(
                        f"The jobs' worker stopped (exit {worker.returncode}): starting it "
                        f"again in {delay:.0f} s."
                    )
                    with contextlib.suppress(subprocess.TimeoutExpired):
                        server.wait(timeout=delay)  # the server stopping meanwhile ends it
                    if server.poll() is None:
                        processes[0], started = start_worker(), time.monotonic()
                        delay = min(delay * 2, WORKER_RESTART_MOST)
                    continue
                with contextlib.suppress(subprocess.TimeoutExpired):
                    server.wait(timeout=1)
        except (KeyboardInterrupt, Stop):
            self.stdout.write("Stopping...")
        finally:
            signal.signal(signal.SIGTERM, previous)
            for process in processes:
                if process.poll() is None:
                    process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=STOP_WITHIN)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()

    def _wait_ready(self, server: subprocess.Popen[bytes], health: str) -> None:
        """Until the server answers its health check (a CommandError if it stops, or has not
        answered within READY_WITHIN seconds)."""
        deadline = time.monotonic() + READY_WITHIN
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(health, timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            try:
                server.wait(timeout=0.25)
            except subprocess.TimeoutExpired:
                continue
            raise CommandError(
                f"The server stopped (exit {server.returncode}): is the port already in use?"
            )
        raise CommandError(f"The server did not answer {health} within {READY_WITHIN:.0f} s.")
