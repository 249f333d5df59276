"""Template hygiene that no page test would notice until a user saw it."""

import re
from pathlib import Path

import pytest

TEMPLATES = sorted((Path(__file__).resolve().parents[2] / "templates").rglob("*.html"))


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.name))
def test_comments_are_on_one_line(path: Path) -> None:
    """Django's {# #} comment ends at the line: a longer one is printed on the page as text."""
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        for start in (m.start() for m in re.finditer(r"\{#", line)):
            assert "#}" in line[start:], f"{path.name}:{number}: use {{% comment %}} instead"


def test_there_are_templates() -> None:
    assert len(TEMPLATES) > 20
