"""Match files for the in-browser engine's tests (tests/web/test_offline_engine.py,
tests/browser/test_offline_engine.py): the presets' full matches, the example of
docs/file-formats.md, and random matches from the engine's property strategies; and what the
server's `score_match` prints for each."""

import io
import json
import sys
from typing import Any

from django.core.management import call_command
from django.utils import translation
from hypothesis import HealthCheck, given, settings

from scorekeeper.engine.scoring import PRESETS, MatchFile, Team, dump_match
from scorekeeper.engine.scoring.matchfile import score_match_output
from scorekeeper.web import words
from tests.engine.scoring.test_preset_matches import (
    BELOTE,
    BELOTE_501,
    COINCHE,
    COINCHE_X3,
    FUNBELOTE,
)
from tests.engine.scoring.test_properties import rules_and_deals, scored_prefix
from tests.matches.test_score_match_command import EXAMPLE_TEXT

TEAMS = (Team("Nous", ("Alice", "Bruno")), Team("Eux", ("Chloé", "David")))


def preset_matches() -> list[str]:
    """The example file and the presets' full matches, as match-file texts."""
    texts = [EXAMPLE_TEXT]
    for match in (COINCHE, FUNBELOTE, COINCHE_X3, BELOTE, BELOTE_501):
        deals = tuple(step.deal for step in match.steps)
        file = MatchFile(PRESETS[match.preset], TEAMS, match.first_dealer, deals)
        texts.append(json.dumps(dump_match(file), ensure_ascii=False))
    return texts


def random_matches(count: int) -> list[str]:
    """`count` match files drawn by the property strategies (derandomized: the same every run),
    cut at each match's end."""
    texts: list[str] = []

    @settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(rules_and_deals())
    def collect(case: Any) -> None:
        rules, deals, first_dealer = case
        deals = scored_prefix(rules, deals, first_dealer)
        file = MatchFile(rules, first_dealer=first_dealer, deals=tuple(deals))
        texts.append(json.dumps(dump_match(file), ensure_ascii=False))

    collect()
    return texts[:count]


def command_output(text: str, lang: str) -> Any:
    """What `python manage.py score_match - --lang LANG` prints for `text`, read back."""
    out = io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8")
    saved, sys.stdin = sys.stdin, stdin
    try:
        call_command("score_match", "-", lang=lang, stdout=out)
    finally:
        sys.stdin = saved
    return json.loads(out.getvalue())


def server_output(text: str, lang: str) -> Any:
    """The command's own computation (`score_match_output` with the server's words), for many
    matches at once without a command per match."""
    with translation.override(lang):
        return score_match_output(text, words.breakdown)
