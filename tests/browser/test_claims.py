"""Issue 10 §1 on phones: a signed-in scorer claims a seat name from the review page, sees only
the scored match on its page; the owner finds the claim on the Share page and unlinks it."""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.matches import services
from scorekeeper.matches.models import Match, Player
from tests.matches.support import CREATOR, coinche_deal

from .conftest import NewPhone, Shot, page_errors, start_match

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

PASSWORD = "a-long-enough-password-42"


def log_in(page: Page, url: str, name: str) -> None:
    page.goto(f"{url}/accounts/login/")
    page.locator("input[name=username]").fill(name)
    page.locator("input[name=password]").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{url}/")


def fits_the_screen(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page is {width} px wide"


def test_scorer_claims_a_name_and_the_owner_unlinks_it(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    url = live_server.url
    owner = new_phone()
    token = start_match(owner, url)
    match = Match.objects.get(scorer_token=token)
    # Another, never-shared match of the owner with Chloé. Both have a deal: statistics count
    # only matches with one.
    secret = start_match(
        owner, url, teams=("Secret", "Hidden"), players=("Chloé", "Emma", "Farid", "Gaëlle")
    )
    for scorer_token in (token, secret):
        played = Match.objects.get(scorer_token=scorer_token)
        services.record_deal(
            match_id=played.pk, expected_version=None, deal=coinche_deal(), author=CREATOR
        )

    User.objects.create_user("sam", password=PASSWORD)
    scorer = new_phone()
    log_in(scorer, url, "sam")
    scorer.goto(f"{url}/score/{token}/")
    scorer.goto(f"{url}/view/{match.view_token}/review/")
    scorer.get_by_text("Were you at this table?").click()
    scorer.get_by_role("button", name="I am Chloé").click()
    scorer.wait_for_url(re.compile(r"/players/\d+/$"))
    expect(scorer.locator(".messages")).to_contain_text("Chloé is you: statistics now gather.")
    expect(scorer.locator(".stat").first).to_contain_text("1")  # one match: the scored one
    expect(scorer.locator("main")).not_to_contain_text("Emma")
    fits_the_screen(scorer)
    shot(scorer, "01-scorer-sees-one-match")
    chloe_page = scorer.url

    owner.goto(f"{url}/score/{token}/share/")
    claims = owner.locator("#claims")
    expect(claims).to_contain_text("Chloé: sam, through this match's scorer link")
    fits_the_screen(owner)
    claims.scroll_into_view_if_needed()
    shot(owner, "02-owner-sees-the-claim")
    claims.get_by_role("button", name="Unlink Chloé").click()
    expect(owner.locator(".messages")).to_contain_text(
        "Chloé is no longer linked to sam: the right player can now claim it."
    )
    expect(owner.locator("#claims")).to_have_count(0)
    shot(owner, "03-unlinked")
    assert Player.objects.get(pk=int(chloe_page.rstrip("/").rsplit("/", 1)[-1])).user is None

    response = scorer.goto(chloe_page)
    assert response is not None and response.status == 404
    assert page_errors(owner) == []
