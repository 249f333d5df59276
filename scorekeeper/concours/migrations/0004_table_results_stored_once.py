"""Issue 22: a table's result is now stored by the change that makes it (a deal saved at its
match, time called, paper totals), no longer copied from its match when a page is read. Brought
up to date once here, since no reader does it any more:

- a table of an open round whose stored result lags its match (match_version differs) reads it
  as the former `sync_tables` did; a partie found ended that way ends its phones (a new scorer
  link, as the former sync did);
- a time-called table's match is ended (Match.ended_at: finished, the higher total winning), so
  its scoreboard and the lists say the table's result;
- a table typed from paper that has a match: the match shows the typed result (Match.typed_at).

The logic is copied here (a migration does not import the app's code, which may change)."""

import secrets

from django.db import migrations
from django.db.models import F
from django.utils import timezone

TOKEN_BYTES = 18


def _higher(points):
    if points[0] == points[1]:
        return None
    return 0 if points[0] > points[1] else 1


def _read(table, match, now):
    """The former services.apply_result for a table without paper totals; whether it changed."""
    before = (table.finished, table.points0, table.points1, table.winner, table.reserve_lost,
              table.deal_count, table.match_version)  # fmt: skip
    table.deal_count = match.deal_count
    table.match_version = match.version
    played = match.deal_count > 0 or table.ended
    table.points0, table.points1 = (match.total0, match.total1) if played else (None, None)
    if match.status == "finished":
        table.finished, table.winner, table.reserve_lost = True, match.winner, match.reserve
    elif table.ended:
        table.finished = True
        table.winner = _higher((match.total0, match.total1))
        table.reserve_lost = match.reserve
    else:
        table.finished, table.winner, table.reserve_lost = False, None, 0
    if table.finished and table.finished_at is None:
        table.finished_at = now
    elif not table.finished:
        table.finished_at = None
    after = (table.finished, table.points0, table.points1, table.winner, table.reserve_lost,
             table.deal_count, table.match_version)  # fmt: skip
    return before != after


FIELDS = ["finished", "points0", "points1", "winner", "reserve_lost", "deal_count",
          "match_version", "finished_at"]  # fmt: skip


def bring_up_to_date(apps, schema_editor):
    Table = apps.get_model("concours", "Table")
    Tournament = apps.get_model("concours", "Tournament")
    Match = apps.get_model("matches", "Match")
    now = timezone.now()
    touched = set()
    lagging = (
        Table.objects.filter(
            round__closed_at__isnull=True, paper0__isnull=True, match__isnull=False
        )
        .exclude(match_version=F("match__version"))
        .select_related("match", "round")
    )
    for table in lagging:
        match = table.match
        was = table.finished
        if not _read(table, match, now):
            continue
        if table.finished and not was:  # the partie ended itself: its phones are done
            match.scorer_token = secrets.token_urlsafe(TOKEN_BYTES)
            match.version += 1
            match.save(update_fields=["scorer_token", "version"])
            table.match_version = match.version
        table.save(update_fields=FIELDS)
        touched.add(table.round.tournament_id)
    ended = Table.objects.filter(ended=True, paper0__isnull=True, match__isnull=False)
    for table in ended.select_related("match"):
        match = table.match
        if match.ended_at is not None:
            continue
        match.ended_at = now
        if match.status != "finished":
            match.status = "finished"
            match.winner = _higher((match.total0, match.total1))
            match.finished_at = match.finished_at or now
        match.version += 1
        match.save(update_fields=["ended_at", "status", "winner", "finished_at", "version"])
        if table.match_version is not None:
            Table.objects.filter(pk=table.pk).update(match_version=match.version)
    typed = Table.objects.filter(paper0__isnull=False, match__isnull=False)
    for table in typed.select_related("match"):
        match = table.match
        if match.typed_at is not None:
            continue
        match.typed_at = now
        match.total0, match.total1 = table.paper0, table.paper1
        match.reserve = 0
        match.status = "finished"
        match.winner = _higher((table.paper0, table.paper1))
        match.finished_at = match.finished_at or now
        match.version += 1
        match.save(
            update_fields=["typed_at", "total0", "total1", "reserve", "status", "winner",
                           "finished_at", "version"]  # fmt: skip
        )
    # Only results that changed move a concours's version (a finished concours's stored ranking
    # stays current: the tables' results of closed rounds did not change).
    Tournament.objects.filter(pk__in=touched).update(version=F("version") + 1)


class Migration(migrations.Migration):
    dependencies = [
        ("concours", "0003_table_matches_held"),
        ("matches", "0013_match_ended_typed_scorer_revoked"),
    ]

    operations = [migrations.RunPython(bring_up_to_date, migrations.RunPython.noop)]
