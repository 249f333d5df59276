"""scripts/fetch_pyodide.py: the pinned runtime checked against its registry integrity, unpacked
whole or not at all, and any failure a warning that lets set-up go on."""

import base64
import hashlib
import importlib.util
import io
import tarfile
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "fetch_pyodide.py"


@pytest.fixture
def fetch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    spec = importlib.util.spec_from_file_location("fetch_pyodide", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "TARGET", tmp_path / "offline" / "pyodide")
    monkeypatch.delenv("SKIP_PYODIDE", raising=False)
    return module


def tarball(names: tuple[str, ...]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name in names:
            data = f"contents of {name}".encode()
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def test_the_pin_is_a_sha512_integrity(fetch: ModuleType) -> None:
    assert fetch.INTEGRITY.startswith("sha512-")
    assert len(base64.b64decode(fetch.INTEGRITY.removeprefix("sha512-"))) == 64
    assert fetch.URL.endswith(f"/pyodide-{fetch.VERSION}.tgz")


def test_a_good_tarball_is_unpacked_with_its_stamp(
    fetch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tarball(fetch.FILES)
    monkeypatch.setattr(fetch, "INTEGRITY", integrity(data))
    monkeypatch.setattr(fetch, "download", lambda: data)
    assert fetch.main([]) == 0
    target: Path = fetch.TARGET
    assert sorted(p.name for p in target.iterdir()) == sorted([*fetch.FILES, fetch.STAMP])
    assert fetch.installed(target)
    # Installed: nothing is fetched again.
    monkeypatch.setattr(fetch, "download", lambda: pytest.fail("fetched twice"))
    assert fetch.main([]) == 0


def test_a_tarball_that_does_not_match_the_pin_is_refused(
    fetch: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(fetch, "download", lambda: tarball(fetch.FILES))
    assert fetch.main([]) == 0  # a warning: set-up goes on
    assert "integrity mismatch" in capsys.readouterr().err
    assert not Path(fetch.TARGET).exists()


def test_no_network_is_a_warning(
    fetch: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def offline() -> bytes:
        raise OSError("Network is unreachable")

    monkeypatch.setattr(fetch, "download", offline)
    assert fetch.main([]) == 0
    err = capsys.readouterr().err
    assert "warning: the Pyodide runtime was not fetched (Network is unreachable)" in err
    assert "the app runs without it" in err


def test_a_tarball_missing_a_file_leaves_nothing_half_done(
    fetch: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tarball(fetch.FILES[:-1])
    monkeypatch.setattr(fetch, "download", lambda: data)
    monkeypatch.setattr(fetch, "INTEGRITY", integrity(data))
    assert fetch.main([]) == 0
    assert not Path(fetch.TARGET).exists()
    assert list(Path(fetch.TARGET).parent.iterdir()) == []  # no staging folder left
    assert fetch.installed(fetch.TARGET) is False


def test_skip_pyodide_fetches_nothing(fetch: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKIP_PYODIDE", "1")
    monkeypatch.setattr(fetch, "download", lambda: pytest.fail("fetched"))
    assert fetch.main([]) == 0


def test_make_venv_runs_it_and_goes_on_if_it_fails() -> None:
    makefile = (SCRIPT.parents[1] / "Makefile").read_text()
    assert "\t@$(PY) scripts/fetch_pyodide.py || true\n" in makefile
    gitignore = (SCRIPT.parents[1] / ".gitignore").read_text().splitlines()
    assert "/static/offline/pyodide/" in gitignore
