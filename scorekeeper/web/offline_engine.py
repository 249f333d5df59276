"""The in-browser engine's pack (docs/offline-engine.md): the Pyodide runtime fetched at set-up
(scripts/fetch_pyodide.py, into static/offline/pyodide/) and the engine's zip built here from the
server's own source, so the browser always runs the code the server runs.

The zip holds the pure scoring package (`scorekeeper/engine/scoring`), the breakdown's wording
(`web/breakdown_text.py`), the entry points (`web/offline_entry.py`) and the breakdown's phrases in
English and French resolved through gettext (`offline_phrases.json`). It is built once per
process (the source and the translations do not change under a running server), with fixed
timestamps, so its content hash names it: `/offline/engine/<hash>.zip` is cached for good."""

import functools
import hashlib
import io
import json
import zipfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.utils.csp import CSP

from . import offline_entry
from .words import LANGS, phrases_data

PACKAGE_ROOT = Path(__file__).resolve().parent.parent  # scorekeeper/
# The shipped modules, by their path under scorekeeper/ (a test checks they import nothing else).
SHIPPED_DIRS = ("engine/scoring",)
SHIPPED_FILES = ("engine/__init__.py", "web/breakdown_text.py", "web/offline_entry.py")
EMPTY_INITS = ("__init__.py", "web/__init__.py")  # the parents, empty: no Django on import
# What the browser loads of the runtime (loadPyodide's files); the pack is these and the zip.
RUNTIME_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
# The worker's own Content-Security-Policy: the pages' (settings.SECURE_CSP) and the one thing
# Pyodide needs, compiling WebAssembly; the pages themselves keep script-src 'self'.
WORKER_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.WASM_UNSAFE_EVAL],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
}


@dataclass(frozen=True, slots=True)
class EnginePack:
    data: bytes
    digest: str  # 16 hex digits of the zip's sha256

    @property
    def name(self) -> str:
        return f"{self.digest}.zip"


def shipped_sources() -> dict[str, str]:
    """The shipped modules' text by their path in the zip (`scorekeeper/engine/...`)."""
    paths = [PACKAGE_ROOT / name for name in SHIPPED_FILES]
    for folder in SHIPPED_DIRS:
        paths += sorted((PACKAGE_ROOT / folder).glob("*.py"))
    out = {f"scorekeeper/{name}": "" for name in EMPTY_INITS}
    for path in paths:
        out["scorekeeper/" + path.relative_to(PACKAGE_ROOT).as_posix()] = path.read_text("utf-8")
    return out


def _add(archive: zipfile.ZipFile, name: str, data: bytes) -> None:
    info = zipfile.ZipInfo(name, ZIP_DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    archive.writestr(info, data)


@functools.cache
def engine_pack() -> EnginePack:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in sorted(shipped_sources().items()):
            _add(archive, name, text.encode("utf-8"))
        phrases = {lang: phrases_data(lang) for lang in LANGS}
        text = json.dumps(phrases, ensure_ascii=False, sort_keys=True)
        _add(archive, offline_entry.PHRASES_FILE, text.encode("utf-8"))
    data = buffer.getvalue()
    return EnginePack(data, hashlib.sha256(data).hexdigest()[:16])


def _runtime_path(name: str) -> str:
    return f"{settings.OFFLINE_RUNTIME_PATH}{name}"


def _collected() -> bool:
    """Static files are served collected (production: the manifest storage, WhiteNoise reading
    STATIC_ROOT), not from the static folders (runserver, the tests' live server)."""
    return isinstance(staticfiles_storage, ManifestFilesMixin)


def _found(name: str) -> bool:
    """A runtime file is served: collected in production, else in a static folder."""
    path = _runtime_path(name)
    if _collected():
        try:
            return bool(staticfiles_storage.exists(path))
        except OSError:
            return False
    return finders.find(path) is not None


def runtime_version() -> str | None:
    """The Pyodide version served, or None when the runtime is absent (not fetched)."""
    if not all(_found(name) for name in (*RUNTIME_FILES, "package.json")):
        return None
    path = _runtime_path("package.json")
    try:
        if _collected():
            with staticfiles_storage.open(path) as handle:
                text = handle.read().decode("utf-8")
        else:
            text = Path(str(finders.find(path))).read_text("utf-8")
        version = json.loads(text).get("version")
    except (OSError, ValueError):
        return None
    return version if isinstance(version, str) else None


def runtime_url() -> str:
    """The runtime's folder URL: its files under their own names (Pyodide asks for them so), which
    the manifest storage keeps beside the hashed copies."""
    return f"{settings.STATIC_URL}{settings.OFFLINE_RUNTIME_PATH}"  # STATIC_URL: "/static/"


WORKER_SOURCE = PACKAGE_ROOT.parent / "static" / "js" / "offline-engine-worker.js"


@functools.cache
def worker_script() -> EnginePack:
    """The worker's script (static/js/offline-engine-worker.js) and its hash: served beside the
    zip, under /offline/engine/, with the one policy it needs (`WORKER_CSP`)."""
    data = WORKER_SOURCE.read_bytes()
    return EnginePack(data, hashlib.sha256(data).hexdigest()[:16])
