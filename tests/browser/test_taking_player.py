"""Who took and who coinched, at the table on a 360 px phone (issue 11): one optional tap among the
two players who can have done it, shown once the takers (or the coinche) are picked; the player
page then credits the contract to that player. The same without JavaScript."""

import re

import pytest
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.matches.models import Match, Player

from .conftest import NewPhone, Shot, chip, page_errors, start_match

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

BOARD = re.compile(r"/score/[^/]+/$")

# start_match seats Anna (0) and Chloé (2) in "Us", Ben (1) and David (3) in "Them".


def visible_chips(page: Page, name: str) -> list[str]:
    labels = page.locator(f"label.chip:has(input[name='{name}'])")
    return [labels.nth(i).inner_text() for i in range(labels.count()) if labels.nth(i).is_visible()]


def test_who_took_and_who_coinched_in_one_tap(
    phone: Page, live_server: LiveServer, shot: Shot
) -> None:
    page = phone
    token = start_match(page, live_server.url)
    page.get_by_role("link", name="Record a deal").click()
    took = page.locator(".who-took")
    coinched = page.locator(".who-coinched")
    expect(took).to_be_hidden()  # nothing to choose before the takers are picked
    expect(coinched).to_be_hidden()

    chip(page, "taker", "1")
    expect(took).to_be_visible()
    assert visible_chips(page, "taker_player") == ["Not said", "Ben", "David"]
    expect(took.locator("input[value='']")).to_be_checked()  # optional: nobody until a tap
    chip(page, "taker_player", "3")
    chip(page, "contract", "100")
    chip(page, "trump", "hearts")
    expect(coinched).to_be_hidden()

    chip(page, "coinche", "coinche")  # a defender coinched: one of Us
    expect(coinched).to_be_visible()
    assert visible_chips(page, "coinche_player") == ["Not said", "Anna", "Chloé"]
    chip(page, "coinche_player", "2")
    shot(page, "01-coinched-by-chloe")

    chip(page, "coinche", "surcoinche")  # Them surcoinched: Chloé no longer fits
    expect(coinched.locator("input[value='']")).to_be_checked()
    assert visible_chips(page, "coinche_player") == ["Not said", "Ben", "David"]
    chip(page, "coinche_player", "1")

    page.get_by_label("Takers' card points").fill("110")
    expect(page.locator("#preview .preview-outcome")).to_have_text("Made")
    shot(page, "02-surcoinched-by-ben")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)

    row = Match.objects.get(scorer_token=token).deals.get()
    assert (row.taker, row.taker_player, row.coinche, row.coinche_player) == (
        1, 3, "surcoinche", 1,
    )  # fmt: skip

    # Changing the takers after a pick sends nobody rather than a player of the wrong team.
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "0")
    chip(page, "taker_player", "2")
    chip(page, "taker", "1")
    expect(took.locator("input[value='']")).to_be_checked()
    assert visible_chips(page, "taker_player") == ["Not said", "Ben", "David"]

    david = Player.objects.get(name="David")
    page.goto(f"{live_server.url}/players/{david.pk}/")
    contracts = page.locator(".stat", has_text="contracts made").locator("strong")
    expect(contracts).to_have_text("1/1")
    expect(page.locator("#main")).to_contain_text("All taken by David.")
    shot(page, "03-player-page")
    assert not page_errors(page)


def test_without_javascript_the_choice_is_there_and_saved(
    new_phone: NewPhone, live_server: LiveServer, shot: Shot
) -> None:
    page = new_phone(javascript=False)
    page.goto(f"{live_server.url}/")
    page.get_by_role("link", name="New match").click()
    page.locator("input[name=preset][value='coinche']").check()
    for seat, name in enumerate(("Anna", "Ben", "Chloé", "David")):
        page.locator(f"input[name=seat{seat}]").fill(name)
    page.locator("select[name=first_dealer]").select_option("0")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(BOARD)
    token = page.url.rstrip("/").rsplit("/", 1)[-1]
    page.get_by_role("link", name="Record a deal").click()
    chip(page, "taker", "0")
    assert visible_chips(page, "taker_player") == ["Not said", "Anna", "Chloé"]
    chip(page, "taker_player", "0")
    chip(page, "contract", "80")
    chip(page, "trump", "spades")
    page.get_by_label("Takers' card points").fill("90")
    shot(page, "01-anna-took")
    page.get_by_role("button", name="Save the deal").click()
    page.wait_for_url(BOARD)
    row = Match.objects.get(scorer_token=token).deals.get()
    assert (row.taker, row.taker_player, row.coinche_player) == (0, 0, None)
