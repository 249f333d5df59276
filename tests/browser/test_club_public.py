"""A club's public pages on a phone (360 px, no account): the club page, then the season's
ranking ("who won the most concours" in two taps), then a player's record with its chart of
places; in light and dark mode, with axe-core finding no violation."""

from collections.abc import Callable
from datetime import date
from typing import Literal

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from ..clubs.public_support import played, season
from ..clubs.support import make_club
from .conftest import NewPhone, Shot, page_errors, sign_in
from .test_concours_public import accessibility_problems

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

MONTHS = ("Octobre", "Novembre", "Décembre", "Janvier", "Février")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_club_page_season_and_record_on_a_phone(
    new_phone: NewPhone,
    live_server: LiveServer,
    shot: Shot,
    make_user: Callable[[str], User],
    scheme: Literal["light", "dark"],
) -> None:
    ann = make_user("ann")
    club = make_club(ann, name="Belote Club du Vieux Port", town="Marseille")
    teams = ["Les Rois du Pique", "Dames de Cœur", "Valets", "As de Trèfle", "Belote et Rebelote"]
    for n, month in enumerate(MONTHS):
        when = date(2025 + (n >= 3), (10 + n - 1) % 12 + 1, 5)
        points = {team: 900 - 100 * ((i + n * (n % 2)) % 5) for i, team in enumerate(teams)}
        points[teams[1]] = 950 if n in (1, 3) else points[teams[1]]
        prizes = {1: "Un jambon de Bayonne", 2: "Deux bouteilles"}
        played(ann, club, f"Concours de {month}", when, points, prizes=prizes)
    season(club, "Saison 2025-2026", rank="players", measure="placement")
    phone = new_phone(color_scheme=scheme)

    phone.goto(f"{live_server.url}/club/{club.slug}/")
    expect(phone.get_by_role("heading", name="Belote Club du Vieux Port")).to_be_visible()
    expect(phone.locator(".club-concours > li")).to_have_count(5)
    shot(phone, f"{scheme}-01-club")
    assert accessibility_problems(phone) == []

    phone.get_by_role("link", name="Saison 2025-2026").click()  # tap 1
    most = phone.locator(".club-most")  # the answer, at the top
    expect(most).to_contain_text("Most concours won (")
    expect(phone.locator("table.club-season tbody tr")).to_have_count(10)
    shot(phone, f"{scheme}-02-season")
    phone.get_by_role("link", name="Printable page").click()
    expect(phone.locator(".club-print-table tbody tr")).to_have_count(10)
    shot(phone, f"{scheme}-02b-print")
    phone.go_back()
    phone.get_by_role("link", name="Concours won").click()  # sorted by wins
    expect(phone.locator("table.club-season tbody tr").first).to_contain_text(
        most.locator("strong").first.inner_text()
    )
    assert accessibility_problems(phone) == []

    phone.locator("table.club-season tbody tr").first.get_by_role("link").click()
    expect(phone.get_by_text("concours played")).to_be_visible()
    expect(phone.locator("svg.chart")).to_be_visible()
    expect(phone.locator("svg.chart desc")).to_contain_text("5 concours, from")
    expect(phone.get_by_text("Best result:")).to_be_visible()
    shot(phone, f"{scheme}-03-record")
    assert accessibility_problems(phone) == []

    # "My best result ever": my name on the club page, then my record.
    phone.get_by_role("link", name="Belote Club du Vieux Port").click()
    phone.get_by_label("Find a player or a team: their record").fill("valets b")
    phone.get_by_role("button", name="Find").click()
    # The search is a GET to a new page: look at it once it has come.
    expect(phone.locator(".club-found").get_by_role("link", name="Valets B")).to_be_visible()
    shot(phone, f"{scheme}-04-found")
    phone.get_by_role("link", name="Valets B").click()
    expect(phone.get_by_role("heading", name="Valets B")).to_be_visible()
    expect(phone.get_by_text("Best result:")).to_be_visible()
    # Typed without the ligature (issue 22): found all the same.
    phone.get_by_role("link", name="Belote Club du Vieux Port").click()
    phone.get_by_label("Find a player or a team: their record").fill("dames de coeur")
    phone.get_by_role("button", name="Find").click()
    found = phone.locator(".club-found")
    expect(found.get_by_role("link", name="Dames de Cœur", exact=True)).to_be_visible()
    shot(phone, f"{scheme}-05-found-folded")
    assert not page_errors(phone)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_tie_on_a_prize_on_a_phone(
    new_phone: NewPhone,
    live_server: LiveServer,
    shot: Shot,
    make_user: Callable[[str], User],
    scheme: Literal["light", "dark"],
) -> None:
    """Issue 22: two tied firsts share out the first two prizes, shown ex æquo with the prizes
    on the club page's podium, the concours's final ranking and its public page (360 px, the
    long prizes wrapping; no sideways scroll; axe); Find my table without accents."""
    ann = make_user("ann")
    club = make_club(ann, name="Belote Club du Vieux Port", town="Marseille")
    prizes = {1: "Un jambon de Bayonne", 2: "Deux bouteilles de cidre bouché", 3: "Un panier"}
    points = {"Les Rois du Pique": 1000, "Dames de Cœur": 1000, "Valets": 900, "Trèfle": 900}
    tournament = played(ann, club, "Concours d'hiver", date(2025, 12, 5), points, prizes=prizes)
    phone = new_phone(color_scheme=scheme)
    phone.goto(f"{live_server.url}/club/{club.slug}/")
    expect(phone.locator(".club-podium .club-tie")).to_have_count(4)  # and the two thirds
    expect(phone.locator(".club-podium li").first).to_contain_text(
        "Ex æquo: to decide Un jambon de Bayonne / Deux bouteilles de cidre bouché"
    )
    shot(phone, f"{scheme}-tie-01-club")
    assert accessibility_problems(phone) == []
    phone.get_by_role("link", name="Concours d'hiver").click()
    expect(phone.locator(".club-table .club-tie")).to_have_count(4)
    shot(phone, f"{scheme}-tie-02-concours")
    assert accessibility_problems(phone) == []
    phone.goto(f"{live_server.url}/c/{tournament.public_token}/?q=dames de coeur")
    expect(phone.locator(".pub-mine h2")).to_have_text("Dames de Cœur")
    expect(phone.locator(".pub-standings .pub-tie")).to_have_count(4)
    shot(phone, f"{scheme}-tie-03-public")
    assert accessibility_problems(phone) == []
    # The organiser's desk: the tie in the final ranking, and the note to decide.
    sign_in(phone, live_server.url, ann)
    phone.goto(f"{live_server.url}/concours/{tournament.pk}/#standings")
    expect(phone.locator("#standings .desk-tie")).to_have_count(4)
    expect(phone.locator(".desk-tie-note")).to_have_count(2)
    shot(phone, f"{scheme}-tie-04-desk")
    assert accessibility_problems(phone) == []
    assert not page_errors(phone)
