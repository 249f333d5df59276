"""Benchmark of restoring a backup while phones score (issue 10 §2).

Builds a zip of FILES match files of DEALS deals each (realistic random deals drawn as
seed_demo draws them, coinche to 100,000 points so no match ends early), then POSTs it to
/history/restore/ as a signed-in browser while a "phone" thread records a deal every 200 ms in
another match through services.record_deal. Prints:

* the request's wall time and its HTTP status (and the page's first message), then the job's:
  the request admits the zip and queues a job (scorekeeper/jobs), which the bench runs as the
  worker does (`db_worker --batch`); `--inline` runs it inside the request instead (the
  immediate backend), as every restore ran before jobs;
* the number of write transactions it opened and the longest one (from BEGIN to COMMIT, timed
  by wrapping the connection's set_autocommit, so the figure is the time the write lock is held);
* the phone's deals: recorded, refused ("database is locked" and other errors), slowest save.

Run from the repository root:

    .venv/bin/python scripts/bench_restore.py [--files 100] [--deals 600] [--database-url URL]

Without --database-url everything happens in a throwaway SQLite database (the app's SQLite
settings: WAL, 20 s busy timeout, IMMEDIATE transactions). Limits of the app can be raised for a
run through their environment variables (RESTORE_DEALS_PER_REQUEST, RESTORE_DEALS_PER_HOUR). The
exit code is 0 whatever the figures: this is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import sys
import tempfile
import threading
import time
import uuid
import zipfile
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
PHONE_EVERY_S = 0.2


def setup_django(database_url: str, tmp: Path, *, inline: bool = False) -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "scorekeeper.settings"
    if inline:
        os.environ["TASKS_BACKEND"] = "django.tasks.backends.immediate.ImmediateBackend"
    os.environ["DATABASE_URL"] = database_url
    os.environ["SECRET_KEY"] = "bench-" + uuid.uuid4().hex * 2
    os.environ["DEBUG"] = "0"
    os.environ["ALLOWED_HOSTS"] = "testserver,localhost,127.0.0.1"
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
    import django
    from django.conf import settings

    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.STATIC_ROOT = tmp / "staticfiles"
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def build_zip(files: int, deals: int, seed: int) -> bytes:
    from scorekeeper.engine.scoring import (
        InvalidInput,
        MatchFile,
        Team,
        check_deal,
        dump_match,
        rules_from_dict,
    )
    from scorekeeper.history.management.commands.seed_demo import random_deal

    rng = random.Random(seed)
    rules = rules_from_dict({"preset": "coinche", "target": 100_000})
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for index in range(files):
            drawn: list[Any] = []
            while len(drawn) < deals:
                deal = random_deal(rng, rules)
                try:
                    check_deal(rules, deal)
                except InvalidInput:
                    continue
                drawn.append(deal)
            match_file = MatchFile(
                rules=rules,
                teams=(Team("Nous", ("Alice", "Bruno")), Team("Eux", ("Chloé", "David"))),
                deals=tuple(drawn),
            )
            archive.writestr(f"match-{index:03}.json", json.dumps(dump_match(match_file)))
    return buffer.getvalue()


class WriteTimer:
    """Times every outermost transaction of the connections of this process (BEGIN to COMMIT
    or ROLLBACK) by wrapping DatabaseWrapper.set_autocommit."""

    def __init__(self) -> None:
        from django.db.backends.base.base import BaseDatabaseWrapper

        self.durations: list[float] = []
        self._started: dict[int, float] = {}
        self._original = BaseDatabaseWrapper.set_autocommit
        timer = self

        def set_autocommit(wrapper: Any, autocommit: bool, *args: Any, **kwargs: Any) -> Any:
            key = id(wrapper)
            if autocommit and key in timer._started:
                result = timer._original(wrapper, autocommit, *args, **kwargs)
                if threading.current_thread() is threading.main_thread():
                    timer.durations.append(time.perf_counter() - timer._started.pop(key))
                else:
                    timer._started.pop(key)
                return result
            if not autocommit:
                timer._started[key] = time.perf_counter()
            return timer._original(wrapper, autocommit, *args, **kwargs)

        BaseDatabaseWrapper.set_autocommit = set_autocommit  # type: ignore[method-assign]


def phone(stop: threading.Event, match_id: int, report: dict[str, Any]) -> None:
    from django.db import connection

    from scorekeeper.engine.scoring import PlayedDeal, Trump
    from scorekeeper.matches import services

    author = services.Author(key="bench-phone", label="bench")
    try:
        while not stop.is_set():
            started = time.perf_counter()
            try:
                services.record_deal(
                    match_id=match_id,
                    expected_version=None,
                    deal=PlayedDeal(taker=0, trump=Trump.SPADES, contract=80, taker_points=100),
                    author=author,
                )
                report["saved"] += 1
            except Exception as error:  # what a phone would have seen as a 500
                report["errors"].append(f"{type(error).__name__}: {error}")
            report["slowest"] = max(report["slowest"], time.perf_counter() - started)
            stop.wait(PHONE_EVERY_S)
    finally:
        connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--deals", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--inline", action="store_true", help="run the job inside the request")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        url = options.database_url or f"sqlite:///{tmp / 'bench.sqlite3'}"
        setup_django(url, tmp, inline=options.inline)
        from django.contrib.auth.models import User
        from django.core.management import call_command
        from django.test import Client

        from scorekeeper.engine.scoring import rules_from_dict
        from scorekeeper.matches import services
        from scorekeeper.matches.models import Match

        started = time.perf_counter()
        data = build_zip(options.files, options.deals, options.seed)
        print(
            f"zip: {options.files} files x {options.deals} deals, {len(data) / 1024:.0f} KB "
            f"(built in {time.perf_counter() - started:.1f} s)"
        )
        user = User.objects.create_user(f"bench-{uuid.uuid4().hex[:8]}", password="x" * 20)
        client = Client()
        client.force_login(user)
        scored = services.create_match(
            owner_key="bench-phone",
            rules=rules_from_dict({"preset": "coinche", "target": 100_000}),
            team_names=("A", "B"),
            players=(None, None, None, None),
            first_dealer=0,
        )
        before = Match.objects.count()
        timer = WriteTimer()
        report: dict[str, Any] = {"saved": 0, "errors": [], "slowest": 0.0}
        stop = threading.Event()
        thread = threading.Thread(target=phone, args=(stop, scored.pk, report))
        thread.start()
        upload = io.BytesIO(data)
        upload.name = "backup.zip"
        started = time.perf_counter()
        response = client.post("/history/restore/", {"file": upload}, follow=True, secure=True)
        elapsed = time.perf_counter() - started
        started = time.perf_counter()
        if not options.inline:
            call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)
        worked = time.perf_counter() - started
        stop.set()
        thread.join()
        text = response.content.decode()
        said = re.findall(r'class="[^"]*(?:message|errorlist)[^"]*"[^>]*>\s*(?:<li>)?([^<]+)', text)
        restored = Match.objects.count() - before
        print(f"request: {elapsed:.1f} s, HTTP {response.status_code}")
        if not options.inline:
            print(f"job (the worker): {worked:.1f} s")
        print(f"{restored} matches written")
        if said:
            print(f"page says: {said[0].strip()[:160]}")
        longest = max(timer.durations, default=0.0)
        print(
            f"write transactions of the restore: {len(timer.durations)}, "
            f"longest {longest * 1000:.0f} ms"
        )
        errors = report["errors"]
        print(
            f"phone (a deal every {PHONE_EVERY_S * 1000:.0f} ms): {report['saved']} saved, "
            f"{len(errors)} refused, slowest save {report['slowest'] * 1000:.0f} ms"
        )
        for error in sorted(set(errors))[:5]:
            print(f"  {error[:160]}")


if __name__ == "__main__":
    main()
