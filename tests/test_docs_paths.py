"""The docs name the files that exist: every source file a page of docs/ (or the README) names in
backticks is there, so a renamed or removed module cannot leave a newcomer looking for it.

A name is read as a path when it ends in a source suffix (.py, .js, .html, .css, .md, .toml,
.sh): `scorekeeper/matches/holder.py`, `matches/holder.py`, `views/deals.py`,
`static/js/offline.js`. A short one (no folder, or a folder that is not the project's top) is
looked for under the project's source folders, as a reader would."""

import re
from functools import cache
from pathlib import Path

import pytest

BASE = Path(__file__).resolve().parent.parent
DOCS = sorted([*(BASE / "docs").glob("*.md"), BASE / "README.md"])
SUFFIXES = (".py", ".js", ".html", ".css", ".md", ".toml", ".sh")  # not .json: files in archives
NAMED = re.compile(r"`([\w./-]+(?:{}))`".format("|".join(re.escape(s) for s in SUFFIXES)))
SOURCES = ("scorekeeper", "static", "templates", "tests", "scripts", "docs", "typings")
# Names the docs give that are not files of this project: files a reader makes or a package owns.
NOT_OURS = {
    "settings.py",  # Django's own word for it, and ours: scorekeeper/settings.py exists too
    "y.js",  # docs/testing.md's example of an import
}


@cache
def project_files() -> frozenset[str]:
    found = set()
    for top in SOURCES:
        for path in (BASE / top).rglob("*"):
            if path.is_file() and "node_modules" not in path.parts and ".venv" not in path.parts:
                found.add(path.relative_to(BASE).as_posix())
    for path in BASE.glob("*"):
        if path.is_file():
            found.add(path.name)
    return frozenset(found)


def exists(name: str) -> bool:
    name = name.removeprefix("./").removeprefix("../")
    files = project_files()
    if name in files:
        return True
    # A short name: a file whose path ends with it (matches/holder.py, views/deals.py).
    return any(f == name or f.endswith("/" + name) for f in files)


@pytest.mark.parametrize("page", DOCS, ids=lambda p: p.name)
def test_every_file_a_page_names_exists(page: Path) -> None:
    text = page.read_text()
    missing = sorted(
        {
            name
            for name in NAMED.findall(text)
            if name not in NOT_OURS
            and not name.startswith("/")
            and "*" not in name
            and not exists(name)
        }
    )
    assert not missing, f"{page.name} names files that do not exist: {missing}"
