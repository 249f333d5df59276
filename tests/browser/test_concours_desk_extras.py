"""Issue 15, the desk's missing parts on 360 px phones, with and without JavaScript: a new
concours from the Coinche format with a setting changed, the co-organiser link opened on a
second phone without an account, a CSV file imported there (a bad one first), a team edited,
and a closed round's table corrected from Past rounds, shown in the change log. Every screen
photographed and checked for sideways scrolling and small targets."""

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.concours import services
from scorekeeper.concours.models import ResultChange, Round, Tournament
from tests.factories import UserFactory

from .conftest import NewPhone, Shot, page_errors, sign_in
from .test_axe import _AXE_JS, _HEADINGS_JS, AXE, heading_problems
from .test_large_text import _OVERFLOW_JS
from .test_large_text import big_phone as big_phone  # a fixture

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

GOOD_CSV = "\ufeffÉquipe;Joueur 1;Joueur 2\n" + "\n".join(
    f"{name};{a};{b}"
    for name, a, b in [
        ("Les As", "Alice", "Bruno"),
        ("Pique Dame", "Chloé", "David"),
        ("Trèfle", "Emma", "Farid"),
        ("Carreau", "Gilles", "Hana"),
    ]
)
BAD_CSV = "Les As;Alice;Bruno\nPique Dame;Chloé\n"


def audit(page: Page) -> list[str]:
    """axe-core's violations and heading-level problems on the page as it is."""
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found = [f"{v['id']} [{v['impact']}] {v['targets']}" for v in page.evaluate(_AXE_JS)]
    return found + heading_problems(page.evaluate(_HEADINGS_JS))


def upload(page: Page, name: str, text: str) -> None:
    details = page.locator("#csv-import")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    page.locator("#csv-import input[type=file]").set_input_files(
        {"name": name, "mimeType": "text/csv", "buffer": text.encode()}
    )
    page.get_by_role("button", name="Import the file").click()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_the_desks_missing_parts(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot, javascript: bool
) -> None:
    url = live_server.url
    user: User = UserFactory.create(username="organiser")
    owner = new_phone(javascript=javascript)
    sign_in(owner, url, user)

    # A new concours from the Coinche format, one setting changed.
    owner.goto(f"{url}/concours/" + ("" if javascript else "?preset=coinche"))
    if javascript:  # picking the format swaps its settings in, opened
        owner.get_by_text("Coinche: 3 parties to 2000, ranked by wins then points").click()
        expect(owner.locator("#new-settings[open]")).to_be_visible()
    else:
        owner.locator("#new-settings summary").click()
    expect(owner.get_by_label("Rounds", exact=True)).to_have_value("3")
    expect(owner.get_by_label("Points to reach", exact=True)).to_have_value("2000")
    owner.get_by_label("Rounds", exact=True).fill("2")
    owner.get_by_label("Name", exact=True).fill("Coinche du jeudi")
    shot(owner, "01-new-concours-settings")
    if javascript:
        assert audit(owner) == []
    owner.get_by_role("button", name="Create the concours").click()
    owner.wait_for_url(re.compile(r"/concours/\d+/$"))
    tournament = Tournament.objects.get(name="Coinche du jeudi")
    assert tournament.engine_settings.rounds == 2
    assert tournament.engine_settings.partie.target == 2000
    assert tournament.engine_settings.ranking[0] == "wins"

    # The co-organiser link, opened on a phone without an account.
    owner.locator("#co-organiser summary").click()
    link = owner.get_by_label("Co-organiser link").input_value()
    assert link.endswith(f"/concours/co/{tournament.co_token}/")
    shot(owner, "02-co-organiser-link")
    if javascript:
        assert audit(owner) == []
    helper = new_phone(javascript=javascript)
    helper.goto(link)
    expect(helper.get_by_role("heading", name="Coinche du jeudi")).to_be_visible()
    expect(helper.locator("main")).to_contain_text(
        "You run this desk through the co-organiser link."
    )

    # A CSV file: a bad one adds nothing and names the line, the good one adds four teams.
    upload(helper, "bad.csv", BAD_CSV)
    expect(helper.locator(".messages")).to_contain_text("Line 2: Expected three columns")
    assert not tournament.entrants.exists()
    shot(helper, "03-csv-refused")
    if javascript:
        assert audit(helper) == []  # the messages' live region wraps the list (was role= on <ul>)
    upload(helper, "teams.csv", GOOD_CSV)
    expect(helper.locator(".messages")).to_contain_text("4 added.")
    expect(helper.locator(".entrant")).to_have_count(4)

    # A team edited on its own page.
    helper.get_by_role("link", name="Edit Les As").click()
    expect(helper.get_by_role("heading", name="Edit a team")).to_be_visible()
    helper.get_by_label("Team").fill("Les Rois")
    helper.get_by_label("Player 2").fill("Bruno B.")
    shot(helper, "04-edit-team")
    if javascript:
        assert audit(helper) == []
    helper.get_by_role("button", name="Save").click()
    expect(helper.locator(".messages")).to_contain_text("“Les Rois” is saved.")
    expect(helper.locator("#registration")).to_contain_text("Bruno B.")

    # Round 1 played on paper and closed; table 1 corrected from Past rounds by the helper.
    round1 = services.draw_round(tournament=tournament)
    for table in round1.tables.all():
        services.record_paper_totals(table=table, totals=(2010, 1500), author=user)
    services.close_round(round_=Round.objects.get(pk=round1.pk))
    helper.reload()
    helper.locator("#past-round-1 > summary").click()
    helper.get_by_text("Correct table 1 of round 1").click()
    helper.locator("#id_r1_c1-points0").fill("1800")
    helper.locator("#id_r1_c1-points1").fill("2050")
    shot(helper, "05-past-round-correct")
    if javascript:
        assert audit(helper) == []
    helper.get_by_role("button", name="Save the correction of table 1, round 1").click()
    expect(helper.locator(".messages")).to_contain_text("Table 1: result corrected.")
    change = ResultChange.objects.get(action="correction")
    assert change.author_label == "co-organiser link" and change.after["points"] == [1800, 2050]

    owner.reload()
    owner.locator("#changes summary").click()
    expect(owner.locator("#changes")).to_contain_text(
        "Round 1, table 1: result corrected, 2010 – 1500 → 1800 – 2050, by the co-organiser link"
    )
    shot(owner, "06-change-log")
    if javascript:
        assert audit(owner) == []

    assert page_errors(owner) == [] and page_errors(helper) == []

    # A new link: the helper's desk is gone.
    owner.locator("#co-organiser summary").click()
    owner.get_by_role("button", name="New link (the old one stops working)").click()
    expect(owner.locator(".messages")).to_contain_text("New co-organiser link")
    response = helper.goto(f"{url}/concours/{tournament.pk}/")
    assert response is not None and response.status == 404
    assert page_errors(owner) == []


# _OVERFLOW_JS's check inside this page's new sections only (the standings table is not theirs).
_SECTIONS_OVERFLOW_JS = _OVERFLOW_JS.replace(
    'document.querySelectorAll("main *, header *")',
    'document.querySelectorAll("#co-organiser *, #past-rounds *, #changes *")',
)


def test_the_new_parts_at_200_percent_text(
    live_server: LiveServer,
    big_phone: Callable[..., Page],
    shot: Shot,
) -> None:
    """Text at 200 %, 360 px: the settings form, the desk's co-organiser link, Past rounds and
    the change log, the edit and settings pages scroll no page sideways."""
    url = live_server.url
    user: User = UserFactory.create(username="organiser")
    tournament = services.create_tournament(owner=user, name="Concours de la Saint-Martin")
    services.add_entrants_from_text(
        tournament=tournament,
        text="Les Invincibles de Marseille; Benoît-Alexandre; Chloé\nPique Dame; D; E\n"
        "Trèfle; F; G\nCarreau; H; I",
    )
    round1 = services.draw_round(tournament=tournament)
    for table in round1.tables.all():
        services.record_paper_totals(table=table, totals=(1000, 944), author=user)
    services.close_round(round_=Round.objects.get(pk=round1.pk))
    services.correct_result(table=round1.tables.get(number=1), totals=(1100, 844), author=user)
    page = big_phone(2.0)
    sign_in(page, url, user)
    page.goto(f"{url}/concours/")
    page.locator("#new-settings summary").click()
    assert page.evaluate(_OVERFLOW_JS) == []
    shot(page, "01-settings-form")
    page.goto(f"{url}/concours/{tournament.pk}/")
    for details in ("#co-organiser", "#past-round-1", "#changes details"):
        page.locator(f"{details} > summary").click()
    page.get_by_text("Correct table 1 of round 1").click()
    assert page.evaluate(_SECTIONS_OVERFLOW_JS) == []
    shot(page, "02-desk")
    entrant = tournament.entrants.get(number=1)
    for path, step in (
        (f"entrant/{entrant.number}/edit/", "03-edit"),
        ("settings/", "04-settings"),
    ):
        page.goto(f"{url}/concours/{tournament.pk}/{path}")
        assert page.evaluate(_OVERFLOW_JS) == []
        shot(page, step)
    assert page_errors(page) == []
