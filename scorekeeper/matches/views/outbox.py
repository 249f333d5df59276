"""A phone's outbox, sent when the signal comes back (docs/offline.md): one queued change a POST,
in the phone's order, answered in JSON so that its script can tell a saved change from a
conflict and stop its queue there.

`POST /score/<token>/outbox/` with the deal form's own fields (its `version` stamp and one-time
`submission` id included) and `action`: `add` (a played deal), `passed` (all passed), `edit`
(`seq`: the deal changed), `undo`, or `heartbeat` (nothing to save: the phone says it got
through). Every POST also carries what the phone says of itself: `offline_since` (epoch
milliseconds: since when it had no signal) and `waiting` (changes still in its outbox), which a
concours's desk shows (services.phone_contact).

Every change carries the stamp its form carried, read as the deal form reads it (DealStamp,
whose limits are form_reading's): a version of nine digits at most and a one-time id of the
form's pattern, both required here: an altered or missing one is refused (400 `invalid`), never
saved without its conflict check or its once-only id. A replayed submission is harmless: the
services return what it saved the first time (a change whose answer was lost with the signal is
sent again). Answers: 200 `{"ok": true, "number", "seq", "version", "totals", "board"}`; a
refusal `{"ok": false, "code", "message"}` (and `version` for `changed`), its code, status and
words those of matches/words.py (the pages say the same words): 409 (`changed`: another phone
saved first; `over`, `abandoned`, `frozen`: the round closed, `refused`, `revoked`: this
account's scorer right was withdrawn, `gone`, `nothing`), 400 (`invalid`: the deal itself or its
stamp, `fields` naming what is wrong), 413 (`too_big`: a body over Django's limits, answered by
middleware.py before any view) or 503 (`busy`: try again). A link no match has any more is a 404
page, or for a concours table's phone whose partie is over a redirect to its table's page
(concours/middleware.py)."""

from datetime import UTC, datetime, timedelta
from typing import Any

from django import forms
from django.http import HttpRequest, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from scorekeeper.engine.scoring import PassedDeal
from scorekeeper.web.words import TRUMP_LABELS

from .. import access, services
from ..forms import DealForm, DealStamp
from ..models import Match
from ..view_helpers import board_url, change_by, deal_form
from ..words import REFUSALS, Refusal, refusal, said

ACTIONS = ("add", "passed", "edit", "undo", "heartbeat")
# How far back a phone's "offline since" is believed (a wrong clock says nothing).
OFFLINE_AT_MOST = timedelta(days=2)


def _refused(refused: Refusal, **extra: Any) -> JsonResponse:
    return JsonResponse({**refused.as_json(), **extra}, status=refused.status)


def _invalid(*checked: forms.Form) -> JsonResponse | None:
    """The errors of the forms checked (the stamp's, the deal's), by field and in one message;
    None when all are valid."""
    fields: dict[str, list[str]] = {}
    for form in checked:
        if not form.is_valid():
            fields.update({name: [str(e) for e in errors] for name, errors in form.errors.items()})
    if not fields:
        return None
    message = " ".join(" ".join(errors) for errors in fields.values())
    return _refused(said("invalid", message), fields=fields)


def offline_since(raw: str) -> datetime | None:
    """The phone's `offline_since` (epoch milliseconds), if it is a time of the last two days
    (and not in the future, give or take a clock a few minutes off)."""
    if not raw.isdecimal() or len(raw) > 15:
        return None
    when = datetime.fromtimestamp(int(raw) / 1000, tz=UTC)
    now = timezone.now()
    return when if now - OFFLINE_AT_MOST <= when <= now + timedelta(minutes=5) else None


def _waiting(raw: str) -> int:
    return int(raw) if raw.isdecimal() and len(raw) < 4 else 0


@require_POST
def outbox(request: HttpRequest, token: str) -> JsonResponse:
    # A renewed or unknown link: 404 (a page, not JSON), which a concours table's phone gets as
    # a redirect to its table's page (concours/middleware.py): its script says either.
    match = access.match_for_scorer(request, token)
    post = request.POST
    action = post.get("action", "")
    if action not in ACTIONS:
        return _refused(said("invalid"))
    services.phone_contact(
        match_id=match.pk,
        offline_since=offline_since(post.get("offline_since", "")),
        waiting=_waiting(post.get("waiting", "")),
    )
    if action == "heartbeat":
        return JsonResponse({"ok": True, "version": match.version})
    stamp = DealStamp(post, required=True)  # its conflict check and its once-only id
    form = deal_form(match, post) if action in ("add", "edit") else None
    invalid = _invalid(stamp, *([] if form is None else [form]))
    if invalid is not None:
        return invalid
    try:
        return _apply(request, match, action, stamp.cleaned_data, form)
    except REFUSALS as error:
        return _refused(refusal(error))


def _apply(
    request: HttpRequest,
    match: Match,
    action: str,
    stamp: dict[str, Any],
    form: DealForm | None,
) -> JsonResponse:
    """Make the change (its stamp valid, and the deal's form for `add` and `edit`); the
    services' refusals go up to `outbox`."""
    number: int | None = None
    seq: int | None = None
    if action == "undo":
        change_by(request, match, services.undo_last_change, stamp, confirmed=True)()
    elif action == "passed":
        row = change_by(request, match, services.record_deal, stamp, deal=PassedDeal())()
        number, seq = row.number, row.seq
    else:
        assert form is not None and form.deal is not None  # checked by `outbox`
        if action == "add":
            row = change_by(request, match, services.record_deal, stamp, deal=form.deal)()
        else:
            raw = request.POST.get("seq", "")
            fits = raw.isdecimal() and len(raw) < 10
            if not fits or not match.deals.filter(seq=int(raw)).exists():
                return _refused(said("no_deal"))
            edit = services.edit_deal
            row = change_by(request, match, edit, stamp, seq=int(raw), deal=form.deal)()
        number, seq = row.number, row.seq
    now = Match.objects.get(pk=match.pk)
    return JsonResponse(
        {
            "ok": True,
            "number": number,
            "seq": seq,
            "version": now.version,
            "totals": [now.total0, now.total1],
            "board": board_url(request, now),
        }
    )


@require_safe
def offline_words(request: HttpRequest, token: str) -> JsonResponse:
    """The words of the outbox (offline.js) in the phone's language, with the match's team
    names: kept with the match's pages, so that they are there without signal."""
    match = access.match_for_scorer(request, token, seats=False)
    words: dict[str, Any] = {
        "offline": _("offline"),
        "sending": _("sending"),
        "waiting": [  # one, more (the desk says it too: phones.phone_news)
            ngettext("%(n)s deal waiting", "%(n)s deals waiting", 1),
            ngettext("%(n)s deal waiting", "%(n)s deals waiting", 2),
        ],
        "notSent": _("not sent yet"),
        "totalsLater": _("totals when sent"),
        "computed": _("totals computed on this phone, not sent yet"),
        "passed": _("All passed"),
        "undo": _("Undo of the last change"),
        "edit": _("Deal %(n)s changed"),
        "took": _("%(team)s took"),
        "capot": _("capot"),
        "teams": list(match.team_names),
        "trumps": {key: str(label) for key, label in TRUMP_LABELS.items()},
        "coinche": {"coinche": _("coinched"), "surcoinche": _("surcoinched")},
        "editIt": _("Edit"),
        "undoIt": _("Undo"),
        "stopped": _("Not sent"),
        "after": _("The changes after it wait on this phone too. What now?"),
        "resend": _("Send it as the next deal"),
        "copy": _("Copy the deal as text"),
        "copied": _("Copied"),
        "discard": _("Discard it"),
        "confirm": _("Discard it for good? It was never saved."),
        "yes": _("Yes, discard it"),
        "revoked": _("This scorer link no longer works: it was renewed, or the match deleted."),
        "closed": _(
            "This table's partie is over or its round closed: its deals change no more here. "
            "Show the deals below to the organiser, who corrects the result."
        ),
        "table": _("Open the table's page"),
        "kept": _("This match works without signal on this phone."),
        "noNetwork": _("No signal: it stays on this phone and is sent when the signal is back."),
        # The deal form's preview without signal (offline.js offlinePreview), as the page's.
        "outcomes": {
            "made": _("Made"),
            "failed": _("Failed"),
            "litige": _("Litige"),
        },
        "then": _("Then: %(a)s – %(b)s"),
        "fillIn": _("The score appears here as you fill in the deal."),
        "previewHere": _("Computed on this phone, without signal."),
    }
    return JsonResponse(words)
