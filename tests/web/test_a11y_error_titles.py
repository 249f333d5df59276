"""Issue 12: every error page has its own title, ending with the site's name, in both languages
(the pages a browser test cannot reach easily: 400, 403, 500, 503; 403 for an expired form, 404
and 429 are also visited by tests/browser/test_axe.py)."""

import re

import pytest
from django.template.loader import render_to_string
from django.utils import translation

PAGES = ("400", "403", "403_csrf", "404", "429", "500", "503")
SITE = {"en": "Belote score", "fr": "Score belote"}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_error_pages_have_distinct_titles_ending_with_the_site_name(language: str) -> None:
    titles = {}
    with translation.override(language):
        for name in PAGES:
            html = render_to_string(f"{name}.html", {"reason": "", "minutes": 1})
            found = re.search(r"<title>(.*?)</title>", html, re.S)
            assert found, name
            titles[name] = found.group(1)
            h1 = re.search(r"<h1>(.*?)</h1>", html, re.S)
            assert h1 and titles[name] == f"{h1.group(1)} · {SITE[language]}", (name, titles)
    assert len(set(titles.values())) == len(PAGES), titles
