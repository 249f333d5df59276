"""The home page: start a match, or go back to one of this browser's."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from .. import access
from ..models import Match

RECENT = 8  # the rest is in My matches


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Start a match, or go back to one this browser created or scored through a link. Unlike
    My matches, a match without a deal yet is listed (the one just created, or whose scorer link
    was just opened, is found here); deleted ones are not."""
    matches = (
        Match.objects.visible_to(
            user=access.account(request),
            device_key=access.existing_device_key(request),
            remembered=access.remembered_tokens(request),
        )
        .alive()
        .with_players()
        .newest_first()[:RECENT]
    )
    return render(request, "home.html", {"matches": matches})
