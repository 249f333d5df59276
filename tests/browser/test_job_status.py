"""Issue 42: a job's page keeps one live region (`role=status`) for its whole life, and its poll
(every 2 s) changes only the progress words inside it, only when they change: a screen reader
hears "Running: 4 of 10 done." when the job moves, then "Done.", never the page's other words
("You may leave this page…", "Refresh") nor the same words again at each poll. Before, each
poll swapped in a new region holding all of them."""

from typing import Any

import pytest
from django.utils.timezone import now
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.jobs.models import Job
from tests.factories import UserFactory

from .conftest import NewPhone, Shot, page_errors, sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

# Each change of the live region's content, as a screen reader is told of them: the region's
# text after each mutation inside it (the region itself marked, to see it is never replaced).
_WATCH = """() => {
  const region = document.querySelector('[role=status]');
  region.__kept = true;
  window.__said = [];
  new MutationObserver(() => window.__said.push(region.textContent.trim()))
    .observe(region, { childList: true, subtree: true, characterData: true });
}"""


def test_the_job_page_keeps_one_region_and_says_only_the_progress(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot
) -> None:
    user = UserFactory.create(username="member")
    job = Job.objects.create(
        kind="history_restore", owner=user, owner_key="", state="running",
        started_at=now(), done=3, total=10,
    )  # fmt: skip
    page = new_phone()
    sign_in(page, live_server.url, user)
    page.goto(f"{live_server.url}/jobs/{job.pk}/")
    region = page.locator("[role=status]")
    expect(region).to_have_count(1)
    expect(region).to_have_text("Running: 3 of 10 done.")  # the first render says it already
    page.evaluate(_WATCH)
    shot(page, "01-running")

    # Polls while nothing moves change nothing in the region (the server answers 204).
    for _ in range(2):
        with page.expect_response(lambda r: f"/jobs/{job.pk}/" in r.url) as answer:
            pass
        assert answer.value.status == 204
    assert page.evaluate("window.__said") == []

    # The job moves: the same region says the new words, and only them.
    Job.objects.filter(pk=job.pk).update(done=4, updated_at=now())
    expect(region).to_have_text("Running: 4 of 10 done.")
    expect(page.locator("progress")).to_have_attribute("value", "4")
    said: list[Any] = page.evaluate("window.__said")
    assert said and set(said) == {"Running: 4 of 10 done."}, said
    assert page.evaluate("document.querySelector('[role=status]').__kept") is True
    expect(region).to_have_count(1)

    # Done: the region says so; the result and the rest of the page are not in it.
    result = {"restored": [], "refused": [], "counts": [0, 0]}
    Job.objects.filter(pk=job.pk).update(
        state="done", done=10, result=result, finished_at=now(), updated_at=now()
    )
    expect(region).to_have_text("Done.")
    assert page.evaluate("document.querySelector('[role=status]').__kept") is True
    assert page.evaluate("window.__said")[-1] == "Done."
    expect(page.locator("#job-status")).to_contain_text("My matches")  # the result, beside it
    expect(page.locator("[hx-trigger]")).to_have_count(0)  # the poll stopped
    expect(region).to_have_count(1)
    shot(page, "02-done")
    assert page_errors(page) == []
