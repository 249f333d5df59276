"""Issue 26 in the browser, on a 360 px phone: a 10-team concours of 3 Swiss rounds and a final
bracket of 8 with a third-place table and a consolation bracket, created on the New concours form,
every table typed from its paper sheet, to its final ranking by final place (ex æquo at 7); the
bracket on the desk, on the public page (Find my table) and on the projector (1920×1080), and
printed on one A4 landscape page. Then a 5-team round robin end to end: every pair meets once,
no swap offered. Screens photographed with SCREENSHOTS=1 (concours-formats-*.png)."""

import re
from itertools import combinations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, ViewportSize, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.concours.models import Round, Tournament
from tests.factories import UserFactory

from .conftest import NewPhone, Shot, page_errors, save_screenshot, sign_in, watch
from .test_axe import _AXE_JS, AXE
from .test_concours_prints import print_pdf

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

WALL: ViewportSize = {"width": 1920, "height": 1080}
DEALS = 2
PARTIE = 162 * DEALS
TEAMS = [
    ("Les As", "Alice", "Bruno"),
    ("Pique Dame", "Chloé", "David"),
    ("Trèfle", "Emma", "Farid"),
    ("Carreau", "Gilles", "Hana"),
    ("Cœur", "Inès", "Jules"),
    ("Atout", "Karim", "Léa"),
    ("Belote", "Marc", "Nina"),
    ("Rebelote", "Omar", "Paula"),
    ("Capot", "Quentin", "Rose"),
    ("Dix de der", "Sami", "Tara"),
]


def create(
    desk: Page, base: str, name: str, fields: dict[str, str], checks: list[str]
) -> Tournament:
    desk.goto(f"{base}/concours/")
    desk.get_by_label("Name", exact=True).fill(name)
    desk.locator("#new-settings > summary").click()
    desk.locator("input[name=deals_limit]").fill(str(DEALS))
    for field, value in fields.items():
        target = desk.locator(f"[name={field}]")
        if target.first.get_attribute("type") == "radio":
            desk.locator(f"input[name={field}][value='{value}']").check()
        else:
            target.fill(value)
    for box in checks:
        desk.locator(f"input[name={box}]").check()
    desk.get_by_role("button", name="Create the concours").press("Enter")
    expect(desk).to_have_url(re.compile(r"/concours/\d+/$"))
    return Tournament.objects.get(name=name)


def register(desk: Page, teams: list[tuple[str, str, str]]) -> None:
    desk.get_by_text("Paste a list").click()
    desk.locator("textarea[name=text]").fill("\n".join("; ".join(team) for team in teams))
    desk.get_by_role("button", name="Add the list").click()
    expect(desk.locator(".messages")).to_contain_text(f"{len(teams)} added.")


def draw(desk: Page, number: int) -> int:
    desk.get_by_role("button", name=f"Draw round {number}", exact=True).click()
    expect(desk.locator(".messages")).to_contain_text(f"Round {number} is drawn.")
    return desk.locator("#board .board-table").count()


def paper(desk: Page, number: int, totals: tuple[int, int]) -> None:
    table = desk.locator(f"#table-{number}")
    table.get_by_text("Type the paper sheet's totals").click()
    table.locator(f"input[name=t{number}-points0]").fill(str(totals[0]))
    table.locator(f"input[name=t{number}-points1]").fill(str(totals[1]))
    table.get_by_role("button", name=f"Save table {number}").click()
    expect(desk.locator(".messages")).to_contain_text(f"Table {number}: totals saved")


def play_round(desk: Page, number: int, tables: int, tie: int | None = None) -> None:
    """Every table typed from paper (side 0 ahead; table `tie` with equal totals), closed."""
    for table in range(1, tables + 1):
        first = PARTIE // 2 if table == tie else 170 + 7 * table + 3 * number
        paper(desk, table, (first, PARTIE - first))
    desk.get_by_role("button", name=f"Close round {number}").click()
    expect(desk.locator(".messages")).to_contain_text(f"Round {number} is closed.")


def no_axe_violation(page: Page) -> None:
    page.evaluate(AXE.read_text(encoding="utf-8"))
    assert page.evaluate(_AXE_JS) == [], page.url


def finish(desk: Page) -> None:
    desk.get_by_text("Finish the concours…").click()
    desk.get_by_role("button", name="Yes, finish the concours").click()
    expect(desk.locator("#standings-title")).to_have_text("Final ranking")


def test_ten_teams_three_swiss_rounds_and_a_bracket_of_eight_with_consolation(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot, browser: Browser
) -> None:
    owner: User = UserFactory.create(username="organiser")
    base = live_server.url
    desk = new_phone()
    sign_in(desk, base, owner)
    tournament = create(
        desk,
        base,
        "Coupe de la Saint-Martin",
        {"rounds": "3", "pairing": "swiss", "final_size": "8"},
        ["final_third_place", "final_consolation"],
    )
    final = tournament.settings["final"]
    assert final == {"size": 8, "consolation": True, "third_place": True}
    expect(desk.locator(".concours-settings")).to_contain_text(
        "Then the best 8 of the standings play a knockout bracket"
    )
    register(desk, TEAMS)
    expect(desk.locator("#bracket")).to_contain_text("The best 8 of the standings play it")
    for number in (1, 2, 3):
        assert draw(desk, number) == 5
        play_round(desk, number, 5)
    shot(desk, "01-qualifying-done")
    expect(desk.locator("#bracket .bracket-table")).to_have_count(4 + 2 + 2 + 1 + 2)

    # The quarter-finals: table 2 typed with equal totals, the better seed goes through.
    expect(desk.get_by_text("Next: Quarter-finals (final bracket).")).to_be_visible()
    assert draw(desk, 4) == 4
    expect(desk.locator("#board-title")).to_contain_text("Quarter-finals")
    expect(desk.get_by_text("Swap two teams")).to_have_count(0)
    shot(desk, "02-quarter-finals-drawn")
    play_round(desk, 4, 4, tie=2)
    expect(desk.locator("#bracket")).to_contain_text(
        "Equal totals: the better seed (4) goes through."
    )
    save_screenshot(desk.locator("#bracket"), "concours-formats-bracket-phone.png")
    shot(desk, "03-quarter-finals-played")
    laptop_context = browser.new_context(viewport={"width": 1280, "height": 800})
    laptop = watch(laptop_context.new_page())
    sign_in(laptop, base, owner)
    laptop.goto(f"{base}/concours/{tournament.pk}/")
    columns = laptop.locator("#bracket .bracket-final .bracket-column")
    expect(columns).to_have_count(3)  # side by side: quarter-finals, semi-finals, final
    boxes = [columns.nth(i).bounding_box() for i in range(3)]
    assert all(box is not None for box in boxes)
    assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]  # type: ignore[index]
    save_screenshot(laptop.locator("#bracket"), "concours-formats-bracket-laptop.png")
    assert page_errors(laptop) == []
    laptop_context.close()

    # The projector on the wall while the semi-finals are drawn.
    assert draw(desk, 5) == 2  # consolation semi-finals
    play_round(desk, 5, 2)
    assert draw(desk, 6) == 2  # semi-finals
    wall_context = browser.new_context(viewport=WALL)
    wall = watch(wall_context.new_page())
    wall.goto(f"{base}/c/{tournament.public_token}/projector/")
    expect(wall.locator(".proj-bracket .bracket-table")).to_have_count(11)
    expect(wall.locator(".proj-round")).to_have_text("Semi-finals")
    save_screenshot(wall, "concours-formats-projector.png")
    assert page_errors(wall) == []

    # Find my table on a player's phone: the semi-final table, highlighted in the bracket.
    player = new_phone()
    semi = Round.objects.get(tournament=tournament, number=6)
    seat = semi.places.select_related("table", "entrant").get(table__number=1, side=0)
    player.goto(f"{base}/c/{tournament.public_token}/?q={seat.entrant.name}")
    expect(player.locator(".pub-where")).to_contain_text("Semi-finals: table 1")
    expect(player.locator(".bracket-side.is-you").first).to_contain_text(seat.entrant.name)
    shot(player, "04-find-my-table")
    no_axe_violation(player)
    no_axe_violation(desk)

    play_round(desk, 6, 2)
    assert draw(desk, 7) == 1  # consolation final
    play_round(desk, 7, 1)
    assert draw(desk, 8) == 2  # final and third place
    play_round(desk, 8, 2)
    expect(desk.get_by_role("button", name="Draw round 9")).to_have_count(0)
    finish(desk)
    ranks = desk.locator("#standings tbody .rank").all_inner_texts()
    assert ranks == ["1", "2", "3", "4", "5", "6", "7", "7", "9", "10"]
    expect(desk.locator(".bracket-champion")).to_contain_text("Winner:")
    shot(desk, "05-final-ranking")
    wall.reload()
    expect(wall.locator(".proj-round")).to_have_text("Final ranking")
    save_screenshot(wall, "concours-formats-projector-final.png")
    wall_context.close()

    # The bracket printed: one A4 landscape page.
    desk.get_by_role("link", name="Print the bracket").click()
    expect(desk.locator(".print-bracket .bracket-table")).to_have_count(11)
    shot(desk, "06-print-bracket-phone")
    no_axe_violation(desk)
    assert print_pdf(desk, "bracket-8") == 1
    assert page_errors(desk) == []
    assert page_errors(player) == []


def test_a_five_team_round_robin_end_to_end(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot
) -> None:
    owner: User = UserFactory.create(username="organiser")
    base = live_server.url
    desk = new_phone()
    sign_in(desk, base, owner)
    tournament = create(desk, base, "Ligue du jeudi", {"rounds": "5", "pairing": "round_robin"}, [])
    expect(desk.locator(".concours-settings")).to_contain_text("Everyone meets everyone")
    register(desk, TEAMS[:5])
    for number in range(1, 6):
        assert draw(desk, number) == 2
        expect(desk.get_by_text("Swap two teams")).to_have_count(0)
        if number == 1:
            shot(desk, "01-round-robin-round-1")
        play_round(desk, number, 2)
    expect(desk.get_by_role("button", name="Draw round 6")).to_have_count(0)
    finish(desk)
    shot(desk, "02-round-robin-final")
    met = set()
    for round_ in tournament.rounds.all():
        for table in round_.tables.all():
            pair = sorted(table.places.values_list("entrant__number", flat=True))
            met.add((pair[0], pair[1]))
    assert sorted(met) == list(combinations(range(1, 6), 2))
    assert page_errors(desk) == []
