"""The image of a concours's link preview (issue 45): `/c/<public token>/card.png?v=<version>`,
a PNG of its public page's result drawn by web/previews.py from what that page shows everyone
(concours/previews.py). Its address names the version it shows (`selectors.change_key`): an
older one is sent on to the current one; the current one is cached for good."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scorekeeper.web.previews import Card, card_png, image_response, speaks_asked_language

from .. import previews, selectors
from ..brackets import planned_rounds
from ..models import Tournament


def _card(token: str) -> Card:
    tournament = get_object_or_404(Tournament, public_token=token)
    snap = selectors.snapshot(tournament)
    rows = selectors.standings_rows(tournament, None, snap=snap)
    return previews.card(
        tournament,
        rows,
        teams=len(snap.entrants),
        current=len(snap.rounds),
        rounds=planned_rounds(tournament.engine_settings),
    )


@require_safe
@speaks_asked_language
def card_image(request: HttpRequest, token: str) -> HttpResponse:
    version = selectors.change_key(public_token=token)
    if version is None:
        raise Http404
    asked = request.GET.get("v")
    if asked is not None and asked != version:  # an older version's address: the current one
        response = redirect(previews.card_address(token, version))
        response["Cache-Control"] = "no-cache"
        return response
    key = ("concours", token, version, get_language() or "")
    return image_response(card_png(key, lambda: _card(token)), for_good=asked is not None)
