"""Issue 22: the summary beside Save says what the preview says, in short (the reserve a deal
receives, "this ends the match", a reserve "not awarded"), with team names that can be told
apart ("Les Ro…" twice named nobody)."""

import re
from functools import partial

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from scorekeeper.engine.scoring import rules_from_dict
from scorekeeper.matches.models import Match
from scorekeeper.matches.templatetags.matches import short_names

from .conftest import MakeMatch
from .support import belote_deal, deal_post

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def link(name: str, match: Match) -> str:
    return reverse(f"matches:{name}", kwargs={"token": match.scorer_token})


def summary(html: str) -> str:
    """The summary beside Save, as text."""
    found = re.search(r'<p id="preview-line"[^>]*>(.*?)</p>', html, re.S)
    assert found is not None
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def belote_post(version: int, taker: str, points: str) -> dict[str, str]:
    data = {**deal_post(version, taker=taker, taker_points=points), "trump": "spades"}
    del data["contract"], data["coinche"]
    return data


def test_the_summary_names_both_teams_in_full_when_they_fit(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match(team_names=("Les Rouges", "Les Roses"))
    html = owner_client.post(link("deal_new", match), deal_post(match.version), headers=HTMX)
    line = summary(html.text)
    assert line == "Made · Les Rouges +180 · Les Roses +60", line
    assert "…" not in line


def test_long_names_are_shortened_so_that_they_differ() -> None:
    assert short_names(("Les Rouges", "Les Roses")) == ("Les Rouges", "Les Roses")
    first, second = short_names(("Les Joyeux Lurons du Mardi", "Les Joyeux Lurons du Jeudi"))
    assert first != second and len(first) <= 12 and len(second) <= 12, (first, second)
    assert "Mardi" in first and "Jeudi" in second
    first, second = short_names(("Les Bons Amis de la Pétanque", "Les Braves"))
    assert first.startswith("Les Bons") and first.endswith("…") and second == "Les Braves"
    first, second = short_names(("Équipe A du club de Lyon", "Équipe B du club de Lyon"))
    assert first != second and "A" in first and "B" in second, (first, second)


def test_the_summary_gives_the_reserve_received(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match("belote", deals=[belote_deal(taker=0, points=81)])
    html = owner_client.post(
        link("deal_new", match), belote_post(match.version, "1", "90"), headers=HTMX
    ).text
    line = summary(html)
    assert "Eux +171" in line and "90 + 81 from the last litige" in line, line
    owner_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    french = summary(
        owner_client.post(
            link("deal_new", match), belote_post(match.version, "1", "90"), headers=HTMX
        ).text
    )
    assert "90 + 81 du litige précédent" in french, french


def test_the_summary_says_a_litige_holds_points(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match("belote")
    html = owner_client.post(
        link("deal_new", match), belote_post(match.version, "0", "81"), headers=HTMX
    ).text
    line = summary(html)
    assert line.startswith("Litige") and "81 kept for the next deal" in line, line


def test_the_summary_says_the_deal_ends_the_match_and_what_is_not_awarded(
    owner_client: Client, make_match: MakeMatch
) -> None:
    rules = rules_from_dict({"preset": "belote", "target": 300})
    match = make_match(rules, deals=[belote_deal(0, 81), belote_deal(1, 90)])
    html = owner_client.post(
        link("deal_new", match), belote_post(match.version, "0", "81"), headers=HTMX
    ).text
    line = summary(html)
    assert "this ends the match" in line and "81 in reserve, not awarded" in line, line


def test_a_second_litige_says_what_it_receives_and_what_it_keeps_apart(
    owner_client: Client, make_match: MakeMatch
) -> None:
    """Issue 41: "+162 · 81 + 81 held in reserve · 81 held in reserve" named the reserve received
    and the one kept alike; each says which it is, in English and in French."""
    match = make_match("belote", deals=[belote_deal(taker=0, points=81)])
    post = belote_post(match.version, "0", "81")  # a second litige in a row
    line = summary(owner_client.post(link("deal_new", match), post, headers=HTMX).text)
    assert line.startswith("Litige · Nous +0 · Eux +162"), line
    assert "81 + 81 from the last litige" in line and "81 kept for the next deal" in line, line
    assert "held" not in line
    owner_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    french = summary(owner_client.post(link("deal_new", match), post, headers=HTMX).text)
    assert "81 + 81 du litige précédent" in french, french
    assert "81 gardés pour la donne suivante" in french, french


def test_a_short_name_leaves_its_room_to_the_other() -> None:
    """Issue 41: "L'Équipe d'Hélène" was cut to "L'Équipe d'…" beside "Nous", with room to spare:
    at the usual text size the line holds 24 characters of names, shared; a name cut inside a
    word is cut before it. With larger text each keeps to its 12."""
    shared = partial(short_names, shared=True)
    assert shared(("L'Équipe d'Hélène", "Nous")) == ("L'Équipe d'Hélène", "Nous")
    assert shared(("Nous", "L'Équipe d'Hélène")) == ("Nous", "L'Équipe d'Hélène")
    long = "Les Joyeux Compagnons de la Belote du Mardi"
    assert shared((long, "Nous")) == ("Les Joyeux…", "Nous")  # not "Les Joyeux Compagno…"
    assert shared(("L'Équipe d'Hélène", long)) == ("L'Équipe…", "Les Joyeux…")
    assert short_names(("L'Équipe d'Hélène", "Nous")) == ("L'Équipe…", "Nous")


def test_the_summary_shows_the_name_in_full_where_there_is_room(
    owner_client: Client, make_match: MakeMatch
) -> None:
    match = make_match(team_names=("L'Équipe d'Hélène", "Nous"))
    html = owner_client.post(link("deal_new", match), deal_post(match.version), headers=HTMX).text
    assert (
        '<span class="nm"><span class="nm-roomy">L&#x27;Équipe d&#x27;Hélène</span>'
        '<span class="nm-short">L&#x27;Équipe…</span></span>'
    ) in html
    assert '<span class="nm">Nous</span>' in html
