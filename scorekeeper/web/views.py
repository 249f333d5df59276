from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from scorekeeper.matches import access
from scorekeeper.matches.models import Match

RECENT = 8  # the rest is in My matches


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """Start a match, or go back to one this browser created or scored through a link."""
    matches = Match.objects.visible_to(
        user=request.user if request.user.is_authenticated else None,
        device_key=request.session.get(access.DEVICE_KEY),
        remembered=access.remembered_tokens(request),
    ).newest_first()[:RECENT]
    return render(request, "home.html", {"matches": matches})


@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")
