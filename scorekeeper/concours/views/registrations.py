"""The desk's side of teams registering themselves (issue 45): opening registration (the
owner's, as the settings are), answering a registration (accept: an entrant made by the desk's
own service; refuse with a reason the team reads; edit), and check-in at the door by the team's
short code or its link's QR code (static/js/scan.js reads it with the camera where the browser
can). Thin views: a form reads, a service writes, POST-redirect-GET back to the desk."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper.engine.tournament import TournamentError
from scorekeeper.web.words import reason

from .. import services
from ..access import own as _own
from ..access import owner_only as _owner_only
from ..models import Registration, Tournament
from ..registration_forms import CheckInForm, OpeningForm, RefuseForm, RegisterForm
from ..services import Refused
from ..view_helpers import back_to_desk, say_refused
from ..words import refusal

ANCHOR = "sign-ups"


def _moved_up(request: HttpRequest, moved: list[Registration]) -> None:
    for registration in moved:
        messages.info(
            request,
            _("“%(name)s” moves up from the waiting list: a new registration to answer.")
            % {"name": registration.name},
        )


@require_http_methods(["GET", "HEAD", "POST"])
def opening(request: HttpRequest, pk: int) -> HttpResponse:
    """Registration on the public page: open or not, until when, how many teams, a note."""
    tournament = _owner_only(request, pk)
    closes = tournament.registration_closes_at
    initial = {
        "opened": tournament.registration_open,
        "closes_at": timezone.localtime(closes) if closes else None,
        "max_teams": tournament.registration_max,
        "note": tournament.registration_note,
    }
    form = OpeningForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            moved = services.set_registration(
                tournament=tournament,
                opened=data["opened"],
                closes_at=data["closes_at"],
                max_teams=data["max_teams"],
                note=data["note"],
            )
        except Refused as error:
            form.add_error(None, refusal(error))
        else:
            _moved_up(request, moved)
            messages.success(
                request,
                _("Registration is open on the public page.")
                if data["opened"]
                else _("Registration is closed on the public page."),
            )
            return back_to_desk(tournament, ANCHOR)
    context = {"tournament": tournament, "form": form}
    return render(request, "concours/desk/opening.html", context)


def _registration(tournament: Tournament, number: int) -> Registration:
    registration = get_object_or_404(Registration, tournament=tournament, pk=number)
    registration.tournament = tournament
    return registration


@require_POST
def accept(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _own(request, pk)
    registration = _registration(tournament, number)
    try:
        services.accept_registration(registration=registration)
    except (Refused, TournamentError) as error:
        say_refused(request, error)
        if isinstance(error, Refused) and error.code == "duplicate_name":
            messages.info(request, _("Edit the registration's name, then accept it."))
    else:
        messages.success(
            request, _("“%(name)s” is accepted: it is registered.") % {"name": registration.name}
        )
    return back_to_desk(tournament, ANCHOR)


@require_http_methods(["GET", "HEAD", "POST"])
def refuse(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A refusal and its reason (the team reads it on its link)."""
    tournament = _own(request, pk)
    registration = _registration(tournament, number)
    form = RefuseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            moved = services.refuse_registration(
                registration=registration, reason=form.cleaned_data["reason"]
            )
        except Refused as error:
            say_refused(request, error)
        else:
            messages.success(request, _("“%(name)s” is refused.") % {"name": registration.name})
            _moved_up(request, moved)
        return back_to_desk(tournament, ANCHOR)
    context = {"tournament": tournament, "registration": registration, "form": form}
    return render(request, "concours/desk/refuse.html", context)


@require_http_methods(["GET", "HEAD", "POST"])
def edit(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A registration's names (and, for the owner, its contact) corrected by the desk, until
    round 1 is drawn. An accepted team is edited as an entrant (its own page)."""
    tournament = _own(request, pk)
    registration = _registration(tournament, number)
    if registration.entrant is not None:
        return redirect(
            "concours:edit_entrant", pk=tournament.pk, number=registration.entrant.number
        )
    initial = {
        "name": registration.name,
        "player1": registration.player1,
        "player2": registration.player2,
    }
    form = RegisterForm(request.POST or None, melee=tournament.melee, change=True, initial=initial)
    owner = tournament.owner_id == request.user.pk
    if not owner:  # a co-organiser changes names, never sees nor types the contact
        del form.fields["contact"]
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.change_registration(
                registration=registration,
                name=data["name"],
                players=form.players(),
                contact=data.get("contact", ""),
                by_team=False,
            )
        except Refused as error:
            form.add_error("name" if error.code == "duplicate_name" else None, refusal(error))
        except TournamentError as error:
            form.add_error("name", reason(error.code, **error.params))
        else:
            messages.success(request, _("“%(name)s” is saved.") % {"name": data["name"]})
            return back_to_desk(tournament, ANCHOR)
    context = {"tournament": tournament, "registration": registration, "form": form}
    return render(request, "concours/desk/registration_edit.html", context)


@require_POST
def check_in(request: HttpRequest, pk: int) -> HttpResponse:
    """Check-in at the door: the team's short code typed, or its link scanned."""
    tournament = _own(request, pk)
    form = CheckInForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Type the team's code (on its phone, under its QR code)."))
        return back_to_desk(tournament, "check-in")
    try:
        registration = services.check_in_registration(
            tournament=tournament, typed=form.cleaned_data["code"]
        )
    except Refused as error:
        say_refused(request, error)
    else:
        name = registration.entrant.name if registration.entrant else registration.name
        messages.success(request, _("“%(name)s” is checked in: present.") % {"name": name})
    return back_to_desk(tournament, "check-in")
