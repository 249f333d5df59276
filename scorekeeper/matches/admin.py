from django.contrib import admin

from .models import Deal, DealChange, Match, MatchScorer, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["name", "user", "owner", "created_at"]
    list_filter = [("user", admin.EmptyFieldListFilter), ("owner", admin.EmptyFieldListFilter)]
    search_fields = ["name", "user__username", "owner__username"]


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


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin[Match]):
    list_display = ["__str__", "preset", "status", "total0", "total1", "deal_count", "updated_at"]
    list_filter = ["status", "game", "preset"]
    search_fields = ["team0_name", "team1_name"]
    readonly_fields = ["view_token", "scorer_token", "rules", "version"]
    inlines = [DealInline]


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin[Deal]):
    list_display = ["match", "number", "kind", "contract", "trump", "outcome", "score0", "score1"]
    list_filter = ["kind", "outcome", "trump", "coinche"]
    search_fields = ["match__team0_name", "match__team1_name", "note"]


@admin.register(DealChange)
class DealChangeAdmin(admin.ModelAdmin[DealChange]):
    list_display = ["match", "number", "action", "author", "undone", "created_at"]
    list_filter = ["action", "undone"]
    search_fields = ["match__team0_name", "match__team1_name", "author"]


@admin.register(MatchScorer)
class MatchScorerAdmin(admin.ModelAdmin[MatchScorer]):
    list_display = ["match", "user", "created_at"]
    list_filter = ["match__game", "match__status"]
    search_fields = ["user__username", "match__team0_name", "match__team1_name"]
    raw_id_fields = ["match", "user"]
