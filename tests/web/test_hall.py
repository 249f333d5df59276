"""Hall mode (issue 25, docs/hall.md): `manage.py hall` serves the app from the organiser's laptop
on an address other than 127.0.0.1 (here a second loopback address, 127.0.0.2, which Linux
answers without any set-up), the QR codes it prints carry that address even for an organiser
browsing on another host name, and it refuses to start with DEBUG on a network address or with
an unsafe secret key."""

import contextlib
import json
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from scorekeeper.concours.views.prints import qr_svg
from scorekeeper.web import hall
from scorekeeper.web.qr import qr_response

ROOT = Path(__file__).resolve().parents[2]
HALL_HOST = "127.0.0.2"
SAFE_KEY = "k" * 30 + "0123456789abcdefghij-hall-key"
# What the test run's own environment may say that the laptop's would not.
NOT_THE_LAPTOP_S = (
    "DEBUG", "SECRET_KEY", "SECRET_KEY_FILE", "DATABASE_URL", "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS", "PUBLIC_BASE_URL", "HALL_MODE", "HALL_ADDRESS", "HALL_PORT",
    "HALL_DATA_DIR", "STATIC_ROOT", "TASKS_BACKEND", "DJANGO_ALLOW_ASYNC_UNSAFE",
    "DJANGO_SETTINGS_MODULE",
)  # fmt: skip


def laptop_environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in NOT_THE_LAPTOP_S}
    env["GUNICORN_WORKERS"] = "1"  # the test machine's cores are shared
    return env


# Its parts -------------------------------------------------------------------------------------


def test_debug_is_refused_on_a_network_address_only() -> None:
    for address in ("192.168.1.20", "10.0.0.5", "fe80::1"):
        with pytest.raises(hall.HallRefused, match="DEBUG is on"):
            hall.check_debug(debug=True, address=address)
        hall.check_debug(debug=False, address=address)
    for address in ("127.0.0.1", "127.0.0.2", "::1"):
        hall.check_debug(debug=True, address=address)


@pytest.mark.parametrize(
    ("key", "why"),
    [
        ("", "shorter than 50"),
        ("short-key", "shorter than 50"),
        ("a" * 60, "fewer than 5 different"),
        ("django-insecure-" + "abcdefghij" * 5, "a development key"),
        ("insecure-local-development-key-do-not-use-in-production", "a development key"),
    ],
)
def test_an_unsafe_secret_key_says_why(key: str, why: str) -> None:
    assert why in (hall.unsafe_secret(key) or "")


def test_the_secret_key_is_made_once_readable_by_its_owner_only(tmp_path: Path) -> None:
    data = tmp_path / "hall-data"
    path = hall.secret_key(data)
    assert path == data / "secret_key"
    key = path.read_text().strip()
    assert hall.unsafe_secret(key) is None
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert hall.secret_key(data) == path and path.read_text().strip() == key  # kept


def test_an_unsafe_or_shared_secret_key_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "secret_key"
    path.write_text("too-short\n")
    path.chmod(0o600)
    with pytest.raises(
        hall.HallRefused, match=r"is unsafe \(it is shorter than 50 characters\). Delete"
    ):
        hall.secret_key(tmp_path)
    path.write_text(SAFE_KEY)
    path.chmod(0o644)
    with pytest.raises(hall.HallRefused, match="may be read by other users"):
        hall.secret_key(tmp_path)
    path.chmod(0o600)
    assert hall.secret_key(tmp_path) == path


def test_an_address_given_by_hand_is_an_ip_address() -> None:
    assert hall.check_address(" 192.168.1.20 ") == "192.168.1.20"
    assert hall.check_address("[fe80::1]") == "fe80::1"
    for bad in ("laptop.local", "192.168.1", "http://192.168.1.20", ""):
        with pytest.raises(hall.HallRefused, match="is not an IP address"):
            hall.check_address(bad)


def test_the_found_address_is_none_or_a_network_one() -> None:
    found = hall.lan_address()
    assert found is None or not hall.is_loopback(found)


def test_the_server_s_environment(tmp_path: Path) -> None:
    given = {"ALLOWED_HOSTS": "belote.example.org", "PATH": "/usr/bin"}
    env = hall.server_environment(
        given, address="192.168.1.20", port=8001, data_dir=tmp_path, debug=False
    )
    assert env["PATH"] == "/usr/bin"
    assert env["DEBUG"] == "false" and env["HALL_MODE"] == "true"
    assert env["PUBLIC_BASE_URL"] == "http://192.168.1.20:8001"
    assert env["ALLOWED_HOSTS"] == "belote.example.org,192.168.1.20,127.0.0.1,localhost,[::1]"
    assert env["CSRF_TRUSTED_ORIGINS"].split(",") == [
        "http://192.168.1.20:8001", "http://127.0.0.1:8001", "http://localhost:8001",
        "http://[::1]:8001",
    ]  # fmt: skip
    assert env["SECRET_KEY_FILE"] == str(tmp_path / "secret_key") and "SECRET_KEY" not in env
    assert env["DATABASE_URL"] == f"sqlite:///{tmp_path / 'db.sqlite3'}"
    assert env["STATIC_ROOT"] == str(tmp_path / "staticfiles")
    assert env["GUNICORN_WORKERS"] == "4"
    ipv6 = hall.server_environment({}, address="fe80::1", port=80, data_dir=tmp_path, debug=False)
    assert ipv6["PUBLIC_BASE_URL"] == "http://[fe80::1]:80"
    # A database of the organiser's own is kept; a secret key of theirs is used if safe.
    own = {"DATABASE_URL": "postgres://me@127.0.0.1/belote", "SECRET_KEY": SAFE_KEY}
    env = hall.server_environment(own, address="10.0.0.2", port=80, data_dir=tmp_path, debug=False)
    assert env["DATABASE_URL"] == own["DATABASE_URL"] and env["SECRET_KEY"] == SAFE_KEY
    assert "SECRET_KEY_FILE" not in env


def test_the_banner_has_the_address_and_its_code() -> None:
    text = hall.banner(url="http://192.168.1.20:8000/", local_url="http://127.0.0.1:8000/")
    assert "The hall's phones open: http://192.168.1.20:8000/" in text
    assert "On this laptop: http://127.0.0.1:8000/" in text
    assert "▀" in text or "▄" in text  # the code, drawn with half blocks
    assert "\n\n\n" not in text  # one line a row: no blank line between them


# The command's refusals: nothing started, nothing written -------------------------------------


@pytest.fixture
def laptop(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    for name in NOT_THE_LAPTOP_S:
        if name != "DJANGO_SETTINGS_MODULE":
            monkeypatch.delenv(name, raising=False)
    yield tmp_path / "hall-data"


def test_debug_on_a_network_address_is_refused(
    laptop: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEBUG", "true")
    with pytest.raises(CommandError, match=r"DEBUG is on: refusing to serve 192\.168\.1\.20"):
        call_command("hall", "--address", "192.168.1.20", "--data-dir", str(laptop))
    assert not laptop.exists()


def test_an_unsafe_secret_key_is_refused(laptop: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SECRET_KEY", "changeme")
    with pytest.raises(CommandError, match="SECRET_KEY is unsafe"):
        call_command("hall", "--address", "192.168.1.20", "--data-dir", str(laptop))
    monkeypatch.delenv("SECRET_KEY")
    laptop.mkdir()
    (laptop / "secret_key").write_text("")
    with pytest.raises(CommandError, match="is unsafe"):
        call_command("hall", "--address", "192.168.1.20", "--data-dir", str(laptop))
    assert sorted(p.name for p in laptop.iterdir()) == ["secret_key"]  # no database made


@pytest.mark.parametrize("port", ["0", "70000", "eighty", "-1"])
def test_a_bad_port_or_address_is_refused(laptop: Path, port: str) -> None:
    with pytest.raises(CommandError, match="--port must be a number from 1 to 65535"):
        call_command("hall", "--address", "192.168.1.20", "--port", port, "--data-dir", str(laptop))
    with pytest.raises(CommandError, match="is not an IP address"):
        call_command("hall", "--address", "the-laptop", "--data-dir", str(laptop))


# The hall, served --------------------------------------------------------------------------------


def free_port() -> int:
    """A port free on both loopback addresses the test uses."""
    for _ in range(20):
        with socket.socket() as probe:
            probe.bind((HALL_HOST, 0))
            port = int(probe.getsockname()[1])
        with socket.socket() as other:
            try:
                other.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise AssertionError("no free port")


def get(url: str, **headers: str) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return answer.status, answer.read()


SEED = """
import contextlib
import json
import re
import signal
from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.management import call_command
from scorekeeper.concours.models import Table
call_command("seed_concours", teams=4, rounds=1, open_last=True, stdout=open("/dev/null", "w"))
table = Table.objects.select_related("round__tournament").order_by("number").first()
user = get_user_model().objects.get(username="organiser")
session = SessionStore()
session["_auth_user_id"] = str(user.pk)
session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
session["_auth_user_hash"] = user.get_session_auth_hash()
session.create()
print(json.dumps({"token": table.token, "number": table.number,
                  "concours": table.round.tournament_id, "session": session.session_key}))
"""


@pytest.fixture
def hall_server(tmp_path: Path) -> Iterator[tuple[str, Path, Path, str]]:
    """`manage.py hall` on 127.0.0.2 in its own process, its output in a file; waited for until
    it says it serves (its own health check answered), stopped (SIGTERM) after the test."""
    port = free_port()
    mark = uuid.uuid4().hex
    data = tmp_path / "hall-data"
    log = tmp_path / "hall.log"
    command = [sys.executable, "manage.py", "hall", "--address", HALL_HOST, "--port", str(port)]
    with log.open("w") as out:
        server = subprocess.Popen(
            [*command, "--data-dir", str(data)],
            cwd=ROOT,
            env={**laptop_environment(), "HALL_TEST_MARK": mark},
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 120
        while "Ctrl-C stops" not in log.read_text():
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(timeout=0.2)  # returns early only if it stops
        # The command, gunicorn's arbiter and worker, the jobs' worker.
        assert len(processes_marked(mark)) >= 4
        yield f"http://{HALL_HOST}:{port}", data, log, mark
    finally:
        server.terminate()
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    assert processes_marked(mark) == []  # SIGTERM stopped the server and the worker too


def test_the_hall_serves_another_address_its_qr_codes_carry_it_and_forms_post(
    hall_server: tuple[str, Path, Path, str],
) -> None:
    base, data, log, mark = hall_server
    banner = log.read_text()
    assert f"The hall's phones open: {base}/" in banner
    assert get(f"{base}/healthz") == (200, b"ok")
    status, home = get(f"{base}/")
    assert status == 200 and b"<html" in home
    # Static files are served (WhiteNoise, collected in the data directory), DEBUG is off.
    assert (data / "staticfiles" / "staticfiles.json").exists()
    assert (data / "db.sqlite3").exists() and (data / "secret_key").exists()
    with pytest.raises(urllib.error.HTTPError) as missing:
        get(f"{base}/no-such-page/")
    assert missing.value.code == 404 and b"Traceback" not in missing.value.read()
    # A concours in the laptop's database (as the organiser would make it at the desk).
    env = hall.server_environment(
        laptop_environment(), address=HALL_HOST, port=int(base.rsplit(":", 1)[1]),
        data_dir=data, debug=False,
    )  # fmt: skip
    seeded = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SEED],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    made = json.loads(seeded.stdout.strip().splitlines()[-1])
    phone = f"{base}/t/{made['token']}/"
    # The table's QR code file, asked as the desk's board asks it.
    status, svg = get(f"{base}/t/{made['token']}/qr.svg")
    assert status == 200 and svg == qr_response(phone, scale=4).content
    # The printed sheets, asked by an organiser browsing on another host name of the laptop:
    # the code is still the hall's address.
    sheets = reverse("concours:print_sheets", kwargs={"pk": made["concours"], "round": 1})
    cookie = f"sessionid={made['session']}"
    status, page = get(f"{base}{sheets}", Host="localhost", Cookie=cookie)
    html = page.decode()
    assert status == 200
    title = f"QR code of table {made['number']}'s phone link"
    assert str(qr_svg(phone, title)) in html
    assert "localhost" not in html.split("<body", 1)[1]
    # The same server (one start: it migrates and collects the static files, ~15 s).
    a_phone_s_form_posts_over_plain_http_on_the_hall_s_address(base)
    a_worker_that_dies_is_started_again(base, log, mark)


def test_a_port_already_taken_is_refused_before_anything_is_prepared(tmp_path: Path) -> None:
    mark = uuid.uuid4().hex
    with socket.socket() as taken:
        taken.bind((HALL_HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = ["hall", "--address", HALL_HOST, "--port", str(port), "--data-dir", str(tmp_path)]
        done = subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT, env={**laptop_environment(), "HALL_TEST_MARK": mark}, capture_output=True,
            text=True, timeout=180,
        )  # fmt: skip
    assert done.returncode != 0
    assert f"Port {port} of {HALL_HOST} is already in use" in done.stderr
    assert "Preparing the database" not in done.stdout  # said before a minute of preparation
    assert not (tmp_path / "db.sqlite3").exists()
    assert processes_marked(mark) == []


def test_a_server_that_stops_at_start_leaves_nothing_running(tmp_path: Path) -> None:
    """gunicorn exits at once (here: a worker count it cannot read): the command says so and
    exits, its jobs' worker stopped too."""
    mark = uuid.uuid4().hex
    port = free_port()
    command = ["hall", "--address", HALL_HOST, "--port", str(port), "--data-dir", str(tmp_path)]
    env = {**laptop_environment(), "HALL_TEST_MARK": mark, "GUNICORN_WORKERS": "many"}
    done = subprocess.run(
        [sys.executable, "manage.py", *command],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert done.returncode != 0
    assert "The server stopped" in done.stderr
    assert "The hall's phones open" not in done.stdout
    assert processes_marked(mark) == []  # neither gunicorn nor the worker outlived it


def a_worker_that_dies_is_started_again(base: str, log: Path, mark: str) -> None:
    """Issue 42: the jobs' worker killed (as a crash would end it): the hall says so, starts
    another and serves on."""
    (worker,) = workers_marked(mark)
    os.kill(int(worker), signal.SIGKILL)
    deadline = time.monotonic() + 60
    while workers_marked(mark) in ([], [worker]):
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)
    assert "The jobs' worker stopped (exit -9): starting it again in 1 s." in log.read_text()
    assert get(f"{base}/healthz") == (200, b"ok")


def workers_marked(mark: str) -> list[str]:
    """The jobs' workers (`manage.py db_worker`) among the processes marked `mark`."""
    found = []
    for pid in processes_marked(mark):
        try:
            command = (Path("/proc") / pid / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"db_worker" in command:
            found.append(pid)
    return found


def processes_marked(mark: str) -> list[str]:
    """The processes whose environment holds HALL_TEST_MARK=mark (Linux's /proc)."""
    found = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if f"HALL_TEST_MARK={mark}".encode() in environ.read_bytes():
                found.append(environ.parent.name)
        except OSError:  # gone meanwhile, or not ours
            continue
    return found


def a_phone_s_form_posts_over_plain_http_on_the_hall_s_address(base: str) -> None:
    """Hall mode serves http: the CSRF cookie is not `Secure` (a phone's browser would not send
    it back over http) and a form posted with the hall's Origin passes the CSRF check."""
    login = f"{base}{reverse('accounts:login')}"
    with urllib.request.urlopen(login, timeout=10) as answer:
        cookies = answer.headers.get_all("Set-Cookie") or []
        page = answer.read().decode()
    csrf = next(c for c in cookies if c.startswith("csrftoken="))
    assert "secure" not in csrf.lower()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    assert token is not None
    form = urllib.parse.urlencode(
        {"csrfmiddlewaretoken": token[1], "username": "nobody", "password": "wrong"}
    ).encode()
    request = urllib.request.Request(
        login,
        data=form,
        headers={"Cookie": csrf.split(";", 1)[0], "Origin": base, "Referer": login},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:  # a 403 would raise
        assert answer.status == 200
        assert b'value="nobody"' in answer.read()  # the form again, with its error


def test_an_address_of_another_machine_is_refused_before_anything_is_prepared(
    laptop: Path,
) -> None:
    with pytest.raises(CommandError, match=re.escape("This laptop has no address 192.0.2.7")):
        call_command("hall", "--address", "192.0.2.7", "--data-dir", str(laptop))
    assert not (laptop / "db.sqlite3").exists()
