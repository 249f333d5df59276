from django.db import migrations


class Migration(migrations.Migration):
    """The four seat columns, now in Seat rows (0010)."""

    dependencies = [
        ("matches", "0010_copy_seats"),
    ]

    operations = [
        migrations.RemoveField(model_name="match", name="seat0"),
        migrations.RemoveField(model_name="match", name="seat1"),
        migrations.RemoveField(model_name="match", name="seat2"),
        migrations.RemoveField(model_name="match", name="seat3"),
    ]
