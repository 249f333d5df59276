"""Players, matches and deals. A deal stores every input of the match file; its scores are a cache
of the engine's result, rewritten in the same transaction as any change (see services.py)."""

import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import OperationalError, connection, models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.scoring import Deal as EngineDeal
from scorekeeper.engine.scoring import Rules, deal_to_dict, parse_deal, rules_from_dict
from scorekeeper.web.validators import validate_name, validate_note

TOKEN_BYTES = 18  # 144 bits: links that cannot be guessed
TEAM_SEATS = ((0, 2), (1, 3))  # seats in playing order: team 0 sits at 0 and 2, team 1 at 1 and 3
DELETED_KEPT_DAYS = 30  # a deleted match can be restored this long, then `purge_deleted` drops it


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


class Player(models.Model):
    """A name as a table knows it. Names are kept per browser (or account), not shared site-wide."""

    name = models.CharField(_("name"), max_length=60, validators=[validate_name])
    owner_key = models.CharField(max_length=64, db_index=True)  # the browser that first named them
    owner = models.ForeignKey(  # the account of that browser, once it signed in
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="named_players",
    )
    user = models.ForeignKey(  # "this is me": the account of the person behind the name
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    # How `user` claimed the name: through the scorer link of this match (revoking that match's
    # links drops the claim), or, when empty, as the name's owner or the owner of its match.
    claimed_through = models.ForeignKey(
        "Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="link_claims"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(Lower("name"), "owner_key", name="player_name_unique_per_owner")
        ]

    def __str__(self) -> str:
        return self.name


LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE when lock_timeout ends a wait


class MatchBusy(OperationalError):
    """Another request held the match's row (or a row its write takes next: its concours
    table's) longer than DB_SAVE_LOCK_TIMEOUT_MS: nothing was written, the phone may try again.
    A database error, so where no view words it, it gets the "try again in a moment" page (503)
    like any other."""


def bound_lock_waits() -> None:
    """On PostgreSQL, every lock the current transaction waits for from now on is waited for
    DB_SAVE_LOCK_TIMEOUT_MS at most (`lock_wait_ended` then tells the error). SQLite queues
    writers with its busy timeout instead."""
    if connection.features.has_select_for_update:
        with connection.cursor() as cursor:
            wait = f"{settings.DB_SAVE_LOCK_TIMEOUT_MS}ms"
            cursor.execute("SELECT set_config('lock_timeout', %s, true)", [wait])


def lock_wait_ended(error: BaseException) -> bool:
    """Whether `error` is a lock wait that ran out (bound_lock_waits): the write was refused,
    nothing written."""
    if isinstance(error, MatchBusy):
        return True
    return getattr(error.__cause__, "sqlstate", None) == LOCK_NOT_AVAILABLE


class MatchQuerySet(models.QuerySet["Match"]):
    def visible_to(
        self,
        *,
        user: Any = None,
        device_key: str | None = None,
        remembered: list[str] | None = None,
    ) -> "MatchQuerySet":
        """The matches of someone's history: created by this browser or account, or scored by
        them through a scorer link (`remembered`: the scorer tokens this browser opened; a
        revoked token no longer matches). Each match says `scorer_revoked`: the account scored
        it through a link renewed since (MatchScorer.revoked_at), so its lists open it
        read-only."""
        condition = models.Q(scorer_token__in=remembered or [])
        if device_key:
            condition |= models.Q(owner_key=device_key)
        revoked: Any = models.Value(False)
        if user is not None:
            condition |= models.Q(owner=user) | models.Q(scorers__user=user)
            revoked = models.Exists(
                MatchScorer.objects.filter(
                    match=models.OuterRef("pk"), user=user, revoked_at__isnull=False
                )
            )
        return self.filter(condition).distinct().annotate(scorer_revoked=revoked)

    def with_players(self) -> "MatchQuerySet":
        """Each match's seats and players read with the list, in one more query (Match.seats)."""
        seats = Seat.objects.select_related("player")
        return self.prefetch_related(models.Prefetch("seat_rows", queryset=seats))

    def newest_first(self) -> "MatchQuerySet":
        return self.order_by("-updated_at", "-id")

    def locked(self, pk: int) -> "Match":
        """The match, its row locked until the transaction ends (every write starts here:
        select_for_update). On PostgreSQL the wait for locks is bounded for the rest of the
        transaction (DB_SAVE_LOCK_TIMEOUT_MS): a match another request holds longer raises
        MatchBusy, and the phone is told to try again. SQLite queues writers with its busy timeout
        instead (Django leaves FOR UPDATE out there)."""
        bound_lock_waits()
        try:
            return self.select_for_update().get(pk=pk)
        except OperationalError as error:
            if lock_wait_ended(error):
                raise MatchBusy from error
            raise

    def locked_many(self, pks: "Iterable[int]") -> "list[Match]":
        """These matches, their rows locked in the order of their ids (docs/architecture.md,
        "Locks"), each wait bounded as `locked`'s (MatchBusy)."""
        bound_lock_waits()
        try:
            return list(self.select_for_update().filter(pk__in=list(pks)).order_by("pk"))
        except OperationalError as error:
            if lock_wait_ended(error):
                raise MatchBusy from error
            raise

    def alive(self) -> "MatchQuerySet":
        """Not deleted: every page, list, statistic and file sees only these."""
        return self.filter(deleted_at__isnull=True)

    def listed(self) -> "MatchQuerySet":
        """What My matches lists and the statistics count: alive, with at least one deal."""
        return self.filter(counted())

    def of_owner(self, *, user: Any = None, device_key: str | None = None) -> "MatchQuerySet":
        """The matches this browser (device key) or account owns."""
        return self.filter(owned_by(user=user, device_key=device_key))

    def restorable(self, now: datetime | None = None) -> "MatchQuerySet":
        """Deleted less than DELETED_KEPT_DAYS ago: the owner may still restore them."""
        return self.filter(deleted_at__gte=deleted_cutoff(now))

    def expired(self, now: datetime | None = None) -> "MatchQuerySet":
        """Deleted DELETED_KEPT_DAYS ago or more: gone for good at the next purge."""
        return self.filter(deleted_at__lt=deleted_cutoff(now))


def deleted_cutoff(now: datetime | None = None) -> datetime:
    return (now or timezone.now()) - timedelta(days=DELETED_KEPT_DAYS)


def owned_by(*, user: Any = None, device_key: str | None = None) -> models.Q:
    """A match this browser (device key) or account owns, as a condition (nothing for neither)."""
    condition = models.Q(pk__in=[])
    if device_key:
        condition |= models.Q(owner_key=device_key)
    if user is not None:
        condition |= models.Q(owner=user)
    return condition


def counted(prefix: str = "") -> models.Q:
    """A match the history lists and the statistics count (alive, with a deal), as a condition on
    Match or, with a prefix such as "match__", on a model that points to one."""
    return models.Q(**{f"{prefix}deleted_at__isnull": True, f"{prefix}deal_count__gt": 0})


def decided(prefix: str = "") -> models.Q:
    """A match that counts in win rates: finished, and not abandoned."""
    return models.Q(
        **{f"{prefix}status": Match.Status.FINISHED, f"{prefix}abandoned_at__isnull": True}
    )


class Match(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")

    view_token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    scorer_token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    owner_key = models.CharField(max_length=64, db_index=True)  # the browser that created it
    owner = models.ForeignKey(  # its account, once that browser signed in
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="matches",
    )
    rules = models.JSONField()  # every resolved setting (Rules.to_dict()), frozen with the match
    preset = models.CharField(max_length=32)
    game = models.CharField(max_length=10)
    team0_name = models.CharField(_("team 1"), max_length=60, validators=[validate_name])
    team1_name = models.CharField(_("team 2"), max_length=60, validators=[validate_name])
    # Who sits where: one Seat row per named seat (a blank seat has none), written with the match.
    players = models.ManyToManyField(Player, through="Seat", related_name="matches", blank=True)
    first_dealer = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)  # finished without one: a draw
    total0 = models.IntegerField(default=0)
    total1 = models.IntegerField(default=0)
    reserve = models.IntegerField(default=0)
    deal_count = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)  # bumped by every change: optimistic locking
    rematch_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # The owner abandoned it: kept and shown, no more deals, out of win rates (resumable).
    abandoned_at = models.DateTimeField(null=True, blank=True)
    # The owner deleted it: gone from every page and list, restorable for DELETED_KEPT_DAYS.
    deleted_at = models.DateTimeField(null=True, blank=True)
    # A concours's table (the concours app): its result is the concours's, so the match is
    # deleted, restored or abandoned only with its concours; once its round is closed
    # (`frozen_at`) its deals change no more here: a late correction goes through the desk.
    in_concours = models.BooleanField(default=False)
    frozen_at = models.DateTimeField(null=True, blank=True)
    # Its holder ended it before its rules did (a concours table's time called:
    # services.end_match): finished with the deals played, won by the higher total.
    ended_at = models.DateTimeField(null=True, blank=True)
    # Its result was typed by hand, not scored from its deals (a concours table's paper sheet or
    # the organiser's correction: services.type_result): total0/total1, status and winner are
    # the typed ones; its deals stay as they were scored.
    typed_at = models.DateTimeField(null=True, blank=True)
    # What a phone that keeps working without signal last said of itself (docs/offline.md),
    # through its outbox's POSTs (services.phone_contact), for a concours's desk: when it last
    # got through, since when it had no signal then, and how many changes it still had waiting.
    phone_seen_at = models.DateTimeField(null=True, blank=True)
    phone_offline_since = models.DateTimeField(null=True, blank=True)
    phone_waiting = models.PositiveSmallIntegerField(default=0)

    objects = MatchQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "matches"
        indexes = [
            models.Index(fields=["owner_key", "-updated_at"], name="match_owner_recent"),
            # The history's order, with the owner: an account's first page is read in order from
            # the index (no sort of all its matches, no table lookup for other accounts' rows).
            models.Index(fields=["-created_at", "-id", "owner"], name="match_history_order"),
            # Recently deleted and the daily purge read only the few deleted rows.
            models.Index(
                fields=["deleted_at"],
                name="match_deleted",
                condition=models.Q(deleted_at__isnull=False),
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(first_dealer__lte=3), name="match_first_dealer_is_a_seat"
            ),
            models.CheckConstraint(
                condition=models.Q(winner__isnull=True) | models.Q(winner__in=[0, 1]),
                name="match_winner_is_a_team",
            ),
            models.CheckConstraint(
                condition=models.Q(status="finished") | models.Q(winner__isnull=True),
                name="match_winner_only_when_finished",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.team0_name} – {self.team1_name}"

    @property
    def engine_rules(self) -> Rules:
        return rules_from_dict(self.rules)

    @property
    def team_names(self) -> tuple[str, str]:
        return (self.team0_name, self.team1_name)

    @property
    def seats(self) -> tuple[Player | None, Player | None, Player | None, Player | None]:
        """The players in playing order (team 1 player 1, team 2 player 1, team 1 player 2, team 2
        player 2), None for a blank seat. Read once from the Seat rows (prefetched by
        `with_players`, or one query here, which access.py makes for a link's match), then kept:
        seats never change after the match is created."""
        seated = self.__dict__.get("_seats")
        if seated is None:
            if self.pk is None:
                rows: Any = []
            elif "seat_rows" in getattr(self, "_prefetched_objects_cache", {}):
                rows = self.seat_rows.all()
            else:
                rows = self.seat_rows.select_related("player")
            seated = self.set_seats({row.position: row.player for row in rows})
        return seated

    def set_seats(
        self, players: dict[int, Player]
    ) -> tuple[Player | None, Player | None, Player | None, Player | None]:
        """Keep these players (by position) as the match's seats, in memory only (services write
        the Seat rows)."""
        seated = (players.get(0), players.get(1), players.get(2), players.get(3))
        self.__dict__["_seats"] = seated
        return seated

    @property
    def is_finished(self) -> bool:
        return self.status == self.Status.FINISHED

    @property
    def is_draw(self) -> bool:
        return self.is_finished and self.winner is None

    @property
    def is_abandoned(self) -> bool:
        return self.abandoned_at is not None

    @property
    def is_typed(self) -> bool:
        """Its result was typed by hand (a paper sheet), not scored from its deals."""
        return self.typed_at is not None

    @property
    def in_play(self) -> bool:
        """Still taking deals: neither finished nor abandoned."""
        return not self.is_finished and not self.is_abandoned

    @property
    def restorable_until(self) -> datetime | None:
        if self.deleted_at is None:
            return None
        return self.deleted_at + timedelta(days=DELETED_KEPT_DAYS)

    @property
    def team_players(self) -> tuple[str, str] | None:
        """Each team's players ("Alice & Bruno"), or None when no seat has a name."""
        if not any(self.seats):
            return None
        return (
            f"{self.seat_name(0)} & {self.seat_name(2)}",
            f"{self.seat_name(1)} & {self.seat_name(3)}",
        )

    def deal_rows(self) -> list["Deal"]:
        """The deals in playing order, each knowing this match (saving a deal and drawing the
        scoreboard both read them)."""
        return list(self.deals.in_order())

    def seat_name(self, seat: int) -> str:
        player = self.seats[seat]
        if player is not None:
            return player.name
        return f"{self.team_names[seat % 2]} ({seat // 2 + 1})"


class Seat(models.Model):
    """A player at a match's table. Positions are the playing order, 0-3: team 1 sits at 0 and 2,
    team 2 at 1 and 3 (TEAM_SEATS), so the team is the position's parity. A blank seat has no
    row. Written once, with the match (services.create_match, import_matches)."""

    # No index of their own: the constraints' and the index's below lead with them.
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="seat_rows", db_index=False
    )
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", db_index=False
    )
    position = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            # Also the index of a match's seats (access.py reads them on every request).
            models.UniqueConstraint(fields=["match", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["match", "player"], name="seat_player_once_per_match"),
            models.CheckConstraint(
                condition=models.Q(position__lte=3), name="seat_position_is_0_to_3"
            ),
        ]
        indexes = [
            # The matches of a player (their page, "this is me", the partners and opponents
            # join), read from the index alone: player -> match and position (so the team).
            models.Index(fields=["player", "match", "position"], name="seat_player_matches"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} at seat {self.position} of {self.match_id}"

    @property
    def team(self) -> int:
        return self.position % 2


class MatchScorer(models.Model):
    """An account that scored a match through its scorer link: the match is in its history.
    `revoked_at`: that link was renewed because it might be in the wrong hands (a concours's
    "New link"): the account keeps the match in its history, read-only, and writes no more."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="scorers")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="scored_matches"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="match_scorer_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user} scores {self.match_id}"


class DealQuerySet(models.QuerySet["Deal"]):
    def in_order(self) -> "DealQuerySet":
        return self.order_by("seq")


class Deal(models.Model):
    class Kind(models.TextChoices):
        PLAYED = "played", _("Played")
        PASSED = "passed", _("All passed")
        MANUAL = "manual", _("Manual score")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deals")
    seq = models.PositiveIntegerField()  # order within the match; the shown number is the rank
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.PLAYED)
    taker = models.PositiveSmallIntegerField(null=True, blank=True)
    contract = models.CharField(max_length=10, blank=True)  # "90", "capot", "generale" or ""
    trump = models.CharField(max_length=10, blank=True)
    coinche = models.CharField(max_length=10, default="none")
    taker_points = models.PositiveSmallIntegerField(null=True, blank=True)
    capot = models.PositiveSmallIntegerField(null=True, blank=True)
    generale = models.BooleanField(default=False)
    belote0 = models.PositiveSmallIntegerField(default=0)
    belote1 = models.PositiveSmallIntegerField(default=0)
    announcements = models.JSONField(
        default=list, blank=True
    )  # [[...], [...]] as in the match file
    announcements_to = models.CharField(max_length=4, blank=True)  # "", "0", "1" or "none"
    manual0 = models.PositiveIntegerField(null=True, blank=True)
    manual1 = models.PositiveIntegerField(null=True, blank=True)
    note = models.CharField(max_length=1000, blank=True, validators=[validate_note])
    # Who took, and who made the coinche that stands (a defender's coinche, a taker's
    # surcoinche), as seats 0-3; optional, for statistics only (never a score).
    taker_player = models.PositiveSmallIntegerField(null=True, blank=True)
    coinche_player = models.PositiveSmallIntegerField(null=True, blank=True)
    # Cache of the engine's result for this deal within its match.
    number = models.PositiveIntegerField(default=0)
    outcome = models.CharField(max_length=10, blank=True)
    score0 = models.IntegerField(default=0)
    score1 = models.IntegerField(default=0)
    total0 = models.IntegerField(default=0)
    total1 = models.IntegerField(default=0)
    reserve_after = models.IntegerField(default=0)
    dealer = models.PositiveSmallIntegerField(default=0)  # seat 0-3
    # The deal's breakdown as the engine's data, in no language ({"breakdown": [line_to_data...]},
    # services.store_breakdown), worded when a page is drawn (scorekeeper.web.words), so the
    # scoreboard does not re-run the engine (speed budget of 50 ms) and a corrected translation
    # shows without re-scoring. Rows from before hold {"en": ..., "fr": ...} texts until
    # `rescore_matches` rewrites them (shown from the engine meanwhile).
    texts = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = DealQuerySet.as_manager()

    class Meta:
        ordering = ["match", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seq"], name="deal_seq_unique_in_match"),
            models.CheckConstraint(
                condition=models.Q(taker__isnull=True) | models.Q(taker__in=[0, 1]),
                name="deal_taker_is_a_team",
            ),
            models.CheckConstraint(
                condition=models.Q(taker_points__isnull=True) | models.Q(taker_points__lte=162),
                name="deal_taker_points_at_most_162",
            ),
            # Seats play in turn: team 0 sits at seats 0 and 2, team 1 at seats 1 and 3. (A
            # NULL taker would make a plain `taker=0` unknown, which a CHECK lets through.)
            models.CheckConstraint(
                condition=models.Q(taker_player__isnull=True)
                | models.Q(taker__isnull=False, taker=0, taker_player__in=TEAM_SEATS[0])
                | models.Q(taker__isnull=False, taker=1, taker_player__in=TEAM_SEATS[1]),
                name="deal_taker_player_in_the_taking_team",
            ),
            models.CheckConstraint(
                condition=models.Q(coinche_player__isnull=True)
                | models.Q(
                    taker__isnull=False,
                    coinche="coinche",
                    taker=0,
                    coinche_player__in=TEAM_SEATS[1],
                )
                | models.Q(
                    taker__isnull=False,
                    coinche="coinche",
                    taker=1,
                    coinche_player__in=TEAM_SEATS[0],
                )
                | models.Q(
                    taker__isnull=False,
                    coinche="surcoinche",
                    taker=0,
                    coinche_player__in=TEAM_SEATS[0],
                )
                | models.Q(
                    taker__isnull=False,
                    coinche="surcoinche",
                    taker=1,
                    coinche_player__in=TEAM_SEATS[1],
                ),
                name="deal_coinche_player_in_the_right_team",
            ),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number} of {self.match_id}"

    def as_match_dict(self) -> dict[str, Any]:
        """This deal as written in a match file (docs/file-formats.md §1)."""
        out: dict[str, Any]
        if self.kind == self.Kind.PASSED:
            out = {"passed": True}
        elif self.kind == self.Kind.MANUAL:
            out = {"manual_scores": [self.manual0, self.manual1]}
        else:
            out = {"taker": self.taker, "trump": self.trump}
            if self.contract:
                out["contract"] = int(self.contract) if self.contract.isdecimal() else self.contract
            for field in ("taker_points", "capot"):
                if getattr(self, field) is not None:
                    out[field] = getattr(self, field)
            if self.coinche != "none":
                out["coinche"] = self.coinche
            if self.generale:
                out["generale"] = True
            if self.belote0 or self.belote1:
                out["belote"] = [self.belote0, self.belote1]
            if self.announcements and any(self.announcements):
                out["announcements"] = self.announcements
            if self.announcements_to:
                to = self.announcements_to
                out["announcements_to"] = int(to) if to.isdecimal() else to
            for field in ("taker_player", "coinche_player"):
                if getattr(self, field) is not None:
                    out[field] = getattr(self, field)
        if self.note:
            out["note"] = self.note
        return out

    def to_engine(self) -> EngineDeal:
        return parse_deal(self.as_match_dict())

    def set_from_engine(self, deal: EngineDeal) -> None:
        """Copy every input of an engine deal onto this row (cache fields untouched)."""
        data = deal_to_dict(deal)
        self.kind = (
            self.Kind.PASSED
            if data.get("passed")
            else self.Kind.MANUAL
            if "manual_scores" in data
            else self.Kind.PLAYED
        )
        contract = data.get("contract")
        to = data.get("announcements_to")
        manual = data.get("manual_scores", [None, None])
        belote = data.get("belote", [0, 0])
        self.taker = data.get("taker")
        self.contract = "" if contract is None else str(contract)
        self.trump = data.get("trump", "")
        self.coinche = data.get("coinche", "none")
        self.taker_points = data.get("taker_points")
        self.capot = data.get("capot")
        self.generale = data.get("generale", False)
        self.belote0, self.belote1 = belote
        self.announcements = data.get("announcements", [])
        self.announcements_to = "" if to is None else str(to)
        self.manual0, self.manual1 = manual
        self.note = data.get("note", "")
        self.taker_player = data.get("taker_player")
        self.coinche_player = data.get("coinche_player")


class DealChange(models.Model):
    """One change to a match's deals, kept for the deal's history and for undo."""

    class Action(models.TextChoices):
        ADD = "add", _("added")
        EDIT = "edit", _("edited")
        DELETE = "delete", _("deleted")
        UNDO = "undo", _("undone")

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes")
    seq = models.PositiveIntegerField()  # the deal's seq
    number = models.PositiveIntegerField()  # its number when the change was made
    action = models.CharField(max_length=10, choices=Action.choices)
    before = models.JSONField(null=True, blank=True)  # the deal as a match-file dict
    after = models.JSONField(null=True, blank=True)
    author_key = models.CharField(max_length=64, blank=True)
    author = models.CharField(max_length=150, blank=True)  # how the change was authorised
    undone = models.BooleanField(default=False)
    undoes = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="undone_by"
    )
    submission = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 (unique when set)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["match", "seq"], name="change_match_deal")]
        constraints = [
            # A form saves once per match (a double tap records one deal).
            models.UniqueConstraint(
                fields=["match", "submission"], name="change_submission_once_per_match"
            )
        ]

    def __str__(self) -> str:
        return f"{self.action} deal {self.number}"

    @property
    def is_redo(self) -> bool:
        """A redo: the change it brings back, undoing an undo (see matches/undo_next.py)."""
        return self.action != self.Action.UNDO and self.undoes_id is not None
