"""PUBLIC_BASE_URL (issue 25, hall mode): every absolute link and QR code the app prints starts
with it whatever host the page was asked on (an organiser browsing the desk on 127.0.0.1 prints
table sheets the hall's phones open), and the setting itself is checked at start."""

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, override_settings
from django.urls import reverse

from scorekeeper.concours import services
from scorekeeper.concours.models import Table
from scorekeeper.concours.views.prints import qr_svg
from scorekeeper.settings import is_loopback, public_base_url
from scorekeeper.web.qr import qr_response
from tests.factories import OWNER_KEY, ClubFactory, MatchFactory, TournamentFactory
from tests.matches.conftest import client_with_device

from .test_security_settings import run_django

ROOT = Path(__file__).resolve().parents[2]
LAN = "http://192.168.1.20:8000"
LOCAL = {"host": "127.0.0.1:8000"}  # the organiser's own browser, on the laptop

TEAMS = [
    ("Les As", "Alice", "Bruno"),
    ("Pique Dame", "Chloé", "David"),
    ("Trèfle", "Emma", "Farid"),
    ("Carreau", "Gilles", "Hana"),
]


def svg_of(address: str, scale: int = 6) -> bytes:
    return qr_response(address, scale=scale).content


# Every place that prints an absolute address -------------------------------------------------


@override_settings(PUBLIC_BASE_URL=LAN, ALLOWED_HOSTS=["127.0.0.1"])
def test_a_match_s_share_links_and_qr_codes_carry_the_public_address(db: None) -> None:
    match = MatchFactory.create()
    client = client_with_device(OWNER_KEY)
    page = client.get(reverse("matches:share", args=[match.scorer_token]), headers=LOCAL).text
    view = f"{LAN}/view/{match.view_token}/"
    scorer = f"{LAN}/score/{match.scorer_token}/"
    assert view in page and scorer in page
    assert "127.0.0.1" not in page
    for kind, address in (("view", view), ("scorer", scorer)):
        qr = client.get(reverse("matches:qr", args=[match.scorer_token, kind]), headers=LOCAL)
        assert qr.content == svg_of(address)


@override_settings(PUBLIC_BASE_URL=LAN, ALLOWED_HOSTS=["127.0.0.1"])
def test_a_concours_s_sheets_desk_and_public_codes_carry_the_public_address(
    make_user: Callable[[str], User], client: Client
) -> None:
    organiser = make_user("organiser")
    client.force_login(organiser)
    tournament = TournamentFactory.create(owner=organiser, teams=TEAMS, overrides={"seed": 3})
    round_ = services.draw_round(tournament=tournament)
    table = Table.objects.filter(round=round_).order_by("number").first()
    assert table is not None
    phone = f"{LAN}/t/{table.token}/"
    # The printed score sheet's QR code (inline SVG) and the table's QR code file.
    sheets = client.get(
        reverse("concours:print_sheets", kwargs={"pk": tournament.pk, "round": 1}), headers=LOCAL
    ).content.decode()
    assert str(qr_svg(phone, f"QR code of table {table.number}'s phone link")) in sheets
    qr = client.get(reverse("concours:table_qr", args=[table.token]), headers=LOCAL)
    assert qr.content == svg_of(phone, scale=4)
    # The desk's co-organiser link and its code.
    desk = client.get(reverse("concours:desk", args=[tournament.pk]), headers=LOCAL).text
    co = f"{LAN}/concours/co/{tournament.co_token}/"
    assert co in desk
    assert client.get(
        reverse("concours:co_qr", args=[tournament.pk]), headers=LOCAL
    ).content == svg_of(co)
    # The public page's code (projector, posters).
    public = reverse("concours_public:qr", args=[tournament.public_token])
    standings = reverse("concours_public:standings", args=[tournament.public_token])
    assert Client().get(public, headers=LOCAL).content == svg_of(f"{LAN}{standings}")


@override_settings(PUBLIC_BASE_URL=LAN, ALLOWED_HOSTS=["127.0.0.1"])
def test_a_club_s_invitation_carries_the_public_address(
    make_user: Callable[[str], User], client: Client
) -> None:
    ann = make_user("ann")
    client.force_login(ann)
    club = ClubFactory.create(organiser=ann, name="Club des As", town="")
    page = client.get(reverse("clubs:desk", args=[club.pk]), headers=LOCAL).text
    assert f"{LAN}{reverse('clubs:join', args=[club.invite_token])}" in page


def test_without_it_links_take_the_request_s_host(db: None) -> None:
    match = MatchFactory.create()
    client = client_with_device(OWNER_KEY)
    with override_settings(ALLOWED_HOSTS=["127.0.0.1"]):
        page = client.get(reverse("matches:share", args=[match.scorer_token]), headers=LOCAL).text
    assert f"http://127.0.0.1:8000/view/{match.view_token}/" in page


def test_no_view_builds_an_address_of_its_own() -> None:
    """scorekeeper/web/addresses.py is the one place: a new `build_absolute_uri` elsewhere would
    print the laptop's 127.0.0.1 in the hall."""
    found = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "scorekeeper").rglob("*.py")
        if "build_absolute_uri" in path.read_text(encoding="utf-8")
    ]
    assert found == ["scorekeeper/web/addresses.py"]
    templates = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "templates").rglob("*.html")
        if re.search(r"build_absolute_uri|get_host", path.read_text(encoding="utf-8"))
    ]
    assert templates == []


# The setting ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("", ""),
        ("http://192.168.1.20:8000", "http://192.168.1.20:8000"),
        ("http://192.168.1.20:8000/", "http://192.168.1.20:8000"),
        (" https://belote.example.org ", "https://belote.example.org"),
        ("http://[fe80::1]:8000", "http://[fe80::1]:8000"),
    ],
)
def test_a_public_address_is_an_origin(given: str, kept: str) -> None:
    assert public_base_url(given) == kept


@pytest.mark.parametrize(
    "given",
    [
        "192.168.1.20:8000",  # no scheme
        "ftp://192.168.1.20",
        "http://192.168.1.20:8000/belote",  # a path
        "http://192.168.1.20:8000?x=1",
        "http://192.168.1.20:99999",
        "http://192.168.1.20:port",
        "http://user@192.168.1.20",
        "http://",
    ],
)
def test_anything_else_is_refused_at_start(given: str) -> None:
    with pytest.raises(ImproperlyConfigured, match="PUBLIC_BASE_URL must be an origin"):
        public_base_url(given)


def test_loopback_hosts() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("127.0.0.2") and is_loopback("[::1]")
    assert is_loopback("localhost")
    assert not is_loopback("192.168.1.20") and not is_loopback("belote.example.org")


SHOW = (
    "from django.conf import settings as s; import json; print(json.dumps([s.PUBLIC_BASE_URL, "
    "s.HALL_MODE, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, "
    "s.SECURE_HSTS_SECONDS, len(s.SECRET_KEY)]))"
)
KEY = "k" * 30 + "0123456789abcdefghij-hall-key"


def test_hall_mode_serves_plain_http_with_debug_off(tmp_path: Path) -> None:
    key = tmp_path / "secret_key"
    key.write_text(KEY + "\n")
    result = run_django(
        SHOW, DEBUG="false", HALL_MODE="true", PUBLIC_BASE_URL=LAN, SECRET_KEY_FILE=str(key)
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f'["{LAN}", true, false, false, false, 0, {len(KEY)}]'


@pytest.mark.parametrize(
    ("env", "says"),
    [
        ({"DEBUG": "true", "PUBLIC_BASE_URL": LAN}, "DEBUG must be off in hall mode"),
        ({"DEBUG": "false", "SECRET_KEY": KEY}, "HALL_MODE needs PUBLIC_BASE_URL"),
        ({"DEBUG": "false", "SECRET_KEY_FILE": "/nonexistent/key"}, "SECRET_KEY_FILE cannot be"),
        ({"DEBUG": "true", "PUBLIC_BASE_URL": "192.168.1.20"}, "must be an origin"),
    ],
)
def test_hall_mode_refuses_to_start(env: dict[str, str], says: str) -> None:
    result = run_django("print('started')", HALL_MODE="true", **env)
    assert result.returncode != 0 and "started" not in result.stdout
    assert "ImproperlyConfigured" in result.stderr and says in result.stderr


def test_debug_on_loopback_is_allowed_in_hall_mode() -> None:
    result = run_django(
        SHOW, DEBUG="true", HALL_MODE="true", PUBLIC_BASE_URL="http://127.0.0.1:8000"
    )
    assert result.returncode == 0, result.stderr
