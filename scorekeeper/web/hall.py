"""Hall mode (issue 25, docs/hall.md): the organiser's laptop serves the concours to the hall's own
Wi-Fi or a phone's hotspot, with no internet. What `manage.py hall` decides before it starts
anything: the laptop's address on the local network (`lan_address`), the secret key kept in a
file of the data directory (`secret_key`: made on the first run, refused when unsafe), whether
DEBUG may be on (`check_debug`: never on a network address), and the environment the server
and the jobs' worker run with (`server_environment`: DEBUG off, plain http, the laptop's
address in every QR code and link, SQLite in the data directory). `HallRefused` says why it
will not start, in words for the organiser."""

import contextlib
import errno
import io
import ipaddress
import os
import socket
import stat
from collections.abc import Mapping
from pathlib import Path

import segno
from django.core.management.utils import get_random_secret_key

# Addresses a UDP socket is "connected" to (nothing is sent) to learn which of the laptop's
# addresses the system would use: a documentation address (the default route, when there is
# one), then one in each private range (a hotspot's or a hall router's network, which may have
# no default route when it has no internet).
PROBES = ("192.0.2.1", "10.255.255.254", "172.31.255.254", "192.168.255.254")
SECRET_FILE = "secret_key"
MIN_SECRET_LENGTH = 50  # Django's own check (security.W009) asks for 50 characters, 5 distinct
MIN_SECRET_CHARACTERS = 5
DEFAULT_PORT = 8000
LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
# gunicorn's sync workers on a laptop unless GUNICORN_WORKERS says otherwise (its own default,
# twice the cores, takes about 70 MB each; SQLite writes one at a time anyway).
HALL_WORKERS = 4


class HallRefused(Exception):
    """Why the hall server does not start, in words for the organiser."""


def is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return address.strip().lower() == "localhost"


def _usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_multicast)


def _probe(target: str) -> str | None:
    """The local address the system would send from towards `target` (None: no route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect((target, 9))
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return address if _usable(address) else None


def lan_address() -> str | None:
    """The laptop's address on the local network: the one its routes pick, else one of its
    host name's; a link-local address (169.254.x.x: a network with no DHCP) only when there is
    nothing else. None when the laptop is on no network."""
    found = [address for target in PROBES if (address := _probe(target))]
    with contextlib.suppress(OSError):  # a host name that resolves nowhere
        found += socket.gethostbyname_ex(socket.gethostname())[2]
    usable = [address for address in found if _usable(address)]
    usable.sort(key=lambda address: ipaddress.ip_address(address).is_link_local)  # stable
    return usable[0] if usable else None


def check_address(address: str) -> str:
    """An address given by hand (`--address`, HALL_ADDRESS): an IP address, IPv6 without
    brackets; refused otherwise (a name may resolve differently on the phones)."""
    try:
        return str(ipaddress.ip_address(address.strip().strip("[]")))
    except ValueError:
        raise HallRefused(
            f"{address!r} is not an IP address: give the laptop's address on the hall's network, "
            "such as 192.168.1.20."
        ) from None


def host_of(address: str) -> str:
    """An address as it goes in a URL or ALLOWED_HOSTS (IPv6 in brackets)."""
    return f"[{address}]" if ":" in address else address


def check_port_free(address: str, port: int) -> None:
    """Refused before the database and static files are prepared (a minute on a slow laptop)
    when another program already listens on that address and port. The server's own bind stays
    the last word (something may take the port meanwhile)."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as trial:
        trial.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
        try:
            trial.bind((address, port))
        except OSError as error:
            if error.errno == errno.EADDRNOTAVAIL:
                raise HallRefused(
                    f"This laptop has no address {address}: give one of its own with --address "
                    "(or none: the command finds it)."
                ) from None
            raise HallRefused(
                f"Port {port} of {address} is already in use (another server, or a hall already "
                "running?): stop it, or choose another port with --port."
            ) from None


def check_debug(*, debug: bool, address: str) -> None:
    """DEBUG shows settings and code on its error pages: refused on a network address."""
    if debug and not is_loopback(address):
        raise HallRefused(
            f"DEBUG is on: refusing to serve {address} with it (its error pages would show the "
            "settings to every phone in the hall). Unset DEBUG, or serve 127.0.0.1 only."
        )


def unsafe_secret(key: str) -> str | None:
    """Why `key` is not a safe secret key (None: it is): Django's own rule (security.W009)."""
    if len(key) < MIN_SECRET_LENGTH:
        return f"it is shorter than {MIN_SECRET_LENGTH} characters"
    if len(set(key)) < MIN_SECRET_CHARACTERS:
        return f"it has fewer than {MIN_SECRET_CHARACTERS} different characters"
    if key.startswith("django-insecure") or "insecure" in key or "do-not-use" in key:
        return "it is a development key"
    return None


def secret_key(data_dir: Path) -> Path:
    """The secret key's file in the data directory: made on the first run (a random key, readable
    by its owner only), checked on every other; HallRefused when it is unsafe or others may
    read it. Never in git: the data directory is ignored (.gitignore)."""
    path = data_dir / SECRET_FILE
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            out.write(get_random_secret_key() + "\n")
    try:
        key = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeError) as error:
        raise HallRefused(f"The secret key file {path} cannot be read: {error}.") from error
    reason = unsafe_secret(key)
    if reason:
        raise HallRefused(
            f"The secret key in {path} is unsafe ({reason}). Delete the file: the next start "
            "makes a new one (everyone then logs in again)."
        )
    if os.name == "posix" and path.stat().st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise HallRefused(
            f"The secret key file {path} may be read by other users of this computer: "
            f"run `chmod 600 {path}`."
        )
    return path


def _listed(environ: Mapping[str, str], name: str, *extra: str) -> str:
    items = [item.strip() for item in environ.get(name, "").split(",") if item.strip()]
    return ",".join(dict.fromkeys([*items, *extra]))


def server_environment(
    environ: Mapping[str, str], *, address: str, port: int, data_dir: Path, debug: bool
) -> dict[str, str]:
    """The environment of the hall's server, migrations and jobs' worker: `environ` with hall
    mode on (scorekeeper/settings.py: plain http, no HSTS), DEBUG as asked (off unless on
    loopback), the secret key's file, the laptop's address public (PUBLIC_BASE_URL), allowed
    and trusted beside this laptop's own, SQLite and the collected static files in the data
    directory (unless DATABASE_URL says otherwise). HallRefused for an unsafe SECRET_KEY."""
    base = f"http://{host_of(address)}:{port}"
    local = [f"http://{host}:{port}" for host in LOCAL_HOSTS]
    env = dict(environ)
    given = environ.get("SECRET_KEY", "")
    if given:  # a key of the organiser's own: used if safe
        reason = unsafe_secret(given)
        if reason:
            raise HallRefused(
                f"SECRET_KEY is unsafe ({reason}). Unset it: the hall keeps a generated key in "
                f"{data_dir / SECRET_FILE}."
            )
    else:
        env["SECRET_KEY_FILE"] = str(secret_key(data_dir))
    env.update(
        DEBUG="true" if debug else "false",
        HALL_MODE="true",
        PUBLIC_BASE_URL=base,
        ALLOWED_HOSTS=_listed(environ, "ALLOWED_HOSTS", host_of(address), *LOCAL_HOSTS),
        CSRF_TRUSTED_ORIGINS=_listed(environ, "CSRF_TRUSTED_ORIGINS", base, *local),
        STATIC_ROOT=str(data_dir / "staticfiles"),
        GUNICORN_WORKERS=environ.get("GUNICORN_WORKERS") or str(HALL_WORKERS),
        DATABASE_URL=environ.get("DATABASE_URL") or f"sqlite:///{data_dir / 'db.sqlite3'}",
        # The live pages' streams: no proxy here, so their server has the next port.
        LIVE_PORT=environ.get("LIVE_PORT") or str(port + 1),
    )
    return env


def banner(*, url: str, local_url: str) -> str:
    """The address to type or scan, and its QR code drawn for a terminal."""
    out = io.StringIO()
    out.write(f"\nThe hall's phones open: {url}\n")
    if local_url != url:
        out.write(f"On this laptop: {local_url} (links and QR codes still give {url})\n")
    out.write("\n")
    segno.make(url, error="m", micro=False).terminal(out=out, compact=True)
    out.write("\nCtrl-C stops the server and the jobs' worker.\n")
    return out.getvalue()
