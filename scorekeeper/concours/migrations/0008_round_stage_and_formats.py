"""Issue 26: a round's stage, a qualifying round (empty, every round of before) or a round of the
final bracket ("final", "consolation"; docs/tournaments.md §7)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("concours", "0007_round_clock"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="stage",
            field=models.CharField(
                blank=True,
                choices=[
                    ("", "qualifying"),
                    ("final", "final bracket"),
                    ("consolation", "consolation bracket"),
                ],
                default="",
                max_length=12,
            ),
        ),
        migrations.AddConstraint(
            model_name="round",
            constraint=models.CheckConstraint(
                condition=models.Q(stage__in=["", "final", "consolation"]),
                name="round_stage_known",
            ),
        ),
    ]
