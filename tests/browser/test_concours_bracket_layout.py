"""Issue 42: the final bracket read on a 360 px phone with 200 % text (the desk, the public page,
Find my table and the bracket's print, on screen and printed to PDF), and on the projector's dark
wall. A bracket of 8 with a consolation bracket and a third-place table, long club names, the
quarter-finals played (one on equal totals), the consolation semi-finals under way: every kind of
table and side the bracket draws. Screens photographed with SCREENSHOTS=1
(concours-bracket-*.png, prints-bracket-*)."""

import html
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, ViewportSize
from pytest_django.live_server_helper import LiveServer

from scorekeeper.concours import services
from scorekeeper.concours.models import Round, Tournament
from tests.factories import UserFactory

from . import test_large_text
from .conftest import (
    SHOTS,
    layout_problems,
    page_errors,
    save_screenshot,
    sign_in,
    text_problems,
    watch,
)
from .test_concours_formats import no_axe_violation
from .test_concours_prints import print_pdf

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

big_phone = test_large_text.big_phone  # its fixture: a phone with larger text
WALL: ViewportSize = {"width": 1920, "height": 1080}
TEAMS = [
    ("Les Joyeux Compagnons du Vieux Moulin de Saint-Martin", "Quentin-Alexandre", "Rose"),
    ("Amicale Bouliste de Saint-Jean-de-Luz", "Anna", "David"),
    ("Les Invincibles de Marseille", "Benoît-Alexandre", "Chloé"),
    ("Trèfle d'Or", "Emma", "Farid"),
    ("Carreau Magique", "Gaston", "Hélène"),
    ("Cœur Vaillant", "Inès", "Jules"),
    ("Atout Maître", "Karim", "Louise"),
    ("Belote et Rebelote", "Marcel", "Nadia"),
    ("Les Rois du Pique", "Octave", "Pauline"),
    ("Dix de Der", "Sami", "Tara"),
]


def paper_round(round_: Round, *, equal: int | None = None, leave: int | None = None) -> None:
    """Round `round_`'s tables typed from paper (side 0 ahead; table `equal` on equal totals),
    closed unless table `leave` is left playing."""
    for table in round_.tables.order_by("number"):
        if table.number == leave:
            continue
        first = 1000 if table.number == equal else 1100 + 10 * table.number
        services.record_paper_totals(table=table, totals=(first, 2000 - first))
    if leave is None:
        services.close_round(round_=round_)


def bracket_concours(owner: User) -> Tournament:
    """Three qualifying rounds played, the quarter-finals played (table 2 on equal totals), the
    consolation semi-finals drawn, table 1 typed and table 2 still playing."""
    tournament = services.create_tournament(
        owner=owner,
        name="Coupe de la Saint-Martin",
        overrides={
            "seed": 7,
            "rounds": 3,
            "final": {"size": 8, "consolation": True, "third_place": True},
        },
    )
    for name, a, b in TEAMS:
        services.add_entrant(tournament=tournament, name=name, players=(a, b))
    for _ in range(3):
        paper_round(services.draw_round(tournament=tournament))
    paper_round(services.draw_round(tournament=tournament), equal=2)  # quarter-finals
    paper_round(services.draw_round(tournament=tournament), leave=2)  # consolation semi-finals
    tournament.refresh_from_db()
    return tournament


# What the bracket must not do with large text, beyond the page's own checks: a side's name, seed
# and points drawn over each other, or a word of a name broken over lines ("names whole": a long
# name wraps between its words, or after a hyphen).
_BRACKET_JS = """() => {
    const problems = [];
    const boxes = (el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return [...range.getClientRects()].filter((r) => r.width && r.height);
    };
    const crosses = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
        && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
    for (const side of document.querySelectorAll(".bracket-side")) {
        const parts = [...side.querySelectorAll(".bracket-seed, .bracket-name, .bracket-points")]
            .filter((el) => el.innerText.trim());
        for (let i = 0; i < parts.length; i++) {
            for (let j = i + 1; j < parts.length; j++) {
                if (boxes(parts[i]).some((a) => boxes(parts[j]).some((b) => crosses(a, b)))) {
                    problems.push(`"${parts[i].innerText.trim()}" and "${parts[j].innerText.trim()}"`
                                  + " drawn over each other");
                }
            }
        }
        const name = side.querySelector(".bracket-name");
        const text = name && name.firstChild;
        if (!text || text.nodeType !== Node.TEXT_NODE) continue;
        for (const match of text.data.matchAll(/[^\\s\\-]+/g)) {
            const range = document.createRange();
            range.setStart(text, match.index);
            range.setEnd(text, match.index + match[0].length);
            const lines = new Set([...range.getClientRects()].filter((r) => r.width)
                .map((r) => Math.round(r.top))).size;
            if (lines > 1) problems.push(`"${match[0]}" of "${text.data.trim()}" on ${lines} lines`);
        }
    }
    return problems;
}"""


def bracket_problems(page: Page) -> list[str]:
    """Everything wrong with the screen at large text: the phone's layout (sideways scroll,
    small targets), text out of its box or broken apart, and the bracket's own."""
    page.wait_for_load_state("load")
    found = layout_problems(page) + text_problems(page)
    found += page.evaluate(test_large_text._OVERFLOW_JS)
    found += page.evaluate(_BRACKET_JS)
    return found


def pdf_words(pdf: Path) -> list[tuple[str, float, float, float, float]] | None:
    """Every word printed on the PDF's first page with its box (poppler's pdftotext -bbox), or
    None where it is not installed."""
    pdftotext = shutil.which("pdftotext")
    if not pdftotext:
        return None
    out = subprocess.run(
        [pdftotext, "-bbox", "-f", "1", "-l", "1", str(pdf), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    words = []
    for match in re.finditer(
        r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', out
    ):
        x0, y0, x1, y1 = (float(v) for v in match.groups()[:4])
        words.append((html.unescape(match.group(5)), x0, y0, x1, y1))
    return words


def test_the_bracket_reads_at_200_percent_text_on_each_page_and_on_paper(
    live_server: LiveServer, big_phone: Callable[..., Page]
) -> None:
    """Issue 42: at 200 % text on a 360 px phone the bracket's names came a letter a line, the
    points drawn over them, and the print scrolled sideways. Each table is now a card whose
    names wrap between their words at its whole width, the points at the right of the name's
    last line or under it. On the desk, the public page, Find my table (the player's side
    highlighted) and the print's screen: no sideways scroll, nothing out of its box, no word of
    a name broken, no seed, name or points over another; printed: one page, each name's words
    whole, no word over another."""
    owner: User = UserFactory.create(username="organiser")
    tournament = bracket_concours(owner)
    base = live_server.url
    page = big_phone(2.0)
    sign_in(page, base, owner)
    semi = Round.objects.get(tournament=tournament, number=5)  # the consolation semi-finals
    someone = semi.places.select_related("entrant").get(table__number=1, side=0).entrant.name
    places = {
        "desk": f"/concours/{tournament.pk}/",
        "public": f"/c/{tournament.public_token}/",
        "find-my-table": f"/c/{tournament.public_token}/?q={someone}",
        "print": f"/concours/{tournament.pk}/print/bracket/",
    }
    problems: dict[str, list[str]] = {}
    for name, address in places.items():
        page.goto(f"{base}{address}")
        assert test_large_text.root_font_px(page) == pytest.approx(34, abs=0.5), name
        bracket = page.locator("#bracket")
        bracket.scroll_into_view_if_needed()
        assert bracket.locator(".bracket-table").count() == 11, name
        if found := bracket_problems(page):  # measured before a picture resizes the screen
            problems[name] = found
        bracket.locator(".bracket-table").first.scroll_into_view_if_needed()
        save_screenshot(page, f"concours-bracket-200-{name}-quarter-finals.png")
        if name == "find-my-table":
            page.locator(".bracket-side.is-you").first.scroll_into_view_if_needed()
            save_screenshot(page, f"concours-bracket-200-{name}-you.png")
        if name == "desk":  # and in dark mode
            page.emulate_media(color_scheme="dark")
            save_screenshot(page, f"concours-bracket-200-{name}-dark.png")
            page.emulate_media(color_scheme="light")
        save_screenshot(page, f"concours-bracket-200-{name}.png", full_page=True)
    assert problems == {}, "\n".join(
        f"{at}: {it}" for at, found in problems.items() for it in found
    )
    assert page.locator(".bracket-side.is-you").count() == 0  # the print highlights nobody

    # On paper (A4 landscape, from the same phone): one page, every word of every name printed
    # whole, nothing printed over anything else.
    assert print_pdf(page, "bracket-large-text") == 1
    words = pdf_words(SHOTS / "prints-bracket-large-text.pdf")
    if words is not None:
        printed = {part for word, *_ in words for part in word.split("-")}
        for team in set(page.locator(".bracket-name:not(:has(em))").all_inner_texts()):
            for part in re.split(r"[\s\-]+", team):
                assert part in printed, (team, part)
        for i, (a, *box_a) in enumerate(words):
            for b, *box_b in words[i + 1 :]:
                across = min(box_a[2], box_b[2]) - max(box_a[0], box_b[0])
                down = min(box_a[3], box_b[3]) - max(box_a[1], box_b[1])
                assert across <= 0.5 or down <= 0.5, f"{a!r} printed over {b!r}"
    assert page_errors(page) == []


# Each knocked-out side's words on the projector: their contrast, by WCAG 2's formula, between
# the text's colour made as faint as its opacity and its ancestors' make it, and the colour under
# it (the backgrounds drawn there, the page's own at the end); and that faintness (1: solid).
_CONTRAST_JS = """() => {
    const rgba = (text) => {
        const [r, g, b, a = 1] = text.match(/[\\d.]+/g).map(Number);
        return {r, g, b, a};
    };
    const over = (top, under) => ({
        r: top.r * top.a + under.r * (1 - top.a),
        g: top.g * top.a + under.g * (1 - top.a),
        b: top.b * top.a + under.b * (1 - top.a),
        a: 1,
    });
    const luminance = ({r, g, b}) => {
        const lin = (c) => (c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const backdrop = (el) => {
        const layers = [];
        for (let a = el; a; a = a.parentElement) {
            const bg = rgba(getComputedStyle(a).backgroundColor);
            if (bg.a > 0) layers.push(bg);
            if (bg.a === 1) break;
        }
        return layers.reverse().reduce((under, top) => over(top, under),
                                       {r: 255, g: 255, b: 255, a: 1});
    };
    const found = [];
    for (const el of document.querySelectorAll(
            ".bracket-side.is-out :is(.bracket-seed, .bracket-name, .bracket-points)")) {
        if (!el.innerText.trim()) continue;
        const fg = rgba(getComputedStyle(el).color);
        for (let a = el; a; a = a.parentElement) fg.a *= Number(getComputedStyle(a).opacity);
        const [l1, l2] = [luminance(over(fg, backdrop(el))), luminance(backdrop(el))];
        const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
        found.push([el.innerText.trim(), Math.round(ratio * 100) / 100, fg.a]);
    }
    return found;
}"""


def test_knocked_out_teams_stay_legible_on_the_projector(
    live_server: LiveServer, browser: Browser
) -> None:
    """Issue 42: a knocked-out side on the wall's dark background is at least 4.5:1 against it
    (WCAG AA for text), its name, seed and points alike, in a solid colour: a projector washes
    out what the screen draws, a translucent text first (they were at 60 % opacity, struck
    through, seed and all: 6.2:1 for the names, 4.8:1 for the seeds, on the screen). Axe finds
    nothing either."""
    tournament = bracket_concours(UserFactory.create(username="organiser"))
    context = browser.new_context(viewport=WALL)
    wall = watch(context.new_page())
    wall.goto(f"{live_server.url}/c/{tournament.public_token}/projector/")
    assert wall.locator(".proj-bracket .bracket-side.is-out").count() == 5
    contrasts = wall.evaluate(_CONTRAST_JS)
    assert len(contrasts) == 15  # each knocked-out side's seed, name and points
    faint = [(text, ratio, alpha) for text, ratio, alpha in contrasts if ratio < 4.5 or alpha < 1]
    assert faint == [], contrasts
    save_screenshot(wall, "concours-bracket-projector.png")
    no_axe_violation(wall)
    assert page_errors(wall) == []
    context.close()
