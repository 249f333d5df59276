"""Teams registering themselves on the public page (issue 45): the organiser opens registration
(a closing time, a maximum of teams, a note), a team registers (past the maximum: on the waiting
list, in order), changes or withdraws through its private link until round 1 is drawn, the desk
accepts (an entrant made by `add_entrant`, as if typed at the desk), refuses with a reason or
edits, and checks the team in at the door by its short code or its link's QR code.

A place is taken by an entrant of the concours (present or not checked in yet, not withdrawn)
or a registration waiting for the organiser's answer (PENDING); a place freed (a refusal, a
withdrawal, a higher maximum) moves the first waiting teams up at once, in the same
transaction. Each write locks the concours's row, so two teams never take its last place.

A registration's contact is the organiser's alone, erased 30 days after the concours
(`erase_old_contacts`: the `purge_contacts` command, run daily, and every registration)."""

import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scorekeeper.web.folding import fold

from ..models import Registration, Tournament, new_code
from .base import Refused
from .entrants import _name, add_entrant, check_in, edit_entrant

State = Registration.State
CONTACT_KEPT_DAYS = 30
WAITING_LIST_MAX = 50  # a longer list is no list: past it, "full"
REGISTRATIONS_MAX = 400  # rows of one concours, whatever their state (abuse bounded)
LIVE = (State.PENDING, State.WAITING)


def _locked(tournament: Tournament) -> Tournament:
    """The concours's row, locked for the transaction (one writer at a time decides places)."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def registration_refusal(tournament: Tournament, now: datetime | None = None) -> Refused | None:
    """Why a team cannot register now, or None: the public page shows its form only when one
    can (the service refuses the same)."""
    now = now or timezone.now()
    if tournament.status == Tournament.Status.FINISHED:
        return Refused("finished")
    if tournament.status != Tournament.Status.REGISTRATION or tournament.rounds.exists():
        return Refused("registration_drawn")
    if not tournament.registration_open:
        return Refused("registration_not_open")
    closes = tournament.registration_closes_at
    if closes is not None and now >= closes:
        return Refused("registration_closed", when=closes)
    return None


def places_taken(tournament: Tournament) -> int:
    """Entrants in the concours (not absent, not withdrawn) and registrations waiting for the
    organiser's answer."""
    entrants = (
        tournament.entrants.filter(withdrawn_before_round__isnull=True)
        .exclude(present=False)
        .count()
    )
    return entrants + tournament.registrations.filter(state=State.PENDING).count()


def places_left(tournament: Tournament) -> int | None:
    """Places before the waiting list (None: no maximum)."""
    if tournament.registration_max is None:
        return None
    return max(tournament.registration_max - places_taken(tournament), 0)


@transaction.atomic
def set_registration(
    *,
    tournament: Tournament,
    opened: bool,
    closes_at: datetime | None = None,
    max_teams: int | None = None,
    note: str = "",
) -> list[Registration]:
    """Registration opened or closed, its closing time, maximum and note (until round 1 is
    drawn; a concours with a date only: a team registers for a day). A higher maximum moves
    waiting teams up: those moved up are returned."""
    tournament = _locked(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise Refused("finished")
    if tournament.rounds.exists():
        raise Refused("registration_drawn")
    if opened and tournament.date is None:
        raise Refused("registration_needs_date")
    tournament.registration_open = opened
    tournament.registration_closes_at = closes_at
    tournament.registration_max = max_teams
    tournament.registration_note = " ".join(note.split())
    tournament.save(
        update_fields=[
            "registration_open",
            "registration_closes_at",
            "registration_max",
            "registration_note",
        ]
    )
    moved = _fill_places(tournament)
    tournament.touch()
    return moved


def _fill_places(tournament: Tournament) -> list[Registration]:
    """The first waiting teams moved up to the places free now (all of them without a
    maximum)."""
    waiting = tournament.registrations.filter(state=State.WAITING).order_by("created_at", "id")
    left = places_left(tournament)
    chosen = list(waiting if left is None else waiting[:left])
    now = timezone.now()
    for registration in chosen:
        registration.state = State.PENDING
        registration.moved_up_at = now
        registration.save(update_fields=["state", "moved_up_at"])
    return chosen


def waiting_position(registration: Registration) -> int | None:
    """1 for the first on the waiting list; None when not waiting."""
    if registration.state != State.WAITING:
        return None
    ahead = Registration.objects.filter(
        tournament_id=registration.tournament_id, state=State.WAITING
    ).filter(
        Q(created_at__lt=registration.created_at)
        | Q(created_at=registration.created_at, id__lt=registration.pk)
    )
    return ahead.count() + 1


def _names(tournament: Tournament, name: str, players: Sequence[str]) -> tuple[str, str, str]:
    clean = _name(name, "name")
    if tournament.melee:
        if any(p.strip() for p in players):
            raise Refused("melee_no_players")
        return clean, "", ""
    p1, p2 = (_name(p, f"players[{i}]") for i, p in enumerate(players))
    return clean, p1, p2


def _name_taken(tournament: Tournament, name: str, but: Registration | None = None) -> bool:
    """Another team of the concours, an entrant or a registration still waiting for an answer,
    has this name as a reader reads names (`folding.fold`), as the desk refuses one."""
    wanted = fold(name)
    entrants = tournament.entrants.all()
    others = tournament.registrations.filter(state__in=LIVE)
    if but is not None:
        others = others.exclude(pk=but.pk)
        if but.entrant_id is not None:
            entrants = entrants.exclude(pk=but.entrant_id)
    names = [*entrants.values_list("name", flat=True), *others.values_list("name", flat=True)]
    return any(fold(other) == wanted for other in names)


def _unique_code(tournament: Tournament) -> str:
    taken = set(tournament.registrations.values_list("code", flat=True))
    code = new_code()
    while code in taken:  # 31^6 codes: a second try is already rare
        code = new_code()
    return code


@transaction.atomic
def register(
    *, tournament: Tournament, name: str, players: Sequence[str] = ("", ""), contact: str
) -> Registration:
    """A team's registration from the public page: new (waiting for the organiser's answer)
    while places are left, else on the waiting list; refused when registration is not open
    (closed, past its time, round 1 drawn), the waiting list is full too, or the name is a
    team's already."""
    erase_old_contacts()
    tournament = _locked(tournament)
    refused = registration_refusal(tournament)
    if refused is not None:
        raise refused
    clean, p1, p2 = _names(tournament, name, players)
    if _name_taken(tournament, clean):
        raise Refused("duplicate_name", name=clean)
    if tournament.registrations.count() >= REGISTRATIONS_MAX:
        raise Refused("registration_full")
    left = places_left(tournament)
    if left == 0:
        if tournament.registrations.filter(state=State.WAITING).count() >= WAITING_LIST_MAX:
            raise Refused("registration_full")
        state = State.WAITING
    else:
        state = State.PENDING
    registration = Registration.objects.create(
        tournament=tournament,
        code=_unique_code(tournament),
        name=clean,
        player1=p1,
        player2=p2,
        contact=" ".join(contact.split()),
        state=state,
    )
    tournament.touch()
    return registration


def _open_to_change(registration: Registration) -> Tournament:
    """The registration's concours, locked, when the registration may still change: not
    refused or withdrawn, round 1 not drawn."""
    tournament = _locked(registration.tournament)
    registration.tournament = tournament
    if registration.state == State.REFUSED:
        raise Refused("registration_refused")
    if registration.state == State.WITHDRAWN:
        raise Refused("registration_withdrawn")
    if tournament.status != Tournament.Status.REGISTRATION or tournament.rounds.exists():
        raise Refused("registration_locked")
    return tournament


@transaction.atomic
def change_registration(
    *,
    registration: Registration,
    name: str,
    players: Sequence[str] = ("", ""),
    contact: str = "",
    by_team: bool = True,
) -> Registration:
    """New names (and a new contact; empty keeps the one given), by the team through its
    link or by the organiser, until round 1 is drawn. An accepted team's entrant is renamed
    by the desk's own service (`edit_entrant`)."""
    registration = Registration.objects.get(pk=registration.pk)
    tournament = _open_to_change(registration)
    clean, p1, p2 = _names(tournament, name, players)
    if _name_taken(tournament, clean, but=registration):
        raise Refused("duplicate_name", name=clean)
    if registration.entrant is not None:
        registration.entrant.tournament = tournament
        edit_entrant(entrant=registration.entrant, name=clean, players=(p1, p2))
    registration.name, registration.player1, registration.player2 = clean, p1, p2
    fields = ["name", "player1", "player2"]
    contact = " ".join(contact.split())
    if contact:
        registration.contact = contact
        fields.append("contact")
    if by_team:
        registration.changed_at = timezone.now()
        fields.append("changed_at")
    registration.save(update_fields=fields)
    tournament.touch()
    return registration


@transaction.atomic
def withdraw_registration(*, registration: Registration) -> list[Registration]:
    """The team withdraws (until round 1 is drawn): an accepted team's entrant is taken out
    of the concours; its place goes to the first waiting teams (returned)."""
    registration = Registration.objects.get(pk=registration.pk)
    tournament = _open_to_change(registration)
    entrant = registration.entrant
    registration.state = State.WITHDRAWN
    registration.withdrawn_at = timezone.now()
    registration.entrant = None
    registration.save(update_fields=["state", "withdrawn_at", "entrant"])
    if entrant is not None:
        entrant.delete()  # no round is drawn: it sits nowhere yet
    moved = _fill_places(tournament)
    tournament.touch()
    return moved


@transaction.atomic
def accept_registration(*, registration: Registration) -> Registration:
    """The organiser accepts a new (or a waiting) registration: an entrant of the concours made
    by the desk's own service (the same refusals: a name already there...)."""
    registration = Registration.objects.get(pk=registration.pk)
    tournament = _locked(registration.tournament)
    if registration.state not in LIVE:
        raise Refused("registration_decided")
    entrant = add_entrant(
        tournament=tournament,
        name=registration.name,
        players=(registration.player1, registration.player2),
    )
    registration.state = State.ACCEPTED
    registration.entrant = entrant
    registration.decided_at = timezone.now()
    registration.save(update_fields=["state", "entrant", "decided_at"])
    return registration


@transaction.atomic
def refuse_registration(*, registration: Registration, reason: str) -> list[Registration]:
    """The organiser refuses a new (or a waiting) registration, with a reason the team reads
    on its link; the place goes to the first waiting teams (returned)."""
    registration = Registration.objects.get(pk=registration.pk)
    tournament = _locked(registration.tournament)
    if registration.state not in LIVE:
        raise Refused("registration_decided")
    registration.state = State.REFUSED
    registration.reason = " ".join(reason.split())
    registration.decided_at = timezone.now()
    registration.save(update_fields=["state", "reason", "decided_at"])
    moved = _fill_places(tournament)
    tournament.touch()
    return moved


CODE_IN_LINK = re.compile(r"/r/([A-Za-z0-9_-]{16,40})/?")


def find_registration(tournament: Tournament, typed: str) -> Registration | None:
    """The registration a desk typed or scanned: its short code (case, spaces and dashes
    aside) or its private link (the QR code holds it)."""
    found = CODE_IN_LINK.search(typed)
    if found is not None:
        return tournament.registrations.filter(token=found.group(1)).first()
    code = re.sub(r"[\s-]", "", typed).upper()
    if not code or len(code) > 12:
        return None
    return tournament.registrations.filter(code=code).first()


@transaction.atomic
def check_in_registration(*, tournament: Tournament, typed: str) -> Registration:
    """Check-in at the door by the team's short code or its link's QR code: the accepted
    team's entrant is marked present (`check_in`, before round 1 is drawn)."""
    registration = find_registration(tournament, typed)
    if registration is None:
        raise Refused("unknown_code", typed=" ".join(typed.split())[:40])
    if registration.state != State.ACCEPTED or registration.entrant is None:
        raise Refused("registration_not_accepted", name=registration.name, state=registration.state)
    entrant = registration.entrant
    entrant.tournament = tournament
    check_in(entrant=entrant, present=True)
    return registration


def contact_expired(tournament: Tournament, created_at: datetime, now: datetime) -> bool:
    """Whether a registration's contact is past keeping: CONTACT_KEPT_DAYS after the concours's
    date; without a date, after it finished, or after the registration was made."""
    kept = timedelta(days=CONTACT_KEPT_DAYS)
    if tournament.date is not None:
        return tournament.date < timezone.localdate(now) - kept
    if tournament.finished_at is not None:
        return tournament.finished_at < now - kept
    return created_at < now - kept


def erase_old_contacts(now: datetime | None = None) -> int:
    """Every contact past keeping (`contact_expired`) erased: how many. The `purge_contacts`
    command runs it daily; every registration runs it too."""
    now = now or timezone.now()
    kept = timedelta(days=CONTACT_KEPT_DAYS)
    expired = (
        Q(tournament__date__lt=timezone.localdate(now) - kept)
        | Q(tournament__date__isnull=True, tournament__finished_at__lt=now - kept)
        | Q(
            tournament__date__isnull=True,
            tournament__finished_at__isnull=True,
            created_at__lt=now - kept,
        )
    )
    return Registration.objects.exclude(contact="").filter(expired).update(contact="")


# The team's link: a registration by its token.
def registration_of(token: str) -> Registration | None:
    return Registration.objects.select_related("tournament", "entrant").filter(token=token).first()
