"""Access decisions write nothing while serving a GET (issue 13): a signed-in scorer opening every
page of a match through its scorer link creates no row in any table; the account becomes a scorer
of the match (MatchScorer) with its first change there, or a "this is me" through the link."""

from collections.abc import Callable

from django.apps import apps
from django.contrib.auth.models import User
from django.urls import reverse

from scorekeeper.matches.models import MatchScorer, Player
from tests.conftest import Browser

from .conftest import FACTS_DEALS, MakeMatch


def row_counts() -> dict[str, int]:
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


def scorer_pages(token: str, view_token: str, seq: int) -> list[str]:
    return [
        reverse("matches:scoreboard", args=[token]),
        reverse("matches:deal_new", args=[token]),
        reverse("matches:deal_edit", args=[token, seq]),
        reverse("matches:deal_log", args=[token, seq]),
        reverse("matches:deal_delete", args=[token, seq]),
        reverse("matches:deal_manual", args=[token]),
        reverse("matches:count", args=[token]),
        reverse("matches:share", args=[token]),
        reverse("matches:manage", args=[token]),
        reverse("matches:export", args=[token]),
        reverse("matches:qr", args=[token, "view"]),
        reverse("matches:viewer", args=[view_token]),
        reverse("history:history"),
        reverse("home"),
    ]


def test_a_signed_in_scorer_opening_every_page_writes_no_row(
    make_match: MakeMatch, browser: Browser, make_user: Callable[[str], User]
) -> None:
    match = make_match("coinche", FACTS_DEALS[:2])
    sam = make_user("sam")
    scorer = browser("sams-phone", sam)
    before = row_counts()
    for url in scorer_pages(match.scorer_token, match.view_token, seq=1):
        response = scorer.get(url)
        assert response.status_code in (200, 302), url
    assert row_counts() == before
    assert not MatchScorer.objects.exists()
    # The browser remembers the link: the match is in its history, as before.
    assert f"/score/{match.scorer_token}/" in scorer.get(reverse("history:history")).text


def test_the_first_change_makes_the_account_a_scorer(
    make_match: MakeMatch, browser: Browser, make_user: Callable[[str], User]
) -> None:
    match = make_match("coinche", FACTS_DEALS[:1])
    sam = make_user("sam")
    scorer = browser("sams-phone", sam)
    scorer.get(reverse("matches:scoreboard", args=[match.scorer_token]))
    assert not MatchScorer.objects.exists()
    response = scorer.post(
        reverse("matches:deal_passed", args=[match.scorer_token]), {"version": match.version}
    )
    assert response.status_code == 302
    assert list(MatchScorer.objects.values_list("match_id", "user_id")) == [(match.pk, sam.pk)]
    # Now on any device the account signs in on.
    elsewhere = browser("sams-tablet", sam)
    assert f"/score/{match.scorer_token}/" in elsewhere.get(reverse("history:history")).text


def test_the_owner_account_is_not_recorded_as_a_scorer(
    make_match: MakeMatch, browser: Browser, make_user: Callable[[str], User]
) -> None:
    olivia = make_user("olivia")
    match = make_match("coinche", owner=olivia)
    phone = browser("olivias-other-phone", olivia)
    phone.post(
        reverse("matches:deal_passed", args=[match.scorer_token]), {"version": match.version}
    )
    assert match.deals.count() == 1
    assert not MatchScorer.objects.exists()


def test_this_is_me_through_a_scorer_link_records_the_scorer(
    make_match: MakeMatch, browser: Browser, make_user: Callable[[str], User]
) -> None:
    match = make_match("coinche", FACTS_DEALS[:1])
    sam = make_user("sam")
    scorer = browser("sams-phone", sam)
    scorer.get(reverse("matches:scoreboard", args=[match.scorer_token]))
    chloe = Player.objects.get(name="Chloé")
    response = scorer.post(reverse("history:this_is_me", args=[chloe.pk]))
    assert response.status_code == 302
    chloe.refresh_from_db()
    assert (chloe.user, chloe.claimed_through) == (sam, match)
    assert MatchScorer.objects.filter(match=match, user=sam).exists()


def test_this_is_me_signed_out_goes_to_the_login_page(
    make_match: MakeMatch, browser: Browser
) -> None:
    make_match("coinche", FACTS_DEALS[:1])
    alice = Player.objects.get(name="Alice")
    owner = browser("history-owner-device")
    response = owner.post(reverse("history:this_is_me", args=[alice.pk]))
    assert response.status_code == 302
    login = reverse("accounts:login")
    assert response["Location"].startswith(f"{login}?next=")
    assert reverse("history:player", args=[alice.pk]) in response["Location"].replace("%2F", "/")
