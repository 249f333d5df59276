"""The image of a finished match's link preview (issue 45): `/view/<view token>/card.png?v=
<version>`, drawn by web/previews.py from what the read-only view shows everyone
(matches/previews.py). Its address names the match's version: an older one is sent on to the
current one; the current one is cached for good. A match not finished has none (404)."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import get_language
from django.views.decorators.http import require_safe

from scorekeeper.web.previews import card_png, image_response, speaks_asked_language

from .. import access, previews


@require_safe
@speaks_asked_language
def card_image(request: HttpRequest, token: str) -> HttpResponse:
    match = access.match_for_viewer(token)
    if not match.is_finished:
        raise Http404
    asked = request.GET.get("v")
    if asked is not None and asked != str(match.version):  # an older version's address
        response = redirect(previews.card_address(match))
        response["Cache-Control"] = "no-cache"
        return response
    key = ("match", token, str(match.version), get_language() or "")
    return image_response(card_png(key, lambda: previews.card(match)), for_good=asked is not None)
