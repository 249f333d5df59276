"""Issue 15 end to end: a whole 9-team concours in the browser, as an evening at the club runs it.

The organiser at a laptop (1280x800), four table phones (360x740, each its own browser context,
no account), the projector on the wall (1920x1080) and a player's phone looking for their table:
a concours of 3 rounds of 2-deal parties (the settings changed on the New concours form, to keep
the test short), registration by a pasted list with check-in (one team absent), round 1 drawn
(four tables and a bye) with its draw poster and score sheets printed to PDF, the four tables
scoring on their phones, two parties ending themselves, the projector following them, time
called, a paper sheet typed with the paper check's warning, a result corrected, the round
closed; a late entry and a withdrawal before round 2 (a bye again), Find my table following the
next draw by itself, a helper at the desk through the co-organiser link, the other rounds typed
from paper sheets, the concours finished: the final ranking with its prizes on the desk, printed,
downloaded, on the public page and on the projector. In English and in French.

Every screen is photographed under screenshots/ (concours-e2e-<lang>-<step>.png) and checked for
sideways scrolling, small tap targets (at its own width), script, console and server errors.
A second test runs the organiser's whole evening without JavaScript (every form a plain form)."""

import json
import re
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import translation
from playwright.sync_api import (
    Browser,
    BrowserContext,
    FilePayload,
    Page,
    ViewportSize,
    expect,
)
from pytest_django.live_server_helper import LiveServer

from scorekeeper.concours.models import Entrant, ResultChange, Table, Tournament
from scorekeeper.matches.models import Seat
from tests.factories import PASSWORD, UserFactory

from .conftest import (
    _LAYOUT_JS,
    SCREENSHOTS,
    SHOTS,
    NewPhone,
    chip,
    page_errors,
    save_screenshot,
    watch,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

LAPTOP: ViewportSize = {"width": 1280, "height": 800}
WALL: ViewportSize = {"width": 1920, "height": 1080}
LOCALES = {"en": "en-GB", "fr": "fr-FR"}
BOARD = re.compile(r"/score/[^/]+/$")
ROUNDS = 3
DEALS = 2  # a partie of 2 deals: 324 card points, belotes aside
PARTIE = 162 * DEALS

# Ten teams registered; "Dix de der" is absent on the evening: nine play (four tables, a bye).
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
ABSENT = "Dix de der"
LATE = ("Valet", "Ugo", "Vera")  # arrives during round 1: plays from round 2
LEAVES = "Atout"  # withdraws before round 2
PRIZES = {
    "en": ("A ham", "Two bottles", "A cake"),
    "fr": ("Un jambon", "Deux bouteilles", "Un gâteau"),
}


def t(lang: str, text: str, **params: Any) -> str:
    """`text` as the app says it in `lang` (the catalogue the server uses), filled in."""
    with translation.override(lang):
        words = translation.gettext(text)
    return words % params if params else words


def belote_missing(lang: str) -> str:
    """The paper check's warning for a sheet 20 points short with a belote written on it."""
    with translation.override(lang):
        words = translation.ngettext(
            "%(points)s missing: a belote?", "%(points)s missing: %(count)s belotes?", 1
        )
    return words % {"points": 20, "count": 1}


class Screens:
    """Saves each screen as concours-e2e-<lang>-<step>.png (SCREENSHOTS=1) and checks it at its own width: no
    sideways scrolling, no target under 44 px, no script, console or server error so far."""

    def __init__(self, lang: str) -> None:
        SHOTS.mkdir(exist_ok=True)
        self.lang = lang

    def __call__(self, page: Page, step: str, *, full_page: bool = True) -> None:
        save_screenshot(page, f"concours-e2e-{self.lang}-{step}.png", full_page=full_page)
        # A full-page screenshot resizes the page for a moment: let its layout settle before the
        # next click (no requestAnimationFrame: it never comes without JavaScript).
        if SCREENSHOTS and full_page:
            page.wait_for_timeout(100)
        size = page.viewport_size
        assert size is not None
        assert page.evaluate(_LAYOUT_JS, size["width"]) == [], step
        assert page_errors(page) == [], step


@pytest.fixture
def screens_for(browser: Browser) -> Iterator[Any]:
    """screens_for(size, lang, javascript=True): a page in a new browser context of that size
    (a laptop, the projector), watched for errors; closed at the end."""
    contexts: list[BrowserContext] = []

    def open_screen(size: ViewportSize, lang: str, javascript: bool = True) -> Page:
        context = browser.new_context(
            viewport=size, locale=LOCALES[lang], java_script_enabled=javascript
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return watch(context.new_page())

    yield open_screen
    for context in contexts:
        context.close()


# The organiser's steps ----------------------------------------------------------------------


def log_in(desk: Page, url: str, user: User, lang: str) -> None:
    desk.goto(f"{url}/accounts/login/")
    desk.locator("input[name=username]").fill(user.username)
    desk.locator("input[name=password]").fill(PASSWORD)
    desk.locator("main form").get_by_role("button", name=t(lang, "Log in")).click()
    desk.wait_for_url(lambda u: "/accounts/login/" not in u)


def create(desk: Page, url: str, lang: str, shoot: Screens) -> Tournament:
    desk.goto(f"{url}/concours/")
    desk.get_by_text(t(lang, "Belote: 4 parties of 12 deals, ranked by points")).click()
    desk.get_by_label(t(lang, "Name"), exact=True).fill("Concours de la Saint-Martin")
    desk.get_by_label(t(lang, "Place"), exact=True).fill("Salle des fêtes")
    prizes = PRIZES[lang]
    desk.get_by_label(t(lang, "Prizes")).fill(
        "\n".join(f"{n}: {p}" for n, p in enumerate(prizes, 1))
    )
    # The format's settings, changed: 3 rounds of 2-deal parties.
    desk.locator("#new-settings > summary").click()
    desk.locator("input[name=rounds]").fill(str(ROUNDS))
    desk.locator("input[name=deals_limit]").fill(str(DEALS))
    shoot(desk, "01-new-concours")
    # From the keyboard: a click here sometimes landed beside the button (the long form's
    # layout still settling after the full-page screenshot), on the form itself.
    desk.get_by_role("button", name=t(lang, "Create the concours")).press("Enter")
    expect(desk).to_have_url(re.compile(r"/concours/\d+/$"))
    expect(desk.get_by_role("heading", name="Concours de la Saint-Martin")).to_be_visible()
    tournament = Tournament.objects.get(name="Concours de la Saint-Martin")
    assert tournament.engine_settings.rounds == ROUNDS
    assert tournament.engine_settings.partie.deals_limit == DEALS
    return tournament


def register(desk: Page, lang: str, shoot: Screens, csv: int = 0) -> None:
    """The list pasted (its last `csv` teams imported from a CSV file instead), then the
    check-in: one team absent, one marked present."""
    pasted = TEAMS[: len(TEAMS) - csv]
    desk.get_by_text(t(lang, "Paste a list")).click()
    desk.locator("textarea[name=text]").fill("\n".join("; ".join(team) for team in pasted))
    desk.get_by_role("button", name=t(lang, "Add the list")).click()
    expect(desk.locator(".messages")).to_contain_text(
        t(lang, "%(count)s added.", count=len(pasted))
    )
    if csv:
        desk.get_by_text(t(lang, "Import a CSV file")).click()
        rows = "team,player 1,player 2\n" + "".join(",".join(team) + "\n" for team in TEAMS[-csv:])
        csv_file: FilePayload = {
            "name": "teams.csv",
            "mimeType": "text/csv",
            "buffer": rows.encode(),
        }
        desk.locator("#csv-import input[type=file]").set_input_files(files=csv_file)
        desk.get_by_role("button", name=t(lang, "Import the file")).click()
        expect(desk.locator(".messages")).to_contain_text(t(lang, "%(count)s added.", count=csv))
    expect(desk.locator(".entrant")).to_have_count(10)
    absent = desk.locator(".entrant", has_text=ABSENT)
    absent.get_by_role("button", name=t(lang, "Absent")).click()
    expect(desk.locator(".entrant", has_text=ABSENT)).to_have_class(re.compile("is-out"))
    desk.locator(".entrant", has_text="Les As").get_by_role(
        "button", name=t(lang, "Present")
    ).click()
    expect(desk.locator(".entrant.is-out")).to_have_count(1)
    shoot(desk, "02-registered")


def draw(desk: Page, lang: str, number: int) -> None:
    desk.get_by_role("button", name=t(lang, "Draw round %(n)s", n=number), exact=True).click()
    expect(desk.locator(".messages")).to_contain_text(
        t(lang, "Round %(round)s is drawn.", round=number)
    )
    expect(desk.locator("#board .board-table")).to_have_count(4)


def paper(
    desk: Page,
    lang: str,
    number: int,
    totals: tuple[int, int],
    belotes: int = 0,
    over_phone: Screens | None = None,
) -> None:
    """A table's paper score sheet typed in: both totals (and the belotes written on it). A
    table its phone scored (`over_phone`, to photograph the question) asks which is right: the
    paper."""
    table = desk.locator(f"#table-{number}")
    table.get_by_text(t(lang, "Type the paper sheet's totals")).click()
    table.locator(f"input[name=t{number}-points0]").fill(str(totals[0]))
    table.locator(f"input[name=t{number}-points1]").fill(str(totals[1]))
    if belotes:
        table.get_by_label(t(lang, "Belotes")).fill(str(belotes))
    table.get_by_role("button", name=t(lang, "Save table %(n)s", n=number)).click()
    if over_phone is not None:
        expect(desk.get_by_role("heading", level=1)).to_have_text(
            t(lang, "Table %(n)s: the phone or the paper?", n=number)
        )
        over_phone(desk, "09a-paper-over-phone")
        desk.get_by_role("button", name=t(lang, "The paper sheet is right")).click()
    expect(desk.locator(".messages")).to_contain_text(
        t(lang, "Table %(table)s: totals saved.", table=number).rstrip(".")
    )
    expect(desk.locator(f"#table-{number} .board-state")).to_have_text(t(lang, "typed by hand"))


def correct(desk: Page, lang: str, number: int, totals: tuple[int, int]) -> None:
    table = desk.locator(f"#table-{number}")
    table.get_by_text(t(lang, "Correct the result")).click()
    table.locator(f"input[name=c{number}-points0]").fill(str(totals[0]))
    table.locator(f"input[name=c{number}-points1]").fill(str(totals[1]))
    table.get_by_role("button", name=t(lang, "Correct table %(n)s", n=number)).click()
    expect(desk.locator(".messages")).to_contain_text(
        t(lang, "Table %(table)s: result corrected.", table=number)
    )


def close(desk: Page, lang: str, number: int) -> None:
    desk.get_by_role("button", name=t(lang, "Close round %(n)s", n=number)).click()
    expect(desk.locator(".messages")).to_contain_text(
        t(lang, "Round %(round)s is closed.", round=number)
    )
    expect(desk.locator("#standings-title")).to_be_visible()


def paper_round(desk: Page, lang: str, number: int, tables: tuple[int, ...] = (1, 2, 3, 4)) -> None:
    """The round's tables typed from their sheets (162 × 2 = 324 points a partie), the first
    side ahead by a different margin at each table; then the round closed."""
    for table in tables:
        first = 170 + 10 * table + 3 * number
        paper(desk, lang, table, (first, PARTIE - first))
    close(desk, lang, number)


def late_entry_and_withdrawal(desk: Page, lang: str, tournament: Tournament) -> None:
    """During round 1: a team arrives (plays from round 2), another leaves before round 2."""
    registration = desk.locator("#registration")
    name, player1, player2 = LATE
    registration.locator("input[name=name]").fill(name)
    registration.locator("input[name=player1]").fill(player1)
    registration.locator("input[name=player2]").fill(player2)
    registration.get_by_role("button", name=t(lang, "Add a late entry")).click()
    expect(desk.locator(".entrant", has_text=name)).to_contain_text(
        t(lang, "from round %(n)s", n=2)
    )
    leaving = desk.locator(".entrant", has_text=LEAVES)
    leaving.get_by_role("button", name=t(lang, "Withdraw before round %(n)s", n=2)).click()
    expect(desk.locator(".entrant", has_text=LEAVES)).to_contain_text(
        t(lang, "withdrawn before round %(n)s", n=2)
    )
    late = Entrant.objects.get(tournament=tournament, name=name)
    assert late.from_round == 2
    assert Entrant.objects.get(tournament=tournament, name=LEAVES).withdrawn_before_round == 2


def finish(desk: Page, lang: str, tournament: Tournament, shoot: Screens) -> None:
    desk.get_by_text(t(lang, "Finish the concours…")).click()  # it asks first
    desk.get_by_role("button", name=t(lang, "Yes, finish the concours")).click()
    expect(desk.locator("#standings-title")).to_have_text(t(lang, "Final ranking"))
    rows = desk.locator(".desk-standings tbody tr")
    expect(rows).to_have_count(10)  # nine who played to the end, and the one who withdrew
    for rank, prize in enumerate(PRIZES[lang]):
        expect(rows.nth(rank)).to_contain_text(prize)
    expect(desk.locator(".desk-standings")).to_contain_text(t(lang, "withdrawn"))
    shoot(desk, "20-final-ranking")
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


# Paper -----------------------------------------------------------------------------------------


def print_to_pdf(desk: Page, lang: str, link: str, name: str) -> str:
    """Opens one of the desk's print links (the page's Print preview) and prints it to an A4 PDF
    as Chromium does; each PDF page is also saved as a PNG to look at. The PDF's text."""
    back = desk.url
    desk.get_by_role("link", name=t(lang, link)).first.click()
    desk.wait_for_load_state()
    assert page_errors(desk) == [], name
    pdf = SHOTS / f"concours-e2e-{lang}-{name}.pdf"
    for old in SHOTS.glob(f"concours-e2e-{lang}-{name}-*.png"):
        old.unlink()
    desk.pdf(path=str(pdf), format="A4", prefer_css_page_size=True, print_background=True)
    assert pdf.read_bytes().startswith(b"%PDF")
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(pdf), str(pdf.with_suffix(""))], check=True)
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    desk.goto(back)
    return text


def pdf_pages(lang: str, name: str) -> int:
    return len(list(SHOTS.glob(f"concours-e2e-{lang}-{name}-*.png")))


# The tables' phones --------------------------------------------------------------------------


def score_deal(phone: Page, lang: str, taker: int, points: int, last: bool = False) -> None:
    """A deal on the table's phone: who took, the trump, the takers' card points, Save. The
    partie's `last` deal ends it: the phone says its result went to the organiser."""
    phone.get_by_role("link", name=t(lang, "Record a deal")).click()
    chip(phone, "taker", str(taker))
    chip(phone, "trump", "hearts")
    phone.locator("input[name=taker_points]").fill(str(points))
    expect(phone.locator("#preview .preview-outcome")).to_be_visible()
    phone.get_by_role("button", name=t(lang, "Save the deal")).click()
    if last:
        expect(phone.get_by_text(t(lang, "Result sent to the organiser"))).to_be_visible()
    else:
        phone.wait_for_url(BOARD)


# The whole evening ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_whole_concours(
    live_server: LiveServer, new_phone: NewPhone, screens_for: Any, lang: str
) -> None:
    url = live_server.url
    shoot = Screens(lang)
    user: User = UserFactory.create(username="organiser")
    desk: Page = screens_for(LAPTOP, lang)
    log_in(desk, url, user, lang)
    expect(desk.locator("html")).to_have_attribute("lang", lang)
    if lang == "fr":  # the desk's words are in the catalogue: the pass is really in French
        assert t(lang, "Draw round %(n)s", n=1) == "Tirer la partie 1"
    tournament = create(desk, url, lang, shoot)
    register(desk, lang, shoot)

    # Round 1: nine teams present, four tables and a bye.
    draw(desk, lang, 1)
    expect(desk.locator("#board")).to_contain_text(t(lang, "Without a table this round:"))
    shoot(desk, "03-round-1-drawn")
    assert Table.objects.filter(round__tournament=tournament).count() == 4
    round1 = tournament.rounds.get(number=1)
    assert round1.places.filter(table__isnull=True).count() == 1  # the bye
    assert not round1.places.filter(entrant__name=ABSENT).exists()

    # The draw poster and the score sheets, printed to PDF (A4).
    poster = print_to_pdf(desk, lang, "Print the draw poster", "p1-draw-poster")
    for name, _a, _b in TEAMS[:-1]:
        assert name in poster
    assert ABSENT not in poster
    sheets = print_to_pdf(desk, lang, "Print the score sheets", "p2-score-sheets")
    assert pdf_pages(lang, "p2-score-sheets") == 4  # one sheet a table
    for table in round1.tables.all():
        for place in table.places.select_related("entrant"):
            assert place.entrant.name in sheets

    # The projector on the wall (it polls every 10 s; its clock in the test's hands too).
    wall: Page = screens_for(WALL, lang)
    wall.clock.install()
    wall.goto(f"{url}/c/{tournament.public_token}/projector/")
    expect(wall.locator(".proj-title")).to_have_text("Concours de la Saint-Martin")
    expect(wall.locator(".proj-playing li")).to_have_count(4)
    assert wall.evaluate("document.documentElement.scrollHeight") <= WALL["height"]
    shoot(wall, "04-projector-round-1", full_page=False)

    # Four phones, one a table, each opening its table's link (its QR code on the board and on
    # the score sheet) and scoring the partie's first deal.
    phones = [new_phone(locale=LOCALES[lang]) for _ in range(4)]
    links = {t.number: f"{url}/t/{t.token}/" for t in round1.tables.all()}
    for number, phone in enumerate(phones, start=1):
        phone.context.clock.install()
        phone.goto(links[number])
        expect(phone.locator("#scoreboard")).to_be_visible()
        sides = round1.tables.get(number=number).places.select_related("entrant")
        for place in sides:
            expect(phone.locator(".board-note")).to_contain_text(place.entrant.name)
    shoot(phones[0], "05-table-phone")
    for number, phone in enumerate(phones, start=1):
        score_deal(phone, lang, taker=number % 2, points=90 + 10 * number)
    expect(phones[0].locator(".board-note")).to_contain_text(
        t(lang, "deal %(done)s of %(limit)s", done=1, limit=DEALS)
    )
    shoot(phones[0], "06-table-phone-one-deal")
    for phone in phones:  # from now on their polls go only when the test says so
        phone.clock.pause_at(time.time() + 1)

    # The projector's next poll shows the deals; the organiser's board too.
    wall.clock.run_for(10_000)
    expect(wall.locator(".proj-playing li").first).to_contain_text(
        t(lang, "%(deals)s deal", deals=1)
    )
    shoot(wall, "07-projector-deals", full_page=False)
    desk.reload()
    expect(desk.locator("#table-1 .board-state")).to_have_text(
        t(lang, "deal %(n)s of %(total)s", n=1, total=DEALS)
    )
    shoot(desk, "08-board-under-way")

    # Tables 1 and 2 play their second deal: their parties end themselves.
    for number in (1, 2):
        phones[number - 1].clock.resume()  # the deal form's preview waits for typing to pause
        score_deal(phones[number - 1], lang, taker=0, points=120 + number, last=True)
    shoot(phones[1], "10-table-phone-partie-over")
    # Time is up at table 3; table 4's phone gave up: its paper sheet is typed, with a belote
    # written on it that the totals forgot (the paper check's warning).
    desk.reload()
    expect(desk.locator("#table-1 .board-state")).to_have_text(t(lang, "finished"))
    desk.locator("#table-3").get_by_text(t(lang, "Call time…")).click()  # it asks first
    desk.locator("#table-3").get_by_role("button", name=t(lang, "Yes, call time")).click()
    expect(desk.locator(".messages")).to_contain_text(
        t(lang, "Table %(table)s: time called.", table=3)
    )
    paper(desk, lang, 4, (220, PARTIE - 220), belotes=1, over_phone=shoot)
    expect(desk.locator(".messages")).to_contain_text(belote_missing(lang))
    shoot(desk, "09-paper-warning")
    # Table 1's sheet said otherwise: the result corrected, logged with the one before.
    correct(desk, lang, 1, (200, 124))
    change = ResultChange.objects.get(table__round=round1, table__number=1, action="correction")
    assert change.before["points"] != change.after["points"]
    table1 = Table.objects.get(round=round1, number=1)
    assert (table1.points0, table1.points1) == (200, 124)

    # The phones of tables 3 and 4, still on their scoreboards, learn at their next poll that
    # the partie is over.
    for phone in phones[2:]:
        phone.clock.run_for(10_000)
        expect(phone.get_by_text(t(lang, "Result sent to the organiser"))).to_be_visible()
    close(desk, lang, 1)
    expect(desk.locator(".desk-standings tbody tr")).to_have_count(9)
    shoot(desk, "11-standings-round-1")

    # A late entry and a withdrawal, then round 2: nine teams again, a bye again.
    late_entry_and_withdrawal(desk, lang, tournament)
    draw(desk, lang, 2)
    round2 = tournament.rounds.get(number=2)
    assert round2.places.filter(table__isnull=True).count() == 1
    assert round2.places.filter(entrant__name=LATE[0]).exists()
    assert not round2.places.filter(entrant__name=LEAVES).exists()
    shoot(desk, "12-round-2-drawn")

    # Find my table: a player of table 2 asks the public page on their phone.
    seat = round2.places.select_related("entrant").get(table__number=2, side=0)
    against = round2.places.select_related("entrant").get(table__number=2, side=1).entrant.name
    finder = new_phone(locale=LOCALES[lang])
    finder.clock.install()
    finder.goto(f"{url}/c/{tournament.public_token}/")
    finder.locator("#id_q").fill(seat.entrant.player1)
    finder.locator("form.pub-find button").click()
    mine = finder.locator(".pub-mine")
    expect(mine.locator("h2")).to_have_text(seat.entrant.name)
    expect(mine.locator(".pub-where strong")).to_have_text("table 2")  # the same in French
    expect(mine).to_contain_text(against)
    shoot(finder, "13-find-my-table")

    # A helper runs the desk on their phone through the co-organiser link (no account) and
    # types table 4's sheet.
    co_link = desk.locator("#co-organiser input.copy").get_attribute("value")
    assert co_link
    helper = new_phone(locale=LOCALES[lang])
    helper.goto(co_link)
    expect(helper.get_by_role("heading", name="Concours de la Saint-Martin")).to_be_visible()
    paper(helper, lang, 4, (1000, 944))
    shoot(helper, "14-co-organiser-phone")
    assert ResultChange.objects.get(table__round=round2, table__number=4).author_label
    desk.reload()
    paper_round(desk, lang, 2, tables=(1, 2, 3))

    draw(desk, lang, 3)
    # The player's phone asks again by itself (every 20 s): round 3's table.
    finder.clock.run_for(20_000)
    seat3 = tournament.rounds.get(number=3).places.select_related("table").get(entrant=seat.entrant)
    expect(mine.locator(".pub-where")).to_contain_text("3")
    if seat3.table is not None:
        expect(mine.locator(".pub-where strong")).to_have_text(f"table {seat3.table.number}")
    paper_round(desk, lang, 3)
    finish(desk, lang, tournament, shoot)

    # The final ranking printed, the concours file and the standings downloaded.
    ranking = print_to_pdf(desk, lang, "Print the final ranking", "p3-final-ranking")
    for prize in PRIZES[lang]:
        assert prize in ranking
    with desk.expect_download() as download:
        desk.get_by_role("link", name=t(lang, "Download the concours file")).click()
    document = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert document["format"] == "belote-tournament/1"
    assert len(document["rounds"]) == ROUNDS
    with desk.expect_download() as download:
        desk.locator("#records").get_by_role("link", name=t(lang, "Final ranking")).click()
    csv = Path(download.value.path()).read_text(encoding="utf-8-sig")
    assert len(csv.strip().splitlines()) == 11  # a header and the ten teams

    # A player of table 1 (scored by phone in round 1): their page says where they played.
    player = (
        Seat.objects.filter(match__concours_table__round=round1, match__concours_table__number=1)
        .order_by("position")
        .values_list("player_id", flat=True)[0]
    )
    desk.goto(f"{url}/players/{player}/")
    expect(desk.locator(".records-played-in")).to_contain_text("Concours de la Saint-Martin")
    shoot(desk, "23-player-page")

    # Everyone sees the final ranking: the public page and the projector.
    finder.goto(f"{url}/c/{tournament.public_token}/")
    expect(finder.locator(".pub-round")).to_contain_text(
        t(lang, "The concours is finished: here is the final ranking.")
    )
    expect(finder.locator("#standings-title")).to_have_text(t(lang, "Final ranking"))
    expect(finder.locator(".pub-prize").first).to_have_text(PRIZES[lang][0])
    shoot(finder, "21-public-final")
    wall.clock.run_for(10_000)
    expect(wall.locator(".proj-round")).to_contain_text(t(lang, "Final ranking"))
    expect(wall.locator(".proj-prize").first).to_have_text(PRIZES[lang][0])
    shoot(wall, "22-projector-final", full_page=False)
    for page in [desk, wall, finder, helper, *phones]:
        assert page_errors(page) == []


def test_the_organiser_without_javascript(live_server: LiveServer, screens_for: Any) -> None:
    """Every organiser form is a plain form: registration (a pasted list, a CSV file), editing a
    team, the settings, check-in, draws, a swap, a round drawn again, paper sheets (with the
    warning), corrections (of the round under way and of a closed one), closing, a late entry, a
    withdrawal, finishing."""
    lang = "en"
    url = live_server.url
    shoot = Screens("nojs")
    user: User = UserFactory.create(username="organiser")
    desk: Page = screens_for(LAPTOP, lang, javascript=False)
    log_in(desk, url, user, lang)
    tournament = create(desk, url, lang, shoot)
    register(desk, lang, shoot, csv=2)
    # A player's name corrected on the team's own page.
    desk.locator(".entrant", has_text="Trèfle").get_by_role("link", name="Edit").click()
    desk.get_by_label("Player 2").fill("Farida")
    desk.get_by_role("button", name="Save").click()
    expect(desk.locator(".entrant", has_text="Trèfle")).to_contain_text("Farida")
    draw(desk, lang, 1)
    # Before any result: two teams swapped, then the round drawn again.
    desk.get_by_text("Swap two teams").click()
    # Two of the teams at a table: nine teams play round 1, and its bye is drawn at random (the
    # concours's seed), so a named team may sit out.
    first, second = desk.locator("#swap-first option").all_inner_texts()[:2]
    desk.locator("#swap-first").select_option(label=first)
    desk.locator("#swap-second").select_option(label=second)
    desk.get_by_role("button", name="Swap their places").click()
    expect(desk.locator(".messages")).to_contain_text(f"“{first}” and “{second}” swapped places.")
    desk.get_by_role("button", name="Draw round 1 again").click()
    expect(desk.locator(".messages")).to_contain_text("Round 1 is drawn again.")
    expect(desk.locator("#board .board-table")).to_have_count(4)
    paper(desk, lang, 1, (220, PARTIE - 220), belotes=1)
    expect(desk.locator(".messages")).to_contain_text(belote_missing(lang))
    for number in (2, 3, 4):
        paper(desk, lang, number, (200 + number, PARTIE - 200 - number))
    correct(desk, lang, 2, (300, 24))
    late_entry_and_withdrawal(desk, lang, tournament)
    shoot(desk, "03-round-1-typed")
    close(desk, lang, 1)
    draw(desk, lang, 2)
    # A table of round 1 (closed) corrected from Past rounds.
    past = desk.locator("#past-1-table-3")
    desk.locator("#past-round-1 > summary").click()
    past.get_by_text("Correct table 3 of round 1").click()
    past.locator("input[name=c3-points0]").fill("10")
    past.locator("input[name=c3-points1]").fill("314")
    past.get_by_role("button", name="Save the correction").click()
    expect(desk.locator(".messages")).to_contain_text("Table 3: result corrected.")
    assert Table.objects.get(round__tournament=tournament, round__number=1, number=3).paper == (
        10,
        314,
    )
    shoot(desk, "04-past-round-corrected")
    paper_round(desk, lang, 2)
    draw(desk, lang, 3)
    paper_round(desk, lang, 3)
    finish(desk, lang, tournament, shoot)
    assert ResultChange.objects.filter(table__round__tournament=tournament).count() == 14
