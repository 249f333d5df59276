"""The big concours views pause the cyclic garbage collector while they run, and only then."""

import gc
import threading

import pytest

from scorekeeper.web.gc_pause import paused_gc


def test_the_collector_is_paused_during_the_view_and_resumed_after() -> None:
    seen = []

    @paused_gc
    def view() -> str:
        seen.append(gc.isenabled())
        return "page"

    assert gc.isenabled()
    assert view() == "page"
    assert seen == [False] and gc.isenabled()


def test_resumed_after_an_error_too() -> None:
    @paused_gc
    def view() -> None:
        raise ValueError("bad")

    with pytest.raises(ValueError):
        view()
    assert gc.isenabled()


def test_overlapping_views_resume_it_when_the_last_ends() -> None:
    inside, leave = threading.Event(), threading.Event()

    @paused_gc
    def slow() -> None:
        inside.set()
        assert leave.wait(10)

    @paused_gc
    def quick() -> bool:
        return gc.isenabled()

    thread = threading.Thread(target=slow)
    thread.start()
    assert inside.wait(10)
    assert quick() is False
    assert not gc.isenabled()  # the slow one still runs
    leave.set()
    thread.join(10)
    assert gc.isenabled()


def test_a_collector_turned_off_before_stays_off() -> None:
    gc.disable()
    try:
        paused_gc(lambda: None)()
        assert not gc.isenabled()
    finally:
        gc.enable()
