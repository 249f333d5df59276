"""Sign up, log in, log out, claiming a browser's matches, "this is me" and reset_password."""

from collections.abc import Callable

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client

from scorekeeper.matches import access
from scorekeeper.matches.models import Match, MatchScorer, Player
from tests.conftest import Browser
from tests.history.conftest import (
    FACTS_DEALS,
    OWNER_KEY,
    PASSWORD,
    Cast,
    MakeMatch,
    in_list,
)
from tests.matches.support import new_match_post

pytestmark = pytest.mark.django_db


def signed_in_user(client: Client) -> int | None:
    value = client.session.get(SESSION_KEY)
    return int(value) if value is not None else None


# Sign up, log in, log out ---------------------------------------------------------------------


def test_signup_creates_the_account_signs_in_and_claims_this_browsers_matches(
    make_match: MakeMatch, browser: Browser
) -> None:
    # A deal each: My matches lists no match without one (issue 11).
    mine = [make_match(deals=FACTS_DEALS[:1]), make_match(deals=FACTS_DEALS[:1])]
    not_mine = make_match(
        deals=FACTS_DEALS[:1], owner_key="another-browser", players=("Xavier", "Yann", None, None)
    )
    client = browser(OWNER_KEY)
    response = client.post(
        "/accounts/signup/",
        {"username": "alice", "password1": PASSWORD, "password2": PASSWORD, "next": "/history/"},
        follow=True,
    )
    user = User.objects.get(username="alice")
    assert user.check_password(PASSWORD)
    assert signed_in_user(client) == user.pk
    assert response.redirect_chain == [("/history/", 302)]
    assert "2 matches from this browser are now in your history." in response.text
    assert "Welcome, alice!" in response.text
    for match in mine:
        match.refresh_from_db()
        assert match.owner == user
        assert match.owner_key == OWNER_KEY
        assert in_list(response.text, match)
    not_mine.refresh_from_db()
    assert not_mine.owner is None
    assert not in_list(response.text, not_mine)
    # The names this browser gave are the account's too; the other browser's are not.
    assert set(Player.objects.filter(owner=user).values_list("name", flat=True)) == {
        "Alice",
        "Bruno",
        "Chloé",
        "David",
    }
    assert not Player.objects.filter(owner_key="another-browser", owner__isnull=False).exists()
    # The browser keeps its device key, so it can still score what it created.
    assert client.session[access.DEVICE_KEY] == OWNER_KEY


def test_signup_errors_are_shown_and_create_nothing(browser: Browser) -> None:
    client = browser(OWNER_KEY)
    response = client.post(
        "/accounts/signup/", {"username": "bob", "password1": PASSWORD, "password2": "different"}
    )
    assert response.status_code == 200
    assert "The two password fields didn’t match." in response.text
    assert not User.objects.exists()
    assert signed_in_user(client) is None


def test_login_claims_created_and_scored_matches_and_logout_signs_out(
    make_match: MakeMatch, browser: Browser, make_user: Callable[[str], User]
) -> None:
    user = make_user("alice")
    created = make_match(deals=FACTS_DEALS[:1])
    scored = make_match(
        deals=FACTS_DEALS[:1], owner_key="friend-browser", players=("Xavier", "Yann", None, None)
    )
    client = browser(OWNER_KEY)
    # Anonymous, this browser opens a friend's scorer link: remembered in the session only.
    assert client.get(f"/score/{scored.scorer_token}/").status_code == 200
    assert not MatchScorer.objects.exists()

    response = client.post(
        "/accounts/login/",
        {"username": "alice", "password": PASSWORD, "next": "/history/"},
        follow=True,
    )
    assert signed_in_user(client) == user.pk
    assert "1 match from this browser is now in your history." in response.text
    created.refresh_from_db()
    scored.refresh_from_db()
    assert created.owner == user
    assert scored.owner is None  # scoring a match does not make it yours
    assert MatchScorer.objects.filter(user=user, match=scored).exists()
    # Both are in the history, on any device the account signs in on.
    elsewhere = browser("alices-other-phone", user)
    text = elsewhere.get("/history/").text
    assert in_list(text, created)
    assert in_list(text, scored)

    assert client.get("/accounts/logout/").status_code == 405
    response = client.post("/accounts/logout/", follow=True)
    assert signed_in_user(client) is None
    assert "You are logged out." in response.text
    # After logging out the browser is a new anonymous one: the account's matches are not shown.
    assert created.view_token not in client.get("/history/").text


def test_login_with_a_wrong_password_is_refused(
    browser: Browser, make_user: Callable[[str], User], make_match: MakeMatch
) -> None:
    make_user("alice")
    match = make_match()
    client = browser(OWNER_KEY)
    response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.text
    assert signed_in_user(client) is None
    match.refresh_from_db()
    assert match.owner is None


def test_login_does_not_take_matches_another_account_already_owns(
    make_match: MakeMatch, browser: Browser, make_user: Callable[[str], User]
) -> None:
    first, second = make_user("first"), make_user("second")
    match = make_match(owner=first)
    client = browser(OWNER_KEY)
    client.post("/accounts/login/", {"username": "second", "password": PASSWORD})
    assert signed_in_user(client) == second.pk
    match.refresh_from_db()
    assert match.owner == first


def test_an_unsafe_next_is_ignored(browser: Browser, make_user: Callable[[str], User]) -> None:
    make_user("alice")
    client = browser(OWNER_KEY)
    response = client.post(
        "/accounts/login/",
        {"username": "alice", "password": PASSWORD, "next": "https://evil.example/"},
    )
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_a_match_created_while_signed_in_belongs_to_the_account(
    browser: Browser, make_user: Callable[[str], User]
) -> None:
    """Created on one phone while signed in, the match is in the history on another device
    (and after logging out and in again)."""
    user = make_user("alice")
    phone = browser("alices-phone", user)
    response = phone.post("/new/", new_match_post())
    assert response.status_code == 302, response.text[:2000]
    match = Match.objects.get()
    laptop = browser("alices-laptop", user)
    # Still without a deal: on the home page of its owner's devices, not yet in My matches.
    assert in_list(laptop.get("/").text, match)


# "This is me" ---------------------------------------------------------------------------------


def test_this_is_me_links_the_owners_name_to_the_account_and_can_be_undone(cast: Cast) -> None:
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    response = cast.owner.post(f"/players/{alice.pk}/me/", follow=True)
    alice.refresh_from_db()
    assert alice.user == cast.owner_user
    assert "Alice is you: statistics now gather." in response.text
    assert "This is you." in response.text

    response = cast.owner.post(f"/players/{alice.pk}/me/", {"undo": "1"}, follow=True)
    alice.refresh_from_db()
    assert alice.user is None
    assert "Alice is no longer linked to you." in response.text


@pytest.mark.parametrize("who", ["viewer", "stranger", "anonymous"])
def test_only_the_names_owner_or_a_scorer_of_its_table_can_say_this_is_me(
    cast: Cast, who: str
) -> None:
    """(The scorer's own claim is in test_privacy.py.)"""
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    client = getattr(cast, who)
    assert client.post(f"/players/{alice.pk}/me/").status_code == 404
    alice.refresh_from_db()
    assert alice.user is None


def test_a_scorer_cannot_claim_a_name_of_a_table_they_do_not_score(cast: Cast) -> None:
    xavier = Player.objects.get(owner_key="someone-else", name="Xavier")
    assert cast.scorer.post(f"/players/{xavier.pk}/me/").status_code == 404
    xavier.refresh_from_db()
    assert xavier.user is None


def test_a_name_linked_to_another_account_cannot_be_taken(
    cast: Cast, make_user: Callable[[str], User]
) -> None:
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    real_alice = make_user("real-alice")
    Player.objects.filter(pk=alice.pk).update(user=real_alice)
    response = cast.owner.post(f"/players/{alice.pk}/me/", follow=True)
    assert "This name is already linked to another account." in response.text
    alice.refresh_from_db()
    assert alice.user == real_alice
    # Nor can the owner undo someone else's link.
    cast.owner.post(f"/players/{alice.pk}/me/", {"undo": "1"})
    alice.refresh_from_db()
    assert alice.user == real_alice


def test_an_anonymous_owner_is_asked_to_log_in_first(cast: Cast, browser: Browser) -> None:
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    response = browser(OWNER_KEY).post(f"/players/{alice.pk}/me/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
    alice.refresh_from_db()
    assert alice.user is None


def test_two_names_of_the_same_table_cannot_both_be_you(cast: Cast) -> None:
    """Alice and Bruno played together: linking both would count each match twice."""
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    bruno = Player.objects.get(owner_key=OWNER_KEY, name="Bruno")
    cast.owner.post(f"/players/{alice.pk}/me/")
    response = cast.owner.post(f"/players/{bruno.pk}/me/", follow=True)
    bruno.refresh_from_db()
    assert bruno.user is None
    assert "played in the same match" in response.text


# reset_password ---------------------------------------------------------------------------------


def test_reset_password_sets_the_given_password(
    make_user: Callable[[str], User], capsys: pytest.CaptureFixture[str]
) -> None:
    user = make_user("alice")
    call_command("reset_password", "alice", "--password", "another-long-password-7")
    user.refresh_from_db()
    assert user.check_password("another-long-password-7")
    assert "Password of alice changed." in capsys.readouterr().out


def test_reset_password_generates_and_prints_one(
    make_user: Callable[[str], User], capsys: pytest.CaptureFixture[str]
) -> None:
    user = make_user("alice")
    call_command("reset_password", "alice")
    out = capsys.readouterr().out
    assert out.startswith("New password of alice: ")
    password = out.split(": ", 1)[1].strip()
    user.refresh_from_db()
    assert user.check_password(password)
    assert not user.check_password(PASSWORD)
    client = Client()
    assert (
        client.post("/accounts/login/", {"username": "alice", "password": password}).status_code
        == 302
    )


def test_reset_password_of_an_unknown_user_fails_clearly(
    make_user: Callable[[str], User],
) -> None:
    make_user("alice")
    with pytest.raises(CommandError, match="no user named 'bob'") as error:
        call_command("reset_password", "bob", "--password", "another-long-password-7")
    assert error.value.returncode == 2


def test_reset_password_refuses_a_weak_password(make_user: Callable[[str], User]) -> None:
    user = make_user("alice")
    with pytest.raises(CommandError, match=r"too short|too common|numeric"):
        call_command("reset_password", "alice", "--password", "123")
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


@pytest.mark.parametrize("url", ["/accounts/login/", "/accounts/signup/"])
def test_an_empty_form_says_what_is_missing(browser: Browser, url: str) -> None:
    response = browser(OWNER_KEY).post(url, {})
    assert response.status_code == 200
    assert "This field is required." in response.text


def test_switching_accounts_on_a_browser_does_not_show_the_first_ones_matches(
    make_match: MakeMatch, browser: Browser, make_user: Callable[[str], User]
) -> None:
    first, second = make_user("first"), make_user("second")
    match = make_match(deals=FACTS_DEALS[:1], owner=first)
    client = browser(OWNER_KEY, first)
    assert in_list(client.get("/history/").text, match)
    client.post("/accounts/login/", {"username": "second", "password": PASSWORD})
    assert signed_in_user(client) == second.pk
    assert not in_list(client.get("/history/").text, match)
    assert client.get(f"/score/{match.scorer_token}/").status_code == 200  # the link still works
    match.refresh_from_db()
    assert match.owner == first


# The top bar ----------------------------------------------------------------------------------


def test_signed_out_the_top_bar_offers_sign_up_and_the_concours(browser: Browser) -> None:
    """Issue 22: signed out, the top bar had neither Sign up nor Concours."""
    import re

    html = browser("anonymous-device").get("/history/").text
    bar = html[html.index('<header class="topbar">') : html.index("</header>")]
    assert re.search(r'href="/accounts/signup/\?next=/history/"[^>]*>Sign up</a>', bar), bar
    assert re.search(r'href="/concours/"[^>]*>Concours</a>', bar), bar
    assert "Log in" in bar and "My matches" in bar
    user_client = browser("member-device", User.objects.create_user("member", password=PASSWORD))
    signed_in = user_client.get("/").text
    bar = signed_in[signed_in.index('<header class="topbar">') : signed_in.index("</header>")]
    assert "Sign up" not in bar and "Log out" in bar and 'href="/concours/"' in bar


def test_the_concours_link_signed_out_says_why_it_asks_to_log_in(browser: Browser) -> None:
    client = browser("anonymous-device")
    response = client.get("/concours/", follow=True)
    assert response.redirect_chain[-1][0] == "/accounts/login/?next=/concours/"
    assert "A concours is run from an account" in response.text
    assert "A concours is run from an account" not in client.get("/accounts/login/").text
