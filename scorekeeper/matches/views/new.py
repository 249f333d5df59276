"""A new match, typed in or imported from a match file."""

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorekeeper.jobs.services import JobRefused, start_job
from scorekeeper.web import throttle
from scorekeeper.web.throttle import client_ip
from scorekeeper.web.words import PRESET_NAMES, PRESET_SUMMARIES

from .. import access, services
from ..forms import ImportForm, NewMatchForm

HOUR = 3600  # the window of the import limits (settings.IMPORTS_PER_HOUR...)


@require_http_methods(["GET", "HEAD", "POST"])
def new_match(request: HttpRequest) -> HttpResponse:
    form = NewMatchForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and form.rules is not None:
        match = services.create_match(
            owner_key=access.device_key(request),
            owner=access.account(request),
            rules=form.rules,
            team_names=(form.cleaned_data["team0_name"], form.cleaned_data["team1_name"]),
            players=form.players(),
            first_dealer=form.first_dealer_value(),
        )
        return redirect("matches:scoreboard", token=match.scorer_token)
    presets = [(name, PRESET_NAMES[name], PRESET_SUMMARIES[name]) for name in PRESET_SUMMARIES]
    return render(
        request,
        "matches/new.html",
        {
            "form": form,
            "presets": presets,
            "known_players": _known_players(request),
        },
    )


def _known_players(request: HttpRequest) -> list[str]:
    """Names this browser or account gave before; a browser that never saved anything has none
    (and gets no session for asking)."""
    key, user = access.existing_device_key(request), access.account(request)
    return services.known_player_names(key or "", user) if key or user else []


@require_http_methods(["GET", "HEAD", "POST"])
def import_match(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and (wait := _import_wait(request)) is not None:
        reason = _("Too many match files imported from this browser or this network.")
        return throttle.too_many_requests(request, seconds=wait, reason=reason)
    form = ImportForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if isinstance(upload, bytes):  # a big file (IMPORT_INLINE_DEALS): imported by a job
            try:
                job = start_job(
                    kind="match_import",
                    owner=access.account(request),
                    owner_key=access.device_key(request),
                    data=upload,
                )
            except JobRefused:
                status = 409
                form.add_error(
                    "file",
                    _(
                        "Nothing was imported: a job of yours is still running (see My jobs). "
                        "Wait for it to end, then try again."
                    ),
                )
            else:
                return redirect("jobs:job", pk=job.pk)
        else:
            match = services.import_match(
                match_file=upload,
                owner_key=access.device_key(request),
                owner=access.account(request),
            )
            messages.success(request, _("Match imported."))
            return redirect("matches:scoreboard", token=match.scorer_token)
    context = {"form": form, "inline_deals": settings.IMPORT_INLINE_DEALS}
    return render(request, "matches/import.html", context, status=status)


def _import_wait(request: HttpRequest) -> int | None:
    """Counts this import against the browser's and the address's hourly limits (a file is read
    whether it imports or not): None, or the seconds to wait."""
    wait = throttle.hit(
        key=f"import:device:{access.device_key(request)}",
        limit=settings.IMPORTS_PER_HOUR,
        window=HOUR,
    )
    if wait is None:
        wait = throttle.hit(
            key=f"import:ip:{client_ip(request)}",
            limit=settings.IMPORTS_PER_HOUR_PER_IP,
            window=HOUR,
        )
    return wait
