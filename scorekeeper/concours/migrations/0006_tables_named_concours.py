"""Issue 24: the app that runs a concours is named "concours" (it was "tournaments"): its tables
take the app's name. A database of before had its migration records relabelled first
(scorekeeper/web/relabel.py, run by `manage.py migrate`)."""

from django.db import migrations

MODELS = ("entrant", "round", "table", "resultchange", "place", "tournament")


class Migration(migrations.Migration):
    dependencies = [
        ("concours", "0005_free_text_validators"),
    ]

    operations = [migrations.AlterModelTable(name=name, table=None) for name in MODELS]
