"""Restoring a backup is bounded: it needs an account, takes at most RESTORE_DEALS_PER_REQUEST
deals per zip and RESTORE_DEALS_PER_HOUR per account (refused whole, nothing written, saying why),
writes one short transaction per match (phones scoring meanwhile are never refused), and its
result page (its job's page: the restore runs in the background) lists the matches restored and
the files refused with their reason."""

import io
import json
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.test import Client
from django.utils import translation
from pytest_django.fixtures import Settings

from scorekeeper.engine.scoring import PlayedDeal, Trump, rules_from_dict
from scorekeeper.jobs.models import Job
from scorekeeper.matches import services
from scorekeeper.matches.models import Deal, Match, Player
from scorekeeper.web.models import RateLimit
from tests.conftest import Browser

pytestmark = pytest.mark.django_db

DEAL = {"taker": 0, "contract": 80, "trump": "hearts", "taker_points": 100}


def match_file(deals: int, name: str = "Nous") -> dict[str, Any]:
    return {
        "format": "belote-match/1",
        "rules": {"preset": "coinche", "target": 100_000},
        "teams": [
            {"name": name, "players": ["Alice", "Bruno"]},
            {"name": "Eux", "players": ["Chloé", "David"]},
        ],
        "deals": [DEAL] * deals,
    }


def zip_of(files: dict[str, object]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content if isinstance(content, str) else json.dumps(content))
    return buffer.getvalue()


def post(client: Client, data: bytes, follow: bool = True) -> Any:
    file = io.BytesIO(data)
    file.name = "backup.zip"
    return client.post("/history/restore/", {"file": file}, follow=follow)


def state() -> tuple[int, int, int]:
    return (Match.objects.count(), Deal.objects.count(), Player.objects.count())


@pytest.fixture
def member(browser: Browser, make_user: Callable[[str], User]) -> Client:
    return browser("member-phone", make_user("member"))


# An account is needed ---------------------------------------------------------------------------


def test_an_anonymous_restore_is_sent_to_log_in_and_writes_nothing(browser: Browser) -> None:
    anonymous = browser("anonymous-phone")
    page = anonymous.get("/history/restore/")
    assert page.status_code == 302
    assert page["Location"] == "/accounts/login/?next=/history/restore/"
    response = post(anonymous, zip_of({"a.json": match_file(3)}), follow=False)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert state() == (0, 0, 0)
    login = anonymous.get(response["Location"]).text
    assert "Restoring a backup needs an account" in login


def test_the_restore_page_states_the_limits(member: Client) -> None:
    text = member.get("/history/restore/").text
    assert "At most 20,000 deals in one backup and 50,000 per hour." in text
    assert "A file that cannot be restored is left out" in text


# Caps -------------------------------------------------------------------------------------------


def test_a_zip_over_the_deal_cap_is_refused_whole(member: Client, settings: Settings) -> None:
    settings.RESTORE_DEALS_PER_REQUEST = 100
    data = zip_of({f"m{i}.json": match_file(30) for i in range(4)})  # 120 deals
    response = post(member, data)
    assert response.status_code == 200
    assert "Nothing was restored: this backup holds more than 100 deals" in response.text
    assert state() == (0, 0, 0)
    assert RateLimit.objects.get().count == 0  # nothing counted against the account either
    # At the cap exactly, it restores.
    assert "4 matches restored." in post(member, zip_of({"m.json": match_file(25)} | {
        f"n{i}.json": match_file(25) for i in range(3)
    })).text  # fmt: skip
    assert Deal.objects.count() == 100


def test_an_account_restores_at_most_so_many_deals_an_hour(
    member: Client, browser: Browser, make_user: Callable[[str], User], settings: Settings
) -> None:
    settings.RESTORE_DEALS_PER_HOUR = 100
    assert "1 match restored." in post(member, zip_of({"a.json": match_file(60)})).text
    before = state()
    response = post(member, zip_of({"b.json": match_file(50)}))
    assert response.status_code == 429
    # The wait in the header too (docs/production.md): the hour's window, a whole hour left.
    assert 3540 <= int(response["Retry-After"]) <= 3600
    assert "Nothing was restored: your account may restore 100 deals an hour." in response.text
    assert "Wait 60 minutes, then try again." in response.text
    assert state() == before
    # Within what is left, it restores; another account has its own hour.
    assert "1 match restored." in post(member, zip_of({"c.json": match_file(40)})).text
    other = browser("other-phone", make_user("other"))
    assert "1 match restored." in post(other, zip_of({"d.json": match_file(100)})).text


# The result ---------------------------------------------------------------------------------------


def test_the_result_lists_restored_matches_and_refused_files(member: Client) -> None:
    bad_points = match_file(2)
    bad_points["deals"][1] = {**DEAL, "taker_points": 200}
    data = zip_of({
        "a-good.json": match_file(3, name="Les As"),
        "b-broken.json": bad_points,
        "c-nul.json": match_file(1, name="\u0000"),
        "d-notes.txt": "hello",
        "e-good.json": match_file(1, name="Capot"),
    })  # fmt: skip
    response = post(member, data, follow=False)
    job = Job.objects.get()  # the restore runs as a job: its page shows the result
    assert response.status_code == 302 and response["Location"] == f"/jobs/{job.pk}/"
    text = member.get(response["Location"]).text
    assert "2 matches restored, 3 files refused." in text
    for line in (
        "a-good.json",
        "Les As – Eux, 3 deals",
        "e-good.json",
        "Capot – Eux, 1 deal",
        "b-broken.json: deals[1].taker_points: must be from 0 to 162",
        "c-nul.json: teams[0].name: must not contain control characters (U+0000)",
        "d-notes.txt: not valid JSON",
    ):
        assert line in text, line
    restored = list(Match.objects.order_by("pk"))
    assert [m.team0_name for m in restored] == ["Les As", "Capot"]
    for match in restored:
        assert f'href="/view/{match.view_token}/review/"' in text
    # The page stays (a reload shows it again).
    assert "Les As – Eux, 3 deals" in member.get(response["Location"]).text


def test_the_result_page_in_french(member: Client) -> None:
    member.cookies["django_language"] = "fr"
    with translation.override("fr"):
        text = post(member, zip_of({"a.json": match_file(2), "b.json": {"format": "x"}})).text
    assert "1 partie restaurée, 1 fichier refusé." in text
    assert "b.json\u00a0: format\u00a0: format non pris en charge" in text


def test_a_result_kept_before_error_codes_still_shows(member: Client) -> None:
    """A session written before errors had codes holds [name, path, message]: shown as it was."""
    session = member.session
    session["restore_result"] = {
        "restored": [],
        "refused": [["b.json", "format", 'unsupported format; expected "belote-match/1"']],
        "counts": [0, 1],
    }
    session.save()
    text = member.get("/history/restore/done/").text
    assert "b.json: format: unsupported format; expected &quot;belote-match/1&quot;" in text


def test_the_result_page_without_a_restore(member: Client) -> None:
    response = member.get("/history/restore/done/")
    assert response.status_code == 302 and response["Location"] == "/history/restore/"


# Short transactions -------------------------------------------------------------------------------


@contextmanager
def transactions() -> Iterator[list[tuple[float, float, int]]]:
    """Every transaction this thread's connection commits: (opened, closed, matches inserted), the
    times from time.perf_counter()."""
    found: list[tuple[float, float, int]] = []
    opened: list[float] = []
    inserted = [0]
    original = BaseDatabaseWrapper.set_autocommit

    mine = connections[DEFAULT_DB_ALIAS]

    def set_autocommit(wrapper: Any, autocommit: bool, *args: Any, **kwargs: Any) -> Any:
        if wrapper is mine and not autocommit:
            opened.append(time.perf_counter())
            inserted[0] = 0
        result = original(wrapper, autocommit, *args, **kwargs)
        if wrapper is mine and autocommit and opened:
            found.append((opened.pop(), time.perf_counter(), inserted[0]))
        return result

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if sql.startswith('INSERT INTO "matches_match"'):
            inserted[0] += 1
        return execute(sql, params, many, context)

    patch = pytest.MonkeyPatch()
    patch.setattr(BaseDatabaseWrapper, "set_autocommit", set_autocommit)
    try:
        with connection.execute_wrapper(count):
            yield found
    finally:
        patch.undo()


@pytest.mark.django_db(transaction=True)
def test_each_match_is_written_in_its_own_transaction(
    browser: Browser, make_user: Callable[[str], User]
) -> None:
    member = browser("member-phone", make_user("member"))
    data = zip_of({f"m{i}.json": match_file(50) for i in range(6)})
    with transactions() as found:
        assert "6 matches restored." in post(member, data).text
    assert [matches for _, _, matches in found if matches] == [1] * 6, found


@pytest.mark.django_db(transaction=True)
def test_a_phone_scoring_during_a_big_restore_is_never_refused(
    browser: Browser, make_user: Callable[[str], User]
) -> None:
    """On SQLite a restore in one transaction held the write lock for the whole restore: a phone
    saving a deal meanwhile waited, then got "database is locked". Here a phone saves a deal
    every 50 ms while a backup of 25 matches is restored: none is refused, and some are saved
    between the restore's first match and its last (one transaction for all of them would keep
    every save out of that stretch). The phone waits at most 5 s for the lock, a quarter of the
    app's 20 s: one match's write, measured at 0.05 s median and up to 0.75 s on a loaded
    machine (a 1 s wait flaked on CI)."""
    member = browser("member-phone", make_user("member"))
    scored = services.create_match(
        owner_key="phone",
        rules=rules_from_dict({"preset": "coinche", "target": 100_000}),
        team_names=("A", "B"),
        players=(None, None, None, None),
        first_dealer=0,
    )
    data = zip_of({f"m{i}.json": match_file(200) for i in range(25)})
    done = threading.Event()
    errors: list[str] = []
    saved_at: list[float] = []

    def phone() -> None:
        try:
            if connection.vendor == "sqlite":
                connection.ensure_connection()
                connection.connection.execute("PRAGMA busy_timeout = 5000")
            while not done.is_set():
                try:
                    services.record_deal(
                        match_id=scored.pk,
                        expected_version=None,
                        deal=PlayedDeal(taker=0, trump=Trump.SPADES, contract=80, taker_points=90),
                        author=services.Author(key="phone", label="phone"),
                    )
                    saved_at.append(time.perf_counter())
                except Exception as error:
                    errors.append(f"{type(error).__name__}: {error}")
                done.wait(0.05)
        finally:
            connection.close()

    thread = threading.Thread(target=phone)
    thread.start()
    try:
        with transactions() as found:
            text = post(member, data).text
    finally:
        done.set()
        thread.join(timeout=60)
    assert "25 matches restored." in text
    assert errors == []
    writes = [(opened, closed) for opened, closed, matches in found if matches]
    assert len(writes) == 25
    first_written, last_opened = writes[0][1], writes[-1][0]
    assert any(first_written < at < last_opened for at in saved_at), (writes, saved_at)
    assert Deal.objects.filter(match=scored).count() == len(saved_at)
