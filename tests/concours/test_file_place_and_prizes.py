"""Issue 42: the concours file carries the place and the prizes (docs/tournaments.md §6), so a
downloaded file imported back gives the same place, the same prizes and, for teams tied on a
prize's rank, the same ex æquo notes on the desk, the print and the CSV. Before, an import lost
them all."""

import csv
import io
import json
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scorekeeper.concours import selectors, services
from scorekeeper.concours.models import Tournament

from .test_prize_ties import PRIZES, tied
from .tie_support import document

pytestmark = pytest.mark.django_db

NOTE = "Ex æquo at rank 1: {}, {}. The prizes to share out: A ham, Two bottles."


@pytest.fixture
def organiser(make_user: Callable[[str], User], client: Client) -> User:
    user = make_user("organiser")
    client.force_login(user)
    return user


def download_and_import(
    client: Client, tournament: Tournament
) -> tuple[dict[str, Any], Tournament]:
    """The concours's file downloaded from its desk, then imported back through the Import
    page: the document and the new concours."""
    response = client.get(reverse("concours:export", args=[tournament.pk]))
    upload = SimpleUploadedFile("c.json", response.content, "application/json")
    imported = client.post(reverse("concours:import"), {"file": upload})
    assert imported.status_code == 302, imported.content.decode()[:500]
    copy = Tournament.objects.latest("pk")
    assert copy.pk != tournament.pk
    return json.loads(response.content), copy


def test_the_file_carries_the_place_and_the_prizes_and_the_import_keeps_them(
    organiser: User, client: Client
) -> None:
    tournament, winners, _rest = tied(organiser)
    services.update_tournament(
        tournament=tournament, name=tournament.name, place="Salle des fêtes", prizes=PRIZES
    )
    data, copy = download_and_import(client, tournament)
    assert list(data)[:5] == ["format", "name", "place", "prizes", "settings"]
    assert data["place"] == "Salle des fêtes"
    assert data["prizes"] == [
        {"place": 1, "prize": "A ham"}, {"place": 2, "prize": "Two bottles"},
        {"place": 3, "prize": "A box of chocolates"},
    ]  # fmt: skip
    # The database holds the same place and prizes.
    assert copy.place == "Salle des fêtes"
    assert copy.prizes == {"1": "A ham", "2": "Two bottles", "3": "A box of chocolates"}
    assert copy.prizes == Tournament.objects.get(pk=tournament.pk).prizes
    # The same ranking with the same prizes, the two tied firsts sharing out two of them.
    rows = selectors.standings_rows(copy)
    assert rows == selectors.standings_rows(tournament)
    assert [row["shared"] for row in rows[:2]] == [["A ham", "Two bottles"]] * 2
    # The same ex æquo notes: the desk, the print, the CSV of the copy.
    note = NOTE.format(*winners)
    desk = unescape(client.get(reverse("concours:desk", args=[copy.pk])).text)
    assert note in desk and desk.count("Ex æquo: to decide") == 2
    ranking = unescape(client.get(reverse("concours:print_ranking", args=[copy.pk])).text)
    assert note in ranking and "Salle des fêtes" in ranking
    response = client.get(reverse("concours:standings_csv", args=[copy.pk]))
    prizes = [row["prize"] for row in csv.DictReader(io.StringIO(response.content.decode()[1:]))]
    assert prizes[:3] == ["Ex æquo, to decide: A ham / Two bottles"] * 2 + ["A box of chocolates"]
    # And the public page says where it takes place.
    client.logout()
    public = client.get(reverse("concours_public:standings", args=[copy.public_token])).text
    assert "Salle des fêtes" in unescape(public)


def test_a_concours_without_place_or_prizes_writes_neither(organiser: User, client: Client) -> None:
    tournament = services.import_tournament(owner=organiser, text=json.dumps(document()))
    data, copy = download_and_import(client, tournament)
    assert "place" not in data and "prizes" not in data
    assert copy.place == "" and copy.prizes == {}


def test_a_file_typed_by_hand_imports_its_place_and_prizes(organiser: User) -> None:
    """Places in any order, one left out: stored by place, the text as the desk keeps it."""
    prizes = [{"place": 4, "prize": "Une bouteille "}, {"place": 1, "prize": "Un jambon"}]
    text = json.dumps(document(place=" Foyer rural ", prizes=prizes))
    tournament = services.import_tournament(owner=organiser, text=text)
    assert tournament.place == "Foyer rural"
    assert tournament.prizes == {"4": "Une bouteille", "1": "Un jambon"}
    rows = selectors.standings_rows(tournament)
    assert [(row["rank"], row["prize"]) for row in rows if row["prize"]] == [
        (1, "Un jambon"), (4, "Une bouteille"),
    ]  # fmt: skip


def test_a_bad_prize_imports_nothing_and_names_it(organiser: User, client: Client) -> None:
    prizes = [{"place": 1, "prize": "Un jambon"}, {"place": 1, "prize": "Deux bouteilles"}]
    text = json.dumps(document(prizes=prizes)).encode()
    upload = SimpleUploadedFile("c.json", text, "application/json")
    response = client.post(reverse("concours:import"), {"file": upload}, follow=True)
    assert not Tournament.objects.exists()
    page = unescape(response.content.decode())
    assert "Nothing was imported:" in page and "prizes[1].place" in page, page[:3000]
