"""Every code the tournament engine raises has words, and every word has its French."""

import ast
import re
from pathlib import Path

from django.utils.translation import override

from scorekeeper.tournaments.texts import ERRORS
from tests.pending_french import read_pending

ROOT = Path(__file__).resolve().parents[2]
RAISED = re.compile(r'TournamentError\(\s*[^,()]+(?:\([^)]*\))?[^,()]*,\s*"(\w+)"')


def test_every_code_raised_has_words() -> None:
    sources = [*(ROOT / "scorekeeper/concours").glob("*.py"),
               *(ROOT / "scorekeeper/tournaments").rglob("*.py")]  # fmt: skip
    codes = {code for path in sources for code in RAISED.findall(path.read_text(encoding="utf-8"))}
    assert len(codes) > 30
    assert codes - {"scoring"} <= set(ERRORS), codes - set(ERRORS)


def test_every_word_has_its_french() -> None:
    # django.po, and the other parts' entries waiting to be merged into it.
    locale = ROOT / "scorekeeper/locale/fr/LC_MESSAGES"
    others = [
        locale / "django.po",
        *(p for p in locale.glob("pending-*.po") if "tournament" not in p.name),
    ]
    merged = {
        ast.literal_eval(m)
        for po in others
        for m in re.findall(r'^msgid (".*")$', po.read_text(encoding="utf-8"), re.MULTILINE)
    }
    pending = {key if isinstance(key, str) else key[0] for key in read_pending("tournament")}
    with override("en"):
        missing = [str(template) for template, _ in ERRORS.values()]
    assert [text for text in missing if text not in merged | pending] == []
    # Nothing pending here is already there (merging must not make duplicates).
    assert not pending & merged
