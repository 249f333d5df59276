"""The in-browser engine (docs/offline-engine.md) in Chromium: Pyodide running the server's own
scoring package in a worker gives exactly what the server's `score_match` prints, on the presets'
full matches and on a few hundred random matches (one page call); the deal form read offline as
the server's DealForm reads it; and without the runtime, `available()` is false and the app is
fine. Skipped, with the reason, when the runtime was not fetched (scripts/fetch_pyodide.py)."""

import json
from typing import Any

import pytest
from django.test import override_settings
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.engine.scoring import load_match
from scorekeeper.web import offline_engine
from tests.matches.test_form_reading import COINCHE, server_reading
from tests.offline_matches import command_output, preset_matches, random_matches, server_output

from .conftest import NewPhone, page_errors

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

needs_runtime = pytest.mark.skipif(
    offline_engine.runtime_version() is None,
    reason="the Pyodide runtime is not installed (python scripts/fetch_pyodide.py)",
)
PREPARE_TIMEOUT = 60_000
# The engine's caches (the service worker keeps the site's own pages in caches of its own).
ENGINE_CACHES = "caches.keys().then((k) => k.filter((n) => n.startsWith('offline-engine-')))"
RANDOM_MATCHES = 300


def load_engine(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/")
    page.add_script_tag(url="/static/js/offline-engine.js")
    page.wait_for_function("() => window.OfflineEngine !== undefined")


def prepare(page: Page) -> None:
    """store() caches the pack without starting the engine; prepare() starts it."""
    assert page.evaluate("OfflineEngine.available()") is True
    assert page.evaluate("OfflineEngine.ready()") is False
    page.evaluate("OfflineEngine.store()")
    assert len(page.evaluate(ENGINE_CACHES)) == 1
    assert page.evaluate("OfflineEngine.ready()") is False
    page.evaluate("OfflineEngine.prepare()")
    assert page.evaluate("OfflineEngine.ready()") is True


def score_all(page: Page, texts: list[str], lang: str) -> list[Any]:
    """Every match scored in the page, in one call."""
    result: list[Any] = page.evaluate(
        "([texts, lang]) => Promise.all(texts.map((t) => OfflineEngine.scoreMatch(t, lang)))",
        [texts, lang],
    )
    return result


@needs_runtime
def test_the_page_scores_the_same_deals_as_the_server(
    new_phone: NewPhone, live_server: LiveServer
) -> None:
    page = new_phone()
    page.set_default_timeout(PREPARE_TIMEOUT)
    response = page.goto(f"{live_server.url}/")
    assert response is not None
    # The pages' policy is unchanged: the WebAssembly is compiled in the worker, under its own.
    assert "wasm-unsafe-eval" not in response.headers["content-security-policy"]
    load_engine(page, live_server.url)
    prepare(page)
    assert page.evaluate(ENGINE_CACHES) == [
        f"offline-engine-{offline_engine.runtime_version()}-{offline_engine.engine_pack().digest}"
    ]
    texts = preset_matches()
    for lang in ("en", "fr"):
        assert score_all(page, texts, lang) == [command_output(text, lang) for text in texts]
    # The page's own language by default (English here), a match file as an object too.
    first = json.loads(texts[0])
    assert page.evaluate("(m) => OfflineEngine.scoreMatch(m)", first) == command_output(
        texts[0], "en"
    )
    bad = page.evaluate("OfflineEngine.scoreMatch({format: 'belote-match/1'})")
    assert bad == {"error": {"code": "required", "path": "rules", "params": {}}}

    # The deal form's fields, read as the server's DealForm reads them.
    match = texts[0]
    rules = load_match(match).rules
    assert rules.preset == "coinche"
    for post in (
        {**COINCHE, "taker_points": "110"},
        {**COINCHE, "defence_points": "52", "belote1": "1"},
        {**COINCHE, "taker_points": "110", "defence_points": "50"},
        {**COINCHE, "contract": "capot"},
        {**COINCHE, "taker_points": "163"},
        {**COINCHE, "taker_points": "100", "ann0_0_kind": "tierce", "ann1_0_kind": "tierce"},
        {key: value for key, value in COINCHE.items() if key != "taker"},
    ):
        ours = page.evaluate("([f, m]) => OfflineEngine.dealFromForm(f, m)", [post, match])
        server = server_reading(post, rules)
        if "deal" in server:
            assert ours == server
        else:
            assert ours["error"]["field"] == server["error"]["field"]
    # Once ready, the network may go: the engine is in the page's worker.
    page.context.set_offline(True)
    assert score_all(page, texts[:1], "fr") == [command_output(texts[0], "fr")]
    page.context.set_offline(False)
    assert page_errors(page) == []


@needs_runtime
def test_random_matches_score_as_on_the_server(
    new_phone: NewPhone, live_server: LiveServer
) -> None:
    page = new_phone(locale="fr-FR")
    page.set_default_timeout(PREPARE_TIMEOUT)
    load_engine(page, live_server.url)
    prepare(page)
    texts = random_matches(RANDOM_MATCHES)
    assert len(texts) == RANDOM_MATCHES
    half = RANDOM_MATCHES // 2
    english = score_all(page, texts[:half], "en")
    french = score_all(page, texts[half:], "fr")
    assert english == [server_output(text, "en") for text in texts[:half]]
    assert french == [server_output(text, "fr") for text in texts[half:]]
    assert sum(len(out["deals"]) for out in english + french) > 2 * RANDOM_MATCHES
    assert page_errors(page) == []


@override_settings(OFFLINE_RUNTIME_PATH="offline/absent/")
def test_without_the_runtime_the_engine_is_unavailable_and_the_app_works(
    new_phone: NewPhone, live_server: LiveServer
) -> None:
    page = new_phone()
    load_engine(page, live_server.url)
    assert page.evaluate("OfflineEngine.available()") is False
    error = page.evaluate("OfflineEngine.prepare().then(() => 'ready', (e) => e.message)")
    assert error == "the offline engine is not installed"
    assert page.evaluate("OfflineEngine.ready()") is False
    refused = page.evaluate("OfflineEngine.scoreMatch({}).then(() => 'scored', (e) => e.message)")
    assert refused == "the offline engine is not ready"
    assert page.evaluate(ENGINE_CACHES) == []  # nothing downloaded
    page.get_by_role("link", name="New match").click()
    expect(page.get_by_role("heading", name="New match")).to_be_visible()
    assert page_errors(page) == []
