"""The new match page: every preset with its summary, custom settings, validation errors next to
their field with nothing saved, the players this browser knows, and the first dealer (chosen or
drawn)."""

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.engine.scoring import PRESETS, rules_from_dict
from scorekeeper.matches import access
from scorekeeper.matches.models import Match, Player
from scorekeeper.web.words import PRESET_SUMMARIES

from .support import new_match_post

pytestmark = pytest.mark.django_db
NEW = reverse("matches:new")


form = new_match_post  # the form as posted, with `changes`


def field_error(html: str, field: str) -> str:
    """The error paragraph rendered next to `field` (partials/field.html), or ""."""
    marker = f'<p class="error" id="id_{field}_error">'
    start = html.find(marker)
    if start < 0:
        return ""
    return html[start + len(marker) : html.index("</p>", start)]


def test_the_page_lists_every_preset_with_its_summary(client: Client) -> None:
    page = client.get(NEW)
    assert page.status_code == 200
    text = re.sub(r'</?span( lang="fr")?>', "", page.text)  # French words are marked (issue 12)
    for name in PRESETS:
        assert f'value="{name}"' in page.text
        assert str(PRESET_SUMMARIES[name]).replace("'", "&#x27;") in text


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_starts_a_match_for_this_browser(client: Client, preset: str) -> None:
    response = client.post(NEW, form(preset=preset, first_dealer="2"))
    match = Match.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("matches:scoreboard", args=[match.scorer_token])
    assert match.rules == PRESETS[preset].to_dict()
    assert (match.preset, match.game) == (preset, PRESETS[preset].game)
    assert match.team_names == ("Nous", "Eux") and match.first_dealer == 2
    assert [p.name for p in match.seats if p] == ["Alice", "Chloé", "Bruno", "David"]
    assert match.owner_key == client.session[access.DEVICE_KEY]
    board = client.get(response["Location"])
    assert board.status_code == 200 and "Record a deal" in board.text


def test_custom_settings_are_resolved_and_frozen_with_the_match(client: Client) -> None:
    client.post(
        NEW,
        form(
            target="1500",
            sa_ta="off",
            rounding="none",
            multipliers="2 × 3",
            max_bid="160",
            capot_bid="0",  # 0: none
            announcements="off",
            litige="none",  # a classic belote setting: ignored for coinche
        ),
    )
    match = Match.objects.get()
    expected = rules_from_dict(
        {
            "preset": "coinche",
            "target": 1500,
            "sa_ta": False,
            "rounding": "none",
            "multipliers": [2, 3],
            "max_bid": 160,
            "capot_bid": None,
            "announcements": False,
        }
    )
    assert match.rules == expected.to_dict()
    assert match.engine_rules == expected


def test_a_match_to_a_deals_limit_without_target(client: Client) -> None:
    client.post(NEW, form(preset="belote", target="0", deals_limit="12"))
    match = Match.objects.get()
    assert match.rules["target"] is None and match.rules["deals_limit"] == 12


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"multipliers": "2"}, "multipliers", "Two whole numbers, e.g. 2, 4."),
        ({"multipliers": "4, 2"}, "multipliers", "must be above the coinche one"),
        ({"target": "-5"}, "target", "greater than or equal to 0"),
        ({"target": "abc"}, "target", "Enter a whole number."),
        ({"min_bid": "85"}, "min_bid", "multiple of 10"),
        ({"min_bid": "120", "max_bid": "100"}, "max_bid", "must not be below"),
        ({"target": "0"}, "target", "a target or a deals limit"),
        ({"team0_name": ""}, "team0_name", "This field is required."),
        ({"seat0": "x" * 61}, "seat0", "at most 60 characters"),
        ({"first_dealer": "7"}, "first_dealer", "Select a valid choice."),
    ],
)
def test_invalid_settings_are_shown_next_to_the_field_and_nothing_is_saved(
    client: Client, changes: dict[str, str], field: str, message: str
) -> None:
    data = form(**changes)
    response = client.post(NEW, data)
    assert response.status_code == 200
    assert message.replace("'", "&#x27;") in field_error(response.text, field)
    assert not Match.objects.exists() and not Player.objects.exists()
    # What was typed is kept.
    assert 'value="Chloé"' in response.text
    for name, value in changes.items():
        if value and name != "first_dealer":
            assert f'value="{value}"' in response.text


def test_an_unknown_preset_is_refused(client: Client) -> None:
    response = client.post(NEW, form(preset="poker"))
    assert response.status_code == 200
    assert "Select a valid choice" in response.text
    assert not Match.objects.exists()


def test_a_random_first_dealer_is_drawn_among_the_four_seats(client: Client) -> None:
    for _ in range(30):
        assert client.post(NEW, form(first_dealer="random")).status_code == 302
    dealers = set(Match.objects.values_list("first_dealer", flat=True))
    assert dealers <= {0, 1, 2, 3} and len(dealers) > 1  # 30 alike: a chance of 4 in 4**30


def test_the_first_dealer_deals_first(client: Client) -> None:
    response = client.post(NEW, form(first_dealer="3"))
    board = client.get(response["Location"])
    assert "<strong>David</strong> deals, <strong>Nous (1)</strong>" not in board.text
    assert "<strong>David</strong> deals, <strong>Alice</strong> speaks first" in board.text


def test_names_this_browser_already_used_are_suggested(client: Client) -> None:
    client.post(NEW, form())
    page = client.get(NEW)
    for name in ("Alice", "Bruno", "Chloé", "David"):
        assert f'<option value="{name}">' in page.text
    other: Any = Client().get(NEW)
    assert '<option value="Alice">' not in other.text


def test_a_match_without_player_names(client: Client) -> None:
    client.post(NEW, form(seat0="", seat1="", seat2="", seat3="", first_dealer="1"))
    match = Match.objects.get()
    assert match.seats == (None, None, None, None)
    board = client.get(reverse("matches:scoreboard", args=[match.scorer_token]))
    assert "<strong>Eux (1)</strong> deals, <strong>Nous (2)</strong> speaks first" in board.text


def test_every_description_a_field_points_to_exists(client: Client) -> None:
    """aria-describedby names the help and error texts: screen readers read them with the field."""
    for html in (client.get(NEW).text, client.post(NEW, {"preset": "coinche", "target": "x"}).text):
        ids = set(re.findall(r'\bid="([^"]+)"', html))
        described = re.findall(r'aria-describedby="([^"]+)"', html)
        assert described
        for names in described:
            assert set(names.split()) <= ids, names


def test_one_name_cannot_take_two_seats(client: Client) -> None:
    response = client.post(NEW, form(seat1=" alice "))
    assert response.status_code == 200
    assert field_error(response.text, "seat1") == "This name is already at the table."
    assert not Match.objects.exists() and not Player.objects.exists()
    # Said at the top too, with a link to the field; the rule settings stay folded.
    summary = response.text.split(
        '<div class="form-errors" id="error-summary" role="alert" tabindex="-1" autofocus>'
    )[1].split("</div>")[0]
    assert "Correct the fields marked below:" in summary
    assert '<a href="#id_seat1">Team 2, player 1</a>' in summary
    assert '<details class="settings">' in response.text


def test_a_wrong_setting_opens_the_rules(client: Client) -> None:
    response = client.post(NEW, form(target="-5"))
    assert '<details class="settings" open>' in response.text
    assert '<a href="#id_target">Target</a>' in response.text


def test_each_setting_shows_what_every_preset_sets_it_to(client: Client) -> None:
    """The page shows the checked preset's value (CSS picks it): 2000 for coinche, 501 for
    belote-501; the multipliers of coinche-x3; a setting of one game only for its presets."""
    html = client.get(NEW).text
    assert '<span class="pv pv-coinche">2000</span>' in html
    assert '<span class="pv pv-belote-501">501</span>' in html
    assert '<span class="pv pv-coinche-x3">2, 3</span>' in html
    litige = html.split('name="litige"')[-1].split("</div>", 1)[0]  # its last radio, its values
    assert "pv-belote" in litige and "pv-coinche" not in litige
