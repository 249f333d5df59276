"""What the pages show of teams registering themselves (issue 45), read once: the desk's list
(new ones first, then the waiting list in order, then the answered ones), the public page's
Register form's state, a team's own page. Reads only; the contact goes to the owner's desk
alone (`with_contacts`)."""

from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from .models import Registration, Tournament
from .services import (
    Refused,
    contact_expired,
    places_left,
    registration_refusal,
    waiting_position,
)
from .words import refusal as refusal_words

State = Registration.State


@dataclass(frozen=True)
class DeskRow:
    registration: Registration
    name: str  # an accepted team's: its entrant's (the desk may have corrected it)
    players: tuple[str, str] | None
    contact: str  # "" unless the owner looks (and not past keeping)
    position: int | None  # on the waiting list
    new: bool  # waiting for the organiser's answer
    changed: bool  # changed by the team after it was answered
    present: bool | None  # an accepted team's check-in


@dataclass(frozen=True)
class DeskRegistrations:
    tournament: Tournament
    live: list[DeskRow]  # new, then waiting in order
    answered: list[DeskRow]  # accepted, refused, withdrawn: newest first
    new: int
    waiting: int
    accepted: int
    places_left: int | None
    refusal: Refused | None  # why a team cannot register now (None: open)
    refusal_words: str
    can_check_in: bool  # accepted teams, round 1 not drawn
    shown: bool = field(default=False)  # the section has something to say


def desk_registrations(
    tournament: Tournament, *, with_contacts: bool, drawn: int
) -> DeskRegistrations:
    """The desk's section (one query for the registrations with their entrants)."""
    now = timezone.now()
    rows = list(tournament.registrations.select_related("entrant").order_by("created_at", "id"))
    live: list[DeskRow] = []
    answered: list[DeskRow] = []
    waiting_seen = 0
    for registration in rows:
        registration.tournament = tournament
        entrant = registration.entrant
        position = None
        if registration.state == State.WAITING:
            waiting_seen += 1
            position = waiting_seen
        contact = ""
        if with_contacts and not contact_expired(tournament, registration.created_at, now):
            contact = registration.contact
        decided = registration.decided_at
        row = DeskRow(
            registration=registration,
            name=entrant.name if entrant is not None else registration.name,
            players=entrant.players if entrant is not None else registration.players,
            contact=contact,
            position=position,
            new=registration.state == State.PENDING,
            changed=bool(decided and registration.changed_at and registration.changed_at > decided),
            present=entrant.present if entrant is not None else None,
        )
        (live if registration.state in (State.PENDING, State.WAITING) else answered).append(row)
    live.sort(key=lambda r: (r.registration.state != State.PENDING, r.position or 0))
    answered.sort(
        key=lambda r: r.registration.decided_at or r.registration.withdrawn_at or now,
        reverse=True,
    )
    accepted = sum(1 for r in answered if r.registration.state == State.ACCEPTED)
    refused = registration_refusal(tournament, now)
    return DeskRegistrations(
        tournament=tournament,
        live=live,
        answered=answered,
        new=sum(1 for r in live if r.new),
        waiting=waiting_seen,
        accepted=accepted,
        places_left=places_left(tournament) if tournament.registration_max else None,
        refusal=refused,
        refusal_words=refusal_words(refused) if refused is not None else "",
        can_check_in=accepted > 0 and drawn == 0,
        shown=bool(rows) or tournament.registration_open,
    )


def public_registration(tournament: Tournament) -> dict[str, Any]:
    """The public page's Register form: open or why not (shown only while it was opened and
    round 1 is not drawn), the places left, the note."""
    refusal = registration_refusal(tournament)
    shown = tournament.registration_open and (
        refusal is None or refusal.code == "registration_closed"
    )
    return {
        "shown": shown,
        "open": refusal is None,
        "refusal": refusal,
        "refusal_words": refusal_words(refusal) if refusal is not None else "",
        "places_left": places_left(tournament) if shown else None,
        "closes_at": tournament.registration_closes_at,
        "note": tournament.registration_note,
    }


def team_view(registration: Registration) -> dict[str, Any]:
    """A team's own page: its state, its place on the waiting list, whether it may still
    change or withdraw, its names as the concours has them now. Never its contact."""
    tournament = registration.tournament
    entrant = registration.entrant
    locked = tournament.status != Tournament.Status.REGISTRATION or tournament.rounds.exists()
    return {
        "registration": registration,
        "tournament": tournament,
        "name": entrant.name if entrant is not None else registration.name,
        "players": entrant.players if entrant is not None else registration.players,
        "position": waiting_position(registration),
        "can_change": not locked and registration.state not in (State.REFUSED, State.WITHDRAWN),
        "drawn": locked,
        "present": entrant.present if entrant is not None else None,
    }
