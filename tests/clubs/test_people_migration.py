"""Migration clubs 0003: the club pages used to record a club concours's new names when they read
them (a GET that wrote); now the services record them as they write them, and the names a
database holds unrecorded become people once, as `record_people` would have made them. The rows
are made as the former code left them, the database migrated back to clubs 0002 and forward
again."""

import pytest
from django.contrib.auth.models import User

from scorekeeper.clubs.models import Alias, Club, Person
from scorekeeper.concours.models import Entrant
from tests.factories import ClubFactory, TournamentFactory
from tests.migrating import migrate

pytestmark = pytest.mark.django_db(transaction=True)


def unrecorded(club: Club, *names: tuple[str, str]) -> None:
    """What the former code left: an entrant's names written, no person made for them yet."""
    for kind, name in names:
        Alias.objects.filter(club=club, kind=kind, spelling=name).delete()
    Person.objects.filter(club=club, aliases__isnull=True).delete()


def test_names_left_unrecorded_become_people_once(back_and_forth: None) -> None:
    ann = User.objects.create_user("ann")
    club = ClubFactory.create(organiser=ann)
    teams = TournamentFactory.create(
        owner=ann, teams=[("Les As", "Alice", "Bruno"), ("Pique", "Chloé", "David")], club=club
    )
    melee = TournamentFactory.create(
        owner=ann, preset="melee", teams=["alice", "Emma", "Farid", "Gaël"], club=club
    )
    other = ClubFactory.create(organiser=ann)
    TournamentFactory.create(owner=ann, teams=[("Pique", "Hugo", "Inès")], club=other)
    unrecorded(club, ("team", "Pique"), ("player", "David"), ("player", "Emma"))
    kept = set(Person.objects.values_list("pk", flat=True))
    assert not Alias.objects.filter(club=club, spelling__in=["Pique", "David", "Emma"]).exists()
    migrate(("clubs", "0002_free_text_validators"))
    migrate()
    people = {
        (kind, name): pk
        for kind, name, pk in Person.objects.filter(club=club).values_list("kind", "name", "pk")
    }
    # The missing three come back, each once; the others are the same rows as before.
    assert sorted(people) == [
        ("player", "Alice"), ("player", "Bruno"), ("player", "Chloé"), ("player", "David"),
        ("player", "Emma"), ("player", "Farid"), ("player", "Gaël"),
        ("team", "Les As"), ("team", "Pique"),
    ]  # fmt: skip
    assert kept <= set(Person.objects.values_list("pk", flat=True))
    for (kind, name), pk in people.items():
        alias = Alias.objects.get(club=club, kind=kind, spelling_key=name.casefold())
        assert alias.person_id == pk and alias.spelling == name
    assert Person.objects.filter(club=other).count() == 3  # another club's, untouched
    assert Entrant.objects.filter(tournament__in=[teams, melee]).count() == 6
