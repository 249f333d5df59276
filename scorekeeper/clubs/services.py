"""Every write to a club (issue 16): the club and its organisers, its concours, its seasons, its
people (their recording in `people.py`, below the reads that call it too) and the merge tool.
Keyword-only, each in one transaction: a refusal (`Refused(code, **params)`, worded in
`words.py`) changes nothing. A season's rule is checked by the seasons
engine (`rule_from_dict`): its TournamentError carries the path of the wrong key."""

import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from scorekeeper.concours.models import Tournament
from scorekeeper.engine.season import rule_from_dict, rule_to_dict
from scorekeeper.engine.tournament.readers import read_name, read_text
from scorekeeper.matches.models import new_token

from .models import Alias, Club, ClubOrganiser, MergeLog, Person, Season
from .people import record_people as record_people  # a write of its own module (people.py)

MAX_CLUB_NAME = 100
MAX_TOWN = 100
MAX_SEASON_NAME = 100
SLUG_MAX = 50
MAX_CLUBS_PER_USER = 20  # clubs one account may create or join
MAX_SEASONS = 200  # per club


class Refused(Exception):
    """A change the club's state does not allow: a stable `code` and plain `params`."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


def _text(value: str, path: str, most: int) -> str:
    return read_name(" ".join(str(value).split()), path, most)


def _town(value: str) -> str:
    return read_text(" ".join(str(value).split()), "town", MAX_TOWN)


def _free_slug(name: str, town: str) -> str:
    """A new club's address: its name (and town) in plain letters, -2, -3... when taken."""
    base = slugify(f"{name} {town}".strip())[:SLUG_MAX].strip("-") or "club"
    taken = set(Club.objects.filter(slug__startswith=base).values_list("slug", flat=True)[:1000])
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base[: SLUG_MAX - len(str(n)) - 1]}-{n}"
    return slug


def _club_count(user: User) -> int:
    return ClubOrganiser.objects.filter(user=user).count()


# ---------------------------------------------------------------------------------------------
# The club and its organisers


@transaction.atomic
def create_club(*, user: User, name: str, town: str = "") -> Club:
    """A new club whose first organiser is `user`. TournamentError (`name`, `town`) on a bad
    name; Refused("too_many_clubs") past MAX_CLUBS_PER_USER."""
    name = _text(name, "name", MAX_CLUB_NAME)
    town = _town(town)
    if _club_count(user) >= MAX_CLUBS_PER_USER:
        raise Refused("too_many_clubs", max=MAX_CLUBS_PER_USER)
    for _attempt in range(3):  # two clubs created at once may pick the same address
        try:
            with transaction.atomic():
                club = Club.objects.create(name=name, town=town, slug=_free_slug(name, town))
        except IntegrityError:
            continue
        ClubOrganiser.objects.create(club=club, user=user)
        return club
    raise Refused("busy")


@transaction.atomic
def update_club(*, club: Club, name: str, town: str = "") -> Club:
    """A club's name and town (its address stays: links already shared keep working)."""
    club.name = _text(name, "name", MAX_CLUB_NAME)
    club.town = _town(town)
    club.save(update_fields=["name", "town"])
    return club


@transaction.atomic
def regenerate_invite(*, club: Club) -> Club:
    """A new invite link: the old one stops working at once."""
    club.invite_token = new_token()
    club.save(update_fields=["invite_token"])
    return club


@transaction.atomic
def join(*, club: Club, user: User) -> bool:
    """`user` opened the club's invite link: an organiser now (False: already one)."""
    if ClubOrganiser.objects.filter(club=club, user=user).exists():
        return False
    if _club_count(user) >= MAX_CLUBS_PER_USER:
        raise Refused("too_many_clubs", max=MAX_CLUBS_PER_USER)
    ClubOrganiser.objects.create(club=club, user=user)
    return True


@transaction.atomic
def leave(*, club: Club, user: User) -> None:
    """`user` stops organising the club; refused for its last organiser (a club always has
    one)."""
    memberships = ClubOrganiser.objects.select_for_update().filter(club=club)
    if not any(m.user_id == user.pk for m in memberships):
        raise Refused("not_organiser")
    if len(memberships) == 1:
        raise Refused("last_organiser")
    ClubOrganiser.objects.filter(club=club, user=user).delete()


# ---------------------------------------------------------------------------------------------
# The club's concours


@transaction.atomic
def attach(*, club: Club, tournament: Tournament, user: User) -> Tournament:
    """One of `user`'s concours joins the club (not published yet); its names become the club's
    people. Refused for someone else's concours or one of another club."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.owner_id != user.pk:
        raise Refused("not_your_concours")
    if tournament.club_id == club.pk:
        return tournament
    if tournament.club_id is not None:
        raise Refused("other_club")
    tournament.club = club
    tournament.published = False
    tournament.save(update_fields=["club", "published"])
    record_people(club=club, tournaments=[tournament.pk])
    return tournament


@transaction.atomic
def detach(*, club: Club, tournament: Tournament) -> Tournament:
    """The concours leaves the club (and its public page). Its people stay: they may have played
    other concours of the club."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.club_id != club.pk:
        raise Refused("not_in_club")
    tournament.club = None
    tournament.published = False
    tournament.save(update_fields=["club", "published"])
    return tournament


@transaction.atomic
def publish(*, club: Club, tournament: Tournament, published: bool) -> Tournament:
    """Shown on the club's public page, or not."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.club_id != club.pk:
        raise Refused("not_in_club")
    tournament.published = published
    tournament.save(update_fields=["published"])
    return tournament


# ---------------------------------------------------------------------------------------------
# Seasons


def _season_fields(
    name: str, start: datetime.date, end: datetime.date, rule: object
) -> dict[str, Any]:
    if start > end:
        raise Refused("season_dates")
    return {
        "name": _text(name, "name", MAX_SEASON_NAME),
        "start": start,
        "end": end,
        "rule": rule_to_dict(rule_from_dict(rule)),
    }


@transaction.atomic
def create_season(
    *,
    club: Club,
    name: str,
    start: datetime.date,
    end: datetime.date,
    rule: object,
    published: bool = False,
) -> Season:
    """A season of the club. `rule`: the rule's JSON object (season.rule_from_dict), checked
    there (TournamentError at the key's path); Refused("season_dates") when it ends before it
    starts."""
    fields = _season_fields(name, start, end, rule)
    if Season.objects.filter(club=club).count() >= MAX_SEASONS:
        raise Refused("too_many_seasons", max=MAX_SEASONS)
    return Season.objects.create(club=club, published=published, **fields)


@transaction.atomic
def update_season(
    *,
    season: Season,
    name: str,
    start: datetime.date,
    end: datetime.date,
    rule: object,
    published: bool,
) -> Season:
    fields = _season_fields(name, start, end, rule)
    for key, value in fields.items():
        setattr(season, key, value)
    season.published = published
    season.save(update_fields=[*fields, "published"])
    return season


@transaction.atomic
def delete_season(*, season: Season) -> None:
    season.delete()


@transaction.atomic
def merge_people(*, club: Club, kept: Person, merged: Person, user: User) -> MergeLog:
    """Two spellings of one team or player: every alias of `merged` now points at `kept`, which
    stays (its name unchanged); `merged` is deleted; the merge is logged. Refused for the same
    person twice, two kinds, or someone of another club."""
    if kept.pk == merged.pk:
        raise Refused("merge_same")
    both = {p.pk: p for p in Person.objects.select_for_update().filter(pk__in=[kept.pk, merged.pk])}
    if len(both) != 2 or any(p.club_id != club.pk for p in both.values()):
        raise Refused("merge_gone")
    kept, merged = both[kept.pk], both[merged.pk]
    if kept.kind != merged.kind:
        raise Refused("merge_kinds")
    spellings = list(
        Alias.objects.filter(person=merged)
        .order_by("spelling_key")
        .values_list("spelling", flat=True)
    )
    Alias.objects.filter(person=merged).update(person=kept)
    log = MergeLog.objects.create(
        club=club,
        kind=kept.kind,
        kept=kept,
        kept_name=kept.name,
        merged_id=merged.pk,
        merged_name=merged.name,
        spellings=spellings,
        by=user,
    )
    merged.delete()
    return log
