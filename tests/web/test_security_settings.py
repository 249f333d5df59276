"""Production settings: `manage.py check --deploy` is silent with the documented environment, HTTPS
(HSTS with subdomains, redirect to https) is on by default with DEBUG off and each part can be
switched off for a TLS-terminating proxy, the health check stays reachable over http, and the admin
lives at the path ADMIN_URL gives."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

ROOT = Path(__file__).resolve().parents[2]

# What docs/production.md documents (with the PostgreSQL URL the real site uses; the
# checks below do not connect to it).
PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "a-production-secret-key-of-more-than-fifty-characters-0123456789-xyz",
    "ALLOWED_HOSTS": "belote.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://belote.example.org",
    "DATABASE_URL": "postgres://scorekeeper@127.0.0.1:5432/scorekeeper",
}


def run_django(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Python code run in a fresh process with these settings (the settings module reads the
    environment once, at start)."""
    environ = {
        k: v for k, v in os.environ.items() if k not in PRODUCTION and not k.startswith("SECURE_")
    }
    environ.pop("ADMIN_URL", None)
    environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set by the browser tests' conftest
    environ.update(env, DJANGO_SETTINGS_MODULE="scorekeeper.settings")
    return subprocess.run(
        [sys.executable, "-c", f"import django\ndjango.setup()\n{code}"],
        cwd=ROOT,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


SHOW = (
    "from django.conf import settings as s; import json; print(json.dumps({k: getattr(s, k) for k in "
    "['SECURE_HSTS_SECONDS', 'SECURE_HSTS_INCLUDE_SUBDOMAINS', 'SECURE_HSTS_PRELOAD', "
    "'SECURE_SSL_REDIRECT', 'SECURE_REDIRECT_EXEMPT', 'SECURE_PROXY_SSL_HEADER', "
    "'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE']}))"
)


def production_settings(**env: str) -> dict[str, object]:
    result = run_django(SHOW, **{**PRODUCTION, **env})
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout))


def test_check_deploy_reports_nothing_with_the_documented_production_settings() -> None:
    result = run_django(
        "from django.core.management import call_command; "
        "call_command('check', deploy=True, fail_level='WARNING')",
        **PRODUCTION,
    )
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout + result.stderr
    assert "WARNING" not in result.stderr


# The two documented set-ups (docs/production.md, "HTTPS"): the app redirects http and sends HSTS (the proxy
# only forwards X-Forwarded-Proto), or the TLS proxy redirects http itself and the app keeps HSTS.
# Each passes `check --deploy` without a warning.
SETUPS = {
    "app redirects": {"TRUSTED_PROXIES": "1", "ADMIN_URL": "backstage-7f3a/"},
    "proxy redirects": {
        "TRUSTED_PROXIES": "1",
        "ADMIN_URL": "backstage-7f3a/",
        "PROXY_REDIRECTS_HTTP": "true",
    },
}
DEPLOY_CHECK = (
    "from django.core.management import call_command; "
    "call_command('check', deploy=True, fail_level='WARNING')"
)


def check_deploy_then_settings(
    **env: str,
) -> tuple[subprocess.CompletedProcess[str], dict[str, object]]:
    """`check --deploy` (warnings fail it), then the settings it checked: one process, the same
    environment (PRODUCTION and env) for both."""
    result = run_django(f"{DEPLOY_CHECK}\n{SHOW}", **{**PRODUCTION, **env})
    assert result.returncode == 0, result.stderr
    return result, dict(json.loads(result.stdout.splitlines()[-1]))


@pytest.mark.parametrize("setup", SETUPS)
def test_each_documented_https_setup_passes_check_deploy_with_hsts_on(setup: str) -> None:
    result, values = check_deploy_then_settings(**SETUPS[setup])
    assert "System check identified no issues" in result.stdout + result.stderr
    assert values["SECURE_HSTS_SECONDS"] == 365 * 24 * 3600  # HSTS stays on in both
    assert values["SECURE_SSL_REDIRECT"] is (setup == "app redirects")


def test_a_proxy_that_also_sends_hsts_may_say_so() -> None:
    _, values = check_deploy_then_settings(PROXY_REDIRECTS_HTTP="1", PROXY_SENDS_HSTS="1")
    assert (values["SECURE_HSTS_SECONDS"], values["SECURE_SSL_REDIRECT"]) == (0, False)


def test_switching_https_off_without_saying_the_proxy_does_it_still_warns() -> None:
    """SECURE_SSL_REDIRECT=false and SECURE_HSTS_SECONDS=0 alone (what README used to advise
    behind a proxy): the checks still warn, since nothing says the proxy took over."""
    result = run_django(
        DEPLOY_CHECK, **PRODUCTION, SECURE_SSL_REDIRECT="false", SECURE_HSTS_SECONDS="0"
    )
    assert result.returncode != 0
    assert "security.W004" in result.stderr and "security.W008" in result.stderr


@pytest.mark.django_db
@override_settings(
    SECURE_SSL_REDIRECT=False,
    SECURE_HSTS_SECONDS=31536000,
    SECURE_HSTS_INCLUDE_SUBDOMAINS=True,
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
)
def test_behind_a_redirecting_proxy_https_answers_carry_hsts() -> None:
    client = Client()
    proxied = client.get("/new/", headers={"X-Forwarded-Proto": "https"})
    assert proxied.status_code == 200
    assert proxied["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    assert client.get("/new/").status_code == 200  # http reaching the app: the proxy's job


def test_https_is_on_by_default_with_debug_off() -> None:
    values = production_settings()
    assert values["SECURE_HSTS_SECONDS"] == 365 * 24 * 3600
    assert values["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert values["SECURE_HSTS_PRELOAD"] is False  # the domain's owner opts in, never by default
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SECURE_REDIRECT_EXEMPT"] == [r"^healthz$"]
    assert values["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert values["SESSION_COOKIE_SECURE"] is True and values["CSRF_COOKIE_SECURE"] is True


def test_each_https_part_can_be_switched_off_for_a_tls_terminating_proxy() -> None:
    values = production_settings(
        SECURE_SSL_REDIRECT="false", SECURE_HSTS_SECONDS="0", SECURE_HSTS_INCLUDE_SUBDOMAINS="no"
    )
    assert values["SECURE_SSL_REDIRECT"] is False
    assert values["SECURE_HSTS_SECONDS"] == 0
    assert values["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is False
    values = production_settings(SECURE_HSTS_SECONDS="600", SECURE_HSTS_PRELOAD="true")
    assert (values["SECURE_HSTS_SECONDS"], values["SECURE_HSTS_PRELOAD"]) == (600, True)
    assert values["SECURE_SSL_REDIRECT"] is True


def test_a_local_run_keeps_plain_http() -> None:
    values = production_settings(DEBUG="true")
    assert values["SECURE_SSL_REDIRECT"] is False
    assert values["SECURE_HSTS_SECONDS"] == 0


@pytest.mark.django_db
@override_settings(
    SECURE_SSL_REDIRECT=True,
    SECURE_HSTS_SECONDS=31536000,
    SECURE_HSTS_INCLUDE_SUBDOMAINS=True,
    SECURE_REDIRECT_EXEMPT=[r"^healthz$"],
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
)
def test_http_is_redirected_to_https_but_the_health_check_answers_over_http() -> None:
    client = Client()
    response = client.get("/new/?x=1")
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/new/?x=1"
    health = client.get("/healthz")
    assert (health.status_code, health.content) == (200, b"ok")
    secure = client.get("/new/", secure=True)
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    # Behind the proxy: it says the browser came over https.
    proxied = client.get("/new/", headers={"X-Forwarded-Proto": "https"})
    assert proxied.status_code == 200


def test_the_admin_lives_where_admin_url_says() -> None:
    result = run_django(
        "from django.urls import Resolver404, resolve, reverse\n"
        "print(reverse('admin:index'), resolve('/backstage-7f3a/login/').url_name)\n"
        "try:\n    resolve('/admin/')\nexcept Resolver404:\n    print('gone')",
        ADMIN_URL="/backstage-7f3a",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["/backstage-7f3a/", "login", "gone"]


@pytest.mark.django_db
def test_the_admin_answers_at_the_configured_path(client: Client) -> None:
    assert reverse("admin:index") == f"/{settings.ADMIN_URL}"
    admin = User.objects.create_superuser("boss", password="a-long-enough-password-42")
    client.force_login(admin)
    assert client.get(f"/{settings.ADMIN_URL}").status_code == 200
