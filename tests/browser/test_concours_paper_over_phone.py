"""Issue 42, on a table's phone at 360 px: the table scored a deal on its phone, then the
organiser typed its paper sheet over it. At its next request the phone shows the typed result,
its header saying so, and no "deal 1 of 12", nothing to record."""

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.concours import services
from scorekeeper.concours.models import Table
from tests.factories import TournamentFactory

from ..concours.support import play_deals
from .conftest import Shot, page_errors

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

TEAMS = "Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\nCarreau; Gilles; Hana"


def test_the_phone_shows_the_typed_result(
    phone: Page, live_server: LiveServer, shot: Shot, make_user: Callable[[str], User]
) -> None:
    tournament = TournamentFactory.create(owner=make_user("organiser"), teams=TEAMS, drawn=True)
    table = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
    phone.goto(f"{live_server.url}/t/{table.token}/")
    play_deals(table, 1)  # the phone scores its first deal
    phone.reload()
    expect(phone.get_by_text("deal 1 of 12").first).to_be_visible()
    shot(phone, "01-scoring")
    services.record_paper_totals(
        table=Table.objects.get(pk=table.pk), totals=(1012, 910), over_deals=True
    )
    phone.reload()  # its next request, by the scorer link the paper totals renewed
    expect(phone).to_have_url(f"{live_server.url}/t/{table.token}/")
    title = phone.get_by_role("heading", level=1)
    expect(title).to_contain_text("result typed from the paper sheet")
    expect(phone.locator("main")).not_to_contain_text("of 12")
    expect(phone.locator(".table-phone-score")).to_contain_text("1012")
    expect(phone.locator(".table-phone-score")).to_contain_text("910")
    expect(phone.get_by_text("Typed by the organiser from the paper sheet.")).to_be_visible()
    expect(phone.get_by_role("link", name="Record a deal")).to_have_count(0)
    shot(phone, "02-typed")
    assert not page_errors(phone)
