"""`paused_gc`: a view that builds a big concours's pages (10,000 tables, 20,000 places, 1,000
rows rendered) allocates a few hundred thousand short-lived objects, which set off Python's cyclic
garbage collector again and again: each pass walks every live object of the process, and they
cost about 40 % of such a request (measured with scripts/bench_concours.py --teams 1000).
Nothing these views build forms a reference cycle (plain rows, tuples, dataclasses), so reference
counting frees it all; the collector is paused while the view runs and resumes after it. A count
under a lock, so overlapping requests of a threaded worker resume it only when the last ends."""

from __future__ import annotations

import functools
import gc
import threading
from collections.abc import Callable

_lock = threading.Lock()
_running = 0
_was_enabled = True


def _pause() -> None:
    global _running, _was_enabled
    with _lock:
        if _running == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _running += 1


def _resume() -> None:
    global _running
    with _lock:
        _running -= 1
        if _running == 0 and _was_enabled:
            gc.enable()


def paused_gc[**P, R](view: Callable[P, R]) -> Callable[P, R]:
    """Run `view` with the cyclic garbage collector paused (see the module's docstring)."""

    @functools.wraps(view)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        _pause()
        try:
            return view(*args, **kwargs)
        finally:
            _resume()

    return wrapper
