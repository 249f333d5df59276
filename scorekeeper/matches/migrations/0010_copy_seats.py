from typing import Any

from django.db import migrations

SEATS = 4


def seats_to_rows(apps: Any, schema_editor: Any) -> None:
    """A Seat row for every filled seat column, in one INSERT ... SELECT per position. A player
    already seated at an earlier position of the same match (which no form or import lets
    through) keeps that first seat only: the later one becomes blank."""
    Match = apps.get_model("matches", "Match")
    Seat = apps.get_model("matches", "Seat")
    match_table, seat_table = Match._meta.db_table, Seat._meta.db_table
    with schema_editor.connection.cursor() as cursor:
        for position in range(SEATS):
            column = f"seat{position}_id"
            earlier = "".join(
                f" AND ({column} <> seat{before}_id OR seat{before}_id IS NULL)"
                for before in range(position)
            )
            cursor.execute(
                f"INSERT INTO {seat_table} (match_id, player_id, position) "
                f"SELECT id, {column}, %s FROM {match_table} "
                f"WHERE {column} IS NOT NULL{earlier}",
                [position],
            )


def rows_to_seats(apps: Any, schema_editor: Any) -> None:
    """Back to the four columns: each one from the row of its position (NULL without one)."""
    Match = apps.get_model("matches", "Match")
    Seat = apps.get_model("matches", "Seat")
    match_table, seat_table = Match._meta.db_table, Seat._meta.db_table
    columns = ", ".join(
        f"seat{position}_id = (SELECT player_id FROM {seat_table} "
        f"WHERE match_id = {match_table}.id AND position = {position})"
        for position in range(SEATS)
    )
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f"UPDATE {match_table} SET {columns}")
        cursor.execute(f"DELETE FROM {seat_table}")


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0009_seat"),
    ]

    operations = [migrations.RunPython(seats_to_rows, rows_to_seats)]
