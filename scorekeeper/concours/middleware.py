"""A table's phone still showing its match's scoreboard when the table's scorer link is renewed
(the round closed, time called, paper totals typed, the partie over) learns it at its next
request: the scoreboard's poll, or a tap on a button. Instead of "Not found", that request is
sent to the table's link, which shows the table read-only ("Result sent to the organiser", the
round's standings). The organiser (its owner or a co-organiser) is sent to the desk at that
table instead, with a word when it was a tap (a POST): the second tap of a double tap on a
table's last deal, whose first tap ended the partie and so renewed the link, saved nothing.

The table link (views/table_phone.py) remembers in the phone's session which table each
scorer link came from, and the organiser's scoreboard of a table still playing does the same
(phones.scoreboard_note); only a 404 of a scorer page reads it (no cost to any other request).
A table link renewed from the desk (a lost phone) is not followed: that phone gets the 404."""

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from scorekeeper.web.htmx import wants_partial

from .access import is_organiser
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


def remembered_table(request: HttpRequest, scorer_token: str) -> Table | None:
    """The table whose live link this browser reached `scorer_token` through, if any (with its
    round and concours)."""
    links = request.session.get(SESSION_KEY)
    token = links.get(scorer_token) if isinstance(links, dict) else None
    if not isinstance(token, str):
        return None
    return Table.objects.select_related("round__tournament", "match").filter(token=token).first()


def _where(request: HttpRequest, table: Table) -> str:
    """Where a request by a renewed scorer link of `table` goes: the desk at the table for its
    organiser (with a word after a tap), the table's read-only link for anyone else."""
    tournament = table.round.tournament
    if not is_organiser(request, tournament):
        return reverse("concours:table", args=[table.token])
    if request.method == "POST":
        match = table.match
        by_deals = (
            match is not None and match.is_finished and not table.ended and table.paper is None
        )
        if by_deals:
            text = _(
                "Table %(table)s: its partie was already over, its last deal saved once: this "
                "second tap saved nothing."
            )
        else:
            text = _(
                "Table %(table)s: its scorer link was renewed (time called, paper totals, round "
                "closed or a new link): this tap saved nothing."
            )
        messages.info(request, text % {"table": table.number})
    return reverse("concours:desk", args=[tournament.pk]) + f"#table-{table.number}"


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
        table = remembered_table(request, token) if isinstance(token, str) else None
        if table is None:
            return None
        url = _where(request, table)
        if wants_partial(request) or request.headers.get("HX-Request"):
            response = HttpResponse()  # htmx follows it with a full page load
            response["HX-Redirect"] = url
            return response
        return redirect(url)
