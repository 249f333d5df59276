"""A job's live topic (`j<id>`, scorekeeper/web/live): its state and progress."""

from .models import Job


def versions(ids: list[int]) -> dict[int, str]:
    """What each job's page shows of it, as `Job.live_version` says it (one query)."""
    rows = Job.objects.filter(pk__in=ids).only("state", "done", "total")
    return {job.pk: job.live_version for job in rows}
