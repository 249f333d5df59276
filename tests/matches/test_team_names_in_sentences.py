"""Issue 22: team names in sentences ("les 81 de Les Bleus", "Les Rouges a pris", "Les Rouges
receives", "Nous win"). Every breakdown line, the winner's banner and the chart's words read
right in English and in French whatever the name: singular (Anna), plural (Les Rouges), starting
with an article (Le Club, Les Bleus), a pronoun (Nous, Us)."""

import re
from typing import get_args

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper.engine.scoring import Announcement, Kind, Note, Rank
from scorekeeper.engine.scoring.breakdown import NoteKey
from scorekeeper.history.chart_text import running_totals_text
from scorekeeper.web import words

from .conftest import MakeMatch
from .support import coinche_deal

NAMES = ("Anna", "Les Rouges", "Le Club", "Nous", "Us")
OTHER = "Les Bleus"
ITEMS = (Announcement(Kind.TIERCE, Rank.KING),)

# A verb agreeing with the name (a name may be one player or several), or "de"/"à" before an
# article ("de Les Rouges" is "des Rouges" in French: never right with a name as it is).
EN_VERB = r"(?:win|wins|lead|leads|receive|receives|has|have|is|are|was|were)"
FR_VERB = r"(?:a|ont|reçoit|reçoivent|mène|mènent|menait|menaient|est|sont|gagne|gagnent)"


def wrong(text: str, name: str, language: str) -> list[str]:
    found = []
    verb = EN_VERB if language == "en" else FR_VERB
    for team in (name, OTHER):
        # The name as a clause's subject: at the start, or after a stop, a colon or a star.
        if re.search(rf"(?:^|[;:,.!★]\s){re.escape(team)} {verb}\b", text):
            found.append(f"{team} + verb")
        article = team.split()[0] in ("Le", "Les")
        if language == "fr" and article and re.search(rf"\b(?:de|à) {re.escape(team)}\b", text):
            found.append(f"de/à {team}")
    return found


def notes() -> list[Note]:
    out = []
    for key in get_args(NoteKey):
        out.append(Note(key, team=0, points=81, other=81, contract=90, trump="spades", items=ITEMS))
    return out


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("name", NAMES)
def test_every_breakdown_line_reads_right_with_any_name(name: str, language: str) -> None:
    problems = []
    with translation.override(language):
        for note in notes():
            line = words.breakdown_line(note, (name, OTHER))
            problems += [f"{note.key}: {line!r}: {p}" for p in wrong(line, name, language)]
    assert problems == []


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("name", NAMES)
def test_the_charts_words_read_right_with_any_name(name: str, language: str) -> None:
    cases = [
        ([(160, 0), (500, 90)], {}),
        ([(0, 160), (1000, 250)], {"finished": True, "winner": 0}),
        ([(160, 0), (0, 160), (160, 160)], {}),
        ([(160, 0), (160, 320), (900, 320)], {}),
        ([(160, 0)], {"abandoned": True}),
    ]
    problems = []
    with translation.override(language):
        for totals, kwargs in cases:
            text = running_totals_text((name, OTHER), totals, **kwargs)  # type: ignore[arg-type]
            problems += [f"{text!r}: {p}" for p in wrong(text, name, language)]
    assert problems == []


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_winners_banner_reads_right(
    owner_client: Client, make_match: MakeMatch, language: str
) -> None:
    from django.conf import settings

    owner_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    from scorekeeper.engine.scoring import rules_from_dict

    rules = rules_from_dict({"preset": "coinche", "target": 100})
    for name in NAMES:
        match = make_match(rules, deals=[coinche_deal(points=120)], team_names=(name, OTHER))
        html = owner_client.get(reverse("matches:scoreboard", args=[match.scorer_token])).text
        title = re.search(r'<p class="banner-title">(.*?)</p>', html, re.S)
        assert title is not None
        text = " ".join(title.group(1).split())
        assert wrong(text, name, language) == [], text
        expected = {"en": f"Winner: {name}", "fr": f"Vainqueur : {name}"}[language]
        assert text.replace("\u00a0", " ") == f"★ {expected}", text


def test_a_reserve_received_reads_right() -> None:
    note = Note("reserve_received", team=1, points=81)
    with translation.override("en"):
        assert words.breakdown_line(note, ("Anna", "Les Rouges")) == (
            "The 81 held in reserve go to Les Rouges"
        )
    with translation.override("fr"):
        assert words.breakdown_line(note, ("Anna", "Les Rouges")).replace("\u00a0", " ") == (
            "Les 81 points en réserve vont à l'équipe Les Rouges"
        )
