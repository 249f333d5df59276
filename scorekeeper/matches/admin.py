"""The admin lists every model with search and filters. Scores are the engine's: deals and their
history are read-only here (a change goes through the app, which re-scores the match), and a
match's cached totals cannot be typed in."""

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import Deal, DealChange, Match, MatchScorer, Player, Seat


class ReadOnlyAdmin[T: Any](admin.ModelAdmin[T]):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: T | None = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "user", "owner", "created_at"]
    list_filter = [("user", admin.EmptyFieldListFilter), ("owner", admin.EmptyFieldListFilter)]
    list_select_related = ["user", "owner"]
    search_fields = ["name", "user__username", "owner__username"]
    raw_id_fields = ["user", "owner", "claimed_through"]  # a match list would be huge


class DealInline(admin.TabularInline[Deal, Match]):
    model = Deal
    extra = 0
    readonly_fields = (
        "number",
        "kind",
        "taker",
        "contract",
        "trump",
        "coinche",
        "outcome",
        "score0",
        "score1",
    )
    fields = readonly_fields
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Match | None = None) -> bool:
        return False


class SeatInline(admin.TabularInline[Seat, Match]):
    """Who sits where, as written when the match was created (read-only)."""

    model = Seat
    extra = 0
    fields = readonly_fields = ("position", "player")
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Match | None = None) -> bool:
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = ["__str__", "preset", "status", "total0", "total1", "deal_count", "updated_at"]
    list_filter = [
        "status",
        "game",
        "preset",
        ("abandoned_at", admin.EmptyFieldListFilter),
        ("deleted_at", admin.EmptyFieldListFilter),  # deleted: restorable, then purge_deleted
    ]
    search_fields = ["team0_name", "team1_name"]
    date_hierarchy = "created_at"
    list_select_related = ["owner"]
    raw_id_fields = ["owner"]
    inlines = [SeatInline, DealInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Match | None = None) -> list[str]:
        # Only the owning account may be changed here: names and seats are in the deals' cached
        # texts, rules and scores are the engine's.
        return [f.name for f in Match._meta.concrete_fields if f.name not in ("id", "owner")]


@admin.register(Deal)
class DealAdmin(ReadOnlyAdmin[Deal]):
    list_display = ["match", "number", "kind", "contract", "trump", "outcome", "score0", "score1"]
    list_filter = ["kind", "outcome", "trump", "coinche"]
    list_select_related = ["match"]
    search_fields = ["match__team0_name", "match__team1_name", "note"]


@admin.register(DealChange)
class DealChangeAdmin(ReadOnlyAdmin[DealChange]):
    list_display = ["match", "number", "action", "author", "undone", "created_at"]
    list_filter = ["action", "undone"]
    list_select_related = ["match"]
    search_fields = ["match__team0_name", "match__team1_name", "author"]


@admin.register(MatchScorer)
class MatchScorerAdmin(admin.ModelAdmin[MatchScorer]):
    list_display = ["match", "user", "created_at"]
    list_filter = ["match__game", "match__status"]
    list_select_related = ["match", "user"]
    search_fields = ["user__username", "match__team0_name", "match__team1_name"]
    raw_id_fields = ["match", "user"]
