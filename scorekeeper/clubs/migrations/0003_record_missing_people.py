"""The names of club concours that have no person yet become people, once.

Until now the club pages recorded them when they were read (a GET that wrote): an entrant added
or corrected after its concours joined the club got its person on the next page that showed it.
Now the concours services tell the club in the same transaction (clubs/holds_concours.py) and the
pages only read, so the names a database holds unread are recorded here, as
`clubs.people.record_people` records them (that code may change later: this copy is what the
rows meant when this migration was written)."""

import re

from django.db import migrations

_SPACES = re.compile(r"\s+")


def _key(name):
    return _SPACES.sub(" ", name).strip().casefold()


def record_missing_people(apps, schema_editor):
    Tournament = apps.get_model("concours", "Tournament")
    Entrant = apps.get_model("concours", "Entrant")
    Person = apps.get_model("clubs", "Person")
    Alias = apps.get_model("clubs", "Alias")
    clubs = Tournament.objects.exclude(club=None).values_list("club_id", flat=True).distinct()
    for club_id in sorted(set(clubs)):
        modes = dict(
            Tournament.objects.filter(club_id=club_id).values_list("pk", "settings__mode")
        )
        rows = (
            Entrant.objects.filter(tournament_id__in=list(modes))
            .order_by("created_at", "id")
            .values_list("tournament_id", "name", "player1", "player2")
        )
        names = []
        for tournament, name, player1, player2 in rows:
            if modes[tournament] == "melee":
                names.append(("player", name))
            else:
                names += [("team", name), ("player", player1), ("player", player2)]
        known = set(Alias.objects.filter(club_id=club_id).values_list("kind", "spelling_key"))
        new = {}
        for kind, name in names:
            key = (kind, _key(name))
            if key[1] and key not in known and key not in new:
                new[key] = " ".join(name.split())
        if not new:
            continue
        people = Person.objects.bulk_create(
            [Person(club_id=club_id, kind=kind, name=name) for (kind, _k), name in new.items()]
        )
        Alias.objects.bulk_create(
            [
                Alias(
                    club_id=club_id,
                    kind=person.kind,
                    person=person,
                    spelling_key=key,
                    spelling=name,
                )
                for person, ((_kind, key), name) in zip(people, new.items(), strict=True)
            ]
        )


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0002_free_text_validators"),
        ("concours", "0008_round_stage_and_formats"),
    ]

    operations = [
        migrations.RunPython(record_missing_people, migrations.RunPython.noop, elidable=True),
    ]
