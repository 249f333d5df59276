"""Issue 12: the running-totals chart says the result in words (history/chart_text.py), in
English and French, and the review page ties the words to the chart."""

import re

from django.test import Client
from django.utils import translation

from scorekeeper.history.chart_text import LeadStory, lead_story, running_totals_text
from scorekeeper.matches.models import Match
from tests.conftest import Browser

NAMES = ("Aces", "Kings")


def say(totals: list[tuple[int, int]], **kwargs: object) -> str:
    with translation.override("en"):
        return running_totals_text(NAMES, totals, **kwargs)  # type: ignore[arg-type]


def test_the_story_of_the_lead() -> None:
    # level, Kings, Kings: Kings from deal 2, nobody else ever ahead
    assert lead_story([(0, 0), (80, 160), (160, 370)]) == LeadStory(
        leaders=(None, 1, 1), leader=1, since=2, changes=0, last_led=None
    )
    # Aces, level, Kings, Aces, Aces: two changes of hands (the tie skipped), Aces from 4
    story = lead_story([(90, 70), (160, 160), (160, 320), (500, 320), (700, 320)])
    assert (story.leader, story.since, story.changes) == (0, 4, 2)
    # ends level after Kings led at deal 2
    story = lead_story([(0, 0), (0, 160), (160, 160)])
    assert (story.leader, story.since, story.last_led) == (None, None, 2)
    # a finished match's winner leads, even level on points: no "since" then
    story = lead_story([(1010, 1010)], winner=0)
    assert (story.leader, story.since) == (0, None)


def test_a_finished_match_in_english() -> None:
    totals = [(160, 162), (160, 320), (320, 530)]
    assert say(totals, finished=True, winner=1) == (
        "Kings won 530 to 320 after 3 deals; Kings led from the first deal."
    )
    totals = [(0, 0), (80, 250), (320, 530)]  # level after the first deal: all passed
    assert say(totals, finished=True, winner=1) == (
        "Kings won 530 to 320 after 3 deals; Kings led from deal 2."
    )
    totals = [(100, 60), (100, 260), (400, 260), (400, 900), (1010, 900)]
    assert say(totals, finished=True, winner=0) == (
        "Aces won 1010 to 900 after 5 deals; the lead changed hands 4 times; Aces led from deal 5."
    )
    assert say([(100, 60), (100, 260), (1000, 260)], finished=True, winner=0) == (
        "Aces won 1000 to 260 after 3 deals; the lead changed hands 2 times; Aces led from deal 3."
    )
    assert say([(0, 250), (1000, 250)], finished=True, winner=0) == (
        "Aces won 1000 to 250 after 2 deals; the lead changed hands once; Aces led from deal 2."
    )
    # A winner behind on points (it could not clinch on its belote): no "led from".
    assert say([(1020, 1030)], finished=True, winner=0) == "Aces won 1020 to 1030 after 1 deal."


def test_draws_levels_and_abandoned_matches_in_english() -> None:
    assert say([(500, 500)], finished=True, winner=None) == "Drawn at 500 all after 1 deal."
    assert say([(0, 160), (500, 500)], finished=True, winner=None) == (
        "Drawn at 500 all after 2 deals; Kings last led after deal 1."
    )
    assert say([(160, 0), (160, 160)]) == (
        "Level at 160 all after 2 deals; Aces last led after deal 1."
    )
    assert say([(0, 0)]) == "Level at 0 all after 1 deal."
    assert say([(0, 160), (320, 210)]) == (
        "Aces ahead 320 to 210 after 2 deals; the lead changed hands once; Aces led from deal 2."
    )
    assert say([(0, 160), (320, 210)], abandoned=True) == (
        "Abandoned after 2 deals, Aces ahead 320 to 210; the lead changed hands once; "
        "Aces led from deal 2."
    )
    assert say([(160, 160)], abandoned=True) == "Abandoned after 1 deal, level at 160 all."
    assert say([]) == "No deal yet."


def test_the_words_in_french() -> None:
    """Three plural forms (0 and 1 take the singular), a no-break space before the semicolon, and
    no verb agreeing with a team's name (issue 22: "Eux a gagné", "Nous mène")."""
    with translation.override("fr"):
        names = ("Nous", "Eux")
        assert running_totals_text(
            names, [(0, 0), (80, 250), (320, 530)], finished=True, winner=1
        ) == (
            "Partie gagnée par Eux 530 à 320 après 3 donnes\u00a0; Eux en tête depuis la donne 2."
        )
        assert running_totals_text(names, [(160, 0)]) == (
            "Nous en tête 160 à 0 après 1 donne\u00a0; Nous en tête depuis la première donne."
        )
        assert running_totals_text(names, [(0, 160), (500, 500)], finished=True) == (
            "Match nul à 500 partout après 2 donnes\u00a0; Eux en tête pour la dernière fois"
            " après la donne 1."
        )
        assert running_totals_text(names, [(0, 250), (1000, 250)], finished=True, winner=0) == (
            "Partie gagnée par Nous 1000 à 250 après 2 donnes\u00a0; l’avantage a changé de camp"
            " une fois\u00a0; Nous en tête depuis la donne 2."
        )
        assert running_totals_text(names, [(160, 160)], abandoned=True) == (
            "Abandonnée après 1 donne, à égalité à 160 partout."
        )


def test_the_review_page_names_its_chart_with_the_result(
    facts_match: Match, browser: Browser
) -> None:
    client: Client = browser("someone-with-the-link")
    html = client.get(f"/view/{facts_match.view_token}/review/").text
    svg = re.search(r"<svg class=\"chart\"[^>]*>", html)
    assert svg is not None
    assert 'role="img"' in svg.group(0)
    assert 'aria-labelledby="chart-title chart-desc"' in svg.group(0)
    assert '<title id="chart-title">Running totals of both teams, deal by deal</title>' in html
    assert (
        '<desc id="chart-desc">Nous won 2170 to 410 after 6 deals; '
        "Nous led from the first deal.</desc>"
    ) in html
