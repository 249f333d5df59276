"""`make run` (scripts/run_dev.sh) starts the jobs' worker again whenever it exits (issue 42: a
worker that died with the database was gone until someone noticed), and Ctrl-C still stops
everything. Python is a stand-in here: its worker exits at once, its server waits."""

import os
import signal
import subprocess
import time
import uuid
from pathlib import Path

from django.conf import settings

STAND_IN = """#!/bin/sh
# "manage.py db_worker --reload": noted, then it exits; "manage.py runserver": it waits.
case "$2" in
  db_worker) echo "$2 $3" >> "$STAND_IN_LOG"; exit 1 ;;
  runserver) exec sleep 120 ;;
esac
"""


def marked(mark: str) -> list[str]:
    """The processes whose environment holds RUN_DEV_MARK=mark (Linux's /proc)."""
    found = []
    for environ in Path("/proc").glob("[0-9]*/environ"):
        try:
            if f"RUN_DEV_MARK={mark}".encode() in environ.read_bytes():
                found.append(environ.parent.name)
        except OSError:
            continue
    return found


def test_the_worker_is_started_again_when_it_exits(tmp_path: Path) -> None:
    python = tmp_path / "python"
    python.write_text(STAND_IN)
    python.chmod(0o755)
    log = tmp_path / "started.log"
    mark = uuid.uuid4().hex
    env = {
        **os.environ, "PY": str(python), "WORKER_RESTART_DELAY": "0.1",
        "STAND_IN_LOG": str(log), "RUN_DEV_MARK": mark,
    }  # fmt: skip
    script = Path(settings.BASE_DIR) / "scripts" / "run_dev.sh"
    run = subprocess.Popen(
        ["bash", str(script)], cwd=tmp_path, env=env, start_new_session=True,
        stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while not log.exists() or len(log.read_text().splitlines()) < 3:
            assert run.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        assert set(log.read_text().splitlines()) == {"db_worker --reload"}
    finally:
        os.killpg(run.pid, signal.SIGINT)  # Ctrl-C: the terminal's whole group
        _, said = run.communicate(timeout=30)
    assert "The jobs' worker stopped (exit 1): starting it again in 0.1 s." in said
    deadline = time.monotonic() + 10
    while marked(mark) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert marked(mark) == []  # nothing left running
