"""Managing a match (its owner only): delete it, abandon it, resume it."""

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from .. import access, services
from ..models import DELETED_KEPT_DAYS, Match
from ..view_helpers import say
from ..words import refusal

# The word typed to delete a match, in the page's language ("supprimer" in French); the English
# word counts in every language (a page read before switching language).
# Translators: the word typed to confirm deleting a match, lower case, easy to type on a phone.
DELETE_WORD = gettext_lazy("delete")


def _confirmed(typed: str) -> bool:
    word = typed.strip().casefold()
    return bool(word) and word in {str(DELETE_WORD).casefold(), "delete"}


def _owner_only(request: HttpRequest, match: Match) -> HttpResponseBase | None:
    """None for the match's owner; anyone else (a scorer) is sent back to the scoreboard."""
    if access.is_owner(request, match):
        return None
    messages.error(request, _("Only the match's owner can delete or abandon it."))
    return redirect("matches:scoreboard", token=match.scorer_token)


def _manage_page(request: HttpRequest, match: Match, *, error: str = "") -> HttpResponse:
    context = {"match": match, "word": DELETE_WORD, "error": error, "kept_days": DELETED_KEPT_DAYS}
    return render(request, "matches/manage.html", context)


@require_safe
def manage(request: HttpRequest, token: str) -> HttpResponseBase:
    match = access.match_for_scorer(request, token)
    refused = _owner_only(request, match)
    return refused if refused is not None else _manage_page(request, match)


@require_POST
def delete_match(request: HttpRequest, token: str) -> HttpResponseBase:
    """Delete after the typed word: gone from every page, restorable from Recently deleted."""
    match = access.match_for_scorer(request, token)
    refused = _owner_only(request, match)
    if refused is not None:
        return refused
    if not _confirmed(request.POST.get("confirm", "")[:100]):
        error = _("Type %(word)s to confirm: nothing was deleted.") % {"word": DELETE_WORD}
        return _manage_page(request, match, error=error)
    try:
        services.delete_match(match_id=match.pk)
    except services.MatchHeld as held:
        say(request, refusal(held))
        return redirect("matches:scoreboard", token=token)
    messages.success(
        request,
        _("%(match)s deleted. You can restore it here for %(days)s days.")
        % {"match": match, "days": DELETED_KEPT_DAYS},
    )
    return redirect("history:deleted")


@require_POST
def abandon(request: HttpRequest, token: str) -> HttpResponseBase:
    return _set_abandoned(request, token, abandoned=True)


@require_POST
def resume(request: HttpRequest, token: str) -> HttpResponseBase:
    return _set_abandoned(request, token, abandoned=False)


def _set_abandoned(request: HttpRequest, token: str, *, abandoned: bool) -> HttpResponseBase:
    match = access.match_for_scorer(request, token)
    refused = _owner_only(request, match)
    if refused is not None:
        return refused
    try:
        services.abandon_match(match_id=match.pk, abandoned=abandoned)
    except services.MatchOver:
        messages.info(request, _("The match is over: there is nothing to abandon."))
    except services.MatchHeld as held:
        say(request, refusal(held))
    else:
        if abandoned:
            messages.success(
                request, _("Match abandoned: it takes no more deals until you resume it.")
            )
        else:
            messages.success(request, _("Match resumed: record the next deal."))
    return redirect("matches:scoreboard", token=token)
