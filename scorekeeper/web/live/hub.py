"""One hub per process that serves streams: it learns which topics changed (one LISTEN
connection on PostgreSQL, one small query every LIVE_POLL_SECONDS on SQLite), reads each changed
topic's version once (one query per kind for a batch, in one thread of its own holding one
database connection), and hands the versions to every subscription following that topic.

It runs in the ASGI server's event loop, started by the first stream; its tasks run in a context
of their own (not the first request's). Its database work is never the streams': a stream holds
no database connection however long it stays open."""

import asyncio
import contextlib
import contextvars
import logging
import random
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connections
from django.utils.module_loading import import_string

from .topics import split

log = logging.getLogger(__name__)

CHANNEL = "scorekeeper_live"  # NOTIFY's channel (migration web/0002_live)
EVERYTHING = "*"  # a source may have missed changes: every followed topic is read again


class Subscription:
    """What one stream follows, and the versions handed to it since it last looked."""

    def __init__(self, topics: tuple[str, ...], address: str) -> None:
        self.topics = topics
        self.address = address
        self.pending: dict[str, str] = {}
        self.ready = asyncio.Event()
        self.closed = False

    def offer(self, topic: str, version: str) -> None:
        self.pending[topic] = version
        self.ready.set()

    async def next(self, timeout: float) -> dict[str, str]:
        """The versions handed over since the last call (waiting up to `timeout` seconds for
        one; {} if none came)."""
        if not self.pending:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.ready.wait(), timeout)
        self.ready.clear()
        pending, self.pending = self.pending, {}
        return pending


def read_versions(topics: Iterable[str]) -> dict[str, str]:
    """The current version of each topic, one query per kind (`settings.LIVE_TOPICS`); a topic
    whose object is gone reads "". Runs in the hub's thread."""
    close_old_connections()  # CONN_MAX_AGE and health checks, as a request would
    by_kind: dict[str, list[int]] = {}
    for topic in topics:
        parts = split(topic)
        if parts is not None:
            by_kind.setdefault(parts[0], []).append(parts[1])
    versions: dict[str, str] = {}
    for kind, ids in by_kind.items():
        reader: Callable[[list[int]], dict[int, str]] = import_string(settings.LIVE_TOPICS[kind])
        found = reader(ids)
        versions.update({f"{kind}{number}": found.get(number, "") for number in ids})
    return versions


class Hub:
    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.subs: dict[str, set[Subscription]] = {}
        self.versions: dict[str, str] = {}  # followed topics whose version is known
        self.addresses: Counter[str] = Counter()
        self.changes: asyncio.Queue[str] = asyncio.Queue()
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="live-hub")
        self.reads = 0  # version reads (batches), for the tests and benchmarks
        context = contextvars.Context()  # not the first request's
        self.tasks = [
            self.loop.create_task(self._dispatch(), context=context),
            self.loop.create_task(self._source(), context=context),
        ]

    async def close(self) -> None:
        """Stop its tasks and close its thread's database connection (tests; a server's end)."""
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        await self.loop.run_in_executor(self.executor, connections.close_all)
        self.executor.shutdown(wait=False)

    # Streams ---------------------------------------------------------------------------------

    def subscribe(self, topics: Iterable[str], address: str) -> Subscription | None:
        """Follow `topics` (None when this address holds LIVE_STREAMS_PER_ADDRESS streams here
        already). Registered before any version is read: a change from now on reaches it."""
        if self.addresses[address] >= settings.LIVE_STREAMS_PER_ADDRESS:
            return None
        sub = Subscription(tuple(dict.fromkeys(topics)), address)
        self.addresses[address] += 1
        for topic in sub.topics:
            followers = self.subs.setdefault(topic, set())
            followers.add(sub)
            if topic in self.versions:
                sub.offer(topic, self.versions[topic])
            elif len(followers) == 1:
                self.changes.put_nowait(topic)  # newly followed: read it (in order)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        """Forget this subscription (once: the stream's end and its response's close both
        call it)."""
        if sub.closed:
            return
        sub.closed = True
        self.addresses[sub.address] -= 1
        if self.addresses[sub.address] <= 0:
            del self.addresses[sub.address]
        for topic in sub.topics:
            followers = self.subs.get(topic)
            if followers is None:
                continue
            followers.discard(sub)
            if not followers:  # nobody follows it here any more: forget its version
                del self.subs[topic]
                self.versions.pop(topic, None)

    @property
    def streams(self) -> int:
        return sum(self.addresses.values())

    # Changes -----------------------------------------------------------------------------------

    def changed(self, topic: str) -> None:
        self.changes.put_nowait(topic)

    async def _dispatch(self) -> None:
        while True:
            batch = {await self.changes.get()}
            while not self.changes.empty():
                batch.add(self.changes.get_nowait())
            wanted = (
                list(self.subs) if EVERYTHING in batch else [t for t in batch if t in self.subs]
            )
            if not wanted:
                continue
            try:
                versions = await self.loop.run_in_executor(self.executor, read_versions, wanted)
            except Exception:
                log.exception("Live: reading versions failed; trying again")
                await asyncio.sleep(1)
                for topic in wanted:
                    self.changes.put_nowait(topic)
                continue
            self.reads += 1
            for topic, version in versions.items():
                followers = self.subs.get(topic)
                if not followers:
                    continue
                self.versions[topic] = version
                for sub in followers:
                    sub.offer(topic, version)

    async def _source(self) -> None:
        vendor = connections["default"].vendor
        if vendor == "postgresql":
            await self._listen()
        else:
            await self._poll()

    async def _listen(self) -> None:
        """PostgreSQL: one connection LISTENing; on (re)connecting, every followed topic is read
        again (a change may have come while it was away)."""
        import psycopg

        params = {
            key: value
            for key, value in connections["default"].get_connection_params().items()
            if key not in ("cursor_factory", "context", "prepare_threshold")
        }
        wait = 0.5
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(**params, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.changed(EVERYTHING)
                    wait = 0.5
                    async for notice in conn.notifies():
                        self.changed(notice.payload)
            except (psycopg.Error, OSError) as error:
                log.warning("Live: listening connection lost (%s); again in %.1f s", error, wait)
            await asyncio.sleep(wait * (1 + random.random() / 2))
            wait = min(wait * 2, 10)

    async def _poll(self) -> None:
        """SQLite: the rows LiveChange got since the last one seen, every LIVE_POLL_SECONDS,
        one query whoever wrote them. A gap (rows pruned unseen, the table emptied) reads every
        followed topic again."""
        last: int | None = None
        while True:
            try:
                rows = await self.loop.run_in_executor(self.executor, _rows_after, last or 0)
            except Exception as error:
                log.warning("Live: reading the changes failed (%s)", error)
                rows = None
            if rows is not None:
                newest = rows[-1][0] if rows else 0
                if last is None:
                    last = newest
                elif newest < last or (rows and rows[0][0] > last + 1):
                    self.changed(EVERYTHING)
                    last = newest
                else:
                    for number, topic in rows:
                        if number > last:
                            self.changed(topic)
                    last = max(last, newest)
            await asyncio.sleep(settings.LIVE_POLL_SECONDS)


def _rows_after(last: int) -> list[tuple[int, str]]:
    """The changes after `last`, and always the newest (so that an emptied table shows)."""
    close_old_connections()
    with connections["default"].cursor() as cursor:
        cursor.execute(
            "SELECT id, topic FROM web_livechange WHERE id > %s"
            " OR id = (SELECT MAX(id) FROM web_livechange) ORDER BY id",
            [last],
        )
        return [(int(row[0]), str(row[1])) for row in cursor.fetchall()]


_hub: Hub | None = None


def hub() -> Hub:
    """This process's hub, started in the running loop on first use."""
    global _hub
    loop = asyncio.get_running_loop()
    if _hub is None or _hub.loop is not loop or _hub.loop.is_closed():
        _hub = Hub()
    return _hub


def current() -> Any:
    """The hub if one runs (tests and benchmarks read its counts)."""
    return _hub
