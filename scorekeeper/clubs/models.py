"""A club's records (issue 16): the club, its organisers, its seasons, and the people (teams and
players) recognised across its concours.

- **Club**: a name, a town, a `slug` (its public page /club/<slug>/) and an `invite_token`: an
  organiser shares /clubs/join/<token>/; anyone signed in who opens it becomes an organiser
  (ClubOrganiser). "New link" replaces the token. A club's concours are the tournaments whose
  `club` is it (concours.Tournament.club); only `published` ones appear on the public page.
- **Season**: a name, `start` and `end` dates (start <= end, both included: a concours belongs to
  the seasons whose dates hold its date), the ranking rule as `season.rule_to_dict` writes it
  (scorekeeper.engine.season) and `published` (shown on the public page).
- **Person**: one team or one player of the club, across concours (`kind` "team" or "player";
  `name`: the spelling it was created with, then the kept one's after a merge). The seasons
  engine's identity key is `person.key` = f"{kind}-{pk}".
- **Alias**: how an entrant's name maps to a person: `spelling_key` is the name case-folded with
  its spaces collapsed (`spelling_key()`), unique per club and kind; `spelling` is the name as
  first typed. A team concours's team names are "team" aliases, its players' names and a mêlée
  concours's players "player" aliases (a player is one person whether playing in a team or à la
  mêlée).

  **When names map to people**: at reading time. `people.record_people` creates the people and
  aliases of a concours's names that have none when they are written (the concours attached to
  the club, an entrant added or corrected: `holds_concours.py`); the club pages then look each
  name up by its alias, and write nothing. A merge
  only moves aliases, so it changes every page at once, past concours included, with nothing
  recomputed.
- **MergeLog**: the merge tool's log: who merged which person (its name and id, its spellings)
  into which kept person, and when. The merged person is deleted; its aliases now point at the
  kept one."""

import re

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scorekeeper.matches.models import new_token  # links as unguessable as a match's
from scorekeeper.web.validators import validate_name, validate_text

NAME_MAX = 60  # an entrant's or player's name (concours.Entrant.name)


_SPACES = re.compile(r"\s+")


def spelling_key(name: str) -> str:
    """The key an alias is looked up by: case folded, spaces collapsed and trimmed ("  Les
    ROIS " and "les rois" are one spelling; accents are kept: "Rene" and "René" are two spellings
    of which the merge tool suggests merging)."""
    return _SPACES.sub(" ", name).strip().casefold()


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100, validators=[validate_name])
    town = models.CharField(_("town"), max_length=100, blank=True, validators=[validate_text])
    slug = models.SlugField(_("address"), max_length=60, unique=True)
    invite_token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    organisers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="ClubOrganiser", related_name="clubs"
    )

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class ClubOrganiser(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="club_memberships"
    )
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "added_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="club_organiser_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} @ {self.club_id}"


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=100, validators=[validate_name])
    start = models.DateField(_("first day"))
    end = models.DateField(_("last day"))
    rule = models.JSONField()  # season.rule_to_dict(SeasonRule)
    published = models.BooleanField(_("published"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "-start", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(start__lte=models.F("end")), name="season_start_before_end"
            ),
        ]
        indexes = [models.Index(fields=["club", "-start"], name="season_club_recent")]

    def __str__(self) -> str:
        return self.name


class Person(models.Model):
    class Kind(models.TextChoices):
        TEAM = "team", _("Team")
        PLAYER = "player", _("Player")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="people")
    kind = models.CharField(max_length=6, choices=Kind.choices)
    name = models.CharField(_("name"), max_length=NAME_MAX, validators=[validate_name])
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "kind", "name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=["team", "player"]), name="person_kind_known"
            ),
        ]
        indexes = [models.Index(fields=["club", "kind"], name="person_club_kind")]

    def __str__(self) -> str:
        return self.name

    @property
    def key(self) -> str:
        """The seasons engine's identity key."""
        return f"{self.kind}-{self.pk}"


class Alias(models.Model):
    """A spelling of a person's name. `club` and `kind` repeat the person's, so a spelling is
    unique per club and kind in the database."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="aliases")
    kind = models.CharField(max_length=6, choices=Person.Kind.choices)
    person = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="aliases")
    spelling_key = models.CharField(max_length=NAME_MAX)  # spelling_key(spelling): derived
    spelling = models.CharField(max_length=NAME_MAX, validators=[validate_name])
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["person", "spelling_key"]
        constraints = [
            models.UniqueConstraint(
                fields=["club", "kind", "spelling_key"], name="alias_spelling_once_per_club"
            ),
            models.CheckConstraint(
                condition=models.Q(kind__in=["team", "player"]), name="alias_kind_known"
            ),
            models.CheckConstraint(
                condition=~models.Q(spelling_key=""), name="alias_spelling_not_empty"
            ),
        ]

    def __str__(self) -> str:
        return self.spelling


class MergeLog(models.Model):
    """One use of the merge tool: `merged_name` (id `merged_id`, spellings `spellings`) merged
    into `kept` (its name then: `kept_name`) by `by`."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="merges")
    kind = models.CharField(max_length=6, choices=Person.Kind.choices)
    kept = models.ForeignKey(
        Person, null=True, blank=True, on_delete=models.SET_NULL, related_name="merges"
    )
    kept_name = models.CharField(max_length=NAME_MAX, validators=[validate_name])
    merged_id = models.PositiveBigIntegerField()
    merged_name = models.CharField(max_length=NAME_MAX, validators=[validate_name])
    spellings = models.JSONField(default=list)  # the merged person's spellings, moved
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["club", "-at", "-id"]

    def __str__(self) -> str:
        return f"{self.merged_name} → {self.kept_name}"
