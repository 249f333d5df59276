"""A kind of job for the tests: `params["steps"]` steps, each one a Progress.advance; it may
fail (`params["crash"]`), and its result names the steps."""

from typing import Any

from scorekeeper.jobs.models import Job
from scorekeeper.jobs.services import Progress

SEEN: list[bytes] = []  # the input each run was given


class Steps:
    template = "jobs/result.html"

    def title(self) -> str:
        return "Counting steps"

    def run(self, *, job: Job, data: bytes, progress: Progress) -> dict[str, Any]:
        SEEN.append(data)
        steps = int(job.params.get("steps", 3))
        progress.set_total(steps)
        for _ in range(steps):
            if job.params.get("crash"):
                raise RuntimeError("the kind broke")
            progress.advance()
        return {"steps": steps}

    def result_context(self, result: dict[str, Any]) -> dict[str, Any]:
        return {
            "summary": f"{result['steps']} steps counted",
            "lines": ["a: one", "b: two"],
            "links": [{"label": "Onward", "url": "/history/"}],
        }
