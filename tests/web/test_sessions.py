"""Sessions: a browser gets a session row only when something is kept for it (a match it created,
a scorer link it opened, a login, a language), never for looking at a page, so crawlers and
passers-by do not fill the table; and `clearsessions` (a daily job) removes the expired rows and
keeps the live ones."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from scorekeeper.matches.models import Match, Player
from tests.matches.conftest import MakeMatch
from tests.matches.support import coinche_deal, new_match_post

pytestmark = pytest.mark.django_db


def public_pages(match: Match) -> list[str]:
    view = match.view_token
    player = Player.objects.filter(name="Alice").get()
    return [
        "/",
        "/new/",
        "/import/",
        "/accounts/login/",
        "/accounts/login/?next=/history/",
        "/accounts/signup/",
        "/history/",
        "/history/?q=nous&page=2",
        "/history/restore/",
        "/history/deals.csv",
        "/history/backup.zip",
        f"/view/{view}/",
        f"/view/{view}/?v=1",
        f"/view/{view}/review/",
        f"/view/{view}/deals.csv",
        f"/view/{view}/match.json",
        f"/players/{player.pk}/",
        "/healthz",
        "/no-such-page/",
        f"/score/{'x' * 24}/",  # a wrong scorer link
        f"/{settings.ADMIN_URL}",
        f"/{settings.ADMIN_URL}login/",
    ]


def test_looking_at_any_page_creates_no_session(make_match: MakeMatch) -> None:
    match = make_match("coinche", [coinche_deal()])
    assert not Session.objects.exists()
    client = Client()
    for path in public_pages(match):
        for method in (client.get, client.head):
            response = method(path)
            assert response.status_code in {200, 302, 404}, path
            assert not Session.objects.exists(), f"{method.__name__.upper()} {path}"
        htmx = client.get(path, headers={"HX-Request": "true"})
        assert htmx.status_code in {200, 204, 302, 404}, path
        assert not Session.objects.exists(), f"htmx GET {path}"
    assert "sessionid" not in client.cookies


def test_a_refused_new_match_creates_no_session(make_match: MakeMatch) -> None:
    client = Client()
    response = client.post("/new/", new_match_post(team0_name=""))
    assert response.status_code == 200
    assert not Match.objects.exists()
    assert not Session.objects.exists()


def test_a_created_match_gives_the_browser_its_session() -> None:
    client = Client()
    response = client.post("/new/", new_match_post())
    assert response.status_code == 302
    match = Match.objects.get()
    assert Session.objects.count() == 1
    # That browser is the match's creator: its scoreboard, and its list on the home page.
    assert client.get(response["Location"]).status_code == 200
    assert match.scorer_token in client.get("/").text
    assert Session.objects.count() == 1


def test_opening_a_scorer_link_keeps_it_for_that_browser(make_match: MakeMatch) -> None:
    match = make_match()
    client = Client()
    assert client.get(f"/score/{match.scorer_token}/").status_code == 200
    assert Session.objects.count() == 1
    assert match.scorer_token in client.get("/").text


def test_choosing_a_language_or_logging_in_keeps_a_session() -> None:
    Client().post("/i18n/setlang/", {"language": "fr", "next": "/"})
    User.objects.create_user("alice", password="a-long-enough-password-42")
    Client().post(
        "/accounts/login/", {"username": "alice", "password": "a-long-enough-password-42"}
    )
    assert Session.objects.count() == 1  # the language is a cookie; the login is a session


def test_clearsessions_removes_expired_sessions_and_keeps_live_ones() -> None:
    def session(expires_in: timedelta) -> str:
        store = SessionStore()
        store["device"] = "a-phone"
        store.create()
        Session.objects.filter(pk=store.session_key).update(expire_date=timezone.now() + expires_in)
        assert store.session_key is not None
        return store.session_key

    live = session(timedelta(days=300))
    almost = session(timedelta(minutes=1))
    expired = session(-timedelta(minutes=1))
    long_gone = session(-timedelta(days=900))
    call_command("clearsessions")
    assert set(Session.objects.values_list("pk", flat=True)) == {live, almost}
    assert expired not in Session.objects.values_list("pk", flat=True)
    assert long_gone not in Session.objects.values_list("pk", flat=True)
    # A live one still signs its browser in: its data is intact.
    assert SessionStore(session_key=live)["device"] == "a-phone"


def test_the_session_store_reads_a_live_session_and_starts_afresh_from_an_expired_one() -> None:
    """Sessions are Django's own store in the database (issue 24 measured a store reading the
    row in SQL and went back): a live session's data, nothing from an expired or unknown key."""
    from importlib import import_module

    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"
    store_class = import_module(settings.SESSION_ENGINE).SessionStore
    live, expired = store_class(), store_class()
    for store in (live, expired):
        store["device"] = "a-phone"
        store.create()
    Session.objects.filter(pk=expired.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    assert store_class(session_key=live.session_key)["device"] == "a-phone"
    stale = store_class(session_key=expired.session_key)
    assert stale.get("device") is None and stale.session_key is None
    unknown = store_class(session_key="x" * 32)
    assert unknown.load() == {} and unknown.session_key is None
