"""Reads of a club's organiser pages (issue 16): who organises what, the merge tool's suggestions
and what it shows of two people. Each read is a constant number of queries. (The public pages
read through `public_selectors`.)"""

import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Prefetch

from scorekeeper.tournaments.models import Entrant

from .models import Alias, Club, MergeLog, Person, spelling_key

MAX_SUGGESTIONS = 100  # groups of similar names shown by the merge tool


def organised(user: User | AnonymousUser, pk: int) -> Club | None:
    """The club `pk` if `user` organises it (one query), else None."""
    if not user.is_authenticated:
        return None
    return Club.objects.filter(pk=pk, memberships__user=user).first()


def clubs_of(user: User) -> list[Club]:
    return list(
        Club.objects.filter(memberships__user=user)
        .annotate(concours=Count("tournaments", distinct=True))
        .order_by("name", "id")
    )


# ---------------------------------------------------------------------------------------------
# The merge tool


def loose_key(name: str) -> str:
    """Two spellings the merge tool calls similar have the same loose key: accents dropped, case
    folded, only letters and digits kept ("Jean-René" and "jean rene")."""
    plain = unicodedata.normalize("NFKD", name.casefold())
    return "".join(c for c in plain if c.isalnum() and not unicodedata.combining(c))


def word_key(name: str) -> str:
    """The same, its words in order ("Dupont Jean" and "Jean Dupont")."""
    words = (loose_key(word) for word in name.replace("-", " ").replace("&", " ").split())
    return " ".join(sorted(word for word in words if word))


@dataclass(frozen=True, slots=True)
class PersonLine:
    person: Person
    spellings: tuple[str, ...]


def _lines(people: Iterable[Person]) -> list[PersonLine]:
    return [
        PersonLine(person, tuple(sorted(alias.spelling for alias in person.aliases.all())))
        for person in people
    ]


def suggestions(club: Club) -> list[list[PersonLine]]:
    """Groups of the club's people (of one kind) whose names or spellings are similar
    (`loose_key`, `word_key`), at most MAX_SUGGESTIONS groups, teams first, by name. Two
    queries."""
    people = list(
        Person.objects.filter(club=club)
        .order_by("kind", "name", "id")
        .prefetch_related(Prefetch("aliases", queryset=Alias.objects.order_by("spelling")))
    )
    parent: dict[int, int] = {p.pk: p.pk for p in people}

    def root(pk: int) -> int:
        while parent[pk] != pk:
            parent[pk] = parent[parent[pk]]
            pk = parent[pk]
        return pk

    first: dict[tuple[str, str, str], int] = {}
    for person in people:
        spellings = {person.name, *(alias.spelling for alias in person.aliases.all())}
        for spelling in spellings:
            for label, key in (("loose", loose_key(spelling)), ("words", word_key(spelling))):
                if not key:
                    continue
                seen = first.setdefault((person.kind, label, key), person.pk)
                if seen != person.pk:
                    parent[root(person.pk)] = root(seen)
    groups: dict[int, list[Person]] = defaultdict(list)
    for person in people:
        groups[root(person.pk)].append(person)
    found = [_lines(group) for group in groups.values() if len(group) > 1]
    found.sort(key=lambda g: (g[0].person.kind != "team", g[0].person.name.casefold()))
    return found[:MAX_SUGGESTIONS]


def person_lines(club: Club, pks: Iterable[int]) -> dict[int, PersonLine]:
    people = Person.objects.filter(club=club, pk__in=list(pks)).prefetch_related(
        Prefetch("aliases", queryset=Alias.objects.order_by("spelling"))
    )
    return {line.person.pk: line for line in _lines(people)}


def concours_played(club: Club, people: Iterable[Person]) -> dict[int, int]:
    """How many of the club's concours each person's spellings appear in (two queries)."""
    wanted = {p.pk: p.kind for p in people}
    keys = {
        (kind, key): pk
        for kind, key, pk in Alias.objects.filter(person_id__in=list(wanted)).values_list(
            "kind", "spelling_key", "person_id"
        )
    }
    seen: dict[int, set[int]] = {pk: set() for pk in wanted}
    rows = Entrant.objects.filter(tournament__club=club).values_list(
        "tournament_id", "tournament__settings__mode", "name", "player1", "player2"
    )
    for tournament, mode, name, player1, player2 in rows:
        names = [("player" if mode == "melee" else "team", name)]
        if mode != "melee":
            names += [("player", player1), ("player", player2)]
        for kind, spelling in names:
            pk = keys.get((kind, spelling_key(spelling)))
            if pk is not None:
                seen[pk].add(tournament)
    return {pk: len(ids) for pk, ids in seen.items()}


def merge_log(club: Club, limit: int = 20) -> list[MergeLog]:
    return list(
        MergeLog.objects.filter(club=club).select_related("by").order_by("-at", "-id")[:limit]
    )
