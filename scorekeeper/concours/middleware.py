"""A table's phone still showing its match's scoreboard when the table's scorer link is renewed
(the round closed, time called, paper totals typed, the partie over) learns it at its next
request: the scoreboard's poll, or a tap on a button. Instead of "Not found", that request is
sent to the table's link, which shows the table read-only ("Result sent to the organiser", the
round's standings).

The table link (views/table_phone.py) remembers in the phone's session which table each
scorer link came from; only a 404 of a scorer page reads it (no cost to any other request). A
table link renewed from the desk (a lost phone) is not followed: that phone gets the 404."""

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.urls import reverse

from scorekeeper.web.htmx import wants_partial

from .models import Table

SESSION_KEY = "concours_tables"  # {scorer token: table token} of the table links opened here
KEEP = 20


def remember_table(request: HttpRequest, scorer_token: str, table_token: str) -> None:
    """This browser scores `scorer_token` through the table link `table_token`."""
    links = request.session.get(SESSION_KEY)
    links = dict(links) if isinstance(links, dict) else {}
    if links.get(scorer_token) == table_token:
        return
    links.pop(scorer_token, None)
    links[scorer_token] = table_token
    request.session[SESSION_KEY] = dict(list(links.items())[-KEEP:])


def table_link_of(request: HttpRequest, scorer_token: str) -> str | None:
    """The live table link this browser reached `scorer_token` through, if any."""
    links = request.session.get(SESSION_KEY)
    token = links.get(scorer_token) if isinstance(links, dict) else None
    if not isinstance(token, str) or not Table.objects.filter(token=token).exists():
        return None
    return reverse("concours:table", args=[token])


class TablePhoneMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, Http404):
            return None
        resolved = request.resolver_match
        if resolved is None or resolved.namespace != "matches":
            return None
        if not str(resolved.route).startswith("score/"):
            return None
        token = resolved.kwargs.get("token")
        url = table_link_of(request, token) if isinstance(token, str) else None
        if url is None:
            return None
        if wants_partial(request) or request.headers.get("HX-Request"):
            response = HttpResponse()  # htmx follows it with a full page load
            response["HX-Redirect"] = url
            return response
        return redirect(url)
