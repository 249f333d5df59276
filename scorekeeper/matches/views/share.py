"""Sharing a match (its links, their QR codes, the names claimed at its table), its match file,
and its rematch."""

import json

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from scorekeeper.engine.scoring import dump_match
from scorekeeper.web.addresses import absolute_url
from scorekeeper.web.htmx import wants_partial
from scorekeeper.web.qr import qr_response

from .. import access, services
from ..models import Match, Player
from ..view_helpers import HX


@require_safe
def share(request: HttpRequest, token: str) -> HttpResponse:
    match = access.match_for_scorer(request, token)
    links = {
        "view": absolute_url(request, reverse("matches:viewer", args=[match.view_token])),
        "scorer": absolute_url(request, reverse("matches:scoreboard", args=[token])),
    }
    is_owner = access.is_owner(request, match)
    claims: list[Player] = []
    if is_owner:  # "I am Anna": who linked which name of this table to their account, and how
        seated = [p.pk for p in match.seats if p is not None]
        claims = list(
            Player.objects.filter(pk__in=seated, user__isnull=False).select_related("user")
        )
    context = {"match": match, "links": links, "is_owner": is_owner, "claims": claims}
    return render(request, "matches/share.html", context)


@require_POST
def unlink_player(request: HttpRequest, token: str, pk: int) -> HttpResponseBase:
    """The owner unlinks a name of the table from the account that claimed it ("this is me"),
    so that the right player can claim it."""
    match = access.match_for_scorer(request, token)
    if not access.is_owner(request, match):
        messages.error(request, _("Only the match's owner can unlink a name."))
        return redirect("matches:share", token=token)
    unlinked = services.unlink_player(match_id=match.pk, player_id=pk)
    if unlinked is None:
        messages.error(request, _("This name is not linked to an account at this table."))
    else:
        player, former = unlinked
        messages.success(
            request,
            _("%(name)s is no longer linked to %(account)s: the right player can now claim it.")
            % {"name": player.name, "account": former.get_username()},
        )
    return redirect("matches:share", token=token)


@require_POST
def regenerate_links(request: HttpRequest, token: str) -> HttpResponseBase:
    """The owner revokes both links and gets new ones (scorers must be sent the new link)."""
    match = access.match_for_scorer(request, token)
    if not access.is_owner(request, match):
        messages.error(request, _("Only the match's owner can change its links."))
        return redirect("matches:share", token=token)
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm: the old links will stop working."))
        return redirect("matches:share", token=token)
    match = services.regenerate_links(match_id=match.pk)
    messages.success(request, _("New links made: the old ones no longer work."))
    return redirect("matches:share", token=match.scorer_token)


@require_safe
def qr_code(request: HttpRequest, token: str, kind: str) -> HttpResponse:
    match = access.match_for_scorer(request, token)
    targets = {
        "view": reverse("matches:viewer", args=[match.view_token]),
        "scorer": reverse("matches:scoreboard", args=[token]),
    }
    if kind not in targets:
        raise Http404
    return qr_response(absolute_url(request, targets[kind]))


def _export(match: Match) -> HttpResponse:
    body = json.dumps(dump_match(services.match_file_for(match)), ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="match-{match.view_token[:8]}.json"'
    return response


@require_safe
def export_scorer(request: HttpRequest, token: str) -> HttpResponse:
    return _export(access.match_for_scorer(request, token))


@require_safe
def export_viewer(request: HttpRequest, token: str) -> HttpResponse:
    return _export(access.match_for_viewer(token))


@require_POST
@vary_on_headers(HX)
def rematch(request: HttpRequest, token: str) -> HttpResponseBase:
    match = access.match_for_scorer(request, token)
    new = services.rematch(
        match=match, owner_key=access.device_key(request), owner=access.account(request)
    )
    url = reverse("matches:scoreboard", args=[new.scorer_token])
    return HttpResponseClientRedirect(url) if wants_partial(request) else redirect(url)
