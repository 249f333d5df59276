"""Issue 15, paper: the draw poster, the score sheets and the final ranking printed to PDF by
Chromium on A4, each PDF's pages counted (one page a table for the score sheets, whatever the
number of tables) and, where poppler's `pdftoppm` is installed, every page rendered to
screenshots/ to be looked at, and with zbar too, each sheet's QR code read back from the paper
(the table's link); the same pages on a 360 px phone screen (light and dark), with
their Print button (print.js), no sideways scroll and no console error (the CSP included)."""

import datetime
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.concours import services
from scorekeeper.concours.models import Round, Table, Tournament
from tests.concours.support import play_out
from tests.factories import UserFactory

from . import test_large_text
from .conftest import (
    PHONE,
    SCREENSHOTS,
    SHOTS,
    NewPhone,
    Shot,
    layout_problems,
    page_errors,
    save_screenshot,
    sign_in,
)
from .test_axe import _AXE_JS, AXE

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

TEAMS = [
    ("Les As", "Alice", "Bruno"),
    ("Pique Dame", "Chloé", "David"),
    ("Trèfle", "Emma", "Farid"),
    ("Carreau", "Gilles", "Hana"),
    ("Écureuils", "Inès", "Jules"),
    ("Atout", "Karim", "Léa"),
    ("Belote", "Marc", "Nina"),
    ("Rebelote", "Omar", "Paula"),
    ("Les Joyeux Compagnons du Vieux Moulin de Saint-Martin", "Quentin-Alexandre", "Rose"),
]
big_phone = test_large_text.big_phone  # its fixture: a phone with larger text
PAGE = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")


def pdf_pages(data: bytes) -> int:
    """The pages of a PDF (Chromium writes each page as its own `/Type /Page` object)."""
    return len(PAGE.findall(data))


def print_pdf(page: Page, name: str) -> int:
    """The page printed by Chromium on A4 (its own @page rules): the PDF saved under
    screenshots/ (read back by the tests), its pages rendered to PNG to look at when SCREENSHOTS=1
    and pdftoppm is there; the number of pages."""
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"prints-{name}.pdf"
    data = page.pdf(format="A4", prefer_css_page_size=True, print_background=True)
    path.write_bytes(data)
    pdftoppm = shutil.which("pdftoppm")
    if pdftoppm and SCREENSHOTS:
        for old in SHOTS.glob(f"prints-{name}-page-*.png"):
            old.unlink()
        subprocess.run(
            [
                pdftoppm,
                "-png",
                "-r",
                "60",
                "-l",
                "6",
                str(path),
                str(SHOTS / f"prints-{name}-page"),
            ],
            check=True,
        )
    return pdf_pages(data)


def pdf_page_text(pdf: Path, number: int) -> str | None:
    """The text of one printed page (poppler's pdftotext), or None where it is not installed."""
    pdftotext = shutil.which("pdftotext")
    if not pdftotext:
        return None
    args = [pdftotext, "-f", str(number), "-l", str(number), "-layout", str(pdf), "-"]
    return " ".join(subprocess.run(args, capture_output=True, text=True, check=True).stdout.split())


def printed_qr_codes(pdf: Path, folder: Path) -> list[str] | None:
    """The QR codes read back from the printed pages (rendered at 150 dpi, read by zbarimg), or
    None where pdftoppm or zbarimg is not installed."""
    pdftoppm, zbarimg = shutil.which("pdftoppm"), shutil.which("zbarimg")
    if not pdftoppm or not zbarimg:
        return None
    subprocess.run([pdftoppm, "-png", "-r", "150", str(pdf), str(folder / "qr")], check=True)
    pages = sorted(str(p) for p in folder.glob("qr*.png"))
    found = subprocess.run([zbarimg, "-q", "--raw", *pages], capture_output=True, text=True)
    return sorted(line for line in found.stdout.splitlines() if line)


def a_concours(owner: User, teams: list[tuple[str, str, str]], rounds: int = 1) -> Tournament:
    tournament = services.create_tournament(
        owner=owner,
        name="Concours de la Saint-Martin",
        preset="belote",
        place="Salle des fêtes",
        prizes={1: "Un jambon", 2: "Deux bouteilles", 3: "Une boîte de chocolats"},
        overrides={"seed": 11, "rounds": rounds},
    )
    for name, a, b in teams:
        services.add_entrant(tournament=tournament, name=name, players=(a, b))
    services.draw_round(tournament=tournament)
    return tournament


def no_layout_or_page_errors(page: Page) -> None:
    assert page_errors(page) == []


def test_the_three_prints_of_a_nine_team_concours(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot, tmp_path: Path
) -> None:
    owner: User = UserFactory.create(username="organiser")
    tournament = a_concours(owner, TEAMS)
    base = live_server.url
    page = new_phone()
    sign_in(page, base, owner)

    # From the desk: the round's poster, on a phone first.
    page.goto(f"{base}/concours/{tournament.pk}/")
    page.get_by_role("link", name="Print the draw poster").click()
    expect(page.get_by_role("heading", name="Round 1: the draw")).to_be_visible()
    expect(page.get_by_role("button", name="Print")).to_be_visible()  # print.js showed it
    expect(page.locator(".poster-row")).to_have_count(9)
    expect(page.locator(".poster-number")).to_have_count(8)
    shot(page, "01-poster-phone")
    assert print_pdf(page, "poster-9") == 1
    no_layout_or_page_errors(page)

    page.goto(f"{base}/concours/{tournament.pk}/")
    page.get_by_role("link", name="Print the score sheets").click()
    expect(page.locator("article.sheet")).to_have_count(4)
    expect(page.locator(".print-qr-code")).to_have_count(4)
    expect(page.locator("article.sheet").first.locator("tbody tr")).to_have_count(12)
    shot(page, "02-sheets-phone")
    assert print_pdf(page, "sheets-9") == 4  # one A4 page a table
    tokens = Table.objects.filter(round__tournament=tournament).values_list("token", flat=True)
    read = printed_qr_codes(SHOTS / "prints-sheets-9.pdf", tmp_path)
    if read is not None:  # poppler and zbar there: each sheet's code read from the paper
        assert read == sorted(f"{base}/t/{token}/" for token in tokens)
    no_layout_or_page_errors(page)

    # Every table played out, the concours finished: the final ranking with its prizes.
    round_ = Round.objects.get(tournament=tournament)
    for table in Table.objects.filter(round=round_):
        play_out(table, seed=5)
    services.close_round(round_=round_)
    services.finish(tournament=tournament)
    page.goto(f"{base}/concours/{tournament.pk}/")
    page.get_by_role("link", name="Print the final ranking").click()
    expect(page.get_by_role("heading", name="Final ranking")).to_be_visible()
    expect(page.locator(".ranking-table tbody tr")).to_have_count(9)
    expect(page.get_by_text("Un jambon").first).to_be_visible()  # tied firsts share it
    expect(page.get_by_text("1 bye")).to_be_visible()
    shot(page, "03-ranking-phone")
    assert print_pdf(page, "ranking-9") == 1
    no_layout_or_page_errors(page)


def test_the_prints_are_black_on_white_in_dark_mode_and_without_javascript(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot
) -> None:
    owner: User = UserFactory.create(username="organiser")
    tournament = a_concours(owner, TEAMS[:8])
    base = live_server.url
    dark = new_phone(color_scheme="dark", javascript=False)
    sign_in(dark, base, owner)
    dark.goto(f"{base}/concours/{tournament.pk}/round/1/print/sheets/")
    expect(dark.locator("article.sheet")).to_have_count(4)
    expect(dark.get_by_role("button", name="Print")).to_be_hidden()  # no script: no button
    expect(dark.get_by_text("Use your browser's Print")).to_be_visible()
    shot(dark, "dark-sheets-phone")
    on_screen = dark.evaluate("getComputedStyle(document.body).backgroundColor")
    assert on_screen != "rgb(255, 255, 255)"  # the app's dark page on screen
    dark.emulate_media(media="print")
    colours = dark.evaluate(
        """() => [getComputedStyle(document.body).backgroundColor,
                  getComputedStyle(document.querySelector('.sheet-grid td')).borderTopColor,
                  getComputedStyle(document.querySelector('.sheet-table')).color,
                  getComputedStyle(document.querySelector('.topbar')).display]"""
    )
    assert colours == ["rgb(255, 255, 255)", "rgb(0, 0, 0)", "rgb(0, 0, 0)", "none"]
    dark.emulate_media(media="null")  # back to the page's own media
    assert print_pdf(dark, "sheets-dark") == 4
    no_layout_or_page_errors(dark)


def test_150_teams_paginate_cleanly(live_server: LiveServer, new_phone: NewPhone) -> None:
    owner: User = UserFactory.create(username="organiser")
    teams = [
        (f"Équipe {n:03} {'des Amis du Bridge' if n % 7 == 0 else ''}".strip(), f"J{n}a", f"J{n}b")
        for n in range(150)
    ]
    tournament = a_concours(owner, teams)
    base = live_server.url
    page = new_phone()
    sign_in(page, base, owner)
    page.goto(f"{base}/concours/{tournament.pk}/round/1/print/draw/")
    expect(page.locator(".poster-number")).to_have_count(150)
    poster = print_pdf(page, "poster-150")
    assert 2 <= poster <= 5, poster  # three columns a page
    # Every page of the poster has its heading (the frame's table head, repeated) and its number.
    for number in range(1, poster + 1):
        text = pdf_page_text(SHOTS / "prints-poster-150.pdf", number)
        if text is None:  # no poppler
            break
        assert "Concours de la Saint-Martin" in text and "Round 1: the draw" in text, number
        assert f"{number} / {poster}" in text.replace(f"{number}/{poster}", f"{number} / {poster}")
    # No line of the poster is cut by a page or a column (looked at in the PNGs too).
    page.emulate_media(media="print")
    assert page.evaluate("getComputedStyle(document.querySelector('.poster-row')).breakInside") == (
        "avoid"
    )
    assert page.evaluate(
        "getComputedStyle(document.querySelector('.poster-list')).columnCount"
    ) == ("3")
    page.emulate_media(media="null")  # back to the page's own media
    page.goto(f"{base}/concours/{tournament.pk}/round/1/print/sheets/")
    # 75 tables: a batch of 50 sheets (issue 23), the pager on screen only; then the other 25.
    expect(page.locator("article.sheet")).to_have_count(50)
    assert print_pdf(page, "sheets-150") == 50  # still one page a table
    page.get_by_role("link", name="Next →").click()
    expect(page.locator("article.sheet")).to_have_count(25)
    expect(page.locator("#sheet-75")).to_be_visible()
    # Every table's paper totals typed, round 1 closed: the standings of 150 teams.
    for n, table in enumerate(Table.objects.filter(round__tournament=tournament)):
        services.record_paper_totals(table=table, totals=(900 + n, 1044 - n))
    services.close_round(round_=Round.objects.get(tournament=tournament))
    page.goto(f"{base}/concours/{tournament.pk}/print/ranking/")
    expect(page.locator(".ranking-table tbody tr")).to_have_count(150)
    ranking = print_pdf(page, "ranking-150")
    assert 3 <= ranking <= 6, ranking  # the column titles again on every page
    no_layout_or_page_errors(page)


def test_the_pdf_page_counter() -> None:
    sample = b"<< /Type /Pages /Kids [3 0 R 4 0 R] >> << /Type /Page >> << /Type/Page/Parent 2 >>"
    assert pdf_pages(sample) == 2


def test_a_coinche_sheet_of_twenty_rows_and_a_melee_poster_fit_their_pages(
    live_server: LiveServer, new_phone: NewPhone
) -> None:
    owner: User = UserFactory.create(username="organiser")
    coinche = services.create_tournament(
        owner=owner, name="Coinche du jeudi", preset="coinche", overrides={"seed": 3}
    )
    for name, a, b in TEAMS[:4]:
        services.add_entrant(tournament=coinche, name=name, players=(a, b))
    services.draw_round(tournament=coinche)
    melee = services.create_tournament(
        owner=owner, name="Mêlée de printemps", preset="melee", overrides={"seed": 3}
    )
    for name in ["Anna", "Bea", "Carl", "Dora", "Eve", "Fred", "Gus", "Hugo", "Ida"]:
        services.add_entrant(tournament=melee, name=name)
    services.draw_round(tournament=melee)
    base = live_server.url
    page = new_phone()
    sign_in(page, base, owner)
    page.goto(f"{base}/concours/{coinche.pk}/round/1/print/sheets/")
    expect(page.locator("article.sheet").first.locator("tbody tr")).to_have_count(20)
    expect(page.locator("article.sheet-back")).to_have_count(2)
    assert print_pdf(page, "sheets-coinche") == 4  # each table's sheet and its back
    front = pdf_page_text(SHOTS / "prints-sheets-coinche.pdf", 1)
    back = pdf_page_text(SHOTS / "prints-sheets-coinche.pdf", 2)
    if front is not None and back is not None:
        for word in ("Contract", "Value", "Suit", "Taken", "Coinche", "so far"):  # heads wrap
            assert word in front, word
        assert "×2 ×4" in front and "♠ ♥ ♦ ♣ SA TA" in front
        assert "Signature, team B" in front and "Carry on over the page" in front
        assert "continued: deals 21 to 46" in back and "Carried from the front" in back
        assert " 46 " in f"{back} "
    page.goto(f"{base}/concours/{melee.pk}/round/1/print/draw/")
    expect(page.locator(".poster-row")).to_have_count(9)
    expect(page.get_by_text("Partner:").first).to_be_visible()
    assert print_pdf(page, "poster-melee") == 1
    page.goto(f"{base}/concours/{melee.pk}/round/1/print/sheets/")
    assert print_pdf(page, "sheets-melee") == 2
    no_layout_or_page_errors(page)


def test_a_final_ranking_with_a_tie_on_a_prize_prints_the_flag(
    live_server: LiveServer, new_phone: NewPhone
) -> None:
    owner: User = UserFactory.create(username="organiser")
    tournament = a_concours(owner, TEAMS[:4])
    round_ = Round.objects.get(tournament=tournament)
    for table in Table.objects.filter(round=round_):  # two equal winners, two equal losers
        services.record_paper_totals(table=table, totals=(1000, 900))
    services.close_round(round_=round_)
    services.finish(tournament=tournament)
    page = new_phone()
    sign_in(page, live_server.url, owner)
    page.goto(f"{live_server.url}/concours/{tournament.pk}/print/ranking/")
    expect(page.locator(".ranking-tie")).to_have_count(4)  # ranks 1, 1, 3, 3: three prizes
    assert print_pdf(page, "ranking-tie") == 1
    text = pdf_page_text(SHOTS / "prints-ranking-tie.pdf", 1)
    if text is not None:
        assert text.count("Ex æquo: to decide") == 4
        assert "The prizes to share out: Un jambon, Deux bouteilles." in text
        assert "The prize to give: Une boîte de chocolats." in text
    no_layout_or_page_errors(page)


def test_the_prints_on_a_phone_with_200_percent_text_and_axe(
    live_server: LiveServer, big_phone: Callable[..., Page], new_phone: NewPhone
) -> None:
    """Each page at 360 px with twice the text size: no sideways scroll, every control 44 px;
    and axe-core finds nothing (dark mode, in French too once merged: same markup)."""
    owner: User = UserFactory.create(username="organiser")
    tournament = a_concours(owner, TEAMS, rounds=1)
    round_ = Round.objects.get(tournament=tournament)
    for table in Table.objects.filter(round=round_):
        play_out(table, seed=2)
    services.close_round(round_=round_)
    services.finish(tournament=tournament)
    base = live_server.url
    pages = {
        "poster": f"{base}/concours/{tournament.pk}/round/1/print/draw/",
        "sheets": f"{base}/concours/{tournament.pk}/round/1/print/sheets/",
        "ranking": f"{base}/concours/{tournament.pk}/print/ranking/",
    }
    large = big_phone(2.0)
    sign_in(large, base, owner)
    for name, address in pages.items():
        large.goto(address)
        large.locator(".print-page").first.scroll_into_view_if_needed()
        save_screenshot(large, f"prints-large-text-{name}.png")
        if name == "sheets":
            large.locator(".sheet-grid").first.scroll_into_view_if_needed()
            save_screenshot(large, "prints-large-text-sheets-grid.png")
        assert layout_problems(large) == [], name
    no_layout_or_page_errors(large)
    dark = new_phone(color_scheme="dark")
    sign_in(dark, base, owner)
    for name, address in pages.items():
        dark.goto(address)
        dark.evaluate(AXE.read_text(encoding="utf-8"))
        assert dark.evaluate(_AXE_JS) == [], name
    no_layout_or_page_errors(dark)


# Issue 22: a table's score sheet is one sheet of paper whatever its names --------------------

LONG_TEAMS = [  # every table between two long names: the worst a sheet may meet
    (
        "Les Joyeux Compagnons du Vieux Moulin de Saint-Martin-la-Mer",  # 60, the most
        "Marie-Christine-Éléonore de La Tour d'Auvergne-Lauraguais",
        "Jean-Baptiste-Emmanuel de La Rochefoucauld-Montmorency",
    ),
    (
        "Les Amis de la Belote du Café des Sports de Montmartre-Nord",
        "Anne-Sophie Martin-Leclerc",
        "Pierre-Emmanuel Dubois-Villeneuve-Saint-Georges",
    ),
    (
        "Association Sportive et Culturelle des Cheminots de Bordeaux",
        "Marie-Christine-Éléonore de La Tour d'Auvergne-Chambord",
        "Maximilien-Alexandre Vandenberghe-Lefebvre-Duchâteau",
    ),
    (
        "La Belote Joyeuse du Foyer Rural de Saint-Rémy-de-Provence",
        "Jean-Baptiste-Emmanuel de La Rochefoucauld-Doudeauville",
        "Bérénice-Clémentine Fontaine-Desjardins-Beauregard",
    ),
]
# (preset, partie or None for the preset's own, pages a table: the front, and the back for a
# partie to a target)
SHEETS = {
    "belote": ("belote", None, 1),
    "coinche": ("coinche", None, 2),
    "belote-target": ("belote", {"preset": "belote", "deals_limit": None, "target": 1000}, 2),
    "melee": ("melee", None, 1),
}


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("kind", list(SHEETS))
def test_a_table_s_sheet_is_one_sheet_of_paper_whatever_its_names(
    live_server: LiveServer, new_phone: NewPhone, kind: str, lang: str
) -> None:
    """Real use printed four A4 pages a table: long team and player names wrapped the dealer
    cells (a row per deal grew two or three lines tall) and a coinche partie to 2000 ran over
    two pages front and two back. Now a sheet is one page, and its back one more for a partie
    to a target (printed double sided: one sheet of paper), whatever the names (60 characters,
    the most a name may have) and the language. Looked at in screenshots/prints-long-*.png."""
    preset, partie, per_table = SHEETS[kind]
    owner: User = UserFactory.create(username="organiser")
    overrides: dict[str, object] = {"seed": 5, "rounds": 1}
    if partie:
        overrides["partie"] = partie
    tournament = services.create_tournament(
        owner=owner,
        name="Grand concours annuel de belote et de coinche des Amis du Vieux Moulin",
        place="Salle polyvalente Jean-Baptiste Poquelin, Saint-Martin-la-Mer",
        date=datetime.date(2026, 11, 11),
        preset=preset,
        overrides=overrides,
    )
    if preset == "melee":
        for name in [n for team in LONG_TEAMS for n in team]:
            services.add_entrant(tournament=tournament, name=name)
    else:
        for name, a, b in LONG_TEAMS:
            services.add_entrant(tournament=tournament, name=name, players=(a, b))
    services.draw_round(tournament=tournament)
    tables = Table.objects.filter(round__tournament=tournament).count()
    page = new_phone()
    sign_in(page, live_server.url, owner)
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.goto(f"{live_server.url}/concours/{tournament.pk}/round/1/print/sheets/")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator("article.sheet:not(.sheet-back)")).to_have_count(tables)
    assert print_pdf(page, f"long-{kind}-{lang}") == tables * per_table
    # Every row of a sheet is as tall as the others: no name makes a row grow (printed: the
    # width of an A4 page inside its margins, 186 mm).
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 703, "height": 1000})
    heights = page.evaluate(
        """() => [...document.querySelectorAll('.sheet-grid tbody')].map(
            body => [...new Set([...body.rows].filter(r => !r.classList.contains('sheet-carried'))
                .map(r => Math.round(r.getBoundingClientRect().height)))])"""
    )
    assert all(len(found) == 1 for found in heights), heights
    page.emulate_media(media="null")
    page.set_viewport_size(PHONE)
    # One table's sheet again (a new link, a sheet lost): its own page(s).
    page.goto(f"{live_server.url}/concours/{tournament.pk}/round/1/print/sheets/?table=1")
    assert print_pdf(page, f"long-{kind}-{lang}-table-1") == per_table
    no_layout_or_page_errors(page)


def test_the_ranking_print_marks_a_late_entry(live_server: LiveServer, new_phone: NewPhone) -> None:
    """Issue 22: a team that joined at round 2 is marked "from round 2" on the printed ranking
    (as on the desk), beside its bye; looked at in screenshots/prints-ranking-late-page-1.png."""
    owner: User = UserFactory.create(username="organiser")
    tournament = a_concours(owner, TEAMS[:8], rounds=2)
    round_ = Round.objects.get(tournament=tournament)
    for table in Table.objects.filter(round=round_):
        play_out(table, seed=5)
    services.close_round(round_=round_)
    services.add_entrant(tournament=tournament, name="Les Retardataires", players=("Yves", "Yann"))
    round_ = services.draw_round(tournament=tournament)
    for table in Table.objects.filter(round=round_):
        play_out(table, seed=6)
    services.close_round(round_=round_)
    services.finish(tournament=tournament)
    page = new_phone()
    sign_in(page, live_server.url, owner)
    page.goto(f"{live_server.url}/concours/{tournament.pk}/print/ranking/")
    expect(page.locator(".ranking-late")).to_have_text(["from round 2"])
    assert print_pdf(page, "ranking-late") == 1
    text = pdf_page_text(SHOTS / "prints-ranking-late.pdf", 1)
    if text is not None:
        assert "Les Retardataires Yves & Yann 1 bye" in text and "from round 2" in text, text
    no_layout_or_page_errors(page)
