"""Apps renamed since a database was made: their migration records and content types take the new
label before `migrate` reads them (the migrate command of scorekeeper/web runs this first), so an
existing database goes forward instead of creating the app's tables again.

The concours app was labelled "tournaments" until issue 24; its migration 0006 then renames the
tables themselves."""

from django.db.backends.base.base import BaseDatabaseWrapper

RENAMED = {"tournaments": "concours"}  # old label: new label


def relabel_apps(connection: BaseDatabaseWrapper) -> list[str]:
    """Relabel every renamed app that this database knows only by its old label; returns the
    old labels relabelled. A new database (no migration table yet) and one already relabelled
    are left alone. One transaction: the records and the content types move together."""
    tables = set(connection.introspection.table_names())
    if "django_migrations" not in tables:
        return []
    done = []
    with connection.cursor() as cursor:
        for old, new in RENAMED.items():
            cursor.execute("SELECT COUNT(*) FROM django_migrations WHERE app = %s", [new])
            if cursor.fetchone()[0]:
                continue
            cursor.execute("SELECT COUNT(*) FROM django_migrations WHERE app = %s", [old])
            if not cursor.fetchone()[0]:
                continue
            cursor.execute("UPDATE django_migrations SET app = %s WHERE app = %s", [new, old])
            if "django_content_type" in tables:
                cursor.execute(
                    "UPDATE django_content_type SET app_label = %s WHERE app_label = %s",
                    [new, old],
                )
            done.append(old)
    return done
