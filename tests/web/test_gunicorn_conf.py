"""gunicorn.conf.py loads in gunicorn and bounds every request: a timeout, a graceful timeout,
recycled workers, capped request lines and headers; each value can be set by the environment."""

import multiprocessing
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from gunicorn.config import Config  # type: ignore[import-untyped]

ROOT = Path(__file__).resolve().parents[2]
CONF = ROOT / "gunicorn.conf.py"


def load(monkeypatch: pytest.MonkeyPatch, **env: str) -> Config:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    namespace: dict[str, Any] = {"__file__": str(CONF)}
    exec(compile(CONF.read_text(), str(CONF), "exec"), namespace)  # as gunicorn reads it
    config = Config()
    for name, value in namespace.items():
        if name in config.settings:
            config.set(name, value)
    return config


def test_defaults_bound_every_request(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (
        "GUNICORN_BIND",
        "GUNICORN_WORKERS",
        "GUNICORN_THREADS",
        "GUNICORN_TIMEOUT",
        "GUNICORN_WORKER_CLASS",
    ):
        monkeypatch.delenv(name, raising=False)
    config = load(monkeypatch)
    assert config.bind == ["127.0.0.1:8000"]
    # sync: the class whose timeout cuts off a request (tests/web/test_gunicorn_timeout.py).
    assert config.worker_class_str == "sync" and config.threads == 1
    assert config.workers == max(2, 2 * multiprocessing.cpu_count())
    assert config.timeout == 30 and config.graceful_timeout == 30 and config.keepalive == 5
    assert config.max_requests == 2000 and 0 < config.max_requests_jitter < config.max_requests
    assert config.limit_request_line == 4094 and config.limit_request_fields == 100
    assert config.limit_request_field_size == 8190
    assert config.accesslog is None


def test_the_environment_sets_each_value(monkeypatch: pytest.MonkeyPatch) -> None:
    config = load(
        monkeypatch,
        GUNICORN_BIND="0.0.0.0:9000",
        GUNICORN_WORKERS="3",
        GUNICORN_THREADS="1",
        GUNICORN_WORKER_CLASS="sync",
        GUNICORN_TIMEOUT="12",
        GUNICORN_ACCESS_LOG="-",
    )
    assert config.bind == ["0.0.0.0:9000"] and config.workers == 3 and config.threads == 1
    assert config.worker_class_str == "sync" and config.timeout == 12 and config.accesslog == "-"


def test_gthread_keeps_four_threads_a_process(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GUNICORN_WORKERS", "GUNICORN_THREADS"):
        monkeypatch.delenv(name, raising=False)
    config = load(monkeypatch, GUNICORN_WORKER_CLASS="gthread")
    assert config.worker_class_str == "gthread" and config.threads == 4
    assert config.workers == max(2, multiprocessing.cpu_count())


def test_gunicorn_checks_the_file_and_the_app() -> None:
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent))
    assert gunicorn is not None
    done = subprocess.run(
        [gunicorn, "--check-config", "-c", str(CONF), "scorekeeper.wsgi"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
