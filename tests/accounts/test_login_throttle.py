"""Login throttling (django-axes, database handler): a user name or a network address that fails
too often is locked out for a while, on the site's login and the admin's alike, with a page that
says how long to wait; a successful login forgives that browser's own mistakes, not the address's
failures on other names. And the password rules the sign-up page states are the ones enforced."""

from collections.abc import Callable

import pytest
from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import get_default_password_validators
from django.test import Client, RequestFactory, override_settings
from django.utils import translation

from scorekeeper.accounts.forms import SignupForm
from scorekeeper.web.throttle import client_ip
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

LIMIT = settings.AXES_FAILURE_LIMIT
WAIT_MINUTES = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
HOME_IP = "203.0.113.7"


def log_in(
    client: Client, username: str, password: str, *, ip: str = HOME_IP, path: str = ""
) -> object:
    return client.post(
        path or "/accounts/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=ip,
    )


def signed_in(client: Client) -> bool:
    return client.session.get(SESSION_KEY) is not None


@pytest.fixture
def alice(make_user: Callable[[str], User]) -> User:
    return make_user("alice")


def test_the_limit_and_wait_are_sensible() -> None:
    assert 3 <= LIMIT <= 10
    assert 5 <= WAIT_MINUTES <= 60


def test_a_name_and_an_address_are_counted_each_on_its_own(alice: User) -> None:
    """Failures are counted by name and by address, not by (name, address) pair: one failure
    from each of LIMIT addresses locks the name, one failure on each of LIMIT names locks the
    address; either lock is the project's page (429, the wait), not django-axes' bare 403."""
    for attempt in range(LIMIT):
        log_in(Client(), "alice", "wrong", ip=f"198.51.100.{attempt + 1}")
    by_name = log_in(Client(), "alice", PASSWORD, ip="192.0.2.77")
    assert by_name.status_code == 429  # type: ignore[attr-defined]
    assert by_name["Retry-After"] == str(WAIT_MINUTES * 60)  # type: ignore[index]
    for attempt in range(LIMIT):
        log_in(Client(), f"guess{attempt}", "wrong", ip="192.0.2.88")
    by_address = log_in(Client(), "nobody-yet", "wrong", ip="192.0.2.88")
    assert by_address.status_code == 429  # type: ignore[attr-defined]
    assert f"Wait {WAIT_MINUTES} minutes" in by_address.text  # type: ignore[attr-defined]


def test_a_name_that_fails_too_often_is_locked_and_told_how_long_to_wait(alice: User) -> None:
    for attempt in range(LIMIT - 1):  # each from its own address: only the name is counted
        response = log_in(Client(), "alice", "wrong", ip=f"198.51.100.{attempt + 1}")
        assert response.status_code == 200  # type: ignore[attr-defined]
        assert "Please enter a correct username and password" in response.text  # type: ignore[attr-defined]
    locked = log_in(Client(), "alice", "wrong", ip="198.51.100.99")
    assert locked.status_code == 429  # type: ignore[attr-defined]
    assert locked["Retry-After"] == str(WAIT_MINUTES * 60)  # type: ignore[index]
    assert "Too many failed logins" in locked.text  # type: ignore[attr-defined]
    assert f"Wait {WAIT_MINUTES} minutes, then try again." in locked.text  # type: ignore[attr-defined]
    # Even the right password, from yet another address, waits: the name is locked.
    client = Client()
    right = log_in(client, "alice", PASSWORD, ip="192.0.2.200")
    assert right.status_code == 429  # type: ignore[attr-defined]
    assert not signed_in(client)
    # Another name from those addresses is not locked.
    User.objects.create_user("bruno", password=PASSWORD)
    other = Client()
    assert log_in(other, "bruno", PASSWORD, ip="198.51.100.1").status_code == 302  # type: ignore[attr-defined]
    assert signed_in(other)


def test_an_address_that_fails_too_often_is_locked_for_every_name(alice: User) -> None:
    for attempt in range(LIMIT - 1):
        response = log_in(Client(), f"guess{attempt}", "wrong")
        assert response.status_code == 200  # type: ignore[attr-defined]
    assert log_in(Client(), "another-guess", "wrong").status_code == 429  # type: ignore[attr-defined]
    # The real alice on the same network waits too; from elsewhere she gets in.
    client = Client()
    assert log_in(client, "alice", PASSWORD).status_code == 429  # type: ignore[attr-defined]
    assert not signed_in(client)
    elsewhere = Client()
    assert log_in(elsewhere, "alice", PASSWORD, ip="192.0.2.10").status_code == 302  # type: ignore[attr-defined]
    assert signed_in(elsewhere)


def test_the_admin_login_is_throttled_too(make_user: Callable[[str], User]) -> None:
    User.objects.create_superuser("boss", password=PASSWORD)
    path = f"/{settings.ADMIN_URL}login/"
    for _ in range(LIMIT - 1):
        assert log_in(Client(), "boss", "wrong", path=path).status_code == 200  # type: ignore[attr-defined]
    locked = log_in(Client(), "boss", "wrong", path=path)
    assert locked.status_code == 429  # type: ignore[attr-defined]
    assert f"Wait {WAIT_MINUTES} minutes" in locked.text  # type: ignore[attr-defined]
    # The site's own login form is locked for that name as well.
    assert log_in(Client(), "boss", PASSWORD, ip="192.0.2.1").status_code == 429  # type: ignore[attr-defined]


def test_a_success_forgives_the_names_own_mistakes(alice: User) -> None:
    client = Client()
    for _ in range(LIMIT - 1):
        log_in(client, "alice", "wrong")
    assert log_in(client, "alice", PASSWORD).status_code == 302  # type: ignore[attr-defined]
    assert signed_in(client)
    for _ in range(LIMIT - 1):
        assert log_in(Client(), "alice", "wrong").status_code == 200  # type: ignore[attr-defined]


def test_a_success_on_ones_own_account_does_not_reset_the_addresss_guesses(
    make_user: Callable[[str], User],
) -> None:
    make_user("mallory")
    for attempt in range(LIMIT - 1):
        log_in(Client(), f"victim{attempt}", "wrong")
    assert log_in(Client(), "mallory", PASSWORD).status_code == 302  # type: ignore[attr-defined]
    assert log_in(Client(), "victim-next", "wrong").status_code == 429  # type: ignore[attr-defined]


def test_the_lockout_page_is_in_the_visitors_language(alice: User) -> None:
    client = Client(headers={"accept-language": "fr"})
    for _ in range(LIMIT):
        response = log_in(client, "alice", "wrong")
    assert response.status_code == 429  # type: ignore[attr-defined]
    assert '<html lang="fr">' in response.text  # type: ignore[attr-defined]
    with translation.override("fr"):
        assert translation.gettext("Log in") in response.text  # type: ignore[attr-defined]


def test_the_lockout_messages_have_french_translations() -> None:
    with translation.override("fr"):
        assert translation.gettext("Too many failed logins") != "Too many failed logins"
        waits = [
            translation.ngettext(
                "Wait %(minutes)s minute, then try again.",
                "Wait %(minutes)s minutes, then try again.",
                n,
            )
            for n in (1, 15)
        ]
    assert all(wait.startswith("Attendez") for wait in waits), waits


# Password rules ------------------------------------------------------------------------------


def test_the_validators_are_the_ones_the_help_text_states() -> None:
    names = {type(v).__name__ for v in get_default_password_validators()}
    assert names == {
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    }
    with translation.override("en"):
        help_text = str(SignupForm().fields["password1"].help_text)
    assert (
        help_text
        == "At least 8 characters, not only digits, not a common password, not close to your name."
    )


@pytest.mark.parametrize(
    ("password", "reason"),
    [
        ("83920174658392", "This password is entirely numeric."),
        ("short1!", "This password is too short. It must contain at least 8 characters."),
        ("password123", "This password is too common."),
        ("alice-the-player", "The password is too similar to the username."),
    ],
)
def test_signup_refuses_what_the_help_text_rules_out(password: str, reason: str) -> None:
    response = Client().post(
        "/accounts/signup/",
        {"username": "alice-the-player", "password1": password, "password2": password},
    )
    assert response.status_code == 200
    assert reason in response.text
    assert not User.objects.exists()


# The address behind proxies ------------------------------------------------------------------


def test_without_trusted_proxies_the_address_is_the_connections() -> None:
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4")
    assert client_ip(request) == "10.0.0.1"


@override_settings(TRUSTED_PROXIES=2)
def test_behind_proxies_the_address_is_the_one_the_outermost_proxy_saw() -> None:
    factory = RequestFactory()
    spoofed = factory.get(
        "/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.4, 10.0.0.1"
    )
    assert client_ip(spoofed) == "198.51.100.4"
    short = factory.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="198.51.100.4")
    assert client_ip(short) == "10.0.0.2"


def through_proxy(username: str, password: str, visitor: str) -> Client:
    client = Client()
    client.post(
        "/accounts/login/",
        {"username": username, "password": password},
        REMOTE_ADDR="127.0.0.1",  # nginx on the same machine
        HTTP_X_FORWARDED_FOR=visitor,
    )
    return client


@pytest.mark.parametrize(("proxies", "alice_gets_in"), [(1, True), (0, False)])
def test_behind_a_proxy_each_visitor_is_counted_on_their_own_address(
    alice: User, proxies: int, alice_gets_in: bool
) -> None:
    with override_settings(TRUSTED_PROXIES=proxies):
        for attempt in range(LIMIT):
            through_proxy(f"guess{attempt}", "wrong", visitor=f"198.51.100.{attempt}")
        # Without the setting every visitor is the proxy's address, and that address is locked.
        assert signed_in(through_proxy("alice", PASSWORD, visitor="192.0.2.78")) is alice_gets_in
