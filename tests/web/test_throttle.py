"""Rate limits shared by every worker (web.RateLimit, throttle.hit), and importing a match file:
open to anyone, at most IMPORTS_PER_HOUR per browser and IMPORTS_PER_HOUR_PER_IP per address,
then a 429 page that says how long to wait; allowed again once the hour is over."""

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from scorekeeper.matches.models import Match
from scorekeeper.web import throttle
from scorekeeper.web.models import RateLimit
from tests.matches.conftest import client_with_device

pytestmark = pytest.mark.django_db

FILE = {
    "format": "belote-match/1",
    "rules": {"preset": "coinche"},
    "deals": [{"taker": 0, "contract": 80, "trump": "hearts", "taker_points": 100}],
}


def upload(client: Client, **extra: str) -> Any:
    file = SimpleUploadedFile("m.json", json.dumps(FILE).encode(), "application/json")
    return client.post(reverse("matches:import"), {"file": file}, **extra)  # type: ignore[arg-type]


Travel = Callable[[datetime], AbstractContextManager[None]]


@pytest.fixture
def travel(monkeypatch: pytest.MonkeyPatch) -> Travel:
    """`with travel(when):` the rate limits' clock stands still at `when`."""

    @contextmanager
    def at(when: datetime) -> Iterator[None]:
        with monkeypatch.context() as patch:
            patch.setattr(throttle, "_now", lambda: when)
            yield

    return at


# throttle.hit --------------------------------------------------------------------------------


def test_hit_counts_up_to_the_limit_then_says_how_long_to_wait() -> None:
    assert [throttle.hit(key="k", limit=3, window=60) for _ in range(3)] == [None, None, None]
    wait = throttle.hit(key="k", limit=3, window=60)
    assert wait is not None and 55 <= wait <= 60
    assert RateLimit.objects.get(key="k").count == 3  # a refused hit is not counted
    assert throttle.hit(key="other", limit=3, window=60) is None


def test_a_cost_is_counted_whole_or_not_at_all() -> None:
    assert throttle.hit(key="deals", limit=100, window=3600, cost=60) is None
    assert throttle.hit(key="deals", limit=100, window=3600, cost=50) is not None
    assert throttle.hit(key="deals", limit=100, window=3600, cost=40) is None
    assert throttle.hit(key="deals", limit=100, window=3600, cost=0) is not None  # limit reached
    assert RateLimit.objects.get(key="deals").count == 100


def test_the_window_ends_and_old_rows_are_deleted(travel: Travel) -> None:
    now = timezone.now()
    with travel(now):
        assert throttle.hit(key="a", limit=1, window=60) is None
        assert throttle.hit(key="b", limit=1, window=600) is None
        assert throttle.hit(key="a", limit=1, window=60) == 60
    with travel(now + timedelta(seconds=61)):
        assert throttle.hit(key="a", limit=1, window=60) is None  # a new window
        assert set(RateLimit.objects.values_list("key", flat=True)) == {"a", "b"}
    with travel(now + timedelta(seconds=700)):
        throttle.hit(key="c", limit=1, window=60)
        assert set(RateLimit.objects.values_list("key", flat=True)) == {"c"}


def test_a_long_key_is_hashed() -> None:
    assert throttle.hit(key="x" * 500, limit=1, window=60) is None
    assert throttle.hit(key="x" * 500, limit=1, window=60) is not None
    assert len(RateLimit.objects.get().key) <= 200


@pytest.mark.django_db(transaction=True)
def test_hits_from_many_threads_at_once_are_all_counted() -> None:
    results: list[int | None] = []
    barrier = threading.Barrier(6)

    def worker() -> None:
        try:
            barrier.wait(timeout=10)
            for _ in range(5):
                results.append(throttle.hit(key="shared", limit=20, window=60))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert len(results) == 30
    assert results.count(None) == 20
    assert RateLimit.objects.get(key="shared").count == 20


# Importing a match file --------------------------------------------------------------------------


def test_imports_from_one_browser_stop_at_the_limit_with_a_429_page(
    settings: Settings, travel: Travel
) -> None:
    settings.IMPORTS_PER_HOUR = 3
    phone = client_with_device("importing-phone")
    now = timezone.now()
    with travel(now):
        for _ in range(3):
            assert upload(phone).status_code == 302
        response = upload(phone)
        assert response.status_code == 429
        text = response.text
        assert "Too many match files imported from this browser or this network." in text
        assert "Wait 60 minutes, then try again." in text
        assert response["Retry-After"] == "3600"
        assert Match.objects.count() == 3
        # Looking at the page is not limited; another browser (another address) may import.
        assert phone.get(reverse("matches:import")).status_code == 200
        other = client_with_device("another-phone")
        assert upload(other, REMOTE_ADDR="198.51.100.9").status_code == 302
    with travel(now + timedelta(minutes=59)):
        response = upload(phone)
        assert response.status_code == 429
        assert "Wait 1 minute, then try again." in response.text
    with travel(now + timedelta(minutes=61)):
        assert upload(phone).status_code == 302
    assert Match.objects.count() == 5


def test_imports_from_one_address_stop_at_its_limit(settings: Settings) -> None:
    """A script that drops its cookies gets a new browser each time: its address still counts."""
    settings.IMPORTS_PER_HOUR_PER_IP = 2
    for _ in range(2):
        assert upload(Client(), REMOTE_ADDR="203.0.113.7").status_code == 302
    assert upload(Client(), REMOTE_ADDR="203.0.113.7").status_code == 429
    assert upload(Client(), REMOTE_ADDR="203.0.113.8").status_code == 302
    assert Match.objects.count() == 3


def test_behind_a_trusted_proxy_the_forwarded_address_counts(settings: Settings) -> None:
    settings.IMPORTS_PER_HOUR_PER_IP = 1
    settings.TRUSTED_PROXIES = 1
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    first = upload(Client(), HTTP_X_FORWARDED_FOR="203.0.113.7", **proxy)
    assert first.status_code == 302
    # A forged first entry changes nothing: the proxy's own entry (the last) is the address.
    again = upload(Client(), HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.7", **proxy)
    assert again.status_code == 429
    other = upload(Client(), HTTP_X_FORWARDED_FOR="203.0.113.8", **proxy)
    assert other.status_code == 302


def test_a_bad_file_counts_too(settings: Settings) -> None:
    """Reading a file is the work being limited, whether it imports or not."""
    settings.IMPORTS_PER_HOUR = 1
    phone = client_with_device("importing-phone")
    bad = SimpleUploadedFile("m.json", b"{}", "application/json")
    assert phone.post(reverse("matches:import"), {"file": bad}).status_code == 200
    assert upload(phone).status_code == 429
    assert not Match.objects.exists()
