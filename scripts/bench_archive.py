"""Benchmark of issue 23's heavy files: a club archive of 12 concours of 6,000 deals each (200
teams, 5 rounds, every table's 12 deals scored; 72,000 deals), and a concours file of 1,000 teams
× 20 rounds of paper totals (10,000 tables).

Prints, for each, the wall time and the process's CPU time of:

* the work as one call (`clubs.exports.restore_archive`, `concours.services.import_tournament`:
  what the request did before issue 23);
* since issue 23, what the request still does (`exports.admit_archive`: the zip, the manifest,
  the deals counted and charged; the import's form: size and JSON) and the job that runs in the
  worker (`jobs.services.run_job`, tasks run at once here), with its progress steps.

Run from the repository root (the files are made by the engine, as scripts/simulate_tournament.py
plays a concours: the 1,000-team one takes minutes; BENCH_FILES=<dir> keeps them for the next run):

    [BENCH_FILES=/tmp/bench] .venv/bin/python scripts/bench_archive.py [--concours 12]
        [--teams 200] [--rounds 5]

RESTORE_DEALS_PER_REQUEST and RESTORE_DEALS_PER_HOUR are raised for the run (72,000 deals are
over the default 20,000 of one restore). Everything happens in a throwaway SQLite database in a
temporary directory, with DEBUG off; the exit code is 0 whatever the figures.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_report import REPO_ROOT, setup_django

sys.path.insert(0, str(REPO_ROOT / "scripts"))


def timed(label: str, work: Callable[[], Any]) -> Any:
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    print(
        f"  {label:<52} {time.perf_counter() - wall:7.2f} s wall "
        f"{time.process_time() - cpu:7.2f} s CPU"
    )
    return result


def concours_file(teams: int, rounds: int, *, deals: bool, seed: int = 1) -> str:
    """A concours played by the engine (random draws and results), as a file; kept in
    $BENCH_FILES (a directory) when set: the 1,000-team one takes minutes to play."""
    keep = Path(os.environ.get("BENCH_FILES", "")) / f"{teams}x{rounds}-{deals}-{seed}.json"
    if os.environ.get("BENCH_FILES") and keep.exists():
        return keep.read_text()
    from simulate_tournament import simulate

    from scorekeeper.engine.tournament.tfile import dump_tournament

    tournament, _times = simulate(
        teams, rounds, melee=False, seed=seed, pairing="random", deals=deals, quiet=True
    )
    text = json.dumps(dump_tournament(tournament), ensure_ascii=False)
    if os.environ.get("BENCH_FILES"):
        keep.write_text(text)
    return text


def club_archive(text: str, count: int) -> bytes:
    buffer = io.BytesIO()
    entries = []
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for n in range(1, count + 1):
            name = f"concours/{n:03}.json"
            archive.writestr(name, text)
            entries.append({"file": name, "name": f"Concours {n}", "date": f"2025-{n:02}-01"[:10]})
        manifest = {
            "format": "belote-club-archive/2",
            "club": {"name": "Bench"},
            "concours": entries,
        }
        archive.writestr("manifest.json", json.dumps(manifest))
    return buffer.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--concours", type=int, default=12)
    parser.add_argument("--teams", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    os.environ["RESTORE_DEALS_PER_REQUEST"] = os.environ["RESTORE_DEALS_PER_HOUR"] = "10000000"
    os.environ["TASKS_BACKEND"] = "django.tasks.backends.immediate.ImmediateBackend"
    setup_django(Path(tempfile.mkdtemp()) / "bench.sqlite3")

    from django.contrib.auth.models import User

    from scorekeeper.clubs import exports
    from scorekeeper.clubs import services as club_services
    from scorekeeper.concours import services

    jobs = hasattr(exports, "admit_archive")  # issue 23's jobs in this tree
    owner = User.objects.create_user("bench")
    print(f"Making the files ({'after' if jobs else 'before'} issue 23's jobs)...")
    deals_text = concours_file(args.teams, args.rounds, deals=True)
    data = club_archive(deals_text, args.concours)
    paper = concours_file(1000, 20, deals=False).encode()
    print(
        f"  club archive: {args.concours} concours × {json.loads(deals_text) and args.teams} "
        f"teams × {args.rounds} rounds, {len(data) // 1024} KB zipped; concours file "
        f"1,000 × 20: {len(paper) // 1024} KB"
    )

    print("Club archive restore:")
    club = club_services.create_club(user=owner, name="A", town="Rouen")
    timed("restore_archive (one call, as the request did)", lambda: exports.restore_archive(
        club=club, owner=owner, data=data))  # fmt: skip
    print("Concours file import:")
    timed("import_tournament (one call, as the request did)", lambda: services.import_tournament(
        owner=owner, text=paper))  # fmt: skip
    if not jobs:
        return

    from scorekeeper.clubs import jobs as club_jobs
    from scorekeeper.concours import jobs as concours_jobs
    from scorekeeper.jobs.models import Job
    from scorekeeper.jobs.services import start_job

    print("Since issue 23 (the request admits, the worker's job does the rest):")
    club = club_services.create_club(user=owner, name="B", town="Rouen")
    timed("club restore: the request (admit_archive)", lambda: exports.admit_archive(
        club=club, owner=owner, data=data))  # fmt: skip
    job = timed("club restore: the job in the worker (run_job)", lambda: start_job(
        kind=club_jobs.KIND, owner=owner, owner_key="bench", data=data,
        params=club_jobs.params(club)))  # fmt: skip
    job = Job.objects.get(pk=job.pk)
    print(
        f"    {job.state}, {job.done} of {job.total} steps, {len(job.result['restored'])} restored"
    )
    timed("concours import: the request (the file is JSON)", lambda: json.loads(paper))
    job = timed("concours import: the job in the worker (run_job)", lambda: start_job(
        kind=concours_jobs.KIND, owner=owner, owner_key="bench", data=paper))  # fmt: skip
    job = Job.objects.get(pk=job.pk)
    print(f"    {job.state}, {job.done} of {job.total} steps")


if __name__ == "__main__":
    main()
