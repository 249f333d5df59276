"""Sign-up throttling: at most SIGNUPS_PER_HOUR_PER_IP sign-up attempts an hour from one address
(every POST of the form counts, an account created or not) and SIGNUPS_PER_HOUR on the whole site;
over either, the login lockout's 429 page worded for sign-ups, with Retry-After, and nothing is
created. The address is the one the trusted proxies saw (TRUSTED_PROXIES)."""

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.utils import timezone, translation
from pytest_django.fixtures import Settings

from scorekeeper.web import throttle
from scorekeeper.web.models import RateLimit
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

HOME_IP = "203.0.113.7"


def sign_up(name: str, *, ip: str = HOME_IP, password: str = PASSWORD, **extra: Any) -> Any:
    return Client(**extra).post(
        "/accounts/signup/",
        {"username": name, "password1": password, "password2": password},
        REMOTE_ADDR=ip,
    )


@pytest.fixture
def limits(settings: Settings) -> Settings:
    settings.SIGNUPS_PER_HOUR_PER_IP = 3
    settings.SIGNUPS_PER_HOUR = 5
    return settings


@contextmanager
def at(monkeypatch: pytest.MonkeyPatch, when: datetime) -> Iterator[None]:
    with monkeypatch.context() as patch:
        patch.setattr(throttle, "_now", lambda: when)
        yield


def test_the_defaults_are_the_documented_ones() -> None:
    from django.conf import settings

    assert (settings.SIGNUPS_PER_HOUR_PER_IP, settings.SIGNUPS_PER_HOUR) == (20, 300)


def test_an_address_signing_up_too_often_waits_with_the_login_lockouts_page(
    limits: Settings,
) -> None:
    for n in range(3):
        assert sign_up(f"player{n}").status_code == 302
    refused = sign_up("player3")
    assert refused.status_code == 429
    assert 3500 <= int(refused["Retry-After"]) <= 3600
    assert "Too many sign-ups" in refused.text
    assert "Creating accounts is paused from this network" in refused.text
    assert "Wait 60 minutes, then try again." in refused.text
    assert "Too many failed logins" not in refused.text
    assert not User.objects.filter(username="player3").exists()
    assert User.objects.count() == 3
    # Another address still signs up.
    assert sign_up("player3", ip="198.51.100.20").status_code == 302


def test_failed_sign_ups_count_too(limits: Settings) -> None:
    for n in range(3):
        typo = sign_up(f"player{n}", password="password123")  # too common: refused
        assert typo.status_code == 200 and "This password is too common." in typo.text
    assert sign_up("player9").status_code == 429
    assert not User.objects.exists()


def test_the_site_wide_ceiling_holds_across_addresses(limits: Settings) -> None:
    for n in range(5):
        assert sign_up(f"player{n}", ip=f"198.51.100.{n}").status_code == 302
    refused = sign_up("player5", ip="192.0.2.55")
    assert refused.status_code == 429
    assert "Too many sign-ups" in refused.text
    assert User.objects.count() == 5
    # The refused attempt was not counted against its address (the ceiling refused it).
    assert not RateLimit.objects.filter(key="signup:ip:192.0.2.55").exists()


def test_the_limit_lifts_after_the_hour(limits: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    start = timezone.now()
    with at(monkeypatch, start):
        for n in range(3):
            sign_up(f"player{n}")
        assert sign_up("player3").status_code == 429
    with at(monkeypatch, start + timedelta(hours=1, seconds=1)):
        assert sign_up("player3").status_code == 302
    assert User.objects.filter(username="player3").exists()


def test_looking_at_the_form_is_not_counted(limits: Settings) -> None:
    for _ in range(5):
        assert Client().get("/accounts/signup/", REMOTE_ADDR=HOME_IP).status_code == 200
    assert not RateLimit.objects.exists()


@override_settings(TRUSTED_PROXIES=1)
def test_behind_a_proxy_each_visitor_has_their_own_count(limits: Settings) -> None:
    def through_proxy(name: str, visitor: str) -> Any:
        return Client().post(
            "/accounts/signup/",
            {"username": name, "password1": PASSWORD, "password2": PASSWORD},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=visitor,
        )

    for n in range(3):
        assert through_proxy(f"a{n}", "198.51.100.1").status_code == 302
    assert through_proxy("a3", "198.51.100.1").status_code == 429
    assert through_proxy("b0", "198.51.100.2").status_code == 302


def test_the_sign_up_wait_page_is_in_the_visitors_language(limits: Settings) -> None:
    for n in range(3):
        sign_up(f"player{n}")
    refused = sign_up("player3", headers={"accept-language": "fr"})
    assert refused.status_code == 429
    assert '<html lang="fr">' in refused.text
    with translation.override("fr"):
        assert translation.gettext("Too many sign-ups") in refused.text
        assert translation.gettext("Too many sign-ups") != "Too many sign-ups"
