"""A background job (see services.py): what was asked, by whom, how far it got and what came of it."""

from django.conf import settings
from django.db import models


class Job(models.Model):
    class State(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    ACTIVE = (State.QUEUED, State.RUNNING)

    kind = models.CharField(max_length=40)  # a key of settings.JOB_KINDS
    # Who may see it: the account, and the browser (its device key) that asked.
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE
    )
    owner_key = models.CharField(max_length=64)
    state = models.CharField(max_length=10, choices=State.choices, default=State.QUEUED)
    done = models.PositiveIntegerField(default=0)  # progress: steps done of `total`
    total = models.PositiveIntegerField(default=0)
    params = models.JSONField(default=dict, blank=True)  # the kind's small options
    # The input (an uploaded file, bounded by the upload limits), deleted when the job ends.
    data = models.BinaryField(null=True, blank=True)
    # What came of it: the kind's result (counts, refusals with code, params and path, links)
    # when done; {"failure": code, ...} when failed (services.FAILURES).
    result = models.JSONField(default=dict, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            # One job at a time per account and per browser.
            models.UniqueConstraint(
                fields=["owner"],
                condition=models.Q(state__in=["queued", "running"], owner__isnull=False),
                name="job_one_active_per_account",
            ),
            models.UniqueConstraint(
                fields=["owner_key"],
                condition=models.Q(state__in=["queued", "running"]),
                name="job_one_active_per_browser",
            ),
        ]
        indexes = [
            models.Index(fields=["owner_key", "-created_at"], name="job_browser_recent"),
            models.Index(fields=["owner", "-created_at"], name="job_account_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.state})"

    @property
    def live_version(self) -> str:
        """What the job's page shows of it (its live topic `j<id>`): its state and progress."""
        return f"{self.state}.{self.done}.{self.total}"

    @property
    def active(self) -> bool:
        return self.state in self.ACTIVE
