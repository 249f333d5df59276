"""Issue 43 in Chromium: a deal saved at a concours's table shows at once (well under a second,
no poll: the pages' streams are open and their polls are 10 s and more apart) on the table's
second phone, on a spectator's read-only page and on the projector; a spectator whose stream
dropped while deals were saved catches up as soon as it is back."""

import time
from collections.abc import Iterator

import pytest
from django.test import override_settings
from django.urls import reverse
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.concours.models import Table
from tests.concours.support import play_deals
from tests.factories import TournamentFactory

from .conftest import NewPhone, Shot, fill_deal, page_errors, totals
from .live_server_asgi import Streams, streams

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

TEAMS = "\n".join(f"Team {n}; P{n}a; P{n}b" for n in range(1, 9))
AT_ONCE_MS = 1000


@pytest.fixture
def live_streams() -> Iterator[Streams]:
    with streams() as server:
        yield server


def open_live(page: Page, url: str) -> Page:
    page.goto(url)
    page.wait_for_function("() => document.documentElement.dataset.live === 'open'", polling=50)
    return page


def test_a_deal_shows_at_once_on_every_live_page(
    new_phone: NewPhone, live_server: LiveServer, live_streams: Streams, shot: Shot
) -> None:
    tournament = TournamentFactory.create(teams=TEAMS, drawn=True)
    table = Table.objects.select_related("match").get(round__tournament=tournament, number=1)
    assert table.match is not None
    base = live_server.url
    scorer = open_live(new_phone(), f"{base}/t/{table.token}/")
    second = open_live(new_phone(), f"{base}/t/{table.token}/")
    viewer = open_live(new_phone(), base + reverse("matches:viewer", args=[table.match.view_token]))
    projector = new_phone()
    projector.set_viewport_size({"width": 1920, "height": 1080})
    proj_url = reverse("concours_public:projector", args=[tournament.public_token])
    open_live(projector, base + proj_url)
    row = projector.locator(
        ".proj-playing li", has=projector.locator(".proj-table-no", has_text="1")
    )
    expect(row).to_contain_text("not started")

    scorer.get_by_role("link", name="Record a deal").click()
    fill_deal(scorer, taker="0", trump="hearts", points="100")
    scorer.get_by_role("button", name="Save the deal").click()
    expect(scorer.locator("#scoreboard .team-0 .total")).not_to_have_text("0")
    saved = time.monotonic()
    expected = totals(scorer)
    for page in (second, viewer):
        expect(page.locator("#scoreboard .team-0 .total")).to_have_text(
            str(expected[0]), timeout=AT_ONCE_MS
        )
    expect(row).to_contain_text("1 deal", timeout=AT_ONCE_MS)
    assert time.monotonic() - saved < AT_ONCE_MS / 1000
    shot(viewer, "01-spectator-updated")
    for page in (scorer, second, viewer, projector):
        assert page_errors(page) == []


def test_a_stream_back_after_a_drop_catches_up_at_once(
    new_phone: NewPhone, live_server: LiveServer, live_streams: Streams
) -> None:
    tournament = TournamentFactory.create(teams=TEAMS, drawn=True)
    table = Table.objects.select_related("match").get(round__tournament=tournament, number=2)
    assert table.match is not None
    url = live_server.url + reverse("matches:viewer", args=[table.match.view_token])
    viewer = new_phone()
    with override_settings(LIVE_STREAM_SECONDS=2):  # then the browser reconnects
        open_live(viewer, url)
        # The signal goes: the stream ends and every reconnection fails.
        viewer.context.route("**/live/**", lambda route: route.abort())
        viewer.wait_for_function(
            "() => document.documentElement.dataset.live !== 'open'", polling=50
        )
        play_deals(table, 2)  # while it was away
        viewer.context.unroute("**/live/**")  # back: its next reconnection is told at once
        viewer.wait_for_function(
            "() => document.documentElement.dataset.live === 'open'", polling=50
        )
        back = time.monotonic()
        expect(viewer.locator("#scoreboard .team-0 .total")).not_to_have_text(
            "0", timeout=AT_ONCE_MS
        )
        assert time.monotonic() - back < AT_ONCE_MS / 1000
    assert page_errors(viewer) == []
