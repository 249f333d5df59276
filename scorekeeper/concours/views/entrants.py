"""The desk's registration: a team (or a mêlée player) added, a pasted list, a CSV file, an
entrant's names edited, checked in, withdrawn and back. Thin views: a form reads, a service
writes, POST-redirect-GET back to the entrant on the desk."""

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scorekeeper.engine.tournament import TournamentError
from scorekeeper.web.words import reason

from .. import services
from ..access import own as _own
from ..forms import CsvForm, PasteForm, TeamForm
from ..models import Entrant, Tournament
from ..services import Refused
from ..view_helpers import back_to_desk, page_query, say_refused
from ..words import refusal


@require_POST
def add_team(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    form = TeamForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Type the team's name and its two players."))
        return back_to_desk(tournament, "registration")
    data = form.cleaned_data
    players = ("", "") if tournament.melee else (data["player1"], data["player2"])
    try:
        entrant = services.add_entrant(tournament=tournament, name=data["name"], players=players)
    except (Refused, TournamentError) as error:
        say_refused(request, error)
    else:
        messages.success(request, _("“%(name)s” is registered.") % {"name": entrant.name})
    return back_to_desk(tournament, "registration")


@require_POST
def paste(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _own(request, pk)
    form = PasteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Paste at least one line."))
        return back_to_desk(tournament, "registration")
    try:
        added = services.add_entrants_from_text(
            tournament=tournament, text=form.cleaned_data["text"]
        )
    except (Refused, TournamentError) as error:
        say_refused(request, error)
        messages.info(request, _("Nothing was added: correct the line and paste the list again."))
    else:
        messages.success(request, _("%(count)s added.") % {"count": len(added)})
    return back_to_desk(tournament, "registration")


@require_POST
def import_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """A CSV file of entrants (beside the pasted list): all added, or none and every bad line
    named."""
    tournament = _own(request, pk)
    form = CsvForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose a CSV file."))
        return back_to_desk(tournament, "registration")
    data = form.cleaned_data["file"].read(services.CSV_MAX_BYTES + 1)
    try:
        added = services.add_entrants_from_csv(tournament=tournament, data=data)
    except services.CsvRefused as error:
        for line in error.lines:
            messages.error(request, refusal(line))
        if error.more:
            messages.error(request, _("…and %(count)s more lines.") % {"count": error.more})
        messages.info(request, _("Nothing was added: correct the file and import it again."))
    except (Refused, TournamentError) as error:
        say_refused(request, error)
        messages.info(request, _("Nothing was added: correct the file and import it again."))
    else:
        messages.success(request, _("%(count)s added.") % {"count": len(added)})
    return back_to_desk(tournament, "registration")


def _entrant(tournament: Tournament, number: int) -> Entrant:
    entrant = get_object_or_404(Entrant, tournament=tournament, number=number)
    entrant.tournament = tournament
    return entrant


def _back_to_entrant(tournament: Tournament, entrant: Entrant) -> HttpResponse:
    """The desk at an entrant of the registration list: the page holding it (one query)."""
    before = tournament.entrants.filter(number__lt=entrant.number).count()
    return back_to_desk(tournament, f"entrant-{entrant.number}", page_query("registration", before))


@require_http_methods(["GET", "HEAD", "POST"])
def edit_entrant(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A team's name and players (à la mêlée, a player's name), at any time: its own page, a
    plain form."""
    tournament = _own(request, pk)
    entrant = _entrant(tournament, number)
    initial = {"name": entrant.name, "player1": entrant.player1, "player2": entrant.player2}
    form = TeamForm(request.POST or None, initial=initial)
    melee = tournament.melee
    if melee:
        form.fields["name"].label = _("Player")
    else:
        for field in ("player1", "player2"):
            form.fields[field].required = True
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        players = ("", "") if melee else (data["player1"], data["player2"])
        try:
            services.edit_entrant(entrant=entrant, name=data["name"], players=players)
        except Refused as error:
            form.add_error("name", refusal(error))
        except TournamentError as error:
            field = {"players[0]": "player1", "players[1]": "player2"}.get(error.path, "name")
            form.add_error(field, reason(error.code, **error.params))
        else:
            messages.success(request, _("“%(name)s” is saved.") % {"name": entrant.name})
            return _back_to_entrant(tournament, entrant)
    context = {"tournament": tournament, "entrant": entrant, "form": form, "melee": melee}
    return render(request, "concours/desk/entrant.html", context)


@require_POST
def check_in(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _own(request, pk)
    entrant = _entrant(tournament, number)
    present = request.POST.get("present")
    if present not in ("1", "0"):
        raise Http404
    try:
        services.check_in(entrant=entrant, present=present == "1")
    except Refused as error:
        say_refused(request, error)
    return _back_to_entrant(tournament, entrant)


@require_POST
def withdraw(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    tournament = _own(request, pk)
    entrant = _entrant(tournament, number)
    try:
        if request.POST.get("cancel"):
            services.cancel_withdrawal(entrant=entrant)
            messages.success(
                request,
                _("“%(name)s” is back in: drawn again from the next round.")
                % {"name": entrant.name},
            )
        else:
            services.withdraw(entrant=entrant)
            messages.success(
                request,
                _(
                    "“%(name)s” is withdrawn: not drawn from round %(round)s on; its results "
                    "so far are kept."
                )
                % {"name": entrant.name, "round": entrant.withdrawn_before_round},
            )
    except Refused as error:
        say_refused(request, error)
    return _back_to_entrant(tournament, entrant)
