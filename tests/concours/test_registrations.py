"""Teams registering themselves (issue 45), through the services: opening, the waiting list in
order and who moves up, changes and withdrawal until the draw, the desk's answers (an accepted
team is an entrant made by add_entrant, its names recorded by the club's hook), names folded as
at the desk, check-in by code or link, and the contacts erased 30 days after the concours."""

from collections.abc import Callable
from datetime import date, timedelta

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from scorekeeper.clubs.models import Person
from scorekeeper.concours import services
from scorekeeper.concours.models import Entrant, Registration, Tournament
from scorekeeper.concours.services import Refused
from scorekeeper.engine.tournament import TournamentError
from tests.factories import ClubFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db

State = Registration.State
DAY = date(2026, 11, 11)


def concours(max_teams: int | None = None, **kwargs: object) -> Tournament:
    tournament = TournamentFactory.create(date=DAY, **kwargs)
    services.set_registration(tournament=tournament, opened=True, max_teams=max_teams)
    tournament.refresh_from_db()
    return tournament


def sign(tournament: Tournament, name: str, contact: str = "06 12 34 56 78") -> Registration:
    players = ("", "") if tournament.melee else (f"{name} 1", f"{name} 2")
    return services.register(tournament=tournament, name=name, players=players, contact=contact)


def states(tournament: Tournament) -> list[tuple[str, str]]:
    return list(tournament.registrations.order_by("created_at", "id").values_list("name", "state"))


def test_past_the_maximum_teams_wait_in_order_and_move_up_as_places_free() -> None:
    tournament = concours(max_teams=2)
    a, b = sign(tournament, "Les As"), sign(tournament, "Trèfle")
    c, d = sign(tournament, "Carreau"), sign(tournament, "Cœur")
    assert [r.state for r in (a, b, c, d)] == [
        State.PENDING,
        State.PENDING,
        State.WAITING,
        State.WAITING,
    ]
    assert [services.waiting_position(r) for r in (a, c, d)] == [None, 1, 2]
    # A withdrawal moves the first waiting team up, and says which.
    moved = services.withdraw_registration(registration=b)
    assert [r.name for r in moved] == ["Carreau"]
    c.refresh_from_db()
    assert c.state == State.PENDING and c.moved_up_at is not None
    assert services.waiting_position(Registration.objects.get(pk=d.pk)) == 1
    # A refusal too; an accepted team keeps its place (as an entrant).
    services.accept_registration(registration=a)
    moved = services.refuse_registration(registration=c, reason="Pas de licence")
    assert [r.name for r in moved] == ["Cœur"]
    assert states(tournament) == [
        ("Les As", State.ACCEPTED),
        ("Trèfle", State.WITHDRAWN),
        ("Carreau", State.REFUSED),
        ("Cœur", State.PENDING),
    ]
    assert services.places_left(tournament) == 0
    assert sign(tournament, "Pique").state == State.WAITING


def test_teams_typed_at_the_desk_take_places_and_a_higher_maximum_frees_some() -> None:
    tournament = concours(max_teams=2, teams=[("Les As", "Alice", "Bruno")])
    assert sign(tournament, "Trèfle").state == State.PENDING
    assert sign(tournament, "Carreau").state == State.WAITING
    moved = services.set_registration(tournament=tournament, opened=True, max_teams=3)
    assert [r.name for r in moved] == ["Carreau"]


def test_accepting_makes_an_entrant_as_the_desk_does_and_the_club_records_its_names() -> None:
    organiser = UserFactory.create()
    club = ClubFactory.create(organiser=organiser)
    tournament = concours(club=club, owner=organiser)
    registration = sign(tournament, "Les As")
    services.accept_registration(registration=registration)
    registration.refresh_from_db()
    entrant = registration.entrant
    assert entrant is not None
    assert (entrant.name, entrant.player1, entrant.player2) == ("Les As", "Les As 1", "Les As 2")
    assert entrant.number == 1 and entrant.present is None
    assert registration.state == State.ACCEPTED and registration.decided_at is not None
    names = set(Person.objects.filter(club=club).values_list("name", flat=True))
    assert {"Les As 1", "Les As 2"} <= names
    with pytest.raises(Refused) as refused:
        services.accept_registration(registration=registration)
    assert refused.value.code == "registration_decided"


def test_names_that_fold_alike_are_refused_as_at_the_desk() -> None:
    tournament = concours(teams=[("Cœur", "Alice", "Bruno")])
    for name in ("COEUR", "  cœur ", "Coeur"):
        with pytest.raises(Refused) as refused:
            sign(tournament, name)
        assert refused.value.code == "duplicate_name"
    sign(tournament, "Trèfle")
    with pytest.raises(Refused):
        sign(tournament, "TREFLE")  # a registration waiting for its answer holds its name
    assert Registration.objects.count() == 1


def test_the_engines_name_rules_apply() -> None:
    tournament = concours()
    with pytest.raises(TournamentError):
        sign(tournament, "x" * 61)
    with pytest.raises(TournamentError):
        services.register(tournament=tournament, name="Les As", players=("Alice", ""), contact="x")
    assert not Registration.objects.exists()


def test_melee_players_register_alone() -> None:
    tournament = concours(preset="melee")
    registration = sign(tournament, "Alice")
    assert registration.players is None
    with pytest.raises(Refused) as refused:
        services.register(tournament=tournament, name="Bruno", players=("Chloé", ""), contact="x")
    assert refused.value.code == "melee_no_players"


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"opened": False}, "registration_not_open"),
        ({"closes_at": "past"}, "registration_closed"),
        ({"drawn": True}, "registration_drawn"),
    ],
)
def test_a_closed_registration_refuses_and_says_why(change: dict[str, object], code: str) -> None:
    tournament = concours(teams=[("Les As", "A", "B"), ("Trèfle", "C", "D")])
    if change.get("opened") is False:
        services.set_registration(tournament=tournament, opened=False)
    if change.get("closes_at"):
        past = timezone.now() - timedelta(minutes=1)
        services.set_registration(tournament=tournament, opened=True, closes_at=past)
    if change.get("drawn"):
        services.draw_round(tournament=tournament)
    tournament.refresh_from_db()
    assert services.registration_refusal(tournament).code == code  # type: ignore[union-attr]
    with pytest.raises(Refused) as refused:
        sign(tournament, "Carreau")
    assert refused.value.code == code
    assert not Registration.objects.exists()


def test_opening_needs_a_date_and_no_round_drawn() -> None:
    tournament = TournamentFactory.create(teams=[("Les As", "A", "B"), ("Trèfle", "C", "D")])
    with pytest.raises(Refused) as refused:
        services.set_registration(tournament=tournament, opened=True)
    assert refused.value.code == "registration_needs_date"
    services.draw_round(tournament=tournament)
    with pytest.raises(Refused) as refused:
        services.set_registration(tournament=tournament, opened=False)
    assert refused.value.code == "registration_drawn"


def test_a_full_waiting_list_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services.registrations, "WAITING_LIST_MAX", 1)
    tournament = concours(max_teams=2)
    sign(tournament, "A1"), sign(tournament, "A2"), sign(tournament, "A3")
    with pytest.raises(Refused) as refused:
        sign(tournament, "A4")
    assert refused.value.code == "registration_full"
    assert tournament.registrations.count() == 3


def test_the_team_changes_its_names_and_contact_until_the_draw() -> None:
    tournament = concours(teams=[("Pique", "E", "F")])
    pending, accepted = sign(tournament, "Les As"), sign(tournament, "Trèfle")
    services.accept_registration(registration=accepted)
    services.change_registration(
        registration=pending, name="Les Rois", players=("Alice", "Bruno"), contact=""
    )
    pending.refresh_from_db()
    assert (pending.name, pending.player1, pending.contact) == (
        "Les Rois",
        "Alice",
        "06 12 34 56 78",
    )
    assert pending.changed_at is not None
    # An accepted team's entrant is renamed by the desk's own service.
    services.change_registration(
        registration=accepted, name="Trèfle Noir", players=("Chloé", "David"), contact="c@d.fr"
    )
    entrant = Entrant.objects.get(registration=accepted)
    assert (entrant.name, entrant.player1) == ("Trèfle Noir", "Chloé")
    assert Registration.objects.get(pk=accepted.pk).contact == "c@d.fr"
    with pytest.raises(Refused) as refused:
        services.change_registration(registration=pending, name="PIQUE", players=("A", "B"))
    assert refused.value.code == "duplicate_name"
    services.draw_round(tournament=tournament)
    for registration in (pending, accepted):
        with pytest.raises(Refused) as refused:
            services.change_registration(registration=registration, name="X", players=("A", "B"))
        assert refused.value.code == "registration_locked"
        with pytest.raises(Refused):
            services.withdraw_registration(registration=registration)


def test_an_accepted_team_that_withdraws_leaves_the_concours_and_frees_its_name() -> None:
    tournament = concours(max_teams=1)
    first, second = sign(tournament, "Les As"), sign(tournament, "Trèfle")
    services.accept_registration(registration=first)
    assert Entrant.objects.filter(tournament=tournament).count() == 1
    moved = services.withdraw_registration(registration=first)
    assert [r.pk for r in moved] == [second.pk]
    assert not Entrant.objects.filter(tournament=tournament).exists()
    assert Registration.objects.get(pk=first.pk).entrant is None
    with pytest.raises(Refused) as refused:
        services.withdraw_registration(registration=first)
    assert refused.value.code == "registration_withdrawn"
    services.refuse_registration(registration=second, reason="Complet")
    assert sign(tournament, "LES AS").state == State.PENDING  # the name is free again


def test_check_in_by_short_code_or_link() -> None:
    tournament = concours()
    accepted, pending = sign(tournament, "Les As"), sign(tournament, "Trèfle")
    services.accept_registration(registration=accepted)
    code = accepted.code
    typed = f" {code[:3].lower()}-{code[3:].lower()} "  # as said at the door
    assert services.check_in_registration(tournament=tournament, typed=typed).pk == accepted.pk
    assert Entrant.objects.get(registration=accepted).present is True
    link = f"https://belote.example.org/r/{accepted.token}/"
    assert services.check_in_registration(tournament=tournament, typed=link).pk == accepted.pk
    with pytest.raises(Refused) as refused:
        services.check_in_registration(tournament=tournament, typed=pending.code)
    assert refused.value.code == "registration_not_accepted"
    with pytest.raises(Refused) as refused:
        services.check_in_registration(tournament=tournament, typed="ZZZZZZ")
    assert refused.value.code == "unknown_code"
    # Another concours's code is unknown here.
    other = concours(owner=tournament.owner)
    theirs = sign(other, "Carreau")
    services.accept_registration(registration=theirs)
    with pytest.raises(Refused):
        services.check_in_registration(tournament=tournament, typed=theirs.code)
    with pytest.raises(Refused):
        services.check_in_registration(tournament=tournament, typed=f"/r/{theirs.token}/")


def test_codes_are_unique_in_a_concours(monkeypatch: pytest.MonkeyPatch) -> None:
    tournament = concours()
    codes = iter(["AAAAAA", "AAAAAA", "BBBBBB"])
    monkeypatch.setattr(services.registrations, "new_code", lambda: next(codes))
    assert sign(tournament, "Les As").code == "AAAAAA"
    assert sign(tournament, "Trèfle").code == "BBBBBB"


@pytest.mark.parametrize(
    ("concours_date", "finished_days_ago", "made_days_ago", "erased"),
    [
        (-31, None, 40, True),  # 31 days after its date
        (-29, None, 40, False),
        (-31, 1, 40, True),  # its date decides when it has one
        (None, 31, 40, True),  # no date: 30 days after it finished
        (None, 29, 40, False),
        (None, None, 31, True),  # neither: 30 days after the registration
        (None, None, 29, False),
    ],
)
def test_contacts_are_erased_30_days_after_the_concours(
    user: User,
    concours_date: int | None,
    finished_days_ago: int | None,
    made_days_ago: int,
    erased: bool,
) -> None:
    now = timezone.now()
    tournament = concours(owner=user)
    registration = sign(tournament, "Les As", contact="secret@example.org")
    kept = sign(concours(owner=user), "Trèfle", contact="kept@example.org")
    Tournament.objects.filter(pk=tournament.pk).update(
        date=timezone.localdate(now) + timedelta(days=concours_date)
        if concours_date is not None
        else None,
        finished_at=now - timedelta(days=finished_days_ago) if finished_days_ago else None,
    )
    Registration.objects.filter(pk=registration.pk).update(
        created_at=now - timedelta(days=made_days_ago)
    )
    assert services.erase_old_contacts(now) == int(erased)
    registration.refresh_from_db()
    assert (registration.contact == "") is erased
    assert registration.name == "Les As"  # the registration itself stays
    assert Registration.objects.get(pk=kept.pk).contact == "kept@example.org"


def test_the_command_erases_them_and_says_how_many(capsys: pytest.CaptureFixture[str]) -> None:
    tournament = concours()
    sign(tournament, "Les As")
    Tournament.objects.filter(pk=tournament.pk).update(date=DAY - timedelta(days=400))
    call_command("purge_contacts")
    assert capsys.readouterr().out.strip() == "1 contact erased."
    assert Registration.objects.get().contact == ""


def test_a_registration_erases_old_contacts_on_its_way() -> None:
    """Even without the daily command, contacts past keeping go as soon as anyone registers."""
    old = concours()
    sign(old, "Les As")
    Tournament.objects.filter(pk=old.pk).update(date=DAY - timedelta(days=400))
    sign(concours(owner=old.owner), "Trèfle")
    assert Registration.objects.get(name="Les As").contact == ""


def test_deleting_the_concours_deletes_its_registrations() -> None:
    tournament = concours()
    sign(tournament, "Les As")
    services.delete_tournament(tournament=tournament)
    assert not Registration.objects.exists()


@pytest.fixture
def user(make_user: Callable[[str], User]) -> User:
    return make_user("organiser")
