"""The one task of the jobs app (Django's Tasks framework): run a job in the worker process."""

from django.tasks import task

from .worker import run_job


@task()
def run_job_task(job_id: int) -> None:
    """Run the job `job_id` (worker.run_job: once, never twice)."""
    run_job(job_id)
