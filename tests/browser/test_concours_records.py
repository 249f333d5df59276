"""Issue 15, a concours's records on a 360 px phone: the desk's Files (the concours file and the
standings CSV downloaded), a bad file imported (the error summary, nothing created) and the
good one (a finished concours), the delete confirm page and the deletion, the history's rows
and a player page saying where they played. Every screen photographed and checked for
sideways scrolling and small targets, with JavaScript and without."""

import datetime
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.concours import services
from scorekeeper.concours.models import Tournament
from scorekeeper.matches.models import Match, Player
from tests.concours.support import play_rounds
from tests.factories import UserFactory

from .conftest import NewPhone, Shot, page_errors, sign_in
from .test_large_text import big_phone  # noqa: F401 (a fixture)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

TEAMS = "Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\n"
TEAMS += "Carreau; Gilles; Hana\nCœur; Inès; Jules"


def played(owner: User) -> Tournament:
    tournament = services.create_tournament(
        owner=owner,
        name="Concours de la Saint-Martin",
        overrides={"rounds": 2, "seed": 5},
        date=datetime.date(2026, 11, 11),
        prizes={1: "A ham"},
    )
    services.add_entrants_from_text(tournament=tournament, text=TEAMS)
    return play_rounds(tournament, 2)


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
def test_files_import_delete_and_history(
    live_server: LiveServer, new_phone: NewPhone, shot: Shot, javascript: bool, tmp_path: Path
) -> None:
    user: User = UserFactory.create(username="organiser")
    tournament = played(user)
    url = live_server.url
    page = new_phone(javascript=javascript)
    sign_in(page, url, user)
    page.goto(f"{url}/concours/{tournament.pk}/#records")
    files = page.locator("#records")
    expect(files.get_by_role("link", name="Standings after round 1")).to_be_visible()
    shot(page, "01-desk")

    with page.expect_download() as download:
        files.get_by_role("link", name="Download the concours file").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "concours-de-la-saint-martin-2026-11-11.json"
    assert json.loads(saved.read_text())["format"] == "belote-tournament/1"
    with page.expect_download() as download:
        files.get_by_role("link", name="Final ranking").click()
    assert download.value.suggested_filename.endswith("-standings.csv")
    csv_path = tmp_path / "standings.csv"
    download.value.save_as(csv_path)
    assert csv_path.read_bytes().startswith(b"\xef\xbb\xbfrank,id,team")

    # A bad file: the error summary, nothing created.
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "belote-tournament/1", "name": "X"}))
    page.goto(f"{url}/concours/")
    page.locator("#import-file").set_input_files(str(bad))
    page.locator("#import + form").get_by_role("button", name="Import").click()
    page.wait_for_url(re.compile(r"/jobs/\d+/$"))  # the import's job (issue 23), run at once
    expect(page.locator("#job-status")).to_contain_text("Nothing was imported")
    assert Tournament.objects.count() == 1
    shot(page, "02-import-refused")

    # The good one: a second, finished concours of the organiser's.
    page.get_by_role("link", name="Import another file").click()
    page.get_by_label("Concours file (.json)").set_input_files(str(saved))
    page.get_by_role("button", name="Import").click()
    page.wait_for_url(re.compile(r"/jobs/\d+/$"))
    expect(page.locator("#job-status")).to_contain_text("is imported.")
    page.get_by_role("link", name="Open the concours").click()
    page.wait_for_url(re.compile(r"/concours/\d+/$"))
    assert Tournament.objects.count() == 2
    assert Tournament.objects.latest("pk").status == Tournament.Status.FINISHED
    shot(page, "03-imported")

    # Deleting the imported copy, after its confirm page.
    page.locator("#records").get_by_role("link", name="Delete the concours").click()
    expect(page.get_by_role("heading", name="Delete Concours de la Saint-Martin?")).to_be_visible()
    expect(page.get_by_text("4 table matches (their deals, their links)")).to_be_visible()
    shot(page, "04-delete-confirm")
    page.get_by_role("button", name="Delete the concours").click()
    expect(page.locator(".messages")).to_contain_text("is deleted, with its 4 table matches.")
    assert Tournament.objects.count() == 1
    assert Match.objects.filter(deleted_at__isnull=False).count() == 4
    shot(page, "05-deleted")

    # The history: the tables of the concours left, with their places.
    page.goto(f"{url}/history/")
    expect(page.locator(".played-in").first).to_contain_text("Concours de la Saint-Martin")
    expect(page.locator(".played-in")).to_have_count(4)
    shot(page, "06-history")
    alice = Player.objects.filter(name="Alice", owner=user).get()
    page.goto(f"{url}/players/{alice.pk}/")
    expect(
        page.get_by_text(re.compile(r"played in: Concours de la Saint-Martin, \d"))
    ).to_be_visible()
    shot(page, "07-player")
    assert page_errors(page) == []


def test_records_pages_at_200_percent_text_and_in_dark_mode(
    live_server: LiveServer,
    big_phone: Callable[..., Page],  # noqa: F811 (the fixture imported above)
    new_phone: NewPhone,
    shot: Shot,
) -> None:
    """The desk's Files, the import page with its error, the delete confirm page, the history's
    rows and a player page's concours: no sideways scroll and tap-sized targets at 200 % text;
    the same pages in dark mode."""
    user: User = UserFactory.create(username="organiser")
    tournament = played(user)
    alice = Player.objects.get(name="Alice", owner=user)
    url = live_server.url
    pages = [
        ("desk", f"/concours/{tournament.pk}/#records"),
        ("import", "/concours/import/"),
        ("delete", f"/concours/{tournament.pk}/delete/"),
        ("history", "/history/"),
        ("player", f"/players/{alice.pk}/"),
    ]
    for label, phone in (("big", big_phone(2.0)), ("dark", new_phone(color_scheme="dark"))):
        sign_in(phone, url, user)
        for name, path in pages:
            phone.goto(f"{url}{path}")
            if name == "import":
                phone.get_by_role("button", name="Import").click()  # no file: the summary
                expect(phone.locator("#error-summary")).to_be_visible()
            shot(phone, f"{label}-{name}")
        assert page_errors(phone) == []
