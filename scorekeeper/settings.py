"""One settings module, read from environment variables with safe defaults for local use."""

import ipaddress
import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _

django_stubs_ext.monkeypatch()  # lets ModelAdmin[Model] and QuerySet[Model] be subscripted at run time

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
# SECRET_KEY_FILE: a file holding the key (`manage.py hall` writes one on its first run).
if not SECRET_KEY and os.environ.get("SECRET_KEY_FILE"):
    try:
        SECRET_KEY = Path(os.environ["SECRET_KEY_FILE"]).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeError) as error:
        raise ImproperlyConfigured(f"SECRET_KEY_FILE cannot be read: {error}") from error
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "insecure-local-development-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
# The Django admin's path: "admin/" unless set (a path of your own keeps scanners off it).
ADMIN_URL = os.environ.get("ADMIN_URL", "admin/").strip().strip("/") + "/"
if ADMIN_URL == "/":
    raise ImproperlyConfigured("ADMIN_URL must not be empty (the admin cannot be the home page).")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")


def public_base_url(value: str) -> str:
    """PUBLIC_BASE_URL checked: an origin (`http(s)://host[:port]`, no path), without its end
    slash; "" when unset."""
    value = value.strip().rstrip("/")
    if not value:
        return ""
    parts = urlsplit(value)
    try:
        port_ok = parts.port is None or parts.port > 0
    except ValueError:  # not a number, or out of range
        port_ok = False
    origin = parts.scheme in {"http", "https"} and parts.hostname and not parts.username
    if not (origin and port_ok and parts[2:] == ("", "", "")):
        raise ImproperlyConfigured(
            f"PUBLIC_BASE_URL must be an origin such as http://192.168.1.20:8000 (got {value!r})."
        )
    return value


# The site's address as people outside this computer reach it: every absolute link and QR code
# the app prints starts with it (scorekeeper/web/addresses.py). Unset: the request's own host
# (right behind a proxy that passes Host; wrong for an organiser browsing 127.0.0.1 in the hall).
PUBLIC_BASE_URL = public_base_url(os.environ.get("PUBLIC_BASE_URL", ""))
# Hall mode (`manage.py hall`, docs/hall.md): the organiser's laptop serves the hall's own Wi-Fi
# over plain http (a LAN has no certificate), so no https redirect, no HSTS, cookies not marked
# Secure. Never with DEBUG (its error pages show settings to every phone in the hall), and the
# laptop's address is the one printed everywhere.
HALL_MODE = env_bool("HALL_MODE", False)
if HALL_MODE and not PUBLIC_BASE_URL:
    raise ImproperlyConfigured("HALL_MODE needs PUBLIC_BASE_URL (the laptop's address).")


def is_loopback(host: str) -> bool:
    """Whether `host` (a name or an address, IPv6 in brackets or not) is this computer only."""
    host = host.strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


if HALL_MODE and DEBUG and not is_loopback(urlsplit(PUBLIC_BASE_URL).hostname or ""):
    raise ImproperlyConfigured(
        "DEBUG must be off in hall mode on a network address: its error pages would show the "
        "settings to every phone in the hall."
    )

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.forms",
    "django_htmx",
    "scorekeeper.web",
    "scorekeeper.matches",
    "scorekeeper.accounts",
    "scorekeeper.history",
    "scorekeeper.concours",
    "scorekeeper.clubs",
    "scorekeeper.jobs",
    "django_tasks_db",
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Private, no-store unless the view declares its caching; the server's time (web/headers.py).
    "scorekeeper.web.headers.ResponseHeadersMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    # The outbox's body over Django's limits: JSON, read before CsrfViewMiddleware reads it.
    "scorekeeper.matches.middleware.OutboxBodyMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A concours table's phone whose scorer link was renewed goes to its table link (on a 404).
    "scorekeeper.concours.middleware.TablePhoneMiddleware",
    "axes.middleware.AxesMiddleware",  # last: turns a locked-out login into the lockout page
]

LOGIN_URL = "accounts:login"
ROOT_URLCONF = "scorekeeper.urls"
FORM_RENDERER = "scorekeeper.web.forms.FormRenderer"  # templates/ widgets, described errors
WSGI_APPLICATION = "scorekeeper.wsgi.application"
ASGI_APPLICATION = "scorekeeper.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.template.context_processors.csp",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "scorekeeper.web.live.context.live",
            ],
        },
    },
]

# SQLite by default, tuned for several phones writing at once: WAL lets readers run beside the
# writer, the busy timeout waits for the lock instead of failing, and IMMEDIATE transactions take
# the write lock up front so two writers queue instead of deadlocking on lock upgrade.
SQLITE_OPTIONS = {
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
    "timeout": 20,
    "transaction_mode": "IMMEDIATE",
}
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        # A kept connection the database dropped (restart, failover) is replaced before use.
        conn_health_checks=env_bool("CONN_HEALTH_CHECKS", True),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)
    # A file (not memory) so threads share it in the concurrency tests; one per test run
    # (process id) so two runs on one checkout never share a database.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / f"test-db-{os.getpid()}.sqlite3")}

# PostgreSQL bounds every request's work: a statement running longer than DB_STATEMENT_TIMEOUT_MS
# is cancelled, a transaction left idle DB_IDLE_IN_TRANSACTION_TIMEOUT_MS has its session ended
# (0 turns either off, e.g. for a long migration), and a phone's save waits at most
# DB_SAVE_LOCK_TIMEOUT_MS for its match's row lock (Match.objects.locked) before it is told the
# match is busy. Set when each connection starts (libpq `options`). SQLite keeps its busy timeout.
DB_STATEMENT_TIMEOUT_MS = int(os.environ.get("DB_STATEMENT_TIMEOUT_MS", "15000"))
DB_IDLE_IN_TRANSACTION_TIMEOUT_MS = int(
    os.environ.get("DB_IDLE_IN_TRANSACTION_TIMEOUT_MS", "30000")
)
DB_SAVE_LOCK_TIMEOUT_MS = int(os.environ.get("DB_SAVE_LOCK_TIMEOUT_MS", "5000"))
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    _options = DATABASES["default"].setdefault("OPTIONS", {})
    _bounds = (
        f"-c statement_timeout={DB_STATEMENT_TIMEOUT_MS} "
        f"-c idle_in_transaction_session_timeout={DB_IDLE_IN_TRANSACTION_TIMEOUT_MS}"
    )
    _options["options"] = f"{_options.get('options', '')} {_bounds}".strip()

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]  # the sign-up page's help text says each of these (accounts/forms.py)

# Login throttling (django-axes, counted in the database so every worker and server agrees): a user
# name, or an address, with LOGIN_FAILURE_LIMIT failures within LOGIN_COOLOFF_MINUTES is refused
# (429, with the wait) until that long after its last failure; the admin's login included.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]  # either one locks
AXES_RESET_ON_SUCCESS = True  # that name's failures from that address (see accounts/throttle.py)
AXES_HANDLER = "scorekeeper.accounts.throttle.LoginThrottleHandler"
AXES_LOCKOUT_CALLABLE = "scorekeeper.accounts.views.locked_out"
AXES_CLIENT_IP_CALLABLE = "scorekeeper.web.throttle.client_ip"
AXES_DISABLE_ACCESS_LOG = True  # no row per successful login: only failures are kept, and expire
AXES_VERBOSE = False
# Proxies in front of the app that append the client's address to X-Forwarded-For (0: none, the
# address is REMOTE_ADDR). Set it behind nginx or a load balancer, or every visitor shares one.
TRUSTED_PROXIES = int(os.environ.get("TRUSTED_PROXIES", "0"))

# Sign-up: at most SIGNUPS_PER_HOUR_PER_IP attempts an hour from one address (TRUSTED_PROXIES
# decides which) and SIGNUPS_PER_HOUR on the whole site, or every per-account limit is only per
# new account. Over either: the login lockout's 429 page, worded for sign-ups.
SIGNUPS_PER_HOUR_PER_IP = int(os.environ.get("SIGNUPS_PER_HOUR_PER_IP", "20"))
SIGNUPS_PER_HOUR = int(os.environ.get("SIGNUPS_PER_HOUR", "300"))

# A team registering itself on a concours's public page (issue 45), no account needed: every
# POST of the form (a registration, a change, a withdrawal) counts, at most
# REGISTRATIONS_PER_HOUR_PER_IP from one address and REGISTRATIONS_PER_HOUR_PER_CONCOURS on one
# concours; a form's body is at most REGISTRATION_FORM_MAX_BYTES. Over either: a 429 page.
REGISTRATIONS_PER_HOUR_PER_IP = int(os.environ.get("REGISTRATIONS_PER_HOUR_PER_IP", "10"))
REGISTRATIONS_PER_HOUR_PER_CONCOURS = int(
    os.environ.get("REGISTRATIONS_PER_HOUR_PER_CONCOURS", "120")
)
REGISTRATION_FORM_MAX_BYTES = 4096

# Heavy requests, bounded (counted in the database: web.RateLimit, shared by every worker). Importing
# a match file needs no account: at most IMPORTS_PER_HOUR per browser and IMPORTS_PER_HOUR_PER_IP
# per address. Restoring a backup needs an account: at most RESTORE_DEALS_PER_REQUEST deals in one
# zip (about 10 s of work) and RESTORE_DEALS_PER_HOUR per account.
IMPORTS_PER_HOUR = int(os.environ.get("IMPORTS_PER_HOUR", "30"))
IMPORTS_PER_HOUR_PER_IP = int(os.environ.get("IMPORTS_PER_HOUR_PER_IP", "60"))
RESTORE_DEALS_PER_REQUEST = int(os.environ.get("RESTORE_DEALS_PER_REQUEST", "20000"))
RESTORE_DEALS_PER_HOUR = int(os.environ.get("RESTORE_DEALS_PER_HOUR", "50000"))
# Upload sizes, defined here only: a match file (imported, or one file of a backup zip) and a
# backup zip. The forms say the limit in MB.
MATCH_FILE_MAX_BYTES = 2 * 1024 * 1024
BACKUP_MAX_BYTES = 20 * 1024 * 1024
# A concours's `belote-tournament/1` file imported at the desk (150 teams, 5 rounds scored deal
# by deal take about 500 KB).
TOURNAMENT_FILE_MAX_BYTES = 1024 * 1024
# Background jobs (scorekeeper/jobs, on Django's Tasks framework): restores and big imports run in
# a worker process (`manage.py db_worker`, the database backend of django-tasks-db: a table of
# tasks, no other server), the page shows their progress. TASKS_BACKEND: another backend's
# dotted path (the tests run tasks at once: django.tasks.backends.immediate.ImmediateBackend).
TASKS = {"default": {"BACKEND": os.environ.get("TASKS_BACKEND", "django_tasks_db.DatabaseBackend")}}
# A job running longer than JOB_TIME_LIMIT seconds is stopped (checked at each step) and failed;
# one still "running" JOB_STALE_AFTER seconds after it started (its worker died) or still
# queued that long after it was asked (no worker) is failed with its reason, never run again.
JOB_TIME_LIMIT = int(os.environ.get("JOB_TIME_LIMIT", "600"))
JOB_STALE_AFTER = int(os.environ.get("JOB_STALE_AFTER", str(JOB_TIME_LIMIT + 300)))
# The kinds of job and the class that runs each and words its result (see jobs/services.py):
# the jobs app imports none of them.
JOB_KINDS = {
    "history_restore": "scorekeeper.history.jobs.HistoryRestore",
    "match_import": "scorekeeper.matches.jobs.MatchImport",
    "club_restore": "scorekeeper.clubs.jobs.ClubRestore",
    "concours_import": "scorekeeper.concours.jobs.ConcoursImport",
}
# How the jobs' pages know the browser (its key, as the matches app keeps it in the session).
JOB_BROWSER_KEY = "scorekeeper.matches.access.existing_device_key"
# A match file with more deals than this is imported by a job; smaller ones in the request.
IMPORT_INLINE_DEALS = int(os.environ.get("IMPORT_INLINE_DEALS", "300"))
# The app holding some matches (a concours its tables'): the matches app's one extension point,
# scorekeeper/matches/holder.py, implemented by this class.
MATCH_HOLDER = "scorekeeper.concours.holds_matches.ConcoursTables"
# The app holding some concours (a club its own): the concours app's one extension point,
# scorekeeper/concours/holder.py, implemented by this class.
CONCOURS_HOLDER = "scorekeeper.clubs.holds_concours.ClubPeople"

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("Français"))]
FORMAT_MODULE_PATH = ["scorekeeper.formats"]  # English dates day first
LOCALE_PATHS = [BASE_DIR / "scorekeeper" / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Paris")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")  # collectstatic's
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# The in-browser engine's runtime (Pyodide), under the static files: fetched by `make venv`
# (scripts/fetch_pyodide.py); without it the app runs and offline totals wait for the network.
OFFLINE_RUNTIME_PATH = "offline/pyodide/"

# Strict CSP: no inline scripts or styles anywhere; htmx and our JS are served from /static/.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# Live pages (issue 43, scorekeeper/web/live): Server-Sent Events served by the ASGI server
# (uvicorn, scorekeeper.asgi) beside gunicorn, which serves every other request. In production
# the proxy routes /live/ to it; `make run` and `make hall` have no proxy and serve it on
# LIVE_PORT (the page's host, that port: plain http, a cross-origin stream the CSP allows).
LIVE_PORT = os.environ.get("LIVE_PORT", "").strip()
LIVE_STREAM_SECONDS = int(os.environ.get("LIVE_STREAM_SECONDS", "300"))  # then it reconnects
LIVE_HEARTBEAT_SECONDS = int(os.environ.get("LIVE_HEARTBEAT_SECONDS", "20"))
LIVE_RETRY_MS = int(os.environ.get("LIVE_RETRY_MS", "2000"))  # the browser's wait to reconnect
LIVE_STREAMS_PER_ADDRESS = int(os.environ.get("LIVE_STREAMS_PER_ADDRESS", "200"))  # per process
LIVE_POLL_SECONDS = float(os.environ.get("LIVE_POLL_SECONDS", "0.2"))  # SQLite's changes table
# A concours's change key moves at every deal of every table: its pages (projector, public
# standings, desk) are told at once of a change, then at most once in this many seconds.
LIVE_SPACING_SECONDS = {"c": float(os.environ.get("LIVE_CONCOURS_SECONDS", "2"))}
# Each topic's kind: the function giving its objects' versions (one query for a batch of ids).
LIVE_TOPICS = {
    "m": "scorekeeper.matches.live.versions",
    "c": "scorekeeper.concours.live.change_key_versions",
    "t": "scorekeeper.concours.live.versions",
    "r": "scorekeeper.concours.live.round_versions",
    "j": "scorekeeper.jobs.live.versions",
}
if LIVE_PORT:
    _live_hosts = {h for h in ALLOWED_HOSTS if "*" not in h and not h.startswith(".")}
    _live_hosts |= {"127.0.0.1", "localhost", "[::1]"}
    SECURE_CSP["connect-src"] = [CSP.SELF, *sorted(f"http://{h}:{LIVE_PORT}" for h in _live_hosts)]

SESSION_ENGINE = "django.contrib.sessions.backends.db"  # Django's own: the database
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365 * 2  # the creating browser keeps its matches for years
SESSION_COOKIE_SECURE = not DEBUG and not HALL_MODE
CSRF_COOKIE_SECURE = not DEBUG and not HALL_MODE
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
# Behind a TLS-terminating proxy that redirects http itself (PROXY_REDIRECTS_HTTP) the app does
# not, and `check --deploy` is told so; HSTS stays on here (the app sends it on every https
# answer) unless the proxy sends it instead (PROXY_SENDS_HSTS). Saying either without the proxy
# doing it leaves http open: `check --deploy` cannot see the proxy, so these are a promise.
PROXY_REDIRECTS_HTTP = env_bool("PROXY_REDIRECTS_HTTP", False)
PROXY_SENDS_HSTS = env_bool("PROXY_SENDS_HSTS", False)
if not DEBUG and not HALL_MODE:
    # HTTPS only: browsers are told to come back over https (a year, subdomains too) and http is
    # redirected. The proxy in front says which requests came over https (X-Forwarded-Proto).
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(
        os.environ.get("SECURE_HSTS_SECONDS", "0" if PROXY_SENDS_HSTS else str(365 * 24 * 3600))
    )
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not PROXY_REDIRECTS_HTTP)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # a load balancer probes the app over plain http
# Preloading is a promise about the whole domain that only its owner can make: off unless asked.
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]  # "preload not set"
if PROXY_REDIRECTS_HTTP:
    SILENCED_SYSTEM_CHECKS.append("security.W008")  # "SECURE_SSL_REDIRECT is not True"
if PROXY_SENDS_HSTS:
    SILENCED_SYSTEM_CHECKS.append("security.W004")  # "SECURE_HSTS_SECONDS is not set"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
