"""The French catalogue holds every message the code and templates mark, and only those: a message
missing from it shows in English on a French page (test_headers_and_language.py checks only the
entries the catalogue has). The project's `makemessages` (it knows the `gettext_now` alias of
web/words.py) is run over a copy of the sources, and its messages are compared with the
catalogue's."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from scorekeeper.web.words import deal_parts

REPO = Path(settings.BASE_DIR)
CATALOGUE = Path("scorekeeper") / "locale" / "fr" / "LC_MESSAGES" / "django.po"
SOURCES = ("manage.py", "scorekeeper", "templates", "tests", "scripts")


def messages(po: Path) -> set[tuple[str | None, str]]:
    """(context, message) of each live entry (obsolete ones, "#~", left out)."""

    def text(quoted: str) -> str:
        return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', quoted))

    found = set()
    for entry in po.read_text(encoding="utf-8").split("\n\n")[1:]:
        if entry.lstrip().startswith("#~"):
            continue
        context = re.search(r'^msgctxt ((?:".*"\n?)+)', entry, re.M)
        message = re.search(r'^msgid ((?:".*"\n?)+)', entry, re.M)
        if message:
            found.add((text(context.group(1)) if context else None, text(message.group(1))))
    return found


@pytest.mark.skipif(not shutil.which("xgettext"), reason="no xgettext: apt-get install gettext")
def test_the_catalogue_holds_every_marked_message_and_no_other(tmp_path: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo", "pyodide", ".*")
    for name in SOURCES:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=ignore)
        elif source.exists():
            shutil.copy(source, tmp_path / name)
    env = {**os.environ, "DEBUG": "1"}
    env.pop("DATABASE_URL", None)  # makemessages needs no database
    done = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "fr", "--no-obsolete"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    fresh, kept = messages(tmp_path / CATALOGUE), messages(REPO / CATALOGUE)
    assert sorted(fresh - kept, key=str) == [], "marked in the code, missing from the catalogue"
    assert sorted(kept - fresh, key=str) == [], "in the catalogue, marked nowhere"


def test_a_deal_s_parts_in_french() -> None:
    """The deal log's words (`gettext_now` in web/words.py) are French on a French page."""
    names = ("Nous", "Eux")
    played = {"contract": 110, "trump": "hearts", "coinche": "coinche", "taker": 0,
              "taker_points": 95, "belote": [1, 0]}  # fmt: skip
    capot = {"contract": "capot", "trump": "spades", "taker": 1, "capot": 1, "generale": True}
    with translation.override("fr"):
        assert deal_parts(played, names)[:4] == [
            "110 ♥ coinché", "pris par Nous", "95 points de cartes", "belote Nous ×1"]  # fmt: skip
        assert deal_parts(capot, names)[:4] == ["Capot ♠", "pris par Eux", "capot Eux", "générale"]
        assert deal_parts({"manual_scores": [20, 0]}, names) == [
            "Saisie manuelle\u00a0: Nous 20, Eux 0"
        ]
