"""Live pages (scorekeeper/web/live, issue 43): the stream answers at once what a page holds no
more (a reconnect misses nothing), then each change as it is committed, whichever process wrote
it; bounded by its lifetime, a cap per address and a heartbeat; never held by a WSGI worker."""

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections
from django.test import AsyncClient, Client, override_settings
from django.utils import timezone

from scorekeeper.concours.models import Round, Table
from scorekeeper.jobs.models import Job
from scorekeeper.matches import services
from scorekeeper.matches.models import Match
from scorekeeper.web.live import hub as hubs
from scorekeeper.web.live.topics import sign
from scorekeeper.web.models import LiveChange
from tests.concours.support import play_deals
from tests.factories import MatchFactory, TournamentFactory

sqlite_only = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the changes table is SQLite's (PostgreSQL: NOTIFY)"
)


def teams(count: int) -> str:
    return "\n".join(f"Team {n}; P{n}a; P{n}b" for n in range(1, count + 1))


def url(*topics: str, held: dict[str, str] | None = None) -> str:
    query = "&".join(f"t={sign(t)}" for t in topics)
    for topic, version in (held or {}).items():
        query += f"&v={topic}={version}"
    return f"/live/?{query}"


class Reader:
    """A stream read as a browser's EventSource reads it: its events' data and ids. The chunks
    are read by a task of their own (a wait given up must not cancel the stream)."""

    def __init__(self, chunks: AsyncIterator[bytes]) -> None:
        self.chunks: asyncio.Queue[str] = asyncio.Queue()
        self.buffer = ""
        self.task = asyncio.get_running_loop().create_task(self._read(chunks))

    async def _read(self, chunks: AsyncIterator[bytes]) -> None:
        async for chunk in chunks:
            self.chunks.put_nowait(chunk.decode() if isinstance(chunk, bytes) else chunk)

    async def event(self, timeout: float = 3.0) -> dict[str, str]:
        """The next event (comments skipped); TimeoutError if none comes."""
        deadline = time.monotonic() + timeout
        while True:
            while "\n\n" in self.buffer:
                block, self.buffer = self.buffer.split("\n\n", 1)
                fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
                if "data" in fields:
                    return fields
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            self.buffer += await asyncio.wait_for(self.chunks.get(), left)

    async def nothing(self, seconds: float) -> None:
        with pytest.raises(TimeoutError):
            await self.event(seconds)


async def open_stream(path: str, **headers: Any) -> tuple[Any, Reader]:
    response: Any = await AsyncClient().get(path, headers=headers)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "text/event-stream"
    return response, Reader(aiter(response.streaming_content))


def run(scenario: Any) -> None:
    """The scenario in an event loop of its own, its hub closed after it (the hub's thread
    holds a database connection)."""

    async def closing() -> None:
        try:
            await scenario()
        finally:
            hub = hubs.current()
            if hub is not None and hub.loop is asyncio.get_running_loop():
                await hub.close()

    asyncio.run(closing())


def in_thread(work: Any) -> Any:
    """A write as another request makes it (its own thread, its own connection, closed after)."""

    def request() -> Any:
        try:
            return work()
        finally:
            connections.close_all()

    return sync_to_async(request, thread_sensitive=False)()


@pytest.fixture
def fast() -> Iterator[None]:
    with override_settings(LIVE_POLL_SECONDS=0.05, LIVE_HEARTBEAT_SECONDS=1):
        yield


@pytest.mark.django_db(transaction=True)
def test_a_stream_says_at_once_what_the_page_holds_no_more_then_each_change(fast: None) -> None:
    match = MatchFactory.create()
    topic = f"m{match.pk}"

    async def scenario() -> None:
        _response, reader = await open_stream(url(topic, held={topic: "0"}))
        await reader.nothing(0.5)  # the page is current: nothing to say
        started = time.monotonic()
        await in_thread(lambda: services.regenerate_links(match_id=match.pk))
        event = await reader.event(2)
        assert time.monotonic() - started < 1
        assert event["data"] == f"{topic} 1" and event["id"] == f"{topic}=1"

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_a_reconnect_gets_what_changed_while_it_was_away(fast: None) -> None:
    match = MatchFactory.create()
    topic = f"m{match.pk}"
    services.regenerate_links(match_id=match.pk)
    services.regenerate_links(match_id=match.pk)  # version 2, while the page held 0

    async def scenario() -> None:
        # Last-Event-ID wins over the address's versions (the page's at its first connection).
        _r, reader = await open_stream(
            url(topic, held={topic: "2"}), **{"Last-Event-ID": f"{topic}=0"}
        )
        assert (await reader.event(1))["data"] == f"{topic} 2"
        _r, current = await open_stream(url(topic), **{"Last-Event-ID": f"{topic}=2"})
        await current.nothing(0.4)
        _r, first = await open_stream(url(topic))  # nothing held: told the version at once
        assert (await first.event(1))["data"] == f"{topic} 2"

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_a_concours_page_is_told_of_a_deal_at_any_table_then_spaced(fast: None) -> None:
    tournament = TournamentFactory.create(teams=teams(8), drawn=True)
    tables = list(Table.objects.filter(round__tournament=tournament).order_by("number"))
    topic = f"c{tournament.pk}"

    async def scenario() -> None:
        with override_settings(LIVE_SPACING_SECONDS={"c": 0.6}):
            _r, reader = await open_stream(url(topic))
            await reader.event(1)  # the current key
            await in_thread(lambda: play_deals(tables[0], 1))
            first = await reader.event(1)
            started = time.monotonic()
            await in_thread(lambda: play_deals(tables[1], 1))
            await in_thread(lambda: play_deals(tables[2], 1))
            second = await reader.event(2)  # the last of the burst, once the spacing is over
            assert time.monotonic() - started > 0.3
            assert first["data"] != second["data"]
            await reader.nothing(0.8)  # the burst said once

    run(scenario)


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_changes_table_that_lost_rows_reads_everything_again(fast: None) -> None:
    match = MatchFactory.create()
    topic = f"m{match.pk}"

    async def scenario() -> None:
        _r, reader = await open_stream(url(topic, held={topic: "0"}))
        await asyncio.sleep(0.3)

        def write_unseen() -> None:  # a change whose row went before the hub read it
            Match.objects.filter(pk=match.pk).update(version=5)
            LiveChange.objects.all().delete()
            LiveChange.objects.create(topic="m0")
            LiveChange.objects.create(topic="m0")

        await in_thread(write_unseen)
        assert (await reader.event(2))["data"] == f"{topic} 5"

    run(scenario)


def test_through_gunicorns_workers_the_stream_answers_204_and_the_page_polls() -> None:
    response = Client().get(url("m1"), headers={"Origin": "http://127.0.0.1:8000"})
    assert response.status_code == 204
    assert response["Access-Control-Allow-Origin"] == "http://127.0.0.1:8000"


def test_an_unsigned_topic_is_refused_and_another_site_may_not_read() -> None:
    async def scenario() -> None:
        client = AsyncClient()
        assert (await client.get("/live/?t=m1")).status_code == 400
        assert (await client.get(f"/live/?t={sign('m1')[:-1]}x")).status_code == 400
        answer = await client.get("/live/?t=m1", headers={"Origin": "https://evil.example"})
        assert "Access-Control-Allow-Origin" not in answer

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_streams_are_capped_per_address_and_end_after_their_lifetime(fast: None) -> None:
    match = MatchFactory.create()
    topic = f"m{match.pk}"

    async def scenario() -> None:
        with override_settings(LIVE_STREAMS_PER_ADDRESS=2, LIVE_STREAM_SECONDS=1):
            first: Any = await AsyncClient().get(url(topic, held={topic: "0"}))
            second: Any = await AsyncClient().get(url(topic, held={topic: "0"}))
            refused = await AsyncClient().get(url(topic))
            assert refused.status_code == 429 and refused["Retry-After"] == "1"
            hub = hubs.current()
            assert hub.streams == 2
            started = time.monotonic()
            text = "".join([c.decode() async for c in first.streaming_content])
            assert 1 <= time.monotonic() - started < 2.5  # its lifetime, a tenth of jitter
            assert text.startswith("retry: ")
            async for _chunk in second.streaming_content:
                pass
            await asyncio.sleep(0)
            assert hub.streams == 0 and hub.subs == {} and hub.versions == {}
            again = await AsyncClient().get(url(topic))
            assert again.status_code == 200

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_a_silent_stream_sends_heartbeats(fast: None) -> None:
    match = MatchFactory.create()
    topic = f"m{match.pk}"

    async def scenario() -> None:
        with override_settings(LIVE_HEARTBEAT_SECONDS=0.3):
            _response, reader = await open_stream(url(topic, held={topic: "0"}))
            assert (await asyncio.wait_for(reader.chunks.get(), 1)).startswith("retry: ")
            assert await asyncio.wait_for(reader.chunks.get(), 2) == ":\n\n"

    run(scenario)


@pytest.mark.django_db(transaction=True)
def test_one_version_read_serves_every_stream_of_a_topic(fast: None) -> None:
    match = MatchFactory.create()
    topic = f"m{match.pk}"

    async def scenario() -> None:
        readers = [(await open_stream(url(topic, held={topic: "0"})))[1] for _ in range(20)]
        await asyncio.sleep(0.2)
        hub = hubs.current()
        reads = hub.reads
        await in_thread(lambda: services.regenerate_links(match_id=match.pk))
        for reader in readers:
            assert (await reader.event(2))["data"] == f"{topic} 1"
        assert hub.reads == reads + 1

    run(scenario)


@sqlite_only
@pytest.mark.django_db
def test_the_triggers_name_what_changed() -> None:
    tournament = TournamentFactory.create(teams=teams(4), drawn=True)
    table = Table.objects.select_related("round").get(round__tournament=tournament, number=1)
    LiveChange.objects.all().delete()
    play_deals(table, 1)
    topics = list(LiveChange.objects.values_list("topic", flat=True))
    assert f"m{table.match_id}" in topics and f"c{tournament.pk}" in topics
    assert (
        f"t{tournament.pk}" not in topics
    )  # a deal at a table that plays on: not the concours's row
    LiveChange.objects.all().delete()
    Round.objects.filter(pk=table.round_id).update(
        clock_started_at=timezone.now(), clock_minutes=30
    )
    tournament.touch()
    topics = list(LiveChange.objects.values_list("topic", flat=True))
    assert {f"r{table.round_id}", f"t{tournament.pk}", f"c{tournament.pk}"} <= set(topics)
    job = Job.objects.create(kind="restore", owner_key="k")
    LiveChange.objects.all().delete()
    Job.objects.filter(pk=job.pk).update(done=1)
    assert list(LiveChange.objects.values_list("topic", flat=True)) == [f"j{job.pk}"]
    LiveChange.objects.all().delete()
    assert table.match_id is not None
    Match.objects.filter(pk=table.match_id).update(team0_name="X")  # no version moved
    assert not LiveChange.objects.filter(topic=f"m{table.match_id}").exists()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="LISTEN/NOTIFY is PostgreSQL's")
@pytest.mark.django_db(transaction=True)
def test_postgresql_notifies_on_commit_only() -> None:
    import psycopg

    params = {
        k: v
        for k, v in connection.get_connection_params().items()
        if k not in ("cursor_factory", "context", "prepare_threshold")
    }
    match = MatchFactory.create()
    received: list[str] = []
    with psycopg.connect(**params, autocommit=True) as listener:
        listener.execute(f"LISTEN {hubs.CHANNEL}")
        from django.db import transaction

        with pytest.raises(RuntimeError), transaction.atomic():
            services.regenerate_links(match_id=match.pk)
            raise RuntimeError  # rolled back: nobody told
        services.regenerate_links(match_id=match.pk)
        done = threading.Event()
        for notice in listener.notifies(timeout=2, stop_after=1):
            received.append(notice.payload)
            done.set()
    assert received == [f"m{match.pk}"]
