import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    """One row per named seat of a match (issue 13), beside the four seat columns for now: 0010
    copies them over, 0011 drops them."""

    dependencies = [
        ("matches", "0008_deal_taker_and_coinche_players"),
    ]

    operations = [
        migrations.CreateModel(
            name="Seat",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("position", models.PositiveSmallIntegerField()),
                (
                    "match",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="seat_rows",
                        to="matches.match",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="seats",
                        to="matches.player",
                    ),
                ),
            ],
            options={
                "indexes": [
                    models.Index(fields=["player", "match", "position"], name="seat_player_matches")
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("match", "position"), name="seat_position_unique"
                    ),
                    models.UniqueConstraint(
                        fields=("match", "player"), name="seat_player_once_per_match"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(("position__lte", 3)), name="seat_position_is_0_to_3"
                    ),
                ],
            },
        ),
        migrations.AddField(
            model_name="match",
            name="players",
            field=models.ManyToManyField(
                blank=True, related_name="matches", through="matches.Seat", to="matches.player"
            ),
        ),
    ]
