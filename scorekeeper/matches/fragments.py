"""The inputs of a new deal's form, rendered once per match and language instead of per request.

A new deal's form (GET, nothing carried back from the card-counting helper) shows the same inputs
for every deal of a match: they depend only on the match's rules, team and player names (who took)
and scorer link, the language, and this build of the app. Rendering them was a third of the
server's time for a deal, so each worker keeps the last few hundred. This is a memo of a pure
function of its key, not a cache of data: nothing in it can go stale (a new key for anything that
changes the HTML), so each gunicorn worker may keep its own copy and every copy is right. The
hidden version and one-time submission id, the CSRF token and the preview stay outside, rendered
for each request."""

import hashlib
import json
import threading
from collections import OrderedDict

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from .forms import DealForm
from .models import Match
from .polling import build

KEEP = 500  # matches' inputs per worker (about 10 KB each)

_rendered: OrderedDict[str, SafeString] = OrderedDict()
_lock = threading.Lock()


def _key(match: Match) -> str:
    seats = [match.seat_name(seat) for seat in range(4)]  # who took: the players' names
    parts = [build(), get_language(), match.rules, match.team_names, seats, match.scorer_token]
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()


def is_plain(form: DealForm) -> bool:
    """A new deal's empty form: unbound, nothing set but the version and the submission id."""
    return not form.is_bound and set(form.initial) <= {"version", "submission"}


def remembered_inputs(match: Match) -> SafeString | None:
    """The match's new-deal inputs if this worker rendered them already (then the page needs no
    DealForm at all: see DealStamp)."""
    return _remembered(_key(match))


def _remembered(key: str) -> SafeString | None:
    with _lock:
        html = _rendered.get(key)
        if html is not None:
            _rendered.move_to_end(key)
        return html


def new_deal_inputs(request: HttpRequest, match: Match, form: DealForm) -> SafeString:
    """templates/matches/deal_fields.html for `form` (an empty form, see is_plain)."""
    key = _key(match)
    html = _remembered(key)
    if html is not None:
        return html
    html = mark_safe(  # a rendered template
        render_to_string("matches/deal_fields.html", {"form": form, "match": match}, request)
    )
    with _lock:
        _rendered[key] = html
        while len(_rendered) > KEEP:
            _rendered.popitem(last=False)
    return html
