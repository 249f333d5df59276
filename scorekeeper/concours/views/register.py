"""Teams registering themselves (issue 45), no account needed: the Register form of a concours's
public page (`/c/<public token>/register/`), and the team's private link (`/r/<token>/`) to see,
change or withdraw its registration until round 1 is drawn, with its QR code and short code for
check-in at the door. Never a contact on these pages (the organiser's desk alone shows it).

Every POST counts against the address's and the concours's hourly limits (web/throttle.py), a
form's body is at most REGISTRATION_FORM_MAX_BYTES; a GET writes nothing."""

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.engine.tournament import TournamentError
from scorekeeper.web import throttle
from scorekeeper.web.addresses import absolute_url
from scorekeeper.web.qr import qr_response
from scorekeeper.web.words import reason

from .. import services
from ..models import Registration, Tournament
from ..registration_forms import RegisterForm
from ..services import Refused
from ..team_registrations import public_registration, team_view
from ..words import refusal

HOUR = 3600
PRIVATE = "private, no-store"  # a team's page: never kept by a proxy or shared cache

FIELD_OF_PATH = {"name": "name", "players[0]": "player1", "players[1]": "player2"}


def _refused_request(request: HttpRequest, tournament: Tournament) -> HttpResponse | None:
    """A form too big (413), or over the hourly limits (429): the answer; else None, the POST
    counted."""
    length = request.META.get("CONTENT_LENGTH") or "0"
    if not length.isdecimal() or int(length) > settings.REGISTRATION_FORM_MAX_BYTES:
        return render(request, "413.html", status=413)
    wait = throttle.hit(
        key=f"register:ip:{throttle.client_ip(request)}",
        limit=settings.REGISTRATIONS_PER_HOUR_PER_IP,
        window=HOUR,
    )
    if wait is None:
        wait = throttle.hit(
            key=f"register:concours:{tournament.pk}",
            limit=settings.REGISTRATIONS_PER_HOUR_PER_CONCOURS,
            window=HOUR,
        )
    if wait is None:
        return None
    return throttle.too_many_requests(
        request,
        seconds=wait,
        reason=_("Too many registrations from this connection or for this concours."),
    )


def _add_error(form: RegisterForm, error: Exception) -> None:
    if isinstance(error, Refused):
        form.add_error("name" if error.code == "duplicate_name" else None, refusal(error))
    elif isinstance(error, TournamentError):
        form.add_error(FIELD_OF_PATH.get(error.path, "name"), reason(error.code, **error.params))


@require_http_methods(["GET", "HEAD", "POST"])
def register(request: HttpRequest, token: str) -> HttpResponse:
    """The Register form (also on the public page), its errors, and the registration made:
    then the team's own page."""
    tournament = get_object_or_404(Tournament, public_token=token)
    form = RegisterForm(None, melee=tournament.melee)
    if request.method == "POST":
        stop = _refused_request(request, tournament)
        if stop is not None:
            return stop
        form = RegisterForm(request.POST, melee=tournament.melee)
        if form.is_valid():
            data = form.cleaned_data
            try:
                registration = services.register(
                    tournament=tournament,
                    name=data["name"],
                    players=form.players(),
                    contact=data["contact"],
                )
            except (Refused, TournamentError) as error:
                _add_error(form, error)
            else:
                return redirect("concours:registration", token=registration.token)
    context = {
        "tournament": tournament,
        "form": form,
        "registration": public_registration(tournament),
    }
    return render(request, "concours/public/register.html", context)


def _registration(token: str) -> Registration:
    registration = services.registration_of(token)
    if registration is None:
        raise Http404
    return registration


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = PRIVATE
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def registration(request: HttpRequest, token: str) -> HttpResponse:
    """The team's own page: its state (new, on the waiting list and where, accepted, refused
    and why, withdrawn), its QR code and short code for the door, and until round 1 is drawn
    the form to change it (the contact is never shown back: a new one replaces it)."""
    registration = _registration(token)
    tournament = registration.tournament
    view = team_view(registration)
    initial = {"name": view["name"]}
    if view["players"]:
        initial.update(player1=view["players"][0], player2=view["players"][1])
    form = RegisterForm(None, melee=tournament.melee, change=True, initial=initial)
    if request.method == "POST":
        stop = _refused_request(request, tournament)
        if stop is not None:
            return stop
        form = RegisterForm(request.POST, melee=tournament.melee, change=True)
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.change_registration(
                    registration=registration,
                    name=data["name"],
                    players=form.players(),
                    contact=data["contact"],
                )
            except (Refused, TournamentError) as error:
                _add_error(form, error)
            else:
                messages.success(request, _("Your registration is saved."))
                return redirect("concours:registration", token=token)
    context = {
        **view,
        "form": form,
        "link": absolute_url(request, reverse("concours:registration", args=[token])),
        "public_url": reverse("concours_public:standings", args=[tournament.public_token]),
    }
    return _private(render(request, "concours/public/registration.html", context))


@require_POST
def withdraw(request: HttpRequest, token: str) -> HttpResponse:
    """The team withdraws (a confirmation on its page): its place goes to the first waiting
    team."""
    registration = _registration(token)
    stop = _refused_request(request, registration.tournament)
    if stop is not None:
        return stop
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Withdraw with the button “Yes, withdraw”."))
        return redirect("concours:registration", token=token)
    try:
        services.withdraw_registration(registration=registration)
    except Refused as error:
        messages.error(request, refusal(error))
    else:
        messages.success(request, _("Your registration is withdrawn."))
    return redirect("concours:registration", token=token)


@require_safe
def registration_qr(request: HttpRequest, token: str) -> HttpResponse:
    """The team's link as a QR code, shown at the door: the desk scans it to check the team
    in."""
    registration = _registration(token)
    target = reverse("concours:registration", args=[registration.token])
    return qr_response(absolute_url(request, target), cache=PRIVATE)
