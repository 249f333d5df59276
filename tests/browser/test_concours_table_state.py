"""Issue 22 at 360 px: paper totals typed over a table its phone scored. The organiser, on a
phone, types the paper sheet: the desk shows both (the phone's deals and the paper) and asks
which is right. Kept, the paper is what the table's scoreboard, its match and the scorer's My
matches say, marked as typed from the paper sheet; the phone's deals, kept, change the table
nothing. With and without JavaScript; every screen photographed and checked (no sideways
scroll, 44 px targets)."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.concours import services
from scorekeeper.concours.models import Table
from scorekeeper.matches.models import Match
from tests.factories import UserFactory
from tests.matches.support import deal_post

from .conftest import NewPhone, Shot, page_errors, sign_in

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

TEAMS = "Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\nCarreau; Gilles; Hana"


@pytest.mark.parametrize("choice", ["paper", "phone"])
@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_paper_over_a_phone_asks_which_is_right(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot, javascript: bool, choice: str
) -> None:
    organiser: User = UserFactory.create(username="organiser")
    sam: User = UserFactory.create(username="sam")
    tournament = services.create_tournament(owner=organiser, name="Concours de la Saint-Martin")
    services.add_entrants_from_text(tournament=tournament, text=TEAMS)
    services.draw_round(tournament=tournament)
    table = Table.objects.get(round__tournament=tournament, number=1)
    # Sam's phone scored four deals at table 1, signed in (the match is in Sam's matches).
    scorer = Client()
    scorer.force_login(sam)
    scorer.get(reverse("concours:table", args=[table.token]))
    for points in ("150", "120", "100", "130"):
        match = Match.objects.get(concours_table=table)
        scorer.post(
            reverse("matches:deal_new", args=[match.scorer_token]),
            deal_post(match.version, contract="", coinche="", taker_points=points),
        )
    match = Match.objects.get(concours_table=table)
    names, phone_totals = match.team_names, (match.total0, match.total1)
    assert match.deal_count == 4

    base = live_server.url
    desk = new_phone(javascript=javascript)
    sign_in(desk, base, organiser)
    desk.goto(f"{base}/concours/{tournament.pk}/#table-1")
    first = desk.locator("#table-1")
    first.get_by_text("Type the paper sheet's totals").click()
    first.get_by_label(f"{names[0]}: points").fill("1200")
    first.get_by_label(f"{names[1]}: points").fill("800")
    shot(desk, "01-paper-typed")
    first.get_by_role("button", name="Save table 1").click()

    # Not saved yet: both, side by side, and the question.
    expect(desk.get_by_role("heading", level=1)).to_have_text("Table 1: the phone or the paper?")
    phone_card, paper_card = desk.locator("#phone-result"), desk.locator("#paper-result")
    expect(phone_card.locator(".board-sides strong")).to_have_text(
        f"{phone_totals[0]} – {phone_totals[1]}"
    )
    expect(phone_card).to_contain_text("4 deals")
    expect(phone_card).to_contain_text(names[0])
    expect(paper_card.locator(".board-sides strong")).to_have_text("1200 – 800")
    shot(desk, "02-which-is-right")
    assert Table.objects.get(pk=table.pk).paper is None

    if choice == "phone":
        desk.get_by_role("button", name="The phone's deals are right").click()
        expect(desk.locator(".messages")).to_contain_text("its phone's deals are kept")
        shot(desk, "03-phone-kept")
        kept = Table.objects.get(pk=table.pk)
        assert kept.paper is None and not kept.finished and kept.points == phone_totals
        assert page_errors(desk) == []
        return

    desk.get_by_role("button", name="The paper sheet is right").click()
    expect(desk.locator(".messages")).to_contain_text("Table 1: totals saved.")
    expect(desk.locator("#table-1 .board-state")).to_have_text("typed by hand")
    shot(desk, "03-paper-kept")

    # The table's scoreboard says the paper's result, typed from the paper sheet.
    desk.locator("#table-1").get_by_role("link", name="Open its scoreboard").click()
    board = desk.locator("#scoreboard")
    expect(board.locator(".team-0 .total")).to_have_text("1200")
    expect(board.locator(".team-1 .total")).to_have_text("800")
    expect(board.locator(".banner")).to_contain_text(f"Partie won by {names[0]}")
    expect(board.locator(".banner")).to_contain_text("Typed by the organiser from the paper sheet.")
    expect(desk.get_by_role("link", name="Record a deal")).to_have_count(0)
    shot(desk, "04-scoreboard-typed")

    # Sam's My matches says the same.
    mine = new_phone(javascript=javascript)
    sign_in(mine, base, sam)
    mine.goto(f"{base}/history/")
    row = mine.locator(".match-row", has_text=names[0])
    expect(row.locator(".score")).to_have_text("1200 – 800")
    expect(row).to_contain_text("result typed from the paper sheet")
    expect(row).not_to_contain_text("In play")
    shot(mine, "05-my-matches")
    assert page_errors(desk) == [] and page_errors(mine) == []


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_call_time_asks_first_and_the_organiser_still_corrects(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot, javascript: bool
) -> None:
    """At 360 px: Call time opens its question (no script needed), Yes ends the partie; the
    organiser's scoreboard of that table says the result went to the desk, offers no deal form
    and still lets a deal be corrected; Withdraw says what it did."""
    organiser: User = UserFactory.create(username="organiser")
    tournament = services.create_tournament(owner=organiser, name="Concours de la Saint-Martin")
    services.add_entrants_from_text(tournament=tournament, text=TEAMS)
    services.draw_round(tournament=tournament)
    table = Table.objects.get(round__tournament=tournament, number=1)
    phone = Client()
    phone.get(reverse("concours:table", args=[table.token]))
    for points in ("150", "40"):
        match = Match.objects.get(concours_table=table)
        phone.post(
            reverse("matches:deal_new", args=[match.scorer_token]),
            deal_post(match.version, contract="", coinche="", taker_points=points),
        )

    base = live_server.url
    desk = new_phone(javascript=javascript)
    sign_in(desk, base, organiser)
    desk.goto(f"{base}/concours/{tournament.pk}/#table-1")
    first = desk.locator("#table-1")
    yes = first.get_by_role("button", name="Yes, call time")
    expect(yes).to_be_hidden()
    first.get_by_text("Call time…").click()
    expect(first).to_contain_text("ends with the 2 deals played")
    shot(desk, "01-call-time-asks")
    yes.click()
    expect(desk.locator(".messages")).to_contain_text("Table 1: time called.")
    expect(desk.locator("#table-1 .board-state")).to_have_text("finished")
    desk.locator("#table-1").get_by_role("link", name="Open its scoreboard").click()
    banner = desk.locator("#scoreboard .banner")
    expect(banner).to_contain_text("you can still correct these until the round is closed")
    expect(desk.get_by_role("link", name="Record a deal")).to_have_count(0)
    shot(desk, "02-organiser-scoreboard")
    first_deal = desk.locator("li.deal").last
    first_deal.locator("summary").click()
    first_deal.get_by_role("link", name="Edit").click()
    expect(desk.get_by_role("button", name="Save the changes")).to_be_visible()

    desk.goto(f"{base}/concours/{tournament.pk}/#registration")
    desk.locator(".entrant", has_text="Les As").get_by_role(
        "button", name="Withdraw before round 2"
    ).click()
    expect(desk.locator(".messages")).to_contain_text("“Les As” is withdrawn")
    shot(desk, "03-withdrawn")
    assert page_errors(desk) == []
