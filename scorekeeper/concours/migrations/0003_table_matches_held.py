"""The matches of the concours's tables are held by their concours (matches.Match.in_concours),
and those of closed rounds frozen at their round's close."""

from django.db import migrations
from django.db.models import OuterRef, Subquery


def hold(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    Table = apps.get_model("concours", "Table")
    tables = Table.objects.filter(match__isnull=False)
    Match.objects.filter(pk__in=tables.values("match_id")).update(in_concours=True)
    closed = tables.filter(round__closed_at__isnull=False)
    closed_at = closed.filter(match=OuterRef("pk")).values("round__closed_at")[:1]
    Match.objects.filter(pk__in=closed.values("match_id")).update(frozen_at=Subquery(closed_at))


def release(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    Match.objects.update(in_concours=False, frozen_at=None)


class Migration(migrations.Migration):
    dependencies = [
        ("concours", "0002_tournament_club"),
        ("matches", "0012_match_in_concours_frozen"),
    ]

    operations = [migrations.RunPython(hold, release)]
