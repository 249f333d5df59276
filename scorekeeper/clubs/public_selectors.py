"""Reads of a club's public pages (issue 16): its published concours with their final rankings,
its published seasons ranked by the seasons engine (`scorekeeper.engine.season`), and each
team's or player's record.

**Speed.** A finished concours keeps its final ranking on its row
(`Tournament.final_standings`, written by `concours.services.finish` and by a correction
after it, with the tournament's `version` it was computed at), so a page reads 120 concours in
one query and never computes a standings. A row whose stored version is not the tournament's (or
a concours finished before the column existed) is computed once and stored again
(`final_of`). Names map to people through the club's aliases, read in one query (`People`).
Every page here reads a fixed number of queries whatever the number of concours.

**Privacy.** Only a club's `published` concours are read, and only its `published` seasons are
offered; a person is shown only through what published concours hold of them."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.db.models import Q, QuerySet
from django.db.models.fields.json import KT

from scorekeeper.concours.models import Tournament
from scorekeeper.concours.selectors import final_rows, with_prizes
from scorekeeper.engine import season as seasons
from scorekeeper.engine.season import Finish, Player, SeasonConcours, SeasonRule
from scorekeeper.engine.tournament import TournamentError
from scorekeeper.web.folding import finds
from scorekeeper.web.folding import fold as _fold
from scorekeeper.web.folding import name_words as _name_words

from .models import Alias, Club, Person, Season
from .models import spelling_key as _spelling_key

PODIUM = 3
# What a club page reads of each concours (the entrants, rounds and tables are never read).
CONCOURS_FIELDS = (
    "id", "club_id", "name", "date", "place", "prizes", "status", "public_token", "published",
    "version", "final_standings", "finished_at", "created_at",
)  # fmt: skip
# The same names come back on every page: each folded once per process (a regular expression
# each time was a third of a record page's time).
spelling_key = functools.lru_cache(maxsize=50_000)(_spelling_key)
fold = functools.lru_cache(maxsize=50_000)(_fold)
name_words = functools.lru_cache(maxsize=50_000)(_name_words)
UNKNOWN = "~"  # a key made from a spelling that no alias holds (no record page)
NO_PLAYERS = "team-as-player~"  # a team without players' names, in a ranking of players


def published(club: Club, *, rows: bool = True) -> QuerySet[Tournament]:
    """The club's published concours, with their mode (`mode`: "melee" or "teams") read from
    the settings without decoding them; `rows=False`: without their final rankings."""
    fields = (
        CONCOURS_FIELDS if rows else tuple(f for f in CONCOURS_FIELDS if f != "final_standings")
    )
    return (
        Tournament.objects.filter(club=club, published=True)
        .annotate(mode=KT("settings__mode"))
        .only(*fields)
    )


def final_of(tournament: Tournament) -> list[dict[str, Any]]:
    """A finished concours's final rows (`concours.selectors.final_rows`): the stored ones, or,
    when they are missing or older than the tournament, computed for this reading only (a GET
    never writes; `finish` and every later correction store them)."""
    stored = tournament.final_standings
    if isinstance(stored, dict) and stored.get("version") == tournament.version:
        rows = stored.get("rows")
        if isinstance(rows, list):
            return rows
    return final_rows(Tournament.objects.get(pk=tournament.pk))


@dataclass
class ClubConcours:
    """A published concours as the club pages show it; `rows`: its final ranking (finished)."""

    tournament: Tournament
    rows: list[dict[str, Any]] = field(default_factory=list)
    people: People | None = None

    @property
    def pk(self) -> int:
        return int(self.tournament.pk)

    @property
    def finished(self) -> bool:
        return self.tournament.status == Tournament.Status.FINISHED

    @property
    def melee(self) -> bool:
        return getattr(self.tournament, "mode", None) == "melee"

    @functools.cached_property
    def ranking(self) -> list[dict[str, Any]]:
        """The final rows, each with its prize: its own, or ex æquo on a prize rank the prizes
        its tied group shares out (concours.selectors.with_prizes; the stored rows are left
        as they are)."""
        rows = [dict(row) for row in self.rows]
        with_prizes(rows, self.tournament.prizes)
        return rows

    @property
    def podium(self) -> list[dict[str, Any]]:
        """The first three places, each with its prize and (when `people` is known) the id of
        its person, for the link to its record."""
        kind = "player" if self.melee else "team"
        people = self.people
        return [
            {
                **row,
                "name": self.name_of(row),
                "person": people.person(kind, str(row["name"])) if people else None,
            }
            for row in self.ranking
            if row["rank"] <= PODIUM
        ]

    @property
    def winners(self) -> list[dict[str, Any]]:
        return [{**row, "name": self.name_of(row)} for row in self.rows if row["rank"] == 1]

    def name_of(self, row: dict[str, Any]) -> str:
        """The name a row's team (a mêlée's player) goes by in the club: its person's (the
        spelling kept in a merge), when `people` is known; else as written in the concours."""
        name = str(row["name"])
        if self.people is None:
            return name
        return self.people.name("player" if self.melee else "team", name)

    @property
    def prize_line(self) -> str:
        """The prizes announced, by rank ("1. a ham · 2. two bottles"), for a concours not
        played yet (a finished one shows each on its podium): read from the concours's row."""
        prizes = self.tournament.prizes if isinstance(self.tournament.prizes, dict) else {}
        ranked = sorted(
            (int(rank), " ".join(str(text).split()))
            for rank, text in prizes.items()
            if str(rank).isascii() and str(rank).isdecimal() and str(text).strip()
        )
        return " · ".join(f"{rank}. {text}" for rank, text in ranked)


def _with_rows(tournaments: Iterable[Tournament]) -> list[ClubConcours]:
    return [
        ClubConcours(t, final_of(t) if t.status == Tournament.Status.FINISHED else [])
        for t in tournaments
    ]


def _by_date(items: Sequence[ClubConcours], newest_first: bool) -> list[ClubConcours]:
    def when(item: ClubConcours) -> tuple[date, int]:
        return (item.tournament.date or item.tournament.created_at.date(), item.pk)

    return sorted(items, key=when, reverse=newest_first)


RECENT = 12  # past concours shown with their podium on the club page; the others listed


@dataclass
class ClubPage:
    club: Club
    upcoming: list[ClubConcours]
    recent: list[ClubConcours]  # the latest finished, each with its final ranking
    earlier: list[ClubConcours]  # the finished before those (no ranking read)
    seasons: list[Season]


def club_page(club: Club) -> ClubPage:
    """The club's published concours (upcoming: not finished, the next first; past: finished,
    the latest first, the RECENT latest with their final rankings, their podiums' people) and
    its published seasons. Four queries, whatever the number of concours."""
    items = [ClubConcours(t) for t in published(club, rows=False)]
    upcoming = _by_date([i for i in items if not i.finished], newest_first=False)
    past = _by_date([i for i in items if i.finished], newest_first=True)
    recent, earlier = past[:RECENT], past[RECENT:]
    if recent:
        full = {t.pk: t for t in published(club).filter(pk__in=[i.pk for i in recent])}
        recent = _with_rows(full[i.pk] for i in recent)
        people = People.of(club)
        for item in recent:
            item.people = people
    found = list(Season.objects.filter(club=club, published=True).order_by("-start", "-id"))
    return ClubPage(club, upcoming, recent, earlier, found)


@dataclass(frozen=True)
class Found:
    person: int
    name: str
    kind: str  # "team" or "player"


MAX_FOUND = 12
MAX_QUERY = 60


def find_people(club: Club, query: str) -> tuple[list[Found], int]:
    """The teams and players of the club's published finished concours whose name holds every
    word of `query`, in any order (case, accents, ligatures, hyphens and spaces aside:
    scorekeeper.web.folding.finds), as written in a concours or as the club names them (the
    spelling kept in a merge): at most MAX_FOUND, by name, each under the club's name for them,
    and how many more. Nobody seen only in unpublished concours is found. Two queries (the
    concours, the aliases with their people's names), four when names are new to the club."""
    wanted = name_words(query[:MAX_QUERY])
    if not wanted:
        return [], 0
    past = finished_in(club)
    if not past:
        return [], 0
    people = People.of(club)
    seen: set[tuple[str, str]] = set()
    found: dict[int, Found] = {}
    for item in past:
        for row in item.rows:
            names = [("player" if item.melee else "team", str(row["name"]))]
            names += [("player", str(p)) for p in row.get("players") or [] if p]
            for kind, name in names:
                key = (kind, spelling_key(name))
                if key in seen:
                    continue
                seen.add(key)
                person = people.person(kind, name)
                if person is None or person in found:
                    continue
                shown = people.names.get(person, name)
                if finds(wanted, name_words(name)) or finds(wanted, name_words(shown)):
                    found[person] = Found(person, shown, kind)
    ordered = sorted(found.values(), key=lambda f: (fold(f.name), f.name, f.kind, f.person))
    return ordered[:MAX_FOUND], max(len(ordered) - MAX_FOUND, 0)


def finished_in(
    club: Club, start: date | None = None, end: date | None = None
) -> list[ClubConcours]:
    """The club's published finished concours (between `start` and `end`, both included),
    in date order, with their final rankings: one query."""
    query = published(club).filter(status=Tournament.Status.FINISHED)
    if start is not None and end is not None:
        query = query.filter(date__gte=start, date__lte=end)
    return _by_date(_with_rows(query), newest_first=False)


# ---------------------------------------------------------------------------------------------
# People


@dataclass
class People:
    """The club's aliases, read once: a name of a kind -> the person's key and id, and each
    person's name (`Person.name`: the spelling it was first met with, or the one kept in a
    merge), the name every club page shows for them."""

    persons: dict[tuple[str, str], int]
    names: dict[int, str] = field(default_factory=dict)

    @classmethod
    def of(cls, club: Club) -> People:
        """The club's aliases, as recorded when each concours's names were written (attached to
        the club, an entrant added or corrected: `clubs.holds_concours`); a read, no write."""
        rows = Alias.objects.filter(club=club).values_list(
            "kind", "spelling_key", "person_id", "person__name"
        )
        persons: dict[tuple[str, str], int] = {}
        names: dict[int, str] = {}
        for kind, key, person, name in rows:
            persons[(kind, key)] = person
            names[person] = name
        return cls(persons, names)

    def person(self, kind: str, name: str) -> int | None:
        return self.persons.get((kind, spelling_key(name)))

    def name(self, kind: str, name: str) -> str:
        """The club's name for the person `name` (of `kind`) is: `name` itself when nobody."""
        found = self.person(kind, name)
        return name if found is None else self.names.get(found, name)

    def key(self, kind: str, name: str) -> str:
        found = self.person(kind, name)
        return f"{kind}-{found}" if found is not None else f"{kind}{UNKNOWN}{spelling_key(name)}"


def person_id(key: str) -> int | None:
    """The Person id of an engine key ("player-12"), None for a name no alias holds."""
    kind, dash, number = key.partition("-")
    return int(number) if dash and kind in ("team", "player") and number.isdecimal() else None


def engine_concours(items: Sequence[ClubConcours], people: People) -> list[SeasonConcours]:
    """The concours as the seasons engine reads them. One person met twice in one concours (two
    homonyms, or two spellings merged) keeps the first result; the second is told apart by a key
    of its own (never linked). A team without players' names plays as one player named after it
    in a ranking of players."""
    out = []
    for item in items:
        kind: seasons.Kind = "melee" if item.melee else "teams"
        when = item.tournament.date or item.tournament.created_at.date()
        finishes = _finishes(item, people)
        out.append(SeasonConcours(item.pk, when, item.tournament.name, kind, finishes))
    return out


def _finishes(item: ClubConcours, people: People) -> tuple[Finish, ...]:
    used: set[str] = set()

    def own(key: str, where: str) -> str:
        if key in used:
            key = f"{key}{UNKNOWN}{item.pk}.{where}"
        used.add(key)
        return key

    finishes = []
    for row in item.rows:
        name, number, points = str(row["name"]), str(row["id"]), int(row["points"])
        if item.melee:
            key = own(people.key("player", name), number)
            finishes.append(Finish(int(row["rank"]), key, people.name("player", name), points))
            continue
        shown = people.name("team", name)
        players = tuple(
            Player(own(people.key("player", p), f"{number}.{n}"), people.name("player", p))
            for n, p in enumerate(row.get("players") or [])
            if p
        ) or (Player(own(f"{NO_PLAYERS}{item.pk}.{number}", "0"), shown),)
        key = own(people.key("team", name), number)
        finishes.append(Finish(int(row["rank"]), key, shown, points, players))
    return tuple(finishes)


# ---------------------------------------------------------------------------------------------
# A season


@dataclass
class SeasonPage:
    season: Season
    rule: SeasonRule
    concours: list[ClubConcours]
    ranking: seasons.SeasonRanking
    most_wins: list[seasons.SeasonRow]  # those who won the most concours (none when nobody won)

    @property
    def rows(self) -> tuple[seasons.SeasonRow, ...]:
        return self.ranking.rows

    @property
    def counted_concours(self) -> int:
        return len(self.ranking.counted)


def season_rule(season: Season) -> SeasonRule:
    try:
        return seasons.rule_from_dict(season.rule)
    except TournamentError:
        return SeasonRule()  # a rule stored before a check existed: the defaults, not a 500


def season_page(club: Club, season: Season) -> SeasonPage:
    """The season's ranking under its rule, from the club's published finished concours of its
    dates. Three queries."""
    rule = season_rule(season)
    items = finished_in(club, season.start, season.end)
    people = People.of(club)
    for item in items:
        item.people = people  # each concours's winners under the club's names
    ranking = seasons.season_ranking(engine_concours(items, people), rule)
    top = max((row.won for row in ranking.rows), default=0)
    most = [row for row in ranking.rows if top and row.won == top]
    return SeasonPage(season, rule, items, ranking, most)


SORTS = ("rank", "wins", "played", "name")


def sorted_rows(page: SeasonPage, sort: str) -> list[seasons.SeasonRow]:
    rows = list(page.rows)
    if sort == "wins":
        rows.sort(key=lambda r: (-r.won, r.rank))
    elif sort == "played":
        rows.sort(key=lambda r: (-r.played, r.rank))
    elif sort == "name":
        rows.sort(key=lambda r: (r.name.casefold(), r.rank))
    return rows


# ---------------------------------------------------------------------------------------------
# A team's or player's record


@dataclass
class RecordPage:
    person: Person
    record: seasons.Record
    also: list[str]  # the person's other spellings

    @property
    def results(self) -> list[seasons.ConcoursResult]:
        return list(self.record.results)


def record_page(club: Club, person: Person) -> RecordPage | None:
    """Every published result of `person` (a team: its team concours; a player: its mêlée
    concours and its teams' results), None when no published concours holds them, under the
    person's name (the spelling kept in a merge) and, for a player, each team's club name. Two
    queries (three for a player in teams).

    The person's rows are those whose name (a player's: in a team, one of its players' names)
    is one of the person's spellings: an alias names one person of a kind in the club, so this
    is `seasons.records` of the club's concours for the person's key (tested against it), without
    building everyone else's results. Met twice in one concours: the first (better) row."""
    spellings = list(person.aliases.values_list("spelling_key", "spelling"))
    keys = {key for key, _ in spellings}
    if not keys:
        return None
    rows: list[tuple[ClubConcours, dict[str, Any]]] = []
    for item in _by_date(_with_rows(published(club).filter(_finished())), newest_first=False):
        if person.kind == "team" and item.melee:
            continue
        row = next(
            (r for r in item.rows if _spelling_in(r, person.kind, item.melee, keys) is not None),
            None,
        )
        if row is not None:
            rows.append((item, row))
    if not rows:
        return None
    in_teams = person.kind == "player" and any(not item.melee for item, _ in rows)
    teams = _team_names(club, [str(row["name"]) for item, row in rows if not item.melee])
    results = tuple(
        seasons.ConcoursResult(
            concours=item.pk,
            date=item.tournament.date or item.tournament.created_at.date(),
            concours_name=item.tournament.name,
            place=int(row["rank"]),
            points=int(row["points"]),
            field=len(item.rows),
            team=teams.get(spelling_key(str(row["name"])), str(row["name"]))
            if in_teams and not item.melee
            else None,
        )
        for item, row in rows
    )
    found = seasons.Record(person.key, person.name, results)
    also = sorted({spelling for _, spelling in spellings if spelling != found.name})
    return RecordPage(person, found, also)


def _team_names(club: Club, names: list[str]) -> dict[str, str]:
    """The club's name of each team of `names` (by spelling key): one query, none for none."""
    if not names:
        return {}
    return dict(
        Alias.objects.filter(
            club=club, kind="team", spelling_key__in={spelling_key(n) for n in names}
        ).values_list("spelling_key", "person__name")
    )


def _finished() -> Q:
    return Q(status=Tournament.Status.FINISHED)


def _spelling_in(row: dict[str, Any], kind: str, melee: bool, keys: set[str]) -> str | None:
    """The name of `row` (a team's or mêlée player's; a player of a team's) that is one of
    `keys`, as written there; None."""
    names = [str(row["name"])] if kind == "team" or melee else row.get("players") or []
    return next((str(n) for n in names if n and spelling_key(str(n)) in keys), None)


def concours_page(club: Club, pk: int) -> ClubConcours | None:
    """One published concours of the club with its final ranking (None: not there, or not
    published)."""
    found = published(club).filter(pk=pk).first()
    return _with_rows([found])[0] if found is not None else None


def links(item: ClubConcours, people: People) -> dict[int, dict[str, Any]]:
    """For each entrant number of a concours's ranking: its club name (the spelling kept in a
    merge) and its person's id (team or mêlée player), and its players' (club name, person id)
    pairs, for the links to their records."""
    out: dict[int, dict[str, Any]] = {}
    for row in item.rows:
        kind = "player" if item.melee else "team"
        out[int(row["id"])] = {
            "name": people.name(kind, str(row["name"])),
            "person": people.person(kind, str(row["name"])),
            "players": [
                (people.name("player", p), people.person("player", p))
                for p in row.get("players") or []
                if p
            ],
        }
    return out
