"""A concours table's phone as the other pages see it: its link as an absolute address
(`table_url`: the printed sheet's QR code, the desk's), whether its phones are done
(`table_over`), its header ("Table 7 · round 2 · Les As – Pique Dame · deal 5 of 12"), and this
app's word on a table match's scoreboard (`scoreboard_note`, `runs_the_desk`: asked through the
matches app's extension point, holds_matches.py, so that the matches app imports nothing of
concours): once the table is over, the scoreboard read-only with "Result sent to the organiser"
(the organiser still corrects the deals while the round is open)."""

from datetime import datetime, timedelta

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format, time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.matches.holder import BoardNote, ShownBoard
from scorekeeper.matches.models import Deal, Match
from scorekeeper.web.addresses import absolute_url

from .access import is_organiser
from .brackets import stage_title
from .clock import table_clock
from .middleware import remember_table
from .models import Table, Tournament


def table_url(request: HttpRequest, table: Table) -> str:
    """The table's phone link as an absolute address (for its QR code and the printed sheet);
    "" when the link is revoked."""
    if not table.token:
        return ""
    return absolute_url(request, reverse("concours:table", args=[table.token]))


def table_over(table: Table, match: Match | None) -> bool:
    """Whether the table's phones are done: its round closed, the concours finished, its partie
    over (the engine ended it, time called, paper totals), or no match to score."""
    tournament = table.round.tournament
    return (
        table.round.is_closed
        or tournament.status == Tournament.Status.FINISHED
        or table.ended
        or table.paper is not None
        or match is None
        or match.deleted_at is not None
        or match.is_finished
    )


def header(table: Table, match: Match | None, scored_deals: int | None = None) -> str:
    """ "Table 7 · round 2 · Les As – Pique Dame · deal 5 of 12" (a partie to a target: "· 1,240
    / 2,000", the higher total); a table typed from its paper sheet says so instead of a deal
    count (its phone's deals, if any, do not count)."""
    parts = [
        _("Table %(table)s") % {"table": table.number},
        _("round %(round)s") % {"round": table.round.number},
    ]
    if table.round.stage:  # a round of the final bracket: "Semi-finals"
        parts.append(stage_title(table.round.tournament.engine_settings, table.round.number))
    if match is not None:
        parts.append(" – ".join(match.team_names))
        if table.paper is not None:  # the sheet's totals are the result: no partie under way
            parts.append(_("result typed from the paper sheet"))
            return " · ".join(parts)
        rules = match.engine_rules
        if scored_deals is None:  # passed deals do not count towards the limit (one query)
            scored_deals = match.deals.exclude(kind=Deal.Kind.PASSED).count()
        done = scored_deals
        if table.ended:  # time called: the partie is over, whatever its limit said
            parts.append(
                ngettext(
                    "time called after %(done)s deal", "time called after %(done)s deals", done
                )
                % {"done": done}
            )
        elif rules.deals_limit and not done:  # not "deal 0 of 12"
            parts.append(
                ngettext(
                    "a partie of %(limit)s deal", "a partie of %(limit)s deals", rules.deals_limit
                )
                % {"limit": rules.deals_limit}
            )
        elif rules.deals_limit:
            parts.append(
                _("deal %(done)s of %(limit)s") % {"done": done, "limit": rules.deals_limit}
            )
        if rules.target:
            high = max(match.total0, match.total1)
            parts.append(
                f"{number_format(high, force_grouping=True)} / "
                f"{number_format(rules.target, force_grouping=True)}"
            )
    return " · ".join(parts)


def runs_the_desk(request: HttpRequest, match: Match) -> bool:
    """Whether this browser runs the desk of the concours this match is a table of (its owner,
    or a co-organiser link): it corrects the table's deals as the organiser does."""
    table = Table.objects.select_related("round__tournament").filter(match_id=match.pk).first()
    return table is not None and is_organiser(request, table.round.tournament)


def scoreboard_note(request: HttpRequest, board: ShownBoard) -> BoardNote | None:
    """The table's header on its match's scoreboard (None when the match is no table), read
    only. Once the table is over, its phones and the accounts that scored see it read-only;
    the organiser (its owner or a co-organiser) still corrects its deals while the round is open
    (`services.check_table_write` decides the same), adding none; a paper result is read-only
    for everyone."""
    match = board.match
    table = Table.objects.select_related("round__tournament").filter(match_id=match.pk).first()
    if table is None:
        return None
    tournament = table.round.tournament
    over = table_over(table, match)
    organiser = is_organiser(request, tournament)
    if organiser and not over and table.token:
        # The organiser scores here too: a tap by this link once a deal has ended the partie
        # (the link renewed) is sent to the desk, not "Not found" (middleware.py).
        remember_table(request, match.scorer_token, table.token)
    corrects = (
        over
        and table.paper is None
        and not table.round.is_closed
        and tournament.status != Tournament.Status.FINISHED
        and organiser
    )
    links: list[tuple[str, str]] = []
    banner = ""
    if over:
        if table.paper is not None:
            banner = _("Typed by the organiser from the paper sheet.")
            if board.rows:
                banner += " " + _("The deals below, scored on the phone, do not count.")
        elif table.round.is_closed and not (match.is_finished or table.ended):
            banner = _("Round %(round)s is closed.") % {"round": table.round.number}
        elif corrects:
            banner = _(
                "Result sent to the organiser. No more deals; you can still correct these "
                "until the round is closed."
            )
        else:
            banner = _("Result sent to the organiser")
        if table.token:
            links.append(
                (_("See the round's standings"), reverse("concours:table", args=[table.token]))
            )
        else:
            links.append(
                (
                    _("See the standings"),
                    reverse("concours_public:standings", args=[tournament.public_token]),
                )
            )
    if organiser:
        desk = reverse("concours:desk", args=[tournament.pk])
        links.append((_("Back to the desk"), f"{desk}#table-{table.number}"))
    winner = board.winner_name
    return BoardNote(
        clock=None if over else table_clock(table),
        header=header(table, match, board.scored_deals),
        win_title=_("Partie won by %(name)s") % {"name": winner} if winner else "",
        read_only=over and not corrects,
        banner=banner,
        links=tuple(links),
    )


NO_NEWS = timedelta(minutes=5)  # a kept table phone says it is there every minute


def phone_news(
    *,
    finished: bool,
    seen_at: datetime | None,
    offline_since: datetime | None,
    waiting: int,
    now: datetime,
) -> str:
    """What the desk says of a playing table's phone that works without signal (docs/offline.md):
    "phone offline since 14:32 · 3 deals waiting" once it reported in with changes still in its
    outbox, "no news for 7 minutes" when it has not got through for a while; "" otherwise (a
    finished table, or a phone that never kept its pages)."""
    if finished or seen_at is None:
        return ""
    if waiting and offline_since is not None:
        since = time_format(timezone.localtime(offline_since), "H:i")
        deals = ngettext("%(n)s deal waiting", "%(n)s deals waiting", waiting) % {"n": waiting}
        return _("phone offline since %(time)s · %(deals)s") % {"time": since, "deals": deals}
    if now - seen_at >= NO_NEWS:
        minutes = int((now - seen_at).total_seconds() // 60)
        return ngettext("no news for %(n)s minute", "no news for %(n)s minutes", minutes) % {
            "n": minutes
        }
    return ""
