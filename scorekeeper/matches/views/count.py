"""The card-counting helper, opened from the deal form."""

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponseBase, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from scorekeeper.engine.scoring.cards import CARD_VALUES
from scorekeeper.web.htmx import wants_partial
from scorekeeper.web.words import TRUMP_LABELS

from .. import access
from ..forms import CountCardsForm
from ..view_helpers import HX, carried_deal


@require_http_methods(["GET", "HEAD", "POST"])
@vary_on_headers(HX)
def count_cards(request: HttpRequest, token: str) -> HttpResponseBase:
    """Tap the cards a team won to total its points. Opened from the deal form (a POST of the
    deal being typed, turned into a GET), it keeps that deal and takes it back with the total
    in the right team's card points."""
    match = access.match_for_scorer(request, token)
    if request.method == "POST" and not wants_partial(request):
        query = urlencode({**carried_deal(request.POST, match), "for": _count_for(request.GET)})
        if len(query) > 8000:  # only a forged form gets here: no URL that long
            query = urlencode({"for": _count_for(request.GET)})
        return redirect(f"{request.path}?{query}")
    source = request.POST if request.method == "POST" else request.GET
    deal = {k: v for k, v in carried_deal(source, match).items() if k != "trump"}
    takers = deal.get("taker") if deal.get("taker") in ("0", "1") else None
    form = CountCardsForm(source, rules=match.engine_rules, takers=takers)
    trump = form.trump_value
    back = _count_for(source)
    deal_url = (
        reverse("matches:deal_edit", args=[match.scorer_token, int(back)])
        if back != "new"
        else reverse("matches:deal_new", args=[match.scorer_token])
    )
    # The total goes to the team that won these cards: the takers' or the defence's points (the
    # form works out the other). With no takers chosen yet, that team is taken as the takers.
    # Both teams' points go back, so the deal form shows them and its preview at once.
    use = {k: v for k, v in deal.items() if k not in ("taker_points", "defence_points")}
    use["trump"] = trump.value
    if takers is None:
        use["taker"] = form.won_by_team
    use["taker_points"], use["defence_points"] = map(str, form.points(use["taker"]))
    context = {
        "match": match,
        "trumps": [(t.value, TRUMP_LABELS[t.value]) for t in form.trumps],
        "trump": trump.value,
        "suits": form.suits(),
        "picked": form.picked,
        "last_trick": form.with_last_trick,
        "total": form.total,
        "counted": bool(form.cards) or form.with_last_trick,  # nothing tapped: nothing to use yet
        "won_by": form.won_by_team,
        "takers": takers,
        "carried": sorted({**deal, "for": back}.items()),
        "from_deal": bool(deal) or back != "new",
        "back_url": f"{deal_url}?{urlencode({**deal, 'trump': trump.value})}",
        "use_url": f"{deal_url}?{urlencode(use)}",
        # The engine's card values, for the helper without signal (offline.js, docs/offline.md).
        "card_values": CARD_VALUES,
    }
    template = "matches/count.html#count-body" if wants_partial(request) else "matches/count.html"
    return render(request, template, context)


def _count_for(source: QueryDict) -> str:
    """Which deal form the helper goes back to: "new", or the number (seq) of a deal edited."""
    value = source.get("for", "")
    return value if value.isdecimal() and len(value) < 10 and int(value) > 0 else "new"
