"""A concours in the database (issue 15, docs/tournaments.md): the tournament, its entrants, its rounds,
each round's tables and who sits where (Place: one row per entrant and round, a bye being a place
without a table), and the log of corrected results.

The engine (`scorekeeper.engine.tournament`) computes; these rows store. Each table keeps its result (the
points of both sides, the winner, finished or pending) as a cache written by
`services.sync_tables` from its match's own cached totals, or from a paper sheet, so standings
never score a deal again."""

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import F, Max
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scorekeeper.engine.tournament import Settings, settings_from_dict
from scorekeeper.engine.tournament import Stage as EngineStage
from scorekeeper.matches.models import Match, new_token  # links as unguessable as a match's
from scorekeeper.web.validators import validate_name, validate_prizes, validate_text


class Tournament(models.Model):
    class Status(models.TextChoices):
        # A concours's state (French: "le concours", masculine; a match's are feminine).
        REGISTRATION = "registration", pgettext_lazy("concours", "Registration")  # no draw yet
        PLAYING = "playing", pgettext_lazy("concours", "Playing")
        FINISHED = "finished", pgettext_lazy("concours", "Finished")

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournaments"
    )
    name = models.CharField(_("name"), max_length=100, validators=[validate_name])
    date = models.DateField(_("date"), null=True, blank=True)
    place = models.CharField(_("place"), max_length=100, blank=True, validators=[validate_text])
    # The engine's `settings` object (docs/tournaments.md §1), as `settings_to_dict` writes it.
    settings = models.JSONField()
    # {"1": "a ham", "2": "two bottles"}
    prizes = models.JSONField(default=dict, blank=True, validators=[validate_prizes])
    # A helper running the desk from another device; the public standings page.
    co_token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    public_token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.REGISTRATION)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every change a standings reader could see (a draw, a result, an entry): the
    # projector's poll compares it (one query, 304 when unchanged).
    version = models.PositiveIntegerField(default=0)
    # Issue 16: the club it belongs to (scorekeeper.clubs), shown on the club's public page when
    # `published`; `final_standings`: a finished concours's final places, stored once so the
    # club's pages never compute its standings again.
    club = models.ForeignKey(
        "clubs.Club",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
    )
    published = models.BooleanField(_("published on the club page"), default=False)
    final_standings = models.JSONField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["owner", "-created_at"], name="tournament_owner_recent"),
            models.Index(fields=["club", "-date"], name="tournament_club_recent"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def engine_settings(self) -> Settings:
        return settings_from_dict(self.settings)

    @property
    def melee(self) -> bool:
        return bool(self.settings.get("mode") == "melee")

    def touch(self) -> None:
        """A change standings readers can see: the projector's poll notices it (`version`)."""
        Tournament.objects.filter(pk=self.pk).update(version=F("version") + 1)
        self.refresh_from_db(fields=["version"])

    def drawn_rounds(self) -> int:
        """How many rounds are drawn."""
        return int(self.rounds.aggregate(top=Max("number"))["top"] or 0)


class Entrant(models.Model):
    """A team (its name and two players) or, à la mêlée, a player (`name`; no players).
    `number` is the engine's entrant id (1, 2, ...), unique in the tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    number = models.PositiveIntegerField()
    name = models.CharField(_("name"), max_length=60, validators=[validate_name])
    player1 = models.CharField(_("player 1"), max_length=60, blank=True, validators=[validate_name])
    player2 = models.CharField(_("player 2"), max_length=60, blank=True, validators=[validate_name])
    # Check-in before round 1: None not checked yet, True present, False absent (an absent
    # entrant is left out of the concours; arriving later, it is a late entry).
    present = models.BooleanField(null=True, blank=True)
    from_round = models.PositiveSmallIntegerField(default=1)
    withdrawn_before_round = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="entrant_number_unique_per_tournament"
            ),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="entrant_number_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(from_round__gte=1), name="entrant_from_round_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(withdrawn_before_round__isnull=True)
                | models.Q(withdrawn_before_round__gte=1),
                name="entrant_withdrawn_round_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def players(self) -> tuple[str, str] | None:
        if not self.player1 and not self.player2:
            return None
        return (self.player1, self.player2)


class Round(models.Model):
    """A round: a qualifying round (`stage` empty) or a round of the final bracket
    (docs/tournaments.md §7): "final" (the main bracket) or "consolation"."""

    class Stage(models.TextChoices):
        QUALIFYING = "", _("qualifying")
        FINAL = "final", _("final bracket")
        CONSOLATION = "consolation", _("consolation bracket")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=12, choices=Stage.choices, default="", blank=True)
    drawn_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    rematches = models.PositiveSmallIntegerField(default=0)  # the draw could not avoid them
    # The round clock (docs/concours.md, "The round clock"): when it was started (by the draw
    # when the concours has `minutes`, or again by the organiser) and for how many minutes;
    # both None: no clock. Stored, so a reload or a server restart shows the same time left.
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_minutes = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "number"], name="round_number_unique_per_tournament"
            ),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=models.Q(clock_started_at__isnull=True, clock_minutes__isnull=True)
                | models.Q(
                    clock_started_at__isnull=False, clock_minutes__gte=1, clock_minutes__lte=600
                ),
                name="round_clock_both_or_none",
            ),
            models.CheckConstraint(
                condition=models.Q(stage__in=["", "final", "consolation"]),
                name="round_stage_known",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · {self.number}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    @property
    def clock_ends_at(self) -> datetime | None:
        """When the round's time is up (None: no clock)."""
        if self.clock_started_at is None or self.clock_minutes is None:
            return None
        return self.clock_started_at + timedelta(minutes=self.clock_minutes)

    def time_up(self, now: datetime) -> bool:
        """Whether the clock has reached zero at `now` (False without a clock)."""
        ends = self.clock_ends_at
        return ends is not None and now >= ends

    @property
    def engine_stage(self) -> EngineStage | None:
        """The engine's `stage` of this round (None: a qualifying round)."""
        if self.stage == "final":
            return "final"
        if self.stage == "consolation":
            return "consolation"
        return None


class Table(models.Model):
    """A table of a round. Its result is a cache: `finished`, `points0`/`points1` (running totals
    while pending, None before the first deal), `winner` (0, 1, or None: a draw when finished),
    `reserve_lost`; written from the match (`match_version` is the match version it was read
    at) or from the paper totals, which win over the match when typed."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # Created by the draw; None for a table of an imported file scored on paper.
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="concours_table"
    )
    # The table's phone link (None: revoked).
    token = models.CharField(max_length=32, unique=True, null=True, blank=True, default=new_token)
    paper0 = models.IntegerField(null=True, blank=True)
    paper1 = models.IntegerField(null=True, blank=True)
    paper_belotes = models.PositiveSmallIntegerField(default=0)
    paper_capots = models.PositiveSmallIntegerField(default=0)
    paper_announcements = models.PositiveIntegerField(default=0)
    ended = models.BooleanField(default=False)  # time called: the partie ends with its deals
    # The result, cached.
    finished = models.BooleanField(default=False)
    points0 = models.IntegerField(null=True, blank=True)
    points1 = models.IntegerField(null=True, blank=True)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    reserve_lost = models.IntegerField(default=0)
    deal_count = models.PositiveSmallIntegerField(default=0)
    match_version = models.PositiveIntegerField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "number"], name="table_number_unique_per_round"
            ),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="table_number_positive"),
            models.CheckConstraint(
                condition=models.Q(paper0__isnull=True, paper1__isnull=True)
                | models.Q(
                    paper0__isnull=False, paper1__isnull=False, paper0__gte=0, paper1__gte=0
                ),
                name="table_paper_totals_both_or_none",
            ),
            models.CheckConstraint(
                condition=models.Q(winner__isnull=True) | models.Q(winner__in=[0, 1]),
                name="table_winner_is_a_side",
            ),
            models.CheckConstraint(
                condition=models.Q(finished=True) | models.Q(winner__isnull=True),
                name="table_winner_only_when_finished",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} · {self.number}"

    @property
    def paper(self) -> tuple[int, int] | None:
        if self.paper0 is None or self.paper1 is None:
            return None
        return (self.paper0, self.paper1)

    @property
    def points(self) -> tuple[int, int] | None:
        if self.points0 is None or self.points1 is None:
            return None
        return (self.points0, self.points1)

    def result_dict(self) -> dict[str, Any]:
        """The cached result as plain data (for the change log)."""
        return {
            "finished": self.finished,
            "points": list(self.points) if self.points else None,
            "winner": self.winner,
            "paper": list(self.paper) if self.paper else None,
            "ended": self.ended,
        }


class Place(models.Model):
    """Where an entrant sits in a round: at a table, on a side (0 or 1), in a seat of that side
    (0; in mêlée 0 or 1), or on a bye (no table). One row per entrant and round: an entrant is at
    most once in a round."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="places")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="places")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="places"
    )
    side = models.PositiveSmallIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["round", "entrant"], name="place_entrant_once_per_round"
            ),
            models.UniqueConstraint(
                fields=["table", "side", "seat"], name="place_seat_unique_per_table"
            ),
            models.CheckConstraint(
                condition=models.Q(table__isnull=True, side__isnull=True)
                | models.Q(table__isnull=False, side__isnull=False, side__in=[0, 1]),
                name="place_side_only_at_a_table",
            ),
            models.CheckConstraint(condition=models.Q(seat__lte=1), name="place_seat_0_or_1"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant_id} @ {self.table_id or 'bye'}"

    @property
    def is_bye(self) -> bool:
        return self.table_id is None


class ResultChange(models.Model):
    """A table's result typed or corrected by the organiser (or a co-organiser): who, before and
    after (Table.result_dict), when."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="changes")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    author_label = models.CharField(max_length=60, blank=True)  # "co-organiser link"...
    action = models.CharField(max_length=12)  # "paper", "correction", "time"
    before = models.JSONField()
    after = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.action} {self.table_id}"
