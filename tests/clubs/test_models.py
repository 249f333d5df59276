"""The clubs' database rules: one membership per account and club, a season never ends before
it starts, one alias per spelling in a club and kind, the spelling key."""

import datetime
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from scorekeeper.clubs.models import Alias, Club, ClubOrganiser, Person, Season, spelling_key

pytestmark = pytest.mark.django_db


def test_spelling_key_folds_case_and_spaces_not_accents() -> None:
    assert spelling_key("  Les   ROIS ") == "les rois"
    assert spelling_key("Straße") == "strasse"
    assert spelling_key("René") != spelling_key("Rene")


def test_an_organiser_is_once_in_a_club(make_user: Callable[[str], User]) -> None:
    user = make_user("ann")
    club = Club.objects.create(name="C", slug="c")
    ClubOrganiser.objects.create(club=club, user=user)
    with pytest.raises(IntegrityError), transaction.atomic():
        ClubOrganiser.objects.create(club=club, user=user)


def test_a_season_ends_after_it_starts() -> None:
    club = Club.objects.create(name="C", slug="c")
    day = datetime.date(2026, 9, 1)
    Season.objects.create(club=club, name="One day", start=day, end=day, rule={})
    with pytest.raises(IntegrityError), transaction.atomic():
        Season.objects.create(
            club=club, name="Backwards", start=day, end=day - datetime.timedelta(days=1), rule={}
        )


def test_a_spelling_names_one_person_per_club_and_kind() -> None:
    club, other = Club.objects.create(name="C", slug="c"), Club.objects.create(name="D", slug="d")
    team = Person.objects.create(club=club, kind="team", name="Les As")
    player = Person.objects.create(club=club, kind="player", name="Les As")
    elsewhere = Person.objects.create(club=other, kind="team", name="Les As")
    Alias.objects.create(
        club=club, kind="team", person=team, spelling_key="les as", spelling="Les As"
    )
    # The same spelling as a player, or in another club: another person.
    Alias.objects.create(
        club=club, kind="player", person=player, spelling_key="les as", spelling="Les As"
    )
    Alias.objects.create(
        club=other, kind="team", person=elsewhere, spelling_key="les as", spelling="Les As"
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Alias.objects.create(
            club=club, kind="team", person=player, spelling_key="les as", spelling="LES AS"
        )
    with pytest.raises(IntegrityError), transaction.atomic():
        Alias.objects.create(club=club, kind="team", person=team, spelling_key="", spelling="")
    with pytest.raises(IntegrityError), transaction.atomic():
        Person.objects.create(club=club, kind="dog", name="Rex")
    assert team.key == f"team-{team.pk}"


def test_a_slug_is_unique() -> None:
    Club.objects.create(name="C", slug="c")
    with pytest.raises(IntegrityError), transaction.atomic():
        Club.objects.create(name="C2", slug="c")
