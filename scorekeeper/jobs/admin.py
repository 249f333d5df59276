"""Jobs in the admin: what ran, for whom, how it ended (read only; the input is not shown)."""

from django.contrib import admin
from django.http import HttpRequest

from .models import Job


@admin.register(Job)
class JobAdmin(admin.ModelAdmin[Job]):
    list_display = ["pk", "kind", "owner", "state", "done", "total", "created_at", "finished_at"]
    list_filter = ["state", "kind"]
    ordering = ["-created_at"]
    exclude = ["data"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Job | None = None) -> bool:
        return False
