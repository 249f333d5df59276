"""Issue 27: the concours and club pages under the match pages' accessibility promise.

- 200 % text at 360 px (as test_large_text.py: the browser's own font-size setting), English and
  French, every role (organiser, co-organiser, table phone, public) and state (registration,
  round under way, finished), the prints' HTML: nothing scrolls sideways, no control under
  44 px, and no text escapes its table cell, runs over its neighbour or breaks a word apart
  (conftest's text_problems).

One seeded world (concours_world.build) per test; every page of a role in one browser page."""

import re
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page
from pytest_django.live_server_helper import LiveServer

from . import concours_world
from .concours_world import PASSWORD, World
from .conftest import SCREENSHOTS, layout_problems, page_errors, save_screenshot, text_problems
from .test_large_text import _OVERFLOW_JS
from .test_large_text import big_phone as big_phone  # a fixture

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

# What squeezed at large text on main (issue 27): photographed alone with SCREENSHOTS=1.
PARTS = ("main table", ".pub-playing", ".pub-mine", ".poster-list", ".desk-board")


def log_in(page: Page, base: str, user: User) -> None:
    page.goto(f"{base}/accounts/login/")
    page.locator("input[name=username]").fill(user.username)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").last.click()
    page.wait_for_url(re.compile(r"/(?!accounts/login)"))


def large_text_problems(page: Page) -> list[str]:
    # Folded content too (a table's paper form, the format), as a reader may open it.
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    page.evaluate("Promise.all(document.getAnimations().map((a) => a.finished))")
    found: list[str] = layout_problems(page)
    found += page.evaluate(_OVERFLOW_JS)
    return found + text_problems(page)


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_concours_and_club_pages_at_200_percent_text(
    big_phone: Callable[..., Page],
    live_server: LiveServer,
    make_user: Callable[[str], User],
    locale: str,
) -> None:
    owner = make_user("organiser")
    owner.set_password(PASSWORD)
    owner.save()
    world: World = concours_world.build(owner)
    base = live_server.url
    language = locale[:2]
    problems: dict[str, list[str]] = {}

    def look(page: Page, pages: list[tuple[str, str]]) -> None:
        for name, path in pages:
            response = page.goto(f"{base}{path}")
            assert response is not None and response.status == 200, (name, path)
            page.wait_for_load_state("load")
            found = large_text_problems(page)
            if found:
                problems[name] = found
            # A desk at 200 % text is some 30,000 px tall: its screen only, and its parts.
            tall = page.evaluate("document.documentElement.scrollHeight") > 8000
            save_screenshot(page, f"large-{language}-{name}.png", full_page=not tall)
            if SCREENSHOTS:  # the parts that squeezed, each on its own for a person to look at
                for n, part in enumerate(PARTS):
                    if page.locator(part).count():
                        save_screenshot(
                            page.locator(part).first, f"large-{language}-{name}-{n}.png"
                        )

    public = big_phone(2.0, locale=locale)
    look(public, concours_world.public_pages(world))
    look(public, concours_world.co_organiser_pages(world))
    assert page_errors(public) == []
    organiser = big_phone(2.0, locale=locale)
    log_in(organiser, base, owner)
    look(organiser, concours_world.organiser_pages(world))
    assert page_errors(organiser) == []
    assert not problems, "\n".join(
        f"{step}:\n  " + "\n  ".join(found) for step, found in problems.items()
    )
