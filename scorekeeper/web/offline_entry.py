"""The in-browser engine's entry points (docs/offline-engine.md): what static/js/offline-engine-worker.js
calls in Pyodide, JSON text in and out. Pure Python: it imports only the scoring engine, the
breakdown's wording (`breakdown_text`) and the standard library, since it is shipped to the browser
in the engine's zip (`offline_engine.build`) with them; the server's tests call it as it is.

The breakdown's words come from the phrases the server resolved through gettext when it built the
zip (`offline_phrases.json`: English and French), so offline breakdowns read as the server's."""

import json
from collections.abc import Mapping
from typing import Any

from scorekeeper.engine.scoring import InvalidInput
from scorekeeper.engine.scoring.form_reading import deal_from_form
from scorekeeper.engine.scoring.matchfile import error_to_dict, load_match, score_match_output

from .breakdown_text import Phrases, breakdown_text

PHRASES_FILE = "offline_phrases.json"
DEFAULT_LANG = "en"
_phrases: dict[str, Phrases] = {}


def load_phrases(text: str) -> list[str]:
    """Reads the phrases file (`{"en": {...}, "fr": {...}}`); returns the languages it holds."""
    data: Mapping[str, Any] = json.loads(text)
    _phrases.clear()
    _phrases.update({lang: Phrases.from_dict(words) for lang, words in data.items()})
    return sorted(_phrases)


def _words(lang: str) -> Phrases:
    return _phrases.get(lang) or _phrases[DEFAULT_LANG]


def score_match(text: str, lang: str = DEFAULT_LANG) -> dict[str, Any]:
    """`score_match --lang LANG`'s output for a match file's text; `{"error": {code, path,
    params}}` for a file the rules do not allow (its words are the page's)."""
    words = _words(lang)
    try:
        return score_match_output(text, lambda lines, names: breakdown_text(lines, names, words))
    except InvalidInput as error:
        return {"error": error_to_dict(error)}


def score_match_json(text: str, lang: str = DEFAULT_LANG) -> str:
    return json.dumps(score_match(text, lang), ensure_ascii=False)


def score_many_json(texts_json: str, lang: str = DEFAULT_LANG) -> str:
    """score_match of each match file of a JSON list (one call for a batch of matches)."""
    texts: list[str] = json.loads(texts_json)
    return json.dumps([score_match(text, lang) for text in texts], ensure_ascii=False)


def deal_from_form_json(fields_json: str, match_text: str) -> str:
    """`{"deal": ...}` or `{"error": {"code", "field"}}` for the deal form's fields (a JSON object of
    strings) in the match of `match_text`: see `form_reading.deal_from_form`."""
    fields = json.loads(fields_json)
    try:
        match = load_match(match_text)
    except InvalidInput as error:
        return json.dumps({"error": {"code": error.code, "field": None, "path": error.path}})
    return json.dumps(deal_from_form(fields, match.rules), ensure_ascii=False)
