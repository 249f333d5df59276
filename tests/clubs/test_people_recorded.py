"""A club concours's names become the club's people when they are written, not when a page reads
them: the concours services tell the club in the same transaction (concours/holder.py,
clubs/holds_concours.py), and every club page, a GET, writes nothing."""

from datetime import date

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.clubs.models import Alias, Club, Person, Season
from scorekeeper.concours import services as concours
from scorekeeper.concours.models import Entrant, Tournament
from tests.factories import TournamentFactory

from .public_support import A, played, season

pytestmark = pytest.mark.django_db


def names(club: Club, kind: str) -> list[str]:
    return sorted(Person.objects.filter(club=club, kind=kind).values_list("name", flat=True))


def test_every_way_of_writing_names_records_them_at_once(ann: User, club: Club) -> None:
    tournament = TournamentFactory.create(
        owner=ann, teams=[("Les As", "Alice", "Bruno")], club=club
    )
    concours.add_entrant(tournament=tournament, name="Pique", players=("Chloé", "David"))
    concours.add_entrants_from_text(tournament=tournament, text="Cœur; Emma; Farid")
    concours.add_entrants_from_csv(tournament=tournament, data="Trèfle,Gaël,alice\n".encode())
    entrant = Entrant.objects.get(tournament=tournament, name="Pique")
    concours.edit_entrant(entrant=entrant, name="Carreau", players=("Chloé", "Hugo"))
    assert names(club, "team") == ["Carreau", "Cœur", "Les As", "Pique", "Trèfle"]
    # "alice" is Alice's spelling; a corrected name keeps its former person (past pages).
    assert names(club, "player") == [
        "Alice", "Bruno", "Chloé", "David", "Emma", "Farid", "Gaël", "Hugo"]  # fmt: skip


def test_a_refused_list_records_nobody(ann: User, club: Club) -> None:
    tournament = TournamentFactory.create(
        owner=ann, teams=[("Les As", "Alice", "Bruno")], club=club
    )
    before = Person.objects.count()
    with pytest.raises(concours.LineRefused):
        concours.add_entrants_from_text(tournament=tournament, text="Cœur; Emma; Farid\nbad line")
    assert Person.objects.count() == before
    assert not Entrant.objects.filter(name="Cœur").exists()


def test_a_concours_of_no_club_makes_no_people(ann: User) -> None:
    tournament = TournamentFactory.create(owner=ann, teams=[("Les As", "Alice", "Bruno")])
    concours.add_entrant(tournament=tournament, name="Pique", players=("Chloé", "David"))
    assert not Person.objects.exists() and not Alias.objects.exists()


def _club_pages(club: Club, tournament: Tournament, season_: Season) -> list[str]:
    person = Person.objects.filter(club=club).first()
    assert person is not None
    public = [
        reverse("club_public:club", args=[club.slug]),
        reverse("club_public:concours", args=[club.slug, tournament.pk]),
        reverse("club_public:season", args=[club.slug, season_.pk]),
        reverse("club_public:season_csv", args=[club.slug, season_.pk]),
        reverse("club_public:record", args=[club.slug, person.pk]),
    ]
    desk = [
        reverse("clubs:desk", args=[club.pk]),
        reverse("clubs:people", args=[club.pk]),
        reverse("clubs:find_pair", args=[club.pk]) + "?kind=team&keep=Rois&merge=Nouveaux",
    ]
    return public + desk


def test_no_club_page_writes_even_a_name_recorded_nowhere(
    client: Client, ann: User, club: Club
) -> None:
    """A name with no person (written behind the services' back, as a database of before this
    change may hold one) is shown as typed; no page, the organiser's included, records it."""
    tournament = played(ann, club, "Octobre", date(2025, 10, 1), A)
    season_ = season(club, "2025-2026")
    Entrant.objects.filter(tournament=tournament, name="Rois").update(name="Nouveaux")
    client.force_login(ann)
    people = Person.objects.count(), Alias.objects.count()
    for url in _club_pages(club, tournament, season_):
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code in (200, 302), url
        writes = [
            q["sql"]
            for q in queries.captured_queries
            if q["sql"].lstrip().split(" ", 1)[0].upper() in ("INSERT", "UPDATE", "DELETE")
            and "django_session" not in q["sql"]
        ]
        assert writes == [], url
    assert (Person.objects.count(), Alias.objects.count()) == people
    page = client.get(reverse("club_public:concours", args=[club.slug, tournament.pk]))
    assert "Nouveaux" in page.content.decode()
