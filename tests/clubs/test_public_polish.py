"""The club's public pages as a visual review left them: the printable season page's column
titles (short words, a legend) and its Print button; the record's chart (dates, dots, the
entrants' line off the axis); the club page's podium links as tap targets."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.clubs.models import Club
from scorekeeper.concours.models import Tournament

from .public_support import season

pytestmark = pytest.mark.django_db


def test_the_printable_season_has_short_column_titles_a_legend_and_a_print_button(
    client: Client, club: Club, three: list[Tournament]
) -> None:
    this = season(club, "2025-2026")
    body = client.get(reverse("club_public:season_print", args=[club.slug, this.pk])).content
    html = body.decode()
    head = html[html.index("<thead>") : html.index("</thead>")]
    shown = re.sub(r'<span class="sr-only">.*?</span>', "", head)  # the words for screen readers
    titles = [re.sub(r"<[^>]+>", "", t).strip() for t in re.findall(r"<th[^>]*>(.*?)</th>", shown)]
    assert titles == ["Rank", "Name", "Score", "Won", "Best", "Pl.", "Cnt."]
    # A screen reader says each title in full words, not its abbreviation (issue 27).
    assert '<span aria-hidden="true"><abbr title="concours played">Pl.</abbr></span>' in head
    assert '<span class="sr-only">concours played</span>' in head
    assert '<abbr title="concours won">Won</abbr>' in head
    assert "Won: concours won; Best: best place; Pl.: concours played" in html
    # The concours prints' button: shown by print.js (no inline script), not printed.
    assert re.search(
        r'<button class="btn[^"]*" type="button" data-print hidden>Print</button>', html
    )
    assert '/static/js/print.js" defer></script>' in html
    assert "<script>" not in html and " onclick" not in html


def test_the_record_chart_has_a_dot_per_concours_dates_and_the_field_off_the_axis(
    client: Client, club: Club, three: list[Tournament]
) -> None:
    from scorekeeper.clubs.models import Person

    rois = Person.objects.get(club=club, kind="team", name="Rois")
    html = client.get(reverse("club_public:record", args=[club.slug, rois.pk])).content.decode()
    svg = html[html.index('<svg class="chart"') : html.index("</svg>")]
    dots = re.findall(
        r'<circle class="dot t0" cx="([\d.]+)" cy="([\d.]+)" r="[\d.]+"><title>([^<]*)<', svg
    )
    assert [title for _, _, title in dots] == [
        "1 of 4, 1 Oct 2025",
        "2 of 4, 1 Nov 2025",
        "4 of 4, 1 Dec 2025",
    ]
    # Dates under the x axis (month and year), the first from the plot's left edge (not under
    # the y axis's labels), the last ending at its right edge.
    labels = re.findall(r'<text class="axis" x="[\d.]+" y="172" text-anchor="(\w+)">([^<]*)<', svg)
    assert labels == [("start", "Oct. 2025"), ("middle", "Nov. 2025"), ("end", "Dec. 2025")]
    # The field (4 entrants, the last place) drawn above the bottom of the plot, not on it.
    field = re.search(r'<polyline class="series t1 club-field" points="([^"]*)"', svg)
    assert field is not None
    ys = {float(point.split(",")[1]) for point in field.group(1).split()}
    assert len(ys) == 1 and ys.pop() < 158 - 10
    assert float(dots[2][1]) == float(re.findall(r'y1="([\d.]+)"', svg)[-1])  # 4th: on the 4 line
    # The legend: each key with its word, no lone separator between them.
    assert re.search(r'<span><span class="club-key club-key-place"></span> place</span>', html)


def test_the_record_chart_dates_in_french(club: Club, three: list[Tournament]) -> None:
    from django.utils import translation

    from scorekeeper.clubs.models import Person

    rois = Person.objects.get(club=club, kind="team", name="Rois")
    french = Client(headers={"accept-language": "fr"})
    try:
        html = french.get(reverse("club_public:record", args=[club.slug, rois.pk])).content
    finally:
        translation.activate("en")
    svg = html.decode()
    assert ">oct. 2025<" in svg and ">déc. 2025<" in svg


def test_the_club_page_podium_links_are_tap_targets(
    client: Client, club: Club, three: list[Tournament]
) -> None:
    html = client.get(reverse("club_public:club", args=[club.slug])).content.decode()
    podiums = re.findall(r'<ol class="club-podium">(.*?)</ol>', html, re.S)
    assert len(podiums) == 3
    links = re.findall(r"<a ([^>]*)>", "".join(podiums))
    assert len(links) == 9 and all(
        link.startswith('class="tap-link" href="/club/') for link in links
    )
