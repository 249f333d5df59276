"""Each name of a club's concours mapped to a person (issue 16, Alias): `record_people` gives every
name that has none a new person and its alias. Called where names are written: a concours
attached to the club (`services.attach`), a club concours's entrant added or corrected (the
concours app tells the club: `holds_concours.py`), an archive restored (see models.py, "When names
map to people"); the club pages only read. Beside the models so that holds_concours.py and the services
share it; the services re-export it."""

from typing import Any

from django.db import transaction

from scorekeeper.concours.models import Entrant, Tournament

from .models import Alias, Club, Person, spelling_key


def entrant_names(rows: Any) -> list[tuple[str, str]]:
    """(kind, name) of each name in `rows` of (melee, name, player1, player2): a team's name
    ("team") and its players ("player"), a mêlée player ("player"). Blank names left out."""
    found: list[tuple[str, str]] = []
    for melee, name, player1, player2 in rows:
        found.append(("player" if melee else "team", name))
        if not melee:
            found += [("player", player) for player in (player1, player2) if player.strip()]
    return [(kind, name) for kind, name in found if spelling_key(name)]


@transaction.atomic
def record_people(*, club: Club, tournaments: list[int] | None = None) -> int:
    """Give every name of the club's concours (or of `tournaments`) that has no alias yet a new
    person and its alias; how many people were created. Constant queries (the club's row locked
    so two recordings at once do not both create a person)."""
    Club.objects.select_for_update().filter(pk=club.pk).first()
    concours = Tournament.objects.filter(club=club)
    if tournaments is not None:
        concours = concours.filter(pk__in=tournaments)
    modes = dict(concours.values_list("pk", "settings__mode"))
    rows = (
        Entrant.objects.filter(tournament_id__in=list(modes))
        .order_by("created_at", "id")
        .values_list("tournament_id", "name", "player1", "player2")
    )
    names = entrant_names((modes[t] == "melee", name, p1, p2) for t, name, p1, p2 in rows)
    known = set(Alias.objects.filter(club=club).values_list("kind", "spelling_key"))
    new: dict[tuple[str, str], str] = {}
    for kind, name in names:
        key = (kind, spelling_key(name))
        if key not in known and key not in new:
            new[key] = " ".join(name.split())
    if not new:
        return 0
    people = Person.objects.bulk_create(
        [Person(club=club, kind=kind, name=name) for (kind, _key), name in new.items()]
    )
    Alias.objects.bulk_create(
        [
            Alias(club=club, kind=person.kind, person=person, spelling_key=key, spelling=name)
            for person, ((_kind, key), name) in zip(people, new.items(), strict=True)
        ]
    )
    return len(people)
