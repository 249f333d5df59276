"""A concours's link preview (issue 45): the title, the one-line summary ("Les As win the
Concours de la Saint-Martin · 24 teams") and the image's text (web/previews.py draws it) of its
public page, from what that page shows everyone: the concours's name, date and place, the round,
the number of teams, the top of the standings. Nothing else (no link, no contact, no account)."""

from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import get_language, gettext, ngettext

from scorekeeper.web.addresses import absolute_url
from scorekeeper.web.previews import CARD_ROWS, Card, Preview

from . import selectors
from .models import Tournament


def _teams(tournament: Tournament, count: int) -> str:
    if tournament.melee:
        return ngettext("%(count)s player", "%(count)s players", count) % {"count": count}
    return ngettext("%(count)s team", "%(count)s teams", count) % {"count": count}


def summary(
    tournament: Tournament, rows: list[dict[str, Any]], teams: int, current: int, rounds: int
) -> str:
    """The one line a chat shows under the title."""
    values = {"concours": tournament.name, "teams": _teams(tournament, teams)}
    if tournament.status == Tournament.Status.FINISHED and rows:
        first = [str(row["name"]) for row in rows if row.get("rank") == 1] or [str(rows[0]["name"])]
        if len(first) > 1:
            return gettext("%(names)s share first place in the %(concours)s · %(teams)s") % {
                **values,
                "names": " & ".join(first),
            }
        if tournament.melee:
            return gettext("%(name)s wins the %(concours)s · %(teams)s") % {
                **values,
                "name": first[0],
            }
        return gettext("%(name)s win the %(concours)s · %(teams)s") % {**values, "name": first[0]}
    if current:
        line = gettext("Round %(round)s of %(rounds)s · %(teams)s") % {
            **values,
            "round": current,
            "rounds": max(rounds, current),
        }
        if rows and rows[0].get("played"):
            line += " · " + gettext("leading: %(name)s") % {"name": rows[0]["name"]}
        return line
    if tournament.registration_open:
        return gettext("Registration open · %(teams)s registered") % values
    return gettext("%(teams)s registered · no round drawn yet") % values


def title(tournament: Tournament, current: int) -> str:
    if tournament.status == Tournament.Status.FINISHED:
        page = gettext("Final ranking")
    elif current:
        page = gettext("Live standings")
    else:
        page = gettext("Registration")
    return f"{tournament.name} · {page}"


def card(
    tournament: Tournament, rows: list[dict[str, Any]], teams: int, current: int, rounds: int
) -> Card:
    """The image's text: the name, the summary, the top CARD_ROWS rows (a rank, a name, the
    points), the site's name with the date and place."""
    site = [gettext("Belote score")]
    if tournament.date:
        site.append(date_format(tournament.date, "DATE_FORMAT"))
    if tournament.place:
        site.append(tournament.place)
    shown = rows[:CARD_ROWS] if current else []
    return Card(
        title=tournament.name,
        summary=summary(tournament, rows, teams, current, rounds),
        rows=tuple(
            (
                f"{row['rank']}.",
                str(row["name"]),
                gettext("%(points)s pts") % {"points": row["points"]},
            )
            for row in shown
        ),
        site=" · ".join(site),
    )


def card_address(public_token: str, version: str) -> str:
    """The image's path: its version and language in it (web/previews.py)."""
    path = reverse("concours_public:card", args=[public_token])
    return f"{path}?v={version}&lang={get_language()}"


def preview(
    request: HttpRequest,
    tournament: Tournament,
    rows: list[dict[str, Any]],
    *,
    teams: int,
    current: int,
    rounds: int,
    version: str,
) -> Preview:
    """The public page's preview tags."""
    page = reverse("concours_public:standings", args=[tournament.public_token])
    alt = summary(tournament, rows, teams, current, rounds)
    if current and rows:
        top = ", ".join(f"{row['rank']}. {row['name']}" for row in rows[:CARD_ROWS])
        alt = f"{alt}. {top}"
    return Preview(
        title=title(tournament, current),
        summary=summary(tournament, rows, teams, current, rounds),
        url=absolute_url(request, page),
        image=absolute_url(request, card_address(tournament.public_token, version)),
        image_alt=alt,
    )


def share_links(request: HttpRequest, tournament: Tournament) -> dict[str, str]:
    """The desk's Share the results: the public page's link in the desk's language (a chat's
    preview then speaks it), the image's address and a file name to save it under."""
    language = get_language() or ""
    page = reverse("concours_public:standings", args=[tournament.public_token])
    version = selectors.change_key(public_token=tournament.public_token) or ""
    return {
        "url": absolute_url(request, f"{page}?lang={language}"),
        "image": card_address(tournament.public_token, version),
        "filename": f"{slugify(tournament.name) or 'concours'}.png",
    }
