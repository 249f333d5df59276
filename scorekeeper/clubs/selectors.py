"""Reads of a club's organiser pages (issue 16): who organises what, the merge tool's suggestions
and what it shows of two people. Each read is a constant number of queries. (The public pages
read through `public_selectors`.)"""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Prefetch

from scorekeeper.concours.models import Entrant, Tournament
from scorekeeper.web.folding import fold, word_key

from .models import Alias, Club, MergeLog, Person, Season, spelling_key

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


def latest_published_seasons(clubs: list[Club]) -> dict[int, Season]:
    """Each club's published season that started last (one query)."""
    found: dict[int, Season] = {}
    for season in Season.objects.filter(club__in=clubs, published=True).order_by("-start", "-id"):
        found.setdefault(season.club_id, season)
    return found


# ---------------------------------------------------------------------------------------------
# The merge tool


def loose_key(name: str) -> str:
    """Two spellings the merge tool calls similar have the same loose key: folded (`fold`: case,
    accents and ligatures set aside), only letters and digits kept ("Jean-René" and "jean rene",
    "Cœur" and "COEUR"), or the same `word_key`: their words in order ("Dupont Jean" and "Jean
    Dupont"; the words a search finds: scorekeeper.web.folding)."""
    return "".join(c for c in fold(name) if c.isalnum())


@dataclass(frozen=True, slots=True)
class Someone:
    """A person as the merge tool's list shows it (no model instance: a club has thousands)."""

    pk: int
    kind: str
    name: str


@dataclass(frozen=True, slots=True)
class PersonLine:
    person: Person | Someone
    spellings: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Picked:
    """One of the two people of a merge, with its spellings."""

    person: Person
    spellings: tuple[str, ...]


def _lines(people: Iterable[Person]) -> list[Picked]:
    return [
        Picked(person, tuple(sorted(alias.spelling for alias in person.aliases.all())))
        for person in people
    ]


def suggestions(club: Club) -> list[list[PersonLine]]:
    """Groups of the club's people (of one kind) whose names or spellings are similar
    (`loose_key`, `word_key`), at most MAX_SUGGESTIONS groups, teams first, by name. Two
    queries, read as plain rows."""
    people = [
        Someone(pk, kind, name)
        for pk, kind, name in Person.objects.filter(club=club)
        .order_by("kind", "name", "id")
        .values_list("pk", "kind", "name")
    ]
    spellings: dict[int, list[str]] = defaultdict(list)
    for owner, spelling in (
        Alias.objects.filter(club=club).order_by("spelling").values_list("person_id", "spelling")
    ):
        spellings[owner].append(spelling)
    parent: dict[int, int] = {p.pk: p.pk for p in people}

    def root(pk: int) -> int:
        while parent[pk] != pk:
            parent[pk] = parent[parent[pk]]
            pk = parent[pk]
        return pk

    first: dict[tuple[str, str, str], int] = {}
    keys: dict[str, tuple[str, str]] = {}  # a spelling's two keys, computed once
    for person in people:
        for spelling in {person.name, *spellings[person.pk]}:
            found = keys.get(spelling)
            if found is None:
                found = keys[spelling] = (loose_key(spelling), word_key(spelling))
            for label, key in zip(("loose", "words"), found, strict=True):
                if not key:
                    continue
                seen = first.setdefault((person.kind, label, key), person.pk)
                if seen != person.pk:
                    parent[root(person.pk)] = root(seen)
    groups: dict[int, list[Someone]] = defaultdict(list)
    for person in people:
        groups[root(person.pk)].append(person)
    found_groups = [
        [PersonLine(person, tuple(spellings[person.pk])) for person in group]
        for group in groups.values()
        if len(group) > 1
    ]
    found_groups.sort(key=lambda g: (g[0].person.kind != "team", g[0].person.name.casefold()))
    return found_groups[:MAX_SUGGESTIONS]


def person_lines(club: Club, pks: Iterable[int]) -> dict[int, Picked]:
    people = Person.objects.filter(club=club, pk__in=list(pks)).prefetch_related(
        Prefetch("aliases", queryset=Alias.objects.order_by("spelling"))
    )
    return {line.person.pk: line for line in _lines(people)}


def people_named(club: Club, kind: str, names: Iterable[str]) -> dict[str, set[int]]:
    """Who each of `names` (typed by hand) is among the club's people of `kind`: the person
    whose spelling it is (case and spaces set aside: `spelling_key`), else every person with a
    spelling equal to it once folded (`fold`: accents and ligatures set aside too): none, one,
    or several to choose from. Two queries at most."""
    wanted = {name: spelling_key(name) for name in names}
    exact = dict(
        Alias.objects.filter(
            club=club, kind=kind, spelling_key__in=set(wanted.values())
        ).values_list("spelling_key", "person_id")
    )
    folded: dict[str, set[int]] = defaultdict(set)
    if any(key not in exact for key in wanted.values()):
        for spelling, pk in Alias.objects.filter(club=club, kind=kind).values_list(
            "spelling", "person_id"
        ):
            folded[fold(spelling)].add(pk)
    return {
        name: {exact[key]} if key in exact else set(folded.get(fold(name), ()))
        for name, key in wanted.items()
    }


def concours_played(club: Club, people: Iterable[Person]) -> dict[int, int]:
    """How many of the club's concours each person's spellings appear in (three queries)."""
    wanted = {p.pk: p.kind for p in people}
    keys = {
        (kind, key): pk
        for kind, key, pk in Alias.objects.filter(person_id__in=list(wanted)).values_list(
            "kind", "spelling_key", "person_id"
        )
    }
    seen: dict[int, set[int]] = {pk: set() for pk in wanted}
    modes = dict(Tournament.objects.filter(club=club).values_list("pk", "settings__mode"))
    rows = Entrant.objects.filter(tournament_id__in=list(modes)).values_list(
        "tournament_id", "name", "player1", "player2"
    )
    for tournament, name, player1, player2 in rows:
        mode = modes[tournament]
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
