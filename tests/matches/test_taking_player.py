"""Who took and who coinched (issue 11, "Statistics that mean something"): kept on each deal as a
seat (0-3), checked by the database, carried by the match file through export, import, restore
and undo, chosen on the deal form with one tap among the right two players."""

import io
import json
import re

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from scorekeeper.engine.scoring import get_preset
from scorekeeper.matches import services
from scorekeeper.matches.forms import DealForm
from scorekeeper.matches.models import Deal, Match

from .conftest import MakeMatch
from .support import CREATOR, coinche_deal, deal_post, long_rules

pytestmark = pytest.mark.django_db

# Seats in playing order: Alice (0) and Bruno (2) are "Nous", Chloé (1) and David (3) "Eux".


def test_the_seats_are_stored_with_the_deal(make_match: MakeMatch) -> None:
    match = make_match(
        long_rules(),
        [
            coinche_deal(taker=0, taker_player=2, coinche="coinche", coinche_player=3),
            coinche_deal(taker=1, taker_player=1, coinche="surcoinche", coinche_player=3),
            coinche_deal(taker=1),
        ],
    )
    rows = list(match.deals.in_order().values_list("taker_player", "coinche_player"))
    assert rows == [(2, 3), (1, 3), (None, None)]
    first = match.deals.in_order()[0]
    assert first.as_match_dict()["taker_player"] == 2
    assert first.to_engine() == coinche_deal(
        taker=0, taker_player=2, coinche="coinche", coinche_player=3
    )


@pytest.mark.parametrize(
    ("values", "constraint"),
    [
        ({"taker": 0, "taker_player": 1}, "deal_taker_player_in_the_taking_team"),
        ({"taker": 1, "taker_player": 2}, "deal_taker_player_in_the_taking_team"),
        ({"taker": None, "kind": "passed", "taker_player": 0}, "deal_taker_player_in_the_taking_team"),
        ({"taker": 0, "taker_player": 4}, "deal_taker_player_in_the_taking_team"),
        ({"taker": 0, "coinche": "none", "coinche_player": 1}, "deal_coinche_player_in_the_right_team"),
        ({"taker": 0, "coinche": "coinche", "coinche_player": 2}, "deal_coinche_player_in_the_right_team"),
        ({"taker": 1, "coinche": "coinche", "coinche_player": 3}, "deal_coinche_player_in_the_right_team"),
        ({"taker": 0, "coinche": "surcoinche", "coinche_player": 1}, "deal_coinche_player_in_the_right_team"),
        ({"taker": 1, "coinche": "surcoinche", "coinche_player": 0}, "deal_coinche_player_in_the_right_team"),
    ],
)  # fmt: skip
def test_the_database_refuses_a_player_outside_the_right_team(
    make_match: MakeMatch, values: dict[str, object], constraint: str
) -> None:
    match = make_match(long_rules(), [coinche_deal()])
    with pytest.raises(IntegrityError) as caught, transaction.atomic():
        Deal.objects.filter(match=match).update(**values)
    assert constraint in str(caught.value) or "CHECK" in str(caught.value).upper()


@pytest.mark.parametrize(
    "values",
    [
        {"taker": 0, "taker_player": 0},
        {"taker": 0, "taker_player": 2},
        {"taker": 1, "taker_player": 3, "coinche": "coinche", "coinche_player": 0},
        {"taker": 0, "coinche": "coinche", "coinche_player": 3},
        {"taker": 0, "coinche": "surcoinche", "coinche_player": 2},
        {"taker": 1, "coinche": "surcoinche", "coinche_player": 1},
    ],
)
def test_the_database_takes_a_player_of_the_right_team(
    make_match: MakeMatch, values: dict[str, object]
) -> None:
    match = make_match(long_rules(), [coinche_deal()])
    assert Deal.objects.filter(match=match).update(**values) == 1


def test_export_writes_them_and_import_reads_them(
    make_match: MakeMatch, owner_client: Client
) -> None:
    match = make_match(
        long_rules(),
        [
            coinche_deal(taker=1, taker_player=3, coinche="coinche", coinche_player=0),
            coinche_deal(),
        ],
    )
    exported = owner_client.get(reverse("matches:export", args=[match.scorer_token])).json()
    assert exported["deals"][0]["taker_player"] == 3
    assert exported["deals"][0]["coinche_player"] == 0
    assert "taker_player" not in exported["deals"][1]  # not recorded: left out, as in older files
    upload = io.BytesIO(json.dumps(exported).encode())
    upload.name = "match.json"
    before = set(Match.objects.values_list("pk", flat=True))
    owner_client.post(reverse("matches:import"), {"file": upload})
    imported = Match.objects.exclude(pk__in=before).get()
    assert list(imported.deals.in_order().values_list("taker_player", "coinche_player")) == [
        (3, 0),
        (None, None),
    ]


def test_an_imported_player_outside_the_taking_team_is_refused_with_its_path(
    owner_client: Client,
) -> None:
    document = {
        "format": "belote-match/1",
        "rules": {"preset": "coinche"},
        "deals": [{"taker": 0, "contract": 80, "trump": "hearts", "taker_points": 100,
                   "taker_player": 1}],
    }  # fmt: skip
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "match.json"
    response = owner_client.post(reverse("matches:import"), {"file": upload})
    assert "deals[0].taker_player: the player who took is one of the takers" in response.text
    assert not Match.objects.exists()


def test_a_restored_backup_keeps_them(make_match: MakeMatch, db: None) -> None:
    from tests.history.test_data import upload

    from .conftest import client_with_device
    from .support import OWNER_KEY

    make_match(long_rules(), [coinche_deal(taker=0, taker_player=0)])
    backup = client_with_device(OWNER_KEY).get("/history/backup.zip").content
    restorer = client_with_device("new-phone")
    restorer.force_login(User.objects.create_user("restorer", password="a-long-password-42"))
    before = set(Deal.objects.values_list("pk", flat=True))
    assert "1 match restored." in upload(restorer, backup)
    assert list(Deal.objects.exclude(pk__in=before).values_list("taker_player", flat=True)) == [0]


def test_undo_brings_them_back(make_match: MakeMatch) -> None:
    match = make_match(long_rules(), [coinche_deal(taker=0, taker_player=2)])
    row = match.deals.get()
    services.edit_deal(
        match_id=match.pk, seq=row.seq, expected_version=None, deal=coinche_deal(taker=1),
        author=CREATOR,
    )  # fmt: skip
    row.refresh_from_db()
    assert row.taker_player is None
    services.undo_last_change(match_id=match.pk, expected_version=None, author=CREATOR)
    assert match.deals.values_list("taker", "taker_player").get() == (0, 2)


# The deal form ---------------------------------------------------------------------------------


def chips(html: str, name: str) -> list[tuple[str, str]]:
    """(value, label) of each chip of the radio group `name`."""
    found = re.findall(
        rf'<input type="radio" name="{name}" value="([^"]*)"[^>]*><span>([^<]*)</span>', html
    )
    return [(value, label) for value, label in found]


def test_the_form_offers_the_players_by_name(make_match: MakeMatch, owner_client: Client) -> None:
    match = make_match(long_rules())
    html = owner_client.get(reverse("matches:deal_new", args=[match.scorer_token])).text
    # Without script or style the four names are there; the page's CSS shows only the takers'
    # two (and the coinching side's two) once the takers are picked.
    assert chips(html, "taker_player") == [
        ("", "Not said"), ("0", "Alice"), ("2", "Bruno"), ("1", "Chloé"), ("3", "David"),
    ]  # fmt: skip
    assert chips(html, "coinche_player") == chips(html, "taker_player")
    assert "Who took" in html and "Who coinched or surcoinched" in html


def test_a_match_without_names_offers_the_seats_by_team(
    make_match: MakeMatch, owner_client: Client
) -> None:
    match = make_match(long_rules(), players=(None, None, None, None))
    html = owner_client.get(reverse("matches:deal_new", args=[match.scorer_token])).text
    assert [label for _value, label in chips(html, "taker_player")][1:] == [
        "Nous (1)", "Nous (2)", "Eux (1)", "Eux (2)",
    ]  # fmt: skip


def test_saving_a_deal_with_who_took_and_who_coinched(
    make_match: MakeMatch, owner_client: Client
) -> None:
    match = make_match(long_rules())
    url = reverse("matches:deal_new", args=[match.scorer_token])
    post = deal_post(match.version, taker="1", coinche="coinche", taker_player="3",
                     coinche_player="2")  # fmt: skip
    assert owner_client.post(url, post).status_code == 302
    row = match.deals.get()
    assert (row.taker, row.taker_player, row.coinche, row.coinche_player) == (1, 3, "coinche", 2)
    # Not said: nothing recorded, as before.
    match.refresh_from_db()
    owner_client.post(url, deal_post(match.version, taker_player="", coinche_player=""))
    assert match.deals.order_by("seq").last().taker_player is None  # type: ignore[union-attr]


def test_a_player_of_the_wrong_team_is_refused_on_the_form(
    make_match: MakeMatch, owner_client: Client
) -> None:
    match = make_match(long_rules())
    url = reverse("matches:deal_new", args=[match.scorer_token])
    response = owner_client.post(url, deal_post(match.version, taker="0", taker_player="1"))
    assert response.status_code == 200
    assert "the player who took is one of the takers" in response.text
    assert not match.deals.exists()
    response = owner_client.post(url, deal_post(match.version, coinche_player="1"))
    assert "there is no coinche on this deal" in response.text
    assert not match.deals.exists()


def test_editing_a_deal_shows_who_took(make_match: MakeMatch, owner_client: Client) -> None:
    match = make_match(long_rules(), [coinche_deal(taker=0, taker_player=2)])
    row = match.deals.get()
    html = owner_client.get(reverse("matches:deal_edit", args=[match.scorer_token, row.seq])).text
    assert re.search(r'name="taker_player" value="2"[^>]*checked', html)


def test_the_form_without_names_falls_back_to_team_and_rank() -> None:
    form = DealForm(rules=get_preset("coinche"), team_names=("A", "B"))
    assert [label for _v, label in form.fields["taker_player"].choices][1:] == [  # type: ignore[attr-defined]
        "A (1)", "A (2)", "B (1)", "B (2)",
    ]  # fmt: skip
