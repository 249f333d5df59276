"""The club services: a club and its address, organisers by invite, the club's concours, seasons
checked by the seasons engine, the people recorded from the concours' names, the merge with its
log. Every refusal changes nothing."""

import datetime
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User

from scorekeeper.clubs import selectors, services
from scorekeeper.clubs.models import Alias, ClubOrganiser, MergeLog, Person, Season
from scorekeeper.engine.season import DEFAULT_TABLE
from scorekeeper.engine.tournament import TournamentError
from tests.factories import ClubFactory, TournamentFactory

pytestmark = pytest.mark.django_db

MakeUser = Callable[[str], User]


def test_a_club_gets_a_free_address_and_its_first_organiser(make_user: MakeUser) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    first = services.create_club(user=ann, name="  Les  Amis du Carreau ", town="Évreux")
    second = services.create_club(user=bob, name="Les Amis du Carreau", town="Évreux")
    assert (first.name, first.slug) == ("Les Amis du Carreau", "les-amis-du-carreau-evreux")
    assert second.slug == "les-amis-du-carreau-evreux-2"
    assert list(first.organisers.all()) == [ann]
    with pytest.raises(TournamentError) as error:
        services.create_club(user=ann, name="   ")
    assert error.value.path == "name"


def test_invite_join_new_link_and_leave(make_user: MakeUser) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    club = ClubFactory.create(organiser=ann)
    old = club.invite_token
    assert services.join(club=club, user=bob) is True
    assert services.join(club=club, user=bob) is False  # already one
    assert ClubOrganiser.objects.filter(club=club).count() == 2
    services.regenerate_invite(club=club)
    assert club.invite_token != old
    services.leave(club=club, user=bob)
    with pytest.raises(services.Refused) as refused:
        services.leave(club=club, user=ann)
    assert refused.value.code == "last_organiser"
    assert list(club.organisers.all()) == [ann]


def test_attach_publish_detach(make_user: MakeUser) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    club, other_club = (
        ClubFactory.create(organiser=ann),
        ClubFactory.create(organiser=bob, name="Autre club"),
    )
    mine = TournamentFactory.create(owner=ann, teams=[("Les As", "Alice", "Bruno")])
    theirs = TournamentFactory.create(owner=bob, name="Theirs")
    with pytest.raises(services.Refused) as refused:
        services.attach(club=club, tournament=theirs, user=ann)
    assert refused.value.code == "not_your_concours"
    services.attach(club=club, tournament=mine, user=ann)
    mine.refresh_from_db()
    assert (mine.club_id, mine.published) == (club.pk, False)
    with pytest.raises(services.Refused) as refused:
        services.attach(club=other_club, tournament=mine, user=ann)
    assert refused.value.code == "other_club"
    services.publish(club=club, tournament=mine, published=True)
    mine.refresh_from_db()
    assert mine.published
    with pytest.raises(services.Refused):
        services.publish(club=other_club, tournament=mine, published=False)
    # Attaching recorded its names: a team and two players.
    assert sorted(Person.objects.filter(club=club).values_list("kind", "name")) == [
        ("player", "Alice"),
        ("player", "Bruno"),
        ("team", "Les As"),
    ]
    services.detach(club=club, tournament=mine)
    mine.refresh_from_db()
    assert (mine.club_id, mine.published) == (None, False)
    assert Person.objects.filter(club=club).count() == 3  # people stay


def test_record_people_once_per_spelling_and_kind(make_user: MakeUser) -> None:
    ann = make_user("ann")
    club = ClubFactory.create(organiser=ann)
    TournamentFactory.create(
        owner=ann, teams=[("Les As", "Alice", "Bruno"), ("Pique", "Chloé", "alice")], club=club
    )
    melee = TournamentFactory.create(
        owner=ann, name="Mêlée", preset="melee", teams=["ALICE", "David", "Emma", "Farid"]
    )
    services.attach(club=club, tournament=melee, user=ann)
    people = Person.objects.filter(club=club)
    # "Alice", "alice" and "ALICE" are one spelling; a mêlée player is a player.
    assert sorted(people.filter(kind="player").values_list("name", flat=True)) == [
        "Alice", "Bruno", "Chloé", "David", "Emma", "Farid"]  # fmt: skip
    assert sorted(people.filter(kind="team").values_list("name", flat=True)) == ["Les As", "Pique"]
    assert services.record_people(club=club) == 0  # nothing new
    assert Alias.objects.filter(club=club).count() == 8


def _rule(**changes: object) -> dict[str, object]:
    return {"measure": "placement", "table": [25, 20, 16], "others": 1, "best": None,
            "rank": "players", **changes}  # fmt: skip


def test_seasons_are_checked_by_the_engine(make_user: MakeUser) -> None:
    club = ClubFactory.create(organiser=make_user("ann"))
    start, end = datetime.date(2026, 9, 1), datetime.date(2027, 6, 30)
    season = services.create_season(
        club=club, name=" 2026–2027 ", start=start, end=end, rule={"measure": "placement"}
    )
    assert season.name == "2026–2027"
    # Every key written in full.
    assert season.rule == {"measure": "placement", "table": list(DEFAULT_TABLE), "others": 1,
                           "best": None, "rank": "players"}  # fmt: skip
    with pytest.raises(TournamentError) as error:
        services.create_season(
            club=club, name="X", start=start, end=end, rule=_rule(table=[20, 25])
        )
    assert (error.value.path, error.value.code) == ("table[1]", "points_rise")
    with pytest.raises(services.Refused) as refused:
        services.create_season(club=club, name="X", start=end, end=start, rule=_rule())
    assert refused.value.code == "season_dates"
    assert Season.objects.filter(club=club).count() == 1
    services.update_season(
        season=season, name="Saison", start=start, end=end, rule=_rule(best=5), published=True
    )
    season.refresh_from_db()
    assert (season.name, season.rule["best"], season.published) == ("Saison", 5, True)
    with pytest.raises(TournamentError):
        services.update_season(
            season=season, name="Saison", start=start, end=end, rule=_rule(best=0), published=True
        )
    season.refresh_from_db()
    assert season.rule["best"] == 5


def test_merge_moves_every_alias_and_is_logged(make_user: MakeUser) -> None:
    ann, bob = make_user("ann"), make_user("bob")
    club, other_club = (
        ClubFactory.create(organiser=ann),
        ClubFactory.create(organiser=bob, name="Autre"),
    )
    TournamentFactory.create(owner=ann, teams=[("Les As", "René Dupont", "Bruno")], club=club)
    TournamentFactory.create(
        owner=ann, name="Avril", teams=[("Les As", "Rene Dupont", "Bruno")], club=club
    )
    TournamentFactory.create(
        owner=ann, name="Mai", teams=[("Les As", "Dupont René", "Bruno")], club=club
    )
    groups = selectors.suggestions(club)
    assert [[line.person.name for line in group] for group in groups] == [
        ["Dupont René", "Rene Dupont", "René Dupont"]
    ]
    people = {p.name: p for p in Person.objects.filter(club=club)}
    kept, merged = people["René Dupont"], people["Rene Dupont"]
    log = services.merge_people(club=club, kept=kept, merged=merged, user=ann)
    assert not Person.objects.filter(pk=merged.pk).exists()
    assert sorted(kept.aliases.values_list("spelling", flat=True)) == ["Rene Dupont", "René Dupont"]
    assert (log.kept, log.kept_name, log.merged_name, log.merged_id, log.spellings, log.by) == (
        kept, "René Dupont", "Rene Dupont", merged.pk, ["Rene Dupont"], ann)  # fmt: skip
    assert selectors.concours_played(club, [kept]) == {kept.pk: 2}
    # A new concours spelling it "rene dupont" is the kept person: nobody new.
    TournamentFactory.create(
        owner=ann, name="Juin", teams=[("Les As", "rene  dupont", "Bruno")], club=club
    )
    assert not Person.objects.filter(club=club, name__iexact="rene  dupont").exists()
    assert selectors.concours_played(club, [kept]) == {kept.pk: 3}
    # Refused: the same person twice, a team with a player, someone of another club.
    team = people["Les As"]
    stranger = Person.objects.create(club=other_club, kind="player", name="Zoé")
    for a, b, code in ((kept, kept, "merge_same"), (kept, team, "merge_kinds"),
                       (kept, stranger, "merge_gone")):  # fmt: skip
        with pytest.raises(services.Refused) as refused:
            services.merge_people(club=club, kept=a, merged=b, user=ann)
        assert refused.value.code == code
    assert MergeLog.objects.count() == 1
