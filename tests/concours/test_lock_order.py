"""Issue 42: every write locks its rows in one order (docs/architecture.md, "Locks";
services/locks.py): a table's match, then the table, then its round, then the concours. A
phone's save went match → table → concours while the desk's Call time and paper totals went
table → match: a phone saving as the organiser called time could deadlock on PostgreSQL, or its
wait ran out inside the table's save and it got a plain 503 page where its outbox expects JSON.

The races are staged, not left to chance: the phone's save, once it holds its match, waits for
the desk to have taken its first lock (or a moment, when the desk cannot take it: it waits for
the match), then goes on; the desk starts once the phone holds the match. Then each write is
either done or refused with a clear answer (JSON for the outbox), and the data agree."""

import html
import threading
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from django.conf import settings as django_settings
from django.db import connection
from django.test import Client
from django.urls import reverse
from pytest_django.fixtures import Settings

from scorekeeper.concours import services
from scorekeeper.concours.models import Round, Table, Tournament
from scorekeeper.matches import services as match_services
from scorekeeper.matches.models import Deal, Match
from tests.factories import TournamentFactory

from .support import play_deals, play_out

pytestmark = [
    pytest.mark.skipif(
        not django_settings.DATABASES["default"]["ENGINE"].endswith("postgresql"),
        reason="row locks and deadlocks (DATABASE_URL=postgres://...); SQLite writes one at a time",
    ),
    pytest.mark.django_db(transaction=True),
]

TEAMS = "Les As; Ana; Bo\nLes Rois; Cy; Dan\nLes Dames; Eva; Fred\nLes Valets; Gus; Hugo"
PAUSE = 1.5  # how long the phone, holding its match, waits for the desk (> deadlock_timeout, 1 s)


class Stage:
    """The staging: `phone_holds_match` once the phone's save holds its match's row;
    `desk_holds_first` once the desk's write took its first row and goes for the match."""

    def __init__(self) -> None:
        self.phone_holds_match = threading.Event()
        self.desk_holds_first = threading.Event()
        self.phone_thread: int | None = None
        self.desk_thread: int | None = None


@pytest.fixture
def stage(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> Stage:
    settings.DB_SAVE_LOCK_TIMEOUT_MS = 4000
    staged = Stage()
    check = services.check_table_write  # the concours's hook, called with the match locked

    def phone_checked(**kwargs: Any) -> None:
        check(**kwargs)
        if threading.get_ident() == staged.phone_thread:
            staged.phone_holds_match.set()
            staged.desk_holds_first.wait(timeout=PAUSE)

    monkeypatch.setattr(services, "check_table_write", phone_checked)
    # What the desk's writes call on the matches app once they hold the table (the old order).
    for name in ("end_match", "revoke_scorer_links", "type_result"):
        real = getattr(match_services, name)

        def desk_goes_for_the_match(*args: Any, _real: Any = real, **kwargs: Any) -> Any:
            if threading.get_ident() == staged.desk_thread:
                staged.desk_holds_first.set()
            return _real(*args, **kwargs)

        monkeypatch.setattr(match_services, name, desk_goes_for_the_match)
    return staged


def race(stage: Stage, phone: Callable[[], Any], desk: Callable[[], Any]) -> tuple[Any, Any]:
    """The phone's save and the desk's write, staged (see the module); each result is a value
    or the exception it raised."""
    results: list[Any] = [None, None]

    def run(index: int, call: Callable[[], Any]) -> None:
        if index == 0:
            stage.phone_thread = threading.get_ident()
        else:
            stage.desk_thread = threading.get_ident()
            stage.phone_holds_match.wait(timeout=10)
        try:
            results[index] = call()
        except Exception as error:
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate((phone, desk))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    return results[0], results[1]


def world() -> tuple[Tournament, Round, Table]:
    """A round of two tables: table 1's phone has scored two deals, table 2 is played out."""
    tournament = TournamentFactory.create(teams=TEAMS, drawn=True)
    round_ = tournament.rounds.get()
    first, second = round_.tables.order_by("number")
    play_deals(first, 2)
    play_out(second)
    first.refresh_from_db()
    return tournament, round_, first


def phone_saves(table: Table) -> Callable[[], Any]:
    """The table's phone sends "all passed" from its outbox (JSON answers)."""
    assert table.match_id is not None
    match = Match.objects.get(pk=table.match_id)
    url = reverse("matches:outbox", args=[match.scorer_token])
    data = {"action": "passed", "version": str(match.version), "submission": "race-1"}
    return lambda: Client().post(url, data)


def assert_json_answer(answer: Any) -> dict[str, Any]:
    """The outbox answered JSON: saved, or refused with a code its script knows."""
    assert not isinstance(answer, Exception), answer
    assert answer["Content-Type"] == "application/json", (answer.status_code, answer.content)
    body: dict[str, Any] = answer.json()
    assert body["ok"] or body["code"] in {"busy", "refused", "changed", "frozen"}, body
    return body


def deals_of(table: Table) -> int:
    assert table.match_id is not None
    return Deal.objects.filter(match_id=table.match_id).count()


def test_a_phone_saving_as_the_organiser_calls_time(stage: Stage) -> None:
    _tournament, _round, table = world()
    phone, desk = race(stage, phone_saves(table), lambda: services.call_time(table=table))
    body = assert_json_answer(phone)
    assert not isinstance(desk, Exception), desk  # never a deadlock: time is called
    table.refresh_from_db()
    assert table.ended and table.finished
    match = Match.objects.get(concours_table=table)
    assert deals_of(table) == (3 if body["ok"] else 2) == match.deal_count
    assert (table.points0, table.points1) == (match.total0, match.total1)


def test_a_phone_saving_as_the_organiser_types_paper_totals(stage: Stage) -> None:
    _tournament, _round, table = world()
    paper = lambda: services.record_paper_totals(table=table, totals=(90, 72), over_deals=True)  # noqa: E731
    phone, desk = race(stage, phone_saves(table), paper)
    assert_json_answer(phone)
    assert not isinstance(desk, Exception), desk
    table.refresh_from_db()
    assert table.finished and table.paper == (90, 72) and (table.points0, table.points1) == (90, 72)
    assert Match.objects.get(concours_table=table).typed_at is not None


def test_a_phone_saving_as_the_organiser_closes_the_round(stage: Stage) -> None:
    _tournament, round_, table = world()
    phone, desk = race(stage, phone_saves(table), lambda: services.close_round(round_=round_))
    assert assert_json_answer(phone)["ok"]  # saved first: the close waited for it
    assert isinstance(desk, services.Refused) and desk.code == "tables_pending", desk
    assert deals_of(table) == 3
    round_.refresh_from_db()
    assert not round_.is_closed


def test_a_phone_saving_as_the_organiser_calls_time_at_every_table(stage: Stage) -> None:
    _tournament, round_, table = world()
    everywhere = lambda: services.call_time_everywhere(round_=round_, early=True)  # noqa: E731
    phone, desk = race(stage, phone_saves(table), everywhere)
    body = assert_json_answer(phone)
    assert desk == ([1], []), desk
    table.refresh_from_db()
    assert table.ended and table.finished and deals_of(table) == (3 if body["ok"] else 2)


# A lock held too long: the wait runs out, and each side is told so in its own words ----------


@pytest.fixture
def holder() -> Iterator[psycopg.Connection[Any]]:
    """Another connection, as another request holding rows in a long transaction."""
    db = connection.settings_dict
    other = psycopg.connect(
        host=db["HOST"], port=db["PORT"], user=db["USER"], password=db["PASSWORD"],
        dbname=db["NAME"], autocommit=False,
    )  # fmt: skip
    yield other
    other.rollback()
    other.close()


def test_a_phone_whose_table_is_held_too_long_gets_the_outbox_s_busy(
    holder: psycopg.Connection[Any], settings: Settings
) -> None:
    """Before: the wait ran out inside the table's save and the outbox got the 503 page."""
    settings.DB_SAVE_LOCK_TIMEOUT_MS = 300
    _tournament, _round, table = world()
    holder.execute("SELECT id FROM concours_table WHERE id = %s FOR UPDATE", [table.pk])
    answer = phone_saves(table)()
    assert answer.status_code == 503 and assert_json_answer(answer)["code"] == "busy"
    assert deals_of(table) == 2  # nothing saved


def test_the_desk_waiting_too_long_for_a_phone_is_refused_in_words(
    holder: psycopg.Connection[Any], settings: Settings, client: Client
) -> None:
    settings.DB_SAVE_LOCK_TIMEOUT_MS = 300
    tournament, _round, table = world()
    holder.execute("SELECT id FROM matches_match WHERE id = %s FOR UPDATE", [table.match_id])
    with pytest.raises(services.Refused) as refused:
        services.call_time(table=table)
    assert refused.value.code == "busy"
    client.force_login(tournament.owner)
    url = reverse("concours:call_time", args=[tournament.pk, 1, table.number])
    page = client.post(url, {"confirm": "yes"}, follow=True)
    assert page.status_code == 200
    assert "A table's phone is saving right now: nothing was changed." in html.unescape(page.text)
    table.refresh_from_db()
    assert not table.ended
