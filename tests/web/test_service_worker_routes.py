"""The service worker's addresses (static/js/sw.js) against Django's routes (issue 41): the worker
copies the shapes of matches/urls.py in its own patterns (SCORE: a kept match's pages, served
from the cache without signal; ACTION: the forms it queues in the outbox without signal) and
path prefixes (the engine's files, the static files). Each route it must answer for is reversed
with sample values and must match; every other route of the site must not (the outbox's own
POST queued in the outbox, a page of another app served from a match's cache...). A route of
urls.py that changes shape fails here before it fails on a phone without signal.

sw.js is read, not imported: its patterns are found by name (`const SCORE = /.../;`) and run by
node, so they mean here exactly what they mean in the browser."""

import json
import os
import re
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.templatetags.static import static
from django.urls import URLPattern, URLResolver, converters, get_resolver, reverse

SW = Path(settings.BASE_DIR) / "static" / "js" / "sw.js"
TOKEN = "Ab3-x_Y9kLm0"  # a scorer token's shape: secrets.token_urlsafe's letters
SEQ = 7

# The routes of a kept match the worker serves from its cache without signal (the addresses
# offline.js keeps: templates/partials/offline.html).
KEPT_PAGES = (
    "matches:scoreboard",
    "matches:deal_new",
    "matches:deal_edit",
    "matches:count",
    "matches:export",
    "matches:offline_words",
)
# The forms it answers for when posted without signal (a deal saved, edited, passed, undone; the
# card counter); from the edit's address it also reads the deal's number.
ACTIONS = (
    "matches:deal_new",
    "matches:deal_edit",
    "matches:deal_passed",
    "matches:undo",
    "matches:count",
)
EDIT = "matches:deal_edit"
# The in-browser engine's files, cache-first (docs/offline-engine.md).
ENGINE_ROUTES = ("offline_engine", "offline_engine_zip", "offline_engine_worker")

SAMPLES: dict[type, object] = {
    converters.IntConverter: SEQ,
    converters.SlugConverter: TOKEN,
    converters.StringConverter: "x",
    converters.PathConverter: "x/y",
    converters.UUIDConverter: uuid.UUID(int=7),
}

# Each pattern run on each path, as the browser runs it: {name: [groups or null, ...]}.
NODE_MATCH = """
const {patterns, paths} = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = {};
for (const [name, [source, flags]] of Object.entries(patterns)) {
  const regex = new RegExp(source, flags);
  out[name] = paths.map((path) => { const m = path.match(regex); return m ? Array.from(m) : null; });
}
process.stdout.write(JSON.stringify(out));
"""


def sw_pattern(name: str) -> tuple[str, str]:
    """The source and flags of sw.js's `const NAME = /.../flags;`."""
    literal = r"/((?:\\.|\[(?:\\.|[^\]\\])*\]|[^/\\\[\n])+)/([a-z]*)"
    found = re.search(rf"\bconst\s+{name}\s*=\s*{literal}\s*;", SW.read_text())
    assert found, (
        f"static/js/sw.js has no `const {name} = /.../;`: this test reads the worker's address "
        "patterns by name (rename them here too)"
    )
    return found.group(1), found.group(2)


def sw_prefixes() -> set[str]:
    """The path prefixes sw.js tests with `url.pathname.startsWith("...")`."""
    return set(re.findall(r"""pathname\.startsWith\(\s*["']([^"']+)["']\s*\)""", SW.read_text()))


def run_patterns(names: tuple[str, ...], paths: list[str]) -> dict[str, list[list[str] | None]]:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is needed to run the service worker's patterns (.ci/run installs it)")
        pytest.skip("no node on PATH: the service worker's patterns are not checked")
    stdin = json.dumps({"patterns": {name: sw_pattern(name) for name in names}, "paths": paths})
    done = subprocess.run(
        [node, "-e", NODE_MATCH], input=stdin, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, list[list[str] | None]] = json.loads(done.stdout)
    return result


def named_routes(
    patterns: list[URLPattern | URLResolver] | None = None, namespace: str = ""
) -> Iterator[tuple[str, dict[str, object]]]:
    """Every named route of the site but the admin's, with a sample value for each of its parts."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":
                continue
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from named_routes(entry.url_patterns, inner)
        elif entry.name:
            parts = getattr(entry.pattern, "converters", {})
            yield f"{namespace}{entry.name}", {k: SAMPLES[type(c)] for k, c in parts.items()}


def sample_paths() -> dict[str, str]:
    paths = {name: reverse(name, kwargs=kwargs) for name, kwargs in named_routes()}
    assert set(KEPT_PAGES) | set(ACTIONS) <= set(paths), "a route the worker needs is gone"
    return paths


def test_every_kept_page_of_a_match_and_nothing_else_is_served_from_the_cache() -> None:
    paths = sample_paths()
    names = list(paths)
    found = dict(zip(names, run_patterns(("SCORE",), list(paths.values()))["SCORE"], strict=True))
    for name in KEPT_PAGES:
        groups = found[name]
        assert groups is not None, f"SCORE does not match {name} ({paths[name]})"
        assert groups[1] == TOKEN, f"SCORE reads {groups[1]!r} as the token of {paths[name]}"
    # Outside a match's scorer link (/score/<token>/...), no page is the worker's to keep.
    others = {
        name: paths[name]
        for name, groups in found.items()
        if groups is not None and not paths[name].startswith(f"/score/{TOKEN}/")
    }
    assert others == {}


def test_the_forms_queued_without_signal_are_those_and_only_those() -> None:
    paths = sample_paths()
    names = list(paths)
    found = dict(zip(names, run_patterns(("ACTION",), list(paths.values()))["ACTION"], strict=True))
    for name in ACTIONS:
        groups = found[name]
        assert groups is not None, f"ACTION does not match {name} ({paths[name]})"
        assert groups[1] == TOKEN, f"ACTION reads {groups[1]!r} as the token of {paths[name]}"
        if name == EDIT:
            assert str(SEQ) in groups[2:], (
                f"ACTION does not read the deal's number of {paths[name]}"
            )
    # The outbox's own POST above all: queued in the outbox, it would never be sent.
    others = {name: paths[name] for name, groups in found.items() if groups and name not in ACTIONS}
    assert others == {}


def test_the_worker_s_path_prefixes_are_the_engine_s_and_the_static_files() -> None:
    prefixes = sw_prefixes()
    paths = sample_paths()
    engine = {name: paths[name] for name in ENGINE_ROUTES}
    engine_prefixes = {p for p in prefixes if not p.startswith(settings.STATIC_URL)}
    # The engine's files are served cache-first: each route of the engine under a prefix, and
    # no route that is not the engine's.
    for name, path in engine.items():
        assert any(path.startswith(p) for p in engine_prefixes), f"{name} ({path}) not matched"
    strays = {
        name: path
        for name, path in paths.items()
        if name not in engine and any(path.startswith(p) for p in engine_prefixes)
    }
    assert strays == {}
    # The other prefixes are the static files' (the app's, and the Pyodide runtime's under them).
    assert settings.STATIC_URL in prefixes
    assert {p for p in prefixes if p not in engine_prefixes} <= {
        settings.STATIC_URL,
        settings.STATIC_URL + "offline/",
    }
    assert static("offline/pyodide/pyodide.mjs").startswith(settings.STATIC_URL + "offline/")
