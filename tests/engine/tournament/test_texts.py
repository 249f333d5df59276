"""Every code the tournament engine raises has words, and every word has its French (the words
of both engines are in scorekeeper/web/words.py; tests/web/test_words.py checks them all)."""

import re
from pathlib import Path

from django.utils.translation import override

from scorekeeper.web.words import ERRORS

ROOT = Path(__file__).resolve().parents[3]
RAISED = re.compile(r'TournamentError\(\s*[^,()]+(?:\([^)]*\))?[^,()]*,\s*"(\w+)"')


def test_every_code_raised_has_words() -> None:
    sources = [*(ROOT / "scorekeeper/concours").rglob("*.py"),
               *(ROOT / "scorekeeper/engine/tournament").rglob("*.py")]  # fmt: skip
    codes = {code for path in sources for code in RAISED.findall(path.read_text(encoding="utf-8"))}
    assert len(codes) > 30
    assert codes <= set(ERRORS), codes - set(ERRORS)


def test_every_word_has_its_french() -> None:
    """Each error's words are in the French catalogue (a sentence left in English is missing)."""
    with override("en"):
        english = {code: str(template) for code, (template, _) in ERRORS.items()}
    with override("fr"):
        french = {code: str(template) for code, (template, _) in ERRORS.items()}
    assert [english[code] for code in ERRORS if french[code] == english[code]] == []
