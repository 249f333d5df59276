"""A phone set to French: the page is served in French (the words only once the French
catalogue, scorekeeper/locale/fr/LC_MESSAGES/django.mo, exists)."""

import re
from pathlib import Path

import pytest
from django.utils import translation
from playwright.sync_api import Page, expect
from pytest_django.live_server_helper import LiveServer

from .conftest import REPO, NewPhone, Shot, chip, expect_totals, page_errors

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

CATALOGUE = REPO / "scorekeeper" / "locale" / "fr" / "LC_MESSAGES" / "django.mo"


def french(text: str) -> str:
    with translation.override("fr"):
        return translation.gettext(text)


def test_french_phone(new_phone: NewPhone, live_server: LiveServer, shot: Shot) -> None:
    page: Page = new_phone(locale="fr-FR")
    page.goto(f"{live_server.url}/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("footer button[lang=fr]")).to_have_attribute("aria-current", "true")
    shot(page, "home")
    page.locator("a.btn-primary").first.click()  # "New match", whatever its language
    expect(page.locator("input[name=preset]")).to_have_count(5)
    shot(page, "new-match")
    if not Path(CATALOGUE).exists():
        pytest.skip(f"no French catalogue yet ({CATALOGUE.relative_to(REPO)}): words not checked")
    for english in ("New match", "Start the match", "Teams and players"):
        translated = french(english)
        assert translated != english, f"{english!r} has no French translation"
        expect(page.get_by_text(translated, exact=True).first).to_be_visible()
    expect(page.get_by_text("Start the match", exact=True)).to_have_count(0)

    # The scoreboard and a deal in French, the score's explanation included.
    page.locator("form.stack button[type=submit]").last.click()
    page.wait_for_url(re.compile(r"/score/[^/]+/$"))
    for english in ("Record a deal", "Deals"):  # no Undo yet: nothing to undo
        expect(page.get_by_text(french(english), exact=True).first).to_be_visible()
    with translation.override("fr"):
        all_passed = translation.pgettext("button", "All passed")
    expect(page.get_by_role("button", name=all_passed)).to_be_visible()
    shot(page, "scoreboard")
    page.get_by_role("link", name=french("Record a deal")).click()
    chip(page, "taker", "0")
    chip(page, "contract", "80")
    chip(page, "trump", "hearts")
    page.locator("input[name=taker_points]").fill("100")
    expect(page.locator("#preview .preview-outcome")).to_have_text(french("Made"))
    shot(page, "deal")
    page.locator(".savebar .btn-primary").click()
    page.wait_for_url(re.compile(r"/score/[^/]+/$"))
    expect_totals(page, 180, 60)
    with translation.override("fr"):  # Undo says what it undoes, as "Défaire" (issue 11)
        page.reload()
        expect(page.locator("#scoreboard .undo-redo button")).to_have_text(
            "Défaire\u00a0: donne 1 enregistrée"
        )
    page.locator(".deals > li summary").first.click()
    expect(page.locator(".deals .breakdown")).not_to_contain_text("cards")  # French breakdown
    shot(page, "deal-open")
    assert page_errors(page) == []
