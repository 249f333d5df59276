"""Rate limits in the admin: who is held back, until when. Deleting a row lifts its limit."""

from django.contrib import admin
from django.http import HttpRequest

from .models import RateLimit


@admin.register(RateLimit)
class RateLimitAdmin(admin.ModelAdmin[RateLimit]):
    list_display = ["key", "count", "window_start", "expires_at"]
    list_filter = ["expires_at"]
    search_fields = ["key"]
    ordering = ["-expires_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: RateLimit | None = None) -> bool:
        return False
