"""A finished match's link preview (issue 45): its read-only view's title, one-line summary
("Les As win 1012 – 760 against Les Rois · Belote, to 1000") and the image's text
(web/previews.py draws it), from what that view shows everyone: the teams' names, the totals,
the rules. Nothing else (no scorer link, no player's account)."""

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import get_language, gettext

from scorekeeper.web.addresses import absolute_url
from scorekeeper.web.previews import Card, Preview
from scorekeeper.web.words import rules_name

from .models import Match


def summary(match: Match) -> str:
    names = match.team_names
    totals = (match.total0, match.total1)
    rules = rules_name(match.engine_rules)
    winner = match.winner
    if winner is None:
        return gettext("A draw, %(score)s · %(rules)s") % {
            "score": f"{totals[0]} – {totals[1]}",
            "rules": rules,
        }
    loser = 1 - winner
    return gettext("%(winner)s win %(score)s against %(loser)s · %(rules)s") % {
        "winner": names[winner],
        "loser": names[loser],
        "score": f"{totals[winner]} – {totals[loser]}",
        "rules": rules,
    }


def card(match: Match) -> Card:
    names = match.team_names
    totals = (match.total0, match.total1)
    marks = ["★" if match.winner == side else "" for side in (0, 1)]
    order = (1, 0) if match.winner == 1 else (0, 1)
    return Card(
        title=f"{names[0]} – {names[1]}",
        summary=summary(match),
        rows=tuple((marks[side], names[side], str(totals[side])) for side in order),
        site=gettext("Belote score"),
    )


def card_address(match: Match) -> str:
    path = reverse("matches:card", args=[match.view_token])
    return f"{path}?v={match.version}&lang={get_language()}"


def preview(request: HttpRequest, match: Match) -> Preview | None:
    """The read-only view's preview tags, once the match is finished (a live score would be
    old news in a chat)."""
    if not match.is_finished:
        return None
    names = match.team_names
    return Preview(
        title=f"{names[0]} {match.total0} – {match.total1} {names[1]}",
        summary=summary(match),
        url=absolute_url(request, reverse("matches:viewer", args=[match.view_token])),
        image=absolute_url(request, card_address(match)),
        image_alt=summary(match),
    )
