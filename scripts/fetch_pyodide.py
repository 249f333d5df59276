"""Fetch the pinned Pyodide runtime (the in-browser Python that runs the scoring engine offline,
docs/offline-engine.md) from the npm registry into static/offline/pyodide/ (git-ignored).

Run by `make venv` (so by `make run`, `make test` and CI). The tarball is checked against the
sha512 integrity the registry publishes for this version (pinned below); only the files the
browser loads are unpacked. Any failure (no network, a wrong hash) prints a warning and exits 0:
the app runs without the runtime (offline totals then wait for the network).

    python scripts/fetch_pyodide.py [--force]
"""

import base64
import hashlib
import io
import os
import shutil
import sys
import tarfile
import tempfile
import urllib.request
from pathlib import Path

VERSION = "314.0.7"
URL = f"https://registry.npmjs.org/pyodide/-/pyodide-{VERSION}.tgz"
# `dist.integrity` of https://registry.npmjs.org/pyodide/314.0.7
INTEGRITY = "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A=="
# What loadPyodide() fetches, plus the source maps the two loaders name (collectstatic's manifest
# storage follows `sourceMappingURL` and stops on a missing file).
FILES = (
    "pyodide.js",
    "pyodide.js.map",
    "pyodide.mjs",
    "pyodide.mjs.map",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "package.json",
)
ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "static" / "offline" / "pyodide"
STAMP = ".version"  # written last: the runtime is complete when it names VERSION
TIMEOUT = 60
MAX_BYTES = 50 * 1024 * 1024


def installed(target: Path = TARGET) -> bool:
    stamp = target / STAMP
    return stamp.is_file() and stamp.read_text().strip() == VERSION


def check_integrity(data: bytes, integrity: str = INTEGRITY) -> None:
    algorithm, _, expected = integrity.partition("-")
    if algorithm != "sha512":
        raise ValueError(f"unsupported integrity algorithm {algorithm!r}")
    actual = base64.b64encode(hashlib.sha512(data).digest()).decode()
    if actual != expected:
        raise ValueError(f"integrity mismatch: expected sha512-{expected}, got sha512-{actual}")


def download(url: str = URL) -> bytes:
    with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
        data: bytes = response.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ValueError("the tarball is larger than expected")
    return data


def unpack(data: bytes, target: Path = TARGET) -> None:
    """Unpack FILES from the tarball into a fresh directory, then swap it in whole."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".pyodide-", dir=target.parent))
    staging.chmod(0o755)
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
            for name in FILES:
                member = archive.getmember(f"package/{name}")
                source = archive.extractfile(member)
                if source is None:
                    raise ValueError(f"{name} is not a file in the tarball")
                (staging / name).write_bytes(source.read())
        (staging / STAMP).write_text(VERSION + "\n")
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        if staging.exists():
            shutil.rmtree(staging)


def main(argv: list[str]) -> int:
    if os.environ.get("SKIP_PYODIDE"):
        print("fetch_pyodide: SKIP_PYODIDE is set, the in-browser engine's runtime is not fetched")
        return 0
    if installed(TARGET) and "--force" not in argv:
        return 0
    try:
        print(f"fetch_pyodide: fetching Pyodide {VERSION} from the npm registry...")
        data = download()
        check_integrity(data, INTEGRITY)
        unpack(data, TARGET)
    except Exception as error:
        print(
            f"warning: the Pyodide runtime was not fetched ({error}); the app runs without it "
            "(offline totals wait for the network). Retry: python scripts/fetch_pyodide.py",
            file=sys.stderr,
        )
        return 0
    print(f"fetch_pyodide: Pyodide {VERSION} unpacked into {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
