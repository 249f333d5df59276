"""The in-browser engine's server side (docs/offline-engine.md): the manifest, the engine's zip
(built from the server's source, pure, named by its hash), and its entry points run here on the
server's Python, against `score_match` (the browser tests run the same in Pyodide)."""

import ast
import io
import json
import sys
import zipfile
from typing import Any

import pytest
from django.test import Client, override_settings

from scorekeeper.web import offline_engine, offline_entry
from tests.offline_matches import command_output, preset_matches, random_matches, server_output

pytestmark = pytest.mark.filterwarnings("ignore:No directory at")


def pack_files() -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(offline_engine.engine_pack().data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_the_zip_holds_the_servers_own_source() -> None:
    files = pack_files()
    for name, text in offline_engine.shipped_sources().items():
        assert files[name] == text.encode("utf-8")
    assert "scorekeeper/engine/scoring/deal_scoring.py" in files
    assert "scorekeeper/engine/scoring/form_reading.py" in files
    assert files["scorekeeper/__init__.py"] == b""  # no Django on import
    assert set(json.loads(files[offline_entry.PHRASES_FILE])) == {"en", "fr"}
    assert max(len(data) for data in files.values()) < 100_000
    assert len(offline_engine.engine_pack().data) < 200_000


def test_the_shipped_modules_import_only_each_other_and_the_standard_library() -> None:
    shipped = {
        name.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        for name in pack_files()
        if name.endswith(".py")
    }
    for name, text in offline_engine.shipped_sources().items():
        module = name.removesuffix(".py").replace("/", ".")
        package = module if name.endswith("__init__.py") else module.rsplit(".", 1)[0]
        package = package.removesuffix(".__init__")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                    targets = [f"{base}.{node.module}" if node.module else base]
                else:
                    targets = [node.module or ""]
            else:
                continue
            for target in targets:
                top = target.split(".")[0]
                assert target in shipped or top in sys.stdlib_module_names, (name, target)


def test_the_zip_is_the_same_on_every_build() -> None:
    first = offline_engine.engine_pack()
    offline_engine.engine_pack.cache_clear()
    try:
        assert offline_engine.engine_pack() == first
    finally:
        offline_engine.engine_pack.cache_clear()


def test_the_manifest_names_the_zip_and_the_runtime(client: Client) -> None:
    response = client.get("/offline/engine/")
    assert response.status_code == 200
    assert "no-cache" in response["Cache-Control"]
    data = response.json()
    pack = offline_engine.engine_pack()
    assert data["engine"] == {
        "url": f"/offline/engine/{pack.digest}.zip",
        "hash": pack.digest,
        "bytes": len(pack.data),
    }
    worker = offline_engine.worker_script()
    assert data["worker"] == f"/offline/engine/worker-{worker.digest}.js"
    if data["available"]:
        assert data["runtime"]["url"] == "/static/offline/pyodide/"
        assert "pyodide.asm.wasm" in data["runtime"]["files"]
    zipped = client.get(data["engine"]["url"])
    assert zipped.status_code == 200
    assert zipped.content == pack.data
    assert zipped["Content-Type"] == "application/zip"
    assert "immutable" in zipped["Cache-Control"]


def test_the_worker_alone_may_compile_webassembly(client: Client) -> None:
    url = client.get("/offline/engine/").json()["worker"]
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response.content == (offline_engine.WORKER_SOURCE).read_bytes()
    assert "immutable" in response["Cache-Control"]
    policy = response["Content-Security-Policy"]
    assert "script-src 'self' 'wasm-unsafe-eval'" in policy
    assert "unsafe-eval'" not in policy.replace("'wasm-unsafe-eval'", "")
    assert "unsafe-inline" not in policy
    page = client.get("/")
    assert "wasm-unsafe-eval" not in page["Content-Security-Policy"]


def test_an_old_zip_name_is_not_found(client: Client) -> None:
    assert client.get("/offline/engine/0123456789abcdef.zip").status_code == 404
    assert client.get("/offline/engine/worker-0123456789abcdef.js").status_code == 404
    assert client.post("/offline/engine/").status_code == 405


@override_settings(OFFLINE_RUNTIME_PATH="offline/absent/")
def test_without_the_runtime_the_manifest_says_unavailable(client: Client) -> None:
    data = client.get("/offline/engine/").json()
    assert data["available"] is False
    assert data["runtime"] is None
    assert client.get(data["engine"]["url"]).status_code == 200  # the zip alone does no harm


@pytest.fixture(scope="module")
def entry() -> Any:
    offline_entry.load_phrases(pack_files()[offline_entry.PHRASES_FILE].decode("utf-8"))
    return offline_entry


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_entry_prints_what_score_match_prints(entry: Any, lang: str) -> None:
    for text in preset_matches():
        assert json.loads(entry.score_match_json(text, lang)) == command_output(text, lang)


def test_the_entry_on_random_matches(entry: Any) -> None:
    texts = random_matches(100)
    batch = json.loads(entry.score_many_json(json.dumps(texts), "fr"))
    assert batch == [server_output(text, "fr") for text in texts]


def test_a_bad_file_gives_the_error_as_data(entry: Any) -> None:
    out = json.loads(entry.score_match_json('{"format": "belote-match/1"}', "en"))
    assert out == {"error": {"code": "required", "path": "rules", "params": {}}}
    assert json.loads(entry.score_match_json("not json", "en"))["error"]["code"] == "json_invalid"
