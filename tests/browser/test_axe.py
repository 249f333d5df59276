"""Issue 12: axe-core (vendored, tests/browser/vendor/) on every page of the app, at phone size,
in English and French, light and dark: any violation fails, named by rule, impact, the elements'
selectors and the page. The same pass checks what axe leaves to people: headings that never skip
a level (and one h1), and page titles that are distinct and end with the site's name.

One test per language, so xdist runs them side by side; each builds its data once (an account
with a running coinche match, a finished one, a deleted one, a claimed name...) and visits every
page in one browser context, where axe runs twice: in the light colour scheme, then in the dark
one (the page's `prefers-color-scheme` switched in place: the app's colours are CSS only)."""

import io
import json
import re
import zipfile
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any, Literal

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, ConsoleMessage, FilePayload, Page, expect
from pytest_django.live_server_helper import LiveServer

from scorekeeper.engine.scoring import ManualDeal, PassedDeal, PlayedDeal, Trump, rules_from_dict
from scorekeeper.history import exports
from scorekeeper.matches import services
from scorekeeper.matches.models import Match, Player

from .conftest import HARMLESS_CONSOLE, PHONE, SHOTS, chip, save_screenshot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at"),
]

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
PASSWORD = "a-long-enough-password-42"
SITE = {"en": "Belote score", "fr": "Score belote"}
Scheme = Literal["light", "dark"]
SCHEMES: tuple[Scheme, ...] = ("light", "dark")

# What the page says about itself: its title, its headings' levels, axe's violations.
_HEADINGS_JS = """() => [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")]
    .filter((h) => h.getClientRects().length || h.classList.contains("sr-only")
                   || h.closest(".sr-only"))
    .map((h) => [Number(h.tagName[1]), h.textContent.trim().slice(0, 40)])"""

_AXE_JS = """async () => {
    const result = await axe.run(document, {resultTypes: ["violations"]});
    return result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(" ") + " :: " + n.failureSummary
                                     .replace(/\\s+/g, " ").slice(0, 240)),
    }));
}"""


def heading_problems(levels: list[list[Any]]) -> list[str]:
    """One h1 first, then each heading at most one level deeper than the one before."""
    problems = []
    if not levels or levels[0][0] != 1:
        problems.append(f"the first heading is not an h1: {levels[:1]}")
    if sum(1 for level, _ in levels if level == 1) > 1:
        problems.append("more than one h1")
    for (before, _), (level, text) in pairwise(levels):
        if level > before + 1:
            problems.append(f"h{before} then h{level} ({text!r})")
    return problems


@dataclass
class Audit:
    """Visits pages and keeps what is wrong with each."""

    page: Page
    base: str
    combination: str
    # The colour schemes axe checks each page in, switched in place (the first is the context's);
    # none: only the context's.
    schemes: tuple[Scheme, ...] = ()
    found: list[str] = field(default_factory=list)
    titles: dict[str, str] = field(default_factory=dict)
    seen: int = 0

    def check(self, name: str, *, status: int | None = None) -> None:
        page = self.page
        page.wait_for_load_state("domcontentloaded")
        # Folded content too: a deal's breakdown, the rules' settings, the announcements.
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        if page.evaluate("typeof axe") == "undefined":
            page.evaluate(AXE.read_text(encoding="utf-8"))
        where = f"{name} ({page.url.removeprefix(self.base)})"
        for scheme in self.schemes or (None,):
            if scheme is not None:
                page.emulate_media(color_scheme=scheme)
                assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
            said = f"{where} [{scheme}]" if scheme else where
            for v in page.evaluate(_AXE_JS):
                targets = "\n      ".join(v["targets"])
                self.found.append(f"{said}: {v['id']} [{v['impact']}] {v['help']}\n      {targets}")
            shown = f"{self.combination}-{scheme}" if scheme else self.combination
            save_screenshot(page, f"axe-{shown}-{name}.png", full_page=True)
        if self.schemes:
            page.emulate_media(color_scheme=self.schemes[0])
        for problem in heading_problems(page.evaluate(_HEADINGS_JS)):
            self.found.append(f"{where}: headings: {problem}")
        self.titles[name] = page.title()
        self.seen += 1

    def visit(self, name: str, path: str, *, status: int = 200) -> None:
        response = self.page.goto(f"{self.base}{path}")
        assert response is not None
        assert response.status == status, f"{name}: {path} answered {response.status}"
        self.check(name)


def _coinche_deals() -> list[PlayedDeal | PassedDeal | ManualDeal]:
    """Deals that bring out every kind of line: sans atout, tout atout, coinché, surcoinché,
    belote, capot, a litige, a passed deal and a manual score."""
    return [
        PlayedDeal(taker=0, trump=Trump.NO_TRUMP, contract=90, taker_points=100, belote=(0, 0)),
        PlayedDeal(
            taker=1, trump=Trump.ALL_TRUMP, contract=100, coinche="coinche", taker_points=120
        ),
        PlayedDeal(taker=0, trump=Trump.HEARTS, contract=80, taker_points=81, belote=(1, 0)),
        PassedDeal(),
        PlayedDeal(taker=1, trump=Trump.SPADES, contract="capot", capot=1, coinche="surcoinche"),
        ManualDeal(scores=(20, 0), note="penalty"),
    ]


@dataclass
class Data:
    running: Match
    finished: Match
    abandoned: Match
    player: Player


def _build(owner: User, sam: User) -> Data:
    """The account's matches: a running coinche one with deals, a finished one, a deleted one;
    Anna is the account's own name, Chloé is claimed by sam through the running match."""
    key = "axe-device"
    running = services.create_match(
        owner_key=key,
        owner=owner,
        rules=rules_from_dict({"preset": "coinche", "target": 100_000}),
        team_names=("Aces", "Kings"),
        players=("Anna", "Ben", "Chloé", "David"),
    )
    for deal in _coinche_deals():
        running.refresh_from_db()
        services.record_deal(
            match_id=running.pk,
            expected_version=running.version,
            deal=deal,
            author=services.Author(key=key, label="creator"),
        )
    finished = services.create_match(
        owner_key=key,
        owner=owner,
        rules=rules_from_dict({"preset": "belote", "target": 300}),
        team_names=("Aces", "Kings"),
        players=("Anna", "Ben", "Chloé", "David"),
    )
    for taker in (0, 1, 1):
        finished.refresh_from_db()
        services.record_deal(
            match_id=finished.pk,
            expected_version=finished.version,
            deal=PlayedDeal(taker=taker, trump=Trump.CLUBS, taker_points=130, belote=(0, 1)),
            author=services.Author(key=key, label="creator"),
        )
    abandoned = services.create_match(
        owner_key=key,
        owner=owner,
        rules=rules_from_dict({"preset": "coinche"}),
        team_names=("Aces", "Queens"),
        players=("Anna", "Emma", "Ben", "Farid"),
    )
    services.record_deal(
        match_id=abandoned.pk,
        expected_version=None,
        deal=PlayedDeal(taker=0, trump=Trump.DIAMONDS, contract=80, taker_points=90),
        author=services.Author(key=key, label="creator"),
    )
    abandoned = services.abandon_match(match_id=abandoned.pk)
    gone = services.create_match(
        owner_key=key,
        owner=owner,
        rules=rules_from_dict({"preset": "coinche"}),
        team_names=("Old", "Gone"),
    )
    services.delete_match(match_id=gone.pk)
    anna = Player.objects.get(name="Anna", owner=owner)
    services.claim_player(player_id=anna.pk, user=owner, through=None)
    chloe = Player.objects.get(name="Chloé", owner=owner)
    services.claim_player(player_id=chloe.pk, user=sam, through=running)
    running.refresh_from_db()
    finished.refresh_from_db()
    return Data(running=running, finished=finished, abandoned=abandoned, player=anna)


def _backup(data: Data) -> bytes:
    """A backup zip: the two matches, and a file that is no match file (refused)."""
    buffer = io.BytesIO(exports.backup_zip(Match.objects.filter(pk=data.running.pk)))
    with zipfile.ZipFile(buffer, "a") as archive:
        archive.writestr("broken.json", json.dumps({"not": "a match"}))
    return buffer.getvalue()


def _file(name: str, content: bytes) -> FilePayload:
    kind = "application/zip" if name.endswith(".zip") else "application/json"
    return {"name": name, "mimeType": kind, "buffer": content}


def _anonymous_pages(audit: Audit, language: str) -> None:
    page = audit.page
    audit.visit("home+new-visitor", "/")
    audit.visit("login", "/accounts/login/")
    page.locator("main form button[type=submit]").last.click()
    audit.check("login+errors")
    audit.visit("signup", "/accounts/signup/")
    page.locator("input[name=username]").fill("x")
    page.locator("form:has(input[name=username]) button[type=submit]").click()
    audit.check("signup+errors")
    audit.visit("not-found", "/no-such-page/", status=404)
    audit.visit("not-found+match", "/score/no-such-token/", status=404)
    # A form posted with a token that no longer holds: the 403 page.
    page.goto(f"{audit.base}/accounts/login/")
    page.evaluate(
        "document.querySelector('main [name=csrfmiddlewaretoken]').value = 'x'.repeat(64)"
    )
    page.locator("main form button[type=submit]").last.click()
    audit.check("form-expired")


def _match_pages(audit: Audit, data: Data, language: str) -> None:
    page = audit.page
    token, view = data.running.scorer_token, data.running.view_token
    audit.visit("home", "/")
    audit.visit("new-match", "/new/")
    page.locator("details.settings > summary").click()
    audit.check("new-match+settings")
    page.locator("input[name=team0_name]").fill("")
    page.locator("form:has(input[name=team0_name]) button[type=submit]").last.click()
    audit.check("new-match+errors")
    audit.visit("scoreboard", f"/score/{token}/")
    audit.visit("live-view", f"/view/{view}/")
    audit.visit("deal-new", f"/score/{token}/deal/")
    page.locator("form#deal-form .savebar button.btn-primary").click()
    expect(page.locator(".has-error").first).to_be_visible()
    audit.check("deal-new+errors")
    for name, value in (("taker", "0"), ("contract", "80"), ("trump", "no_trump")):
        chip(page, name, value)
    page.locator("input[name=taker_points]").fill("100")
    expect(page.locator("#preview .breakdown li").first).to_be_visible()
    audit.check("deal-new+preview")
    page.locator("form#deal-form .savebar button.btn-primary").click()
    page.wait_for_url(re.compile(r"/score/[^/]+/$"))
    audit.check("scoreboard+saved")
    audit.visit("deal-edit", f"/score/{token}/deal/2/")
    audit.visit("deal-history", f"/score/{token}/deal/2/log/")
    audit.visit("deal-delete", f"/score/{token}/deal/2/delete/")
    audit.visit("manual", f"/score/{token}/manual/")
    audit.visit("manual-edit", f"/score/{token}/deal/6/manual/")
    audit.visit("count-cards", f"/score/{token}/count/")
    audit.visit("share", f"/score/{token}/share/")
    audit.visit("manage", f"/score/{token}/manage/")
    page.locator("input[name=confirm]").fill("no")
    page.locator("input[name=confirm]").press("Enter")
    expect(page.locator("#confirm-error")).to_be_visible()
    audit.check("manage+errors")
    audit.visit("scoreboard-abandoned", f"/score/{data.abandoned.scorer_token}/")
    audit.visit("review-abandoned", f"/view/{data.abandoned.view_token}/review/")
    audit.visit("review", f"/view/{view}/review/")
    audit.visit("review-finished", f"/view/{data.finished.view_token}/review/")
    audit.visit("scoreboard-finished", f"/score/{data.finished.scorer_token}/")
    # Undo on a finished match asks first: in the board (htmx), or on a page of its own.
    page.locator(".undo-redo form").first.locator("button").click()
    expect(page.locator("#scoreboard form button").last).to_be_visible()
    audit.check("scoreboard-finished+confirm-undo")
    page.goto(f"{audit.base}/score/{data.finished.scorer_token}/")
    # form.submit() fires no submit event: htmx leaves it to the browser.
    page.evaluate("document.querySelector('.undo-redo form').submit()")
    page.wait_for_url(re.compile(r"/undo/$"))
    audit.check("undo-confirm")
    audit.visit("history", "/history/")
    audit.visit("player", f"/players/{data.player.pk}/")
    audit.visit("deleted", "/history/deleted/")
    audit.visit("import", "/import/")


def _file_pages(audit: Audit, data: Data) -> None:
    page = audit.page
    page.locator("input[type=file]").set_input_files(files=_file("x.json", b"{}"))
    page.locator("main form button[type=submit]").last.click()
    audit.check("import+errors")
    page.locator("input[type=file]").set_input_files(files=_file("x.json", b"{}"))
    page.locator("main form button[type=submit]").last.click()
    audit.check("too-many-requests")
    audit.visit("restore", "/history/restore/")
    page.locator("input[type=file]").set_input_files(files=_file("backup.zip", _backup(data)))
    page.locator("main form button[type=submit]").last.click()
    page.wait_for_url(re.compile(r"/jobs/\d+/$"))  # the restore's job (run at once in tests)
    audit.check("restore-done")
    audit.visit("jobs", "/jobs/")


def _lock_out(audit: Audit, language: str) -> None:
    page = audit.page
    for _ in range(5):
        page.goto(f"{audit.base}/accounts/login/")
        page.locator("input[name=username]").fill("nobody")
        page.locator("input[name=password]").fill("wrong-password")
        page.locator("main form button[type=submit]").last.click()
    audit.check("locked-out")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_no_axe_violation_on_any_page(
    browser: Browser,
    live_server: LiveServer,
    settings: Any,
    language: str,
) -> None:
    settings.IMPORTS_PER_HOUR = 1  # the second import answers 429
    SHOTS.mkdir(exist_ok=True)
    context = browser.new_context(
        viewport=PHONE,
        device_scale_factor=1,
        is_mobile=True,
        has_touch=True,
        locale="fr-FR" if language == "fr" else "en-GB",
        color_scheme=SCHEMES[0],
    )
    context.set_default_timeout(10_000)
    # axe-core in every document of the context from its start: sent to Chromium once rather
    # than 600 KB through Playwright for each page (Audit.check injects it where it is missing).
    context.add_init_script(path=str(AXE))
    try:
        page = context.new_page()
        audit = Audit(page=page, base=live_server.url, combination=language, schemes=SCHEMES)
        # What else goes wrong on the way: script errors, console errors (a CSP refusal is one),
        # server errors.
        page.on("pageerror", lambda error: audit.found.append(f"{page.url}: pageerror {error}"))

        def on_console(msg: ConsoleMessage) -> None:
            # The 404, 403 and 429 pages are visited on purpose ("... a status of 404").
            expected = msg.text.startswith(HARMLESS_CONSOLE) or "status of 4" in msg.text
            if msg.type == "error" and not expected:
                audit.found.append(f"{page.url}: console {msg.text}")

        page.on("console", on_console)
        page.on(
            "response",
            lambda r: audit.found.append(f"HTTP {r.status} {r.url}") if r.status >= 500 else None,
        )
        _anonymous_pages(audit, language)

        owner = User.objects.create_user("alice", password=PASSWORD)
        sam = User.objects.create_user("sam", password=PASSWORD)
        data = _build(owner, sam)
        page.goto(f"{audit.base}/accounts/login/")
        page.locator("input[name=username]").fill("alice")
        page.locator("input[name=password]").fill(PASSWORD)
        page.locator("main form button[type=submit]").last.click()
        page.wait_for_url(f"{audit.base}/")
        assert page.evaluate("document.documentElement.lang") == language

        _match_pages(audit, data, language)
        _file_pages(audit, data)
        _lock_out(audit, language)
    finally:
        context.close()

    # Every page's title, for a person to read through.
    listing = "".join(f"{name}: {title}\n" for name, title in audit.titles.items())
    (SHOTS / f"axe-{language}-titles.txt").write_text(listing, encoding="utf-8")
    found = "\n".join(audit.found)
    assert not audit.found, f"{len(audit.found)} problems on {audit.seen} pages:\n{found}"
    suffix = f" · {SITE[language]}"
    wrong = {name: title for name, title in audit.titles.items() if not title.endswith(suffix)}
    assert not wrong, f"titles not ending with {suffix!r}: {wrong}"
    by_title: dict[str, list[str]] = {}
    for name, title in audit.titles.items():
        if "+" in name:  # the same page in another state (its errors shown...)
            continue
        by_title.setdefault(title, []).append(name)
    same = {title: names for title, names in by_title.items() if len(names) > 1}
    assert not same, f"pages sharing a title: {same}"
