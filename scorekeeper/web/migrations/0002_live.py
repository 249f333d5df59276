"""Live pages (scorekeeper/web/live): the changes table SQLite's streams read, and the triggers
that tell every server of a change in the transaction that makes it. PostgreSQL: NOTIFY on the
channel `scorekeeper_live` (delivered at commit, dropped with a rollback); SQLite: a row in
web_livechange (the latest 1,000 kept). Payload: the topic (web/live/topics.py).

Here rather than in each app: they are the live machinery's, written once for both databases,
and tell of tables the other apps own without any of them importing this one."""

from django.db import migrations, models

# (trigger, table, columns whose change it follows (empty: any), when (NEW vs OLD), topics)
TRIGGERS = [
    ("live_match", "matches_match", ["version"], "NEW.version <> OLD.version", ["'m' || NEW.id"]),
    (
        "live_tournament",
        "concours_tournament",
        ["version"],
        "NEW.version <> OLD.version",
        ["'t' || NEW.id", "'c' || NEW.id"],
    ),
    (
        "live_table",
        "concours_table",
        [],
        "1 = 1",
        ["'c' || (SELECT tournament_id FROM concours_round WHERE id = NEW.round_id)"],
    ),
    ("live_round", "concours_round", [], "1 = 1", ["'r' || NEW.id", "'c' || NEW.tournament_id"]),
    ("live_job", "jobs_job", [], "1 = 1", ["'j' || NEW.id"]),
]


def _sqlite(name: str, table: str, columns: list[str], when: str, topics: list[str]) -> str:
    of = f" OF {', '.join(columns)}" if columns else ""
    inserts = " ".join(f"INSERT INTO web_livechange (topic) VALUES ({t});" for t in topics)
    return (
        f"CREATE TRIGGER {name} AFTER UPDATE{of} ON {table} FOR EACH ROW WHEN {when} "
        f"BEGIN {inserts} END"
    )


def _postgresql(name: str, table: str, columns: list[str], when: str, topics: list[str]) -> str:
    of = f" OF {', '.join(columns)}" if columns else ""
    notes = " ".join(f"PERFORM pg_notify('scorekeeper_live', {t});" for t in topics)
    return (
        f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS "
        f"$$ BEGIN {notes} RETURN NULL; END $$; "
        f"CREATE TRIGGER {name} AFTER UPDATE{of} ON {table} FOR EACH ROW WHEN ({when}) "
        f"EXECUTE FUNCTION {name}()"
    )


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        schema_editor.execute(
            "CREATE TRIGGER live_prune AFTER INSERT ON web_livechange FOR EACH ROW "
            "BEGIN DELETE FROM web_livechange WHERE id <= NEW.id - 1000; END"
        )
    for trigger in TRIGGERS:
        if vendor == "sqlite":
            schema_editor.execute(_sqlite(*trigger))
        elif vendor == "postgresql":
            schema_editor.execute(_postgresql(*trigger))


def drop(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for name, table, *_ in TRIGGERS:
        if vendor == "sqlite":
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {name}")
        elif vendor == "postgresql":
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
            schema_editor.execute(f"DROP FUNCTION IF EXISTS {name}()")
    if vendor == "sqlite":
        schema_editor.execute("DROP TRIGGER IF EXISTS live_prune")


class Migration(migrations.Migration):
    dependencies = [
        ("web", "0001_initial"),
        ("matches", "0015_match_phone_contact"),
        ("concours", "0008_round_stage_and_formats"),
        ("jobs", "0001_job"),
    ]

    operations = [
        migrations.CreateModel(
            name="LiveChange",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("topic", models.CharField(max_length=24)),
            ],
        ),
        migrations.RunPython(create, drop),
    ]
