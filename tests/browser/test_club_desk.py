"""Issue 16, the club organiser's pages on a 360 px phone: from Concours to My clubs, a new club,
its desk, a concours added and published, a new season (placement points), the merge tool's
suggestions, its confirm step and the merge. Every screen photographed and checked for sideways
scrolling and small targets; the same without JavaScript (every form is a plain form)."""

import re
from collections.abc import Callable
from datetime import date

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.clubs import services as club_services
from scorekeeper.clubs.models import MergeLog, Season
from scorekeeper.concours import services as tournament_services
from scorekeeper.concours.models import Tournament
from tests.factories import PASSWORD, UserFactory

from .conftest import SHOTS, NewPhone, Shot, layout_problems, page_errors, save_screenshot
from .test_large_text import _OVERFLOW_JS, big_phone, log_in
from .test_large_text import PASSWORD as GRANDMA

__all__ = ["big_phone"]  # the 200 % text phone, a fixture of test_large_text

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_a_club_its_season_and_the_merge_tool(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot, javascript: bool
) -> None:
    user = UserFactory.create(username="organiser")
    for name, player in (("Concours de mars", "René Dupont"), ("Concours d'avril", "Rene Dupont")):
        tournament = tournament_services.create_tournament(owner=user, name=name)
        tournament_services.add_entrant(
            tournament=tournament, name="Les As", players=(player, "Bruno")
        )
    url = live_server.url
    page = new_phone(javascript=javascript)
    page.goto(f"{url}/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Concours", exact=True).click()
    page.get_by_role("link", name="My clubs: seasons and records").click()
    expect(page.get_by_role("heading", name="New club")).to_be_visible()
    page.get_by_label("Club name").fill("Belote Club de Rouen")
    page.get_by_label("Town").fill("Rouen")
    shot(page, "01-new-club")
    page.get_by_role("button", name="Create the club").click()
    page.wait_for_url(re.compile(r"/clubs/\d+/$"))
    expect(page.locator(".messages")).to_contain_text("is created")
    shot(page, "02-desk")

    for _ in range(2):
        page.get_by_role("button", name="Add to the club").click()
        expect(page.locator(".messages")).to_contain_text("not published yet")
    page.get_by_role("button", name="Publish").first.click()
    expect(page.locator(".messages")).to_contain_text("is shown on the club's public page")
    page.get_by_text("Invite an organiser").click()
    shot(page, "03-desk-with-concours")
    assert Tournament.objects.filter(club__isnull=False, published=True).count() == 1

    page.get_by_role("link", name="New season").click()
    page.get_by_label("Season name").fill("Saison 2026–2027")
    page.get_by_label("First day").fill("2026-09-01")
    page.get_by_label("Last day").fill("2027-06-30")
    page.get_by_text("Placement points: the table below").click()
    page.get_by_label("Placement points", exact=True).fill("25 20 30")
    page.get_by_role("button", name="Save the season").click()
    expect(page.locator("#error-summary")).to_contain_text(
        "Place 3: must not be more than the points of the place before (20)"
    )
    shot(page, "04-season-refused")
    page.get_by_label("Placement points", exact=True).fill("25 20 16 13 11 10")
    page.get_by_label("Show on the club's public page").check()
    page.get_by_role("button", name="Save the season").click()
    expect(page.locator(".messages")).to_contain_text("is saved")
    assert Season.objects.get().rule["table"] == [25, 20, 16, 13, 11, 10]

    page.get_by_role("link", name="Find and merge similar names").click()
    expect(page.get_by_role("heading", name="Similar names")).to_be_visible()
    shot(page, "05-similar")
    group = page.locator(".clubs-group")
    group.get_by_role("group", name="Keep").get_by_label("René Dupont").check()
    group.get_by_role("group", name="and merge into it").get_by_label("Rene Dupont").check()
    group.get_by_role("button", name="Merge these two…").click()
    expect(page.get_by_role("heading", name="Merge two names")).to_be_visible()
    shot(page, "06-confirm")
    page.get_by_role("button", name="Merge", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("“Rene Dupont” is merged into “René Dupont”.")
    expect(page.get_by_text("No similar names.")).to_be_visible()
    shot(page, "07-merged")
    assert MergeLog.objects.get().merged_name == "Rene Dupont"

    # The archive from the desk (issue 22), and its restore: the club has it all already.
    page.get_by_role("link", name="Belote Club de Rouen").click()
    with page.expect_download() as download:
        page.get_by_role("link", name="Download the club archive (.zip)").click()
    assert download.value.suggested_filename.endswith(".zip")
    shot(page, "08-desk-archive")
    page.get_by_role("link", name="Restore an archive").click()
    expect(page.get_by_role("heading", name="Restore an archive")).to_be_visible()
    shot(page, "09-restore")
    page.get_by_label("Club archive (.zip)").set_input_files(str(download.value.path()))
    page.get_by_role("button", name="Restore", exact=True).click()
    page.wait_for_url(re.compile(r"/jobs/\d+/$"))  # the restore's job (issue 23), run at once
    expect(page.locator("#job-status")).to_contain_text("2 skipped: the club already has them.")
    assert MergeLog.objects.count() == 1 and Season.objects.count() == 1
    assert page_errors(page) == []


def test_the_club_pages_fit_360_px_with_large_text(
    big_phone: Callable[..., Page], live_server: LiveServer, request: pytest.FixtureRequest
) -> None:
    """The club organiser's pages at 200 % text on a 360 px phone (large_text's browser): no
    sideways scroll, no text out of its box, targets still 44 px (conftest's layout_problems)."""
    user = User.objects.create_user("grandma", password=GRANDMA)
    club = club_services.create_club(
        user=user, name="Belote Club des Invincibles", town="Marseille"
    )
    for name, player in (("Concours de la Saint-Martin", "Benoît-Alexandre Dupont"),
                         ("Concours d'avril", "Benoit-Alexandre Dupont")):  # fmt: skip
        tournament = tournament_services.create_tournament(owner=user, name=name)
        tournament_services.add_entrant(
            tournament=tournament, name="Les Invincibles de Marseille", players=(player, "Chloé")
        )
        club_services.attach(club=club, tournament=tournament, user=user)
    season = club_services.create_season(
        club=club, name="Saison 2026–2027", start=date(2026, 9, 1), end=date(2027, 6, 30),
        rule={"measure": "placement"}, published=True,
    )  # fmt: skip
    page = big_phone(2.0)
    base = live_server.url
    log_in(page, base, next_url="/clubs/")
    problems: dict[str, list[str]] = {}
    prefix = re.sub(r"[^\w-]+", "_", request.node.name).strip("_")
    SHOTS.mkdir(exist_ok=True)

    def look(step: str, address: str | None = None) -> None:
        if address is not None:
            page.goto(f"{base}{address}")
        page.wait_for_load_state("load")
        found = layout_problems(page) + page.evaluate(_OVERFLOW_JS)
        if found:
            problems[step] = found
        save_screenshot(page, f"{prefix}-{step}.png", full_page=True)

    look("01-list")
    look("02-desk", f"/clubs/{club.pk}/")
    page.get_by_text("Invite an organiser").click()
    look("03-desk-invite")
    look("04-season", f"/clubs/{club.pk}/seasons/{season.pk}/")
    look("05-people", f"/clubs/{club.pk}/people/")
    page.locator(".clubs-group button").click()
    look("06-merge")
    look("07-restore", f"/club/{club.slug}/restore/")
    assert page_errors(page) == []
    assert not problems, "\n".join(f"{step}: {found}" for step, found in problems.items())
