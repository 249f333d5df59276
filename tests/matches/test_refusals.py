"""A refused change is said through ONE table (matches/words.py `SAID`): its code, the outbox's
HTTP status and its words. A phone reads the same words on the scoreboard (with signal, a page's
message) and in its outbox's answer (without); and a name ending in `Refused` is a refusal, an
exception, everywhere (the pages' "not saved" result is `NotSaved`)."""

import ast
import html
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scorekeeper.engine.scoring import PassedDeal, rules_from_dict
from scorekeeper.matches import services
from scorekeeper.matches.models import Match
from scorekeeper.matches.words import SAID

from .conftest import MakeMatch
from .support import CREATOR, belote_deal

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def _changed(match: Match) -> dict[str, str]:
    """Another phone saved first: the change carries the version before it."""
    stale = match.version
    services.record_deal(
        match_id=match.pk, expected_version=None, deal=PassedDeal(), author=CREATOR
    )
    return {"version": str(stale)}


def _abandoned(match: Match) -> dict[str, str]:
    services.abandon_match(match_id=match.pk)
    return {}


def _frozen(match: Match) -> dict[str, str]:
    """A concours table's round closed (its match frozen)."""
    Match.objects.filter(pk=match.pk).update(frozen_at=timezone.now())
    return {}


def _gone(match: Match) -> dict[str, str]:
    """This submission was saved, then undone: sent again, it saves nothing."""
    services.record_deal(
        match_id=match.pk,
        expected_version=None,
        deal=PassedDeal(),
        author=CREATOR,
        submission="sent-once",
    )
    services.undo_last_change(match_id=match.pk, expected_version=None, author=CREATOR)
    return {"submission": "sent-once"}


CASES: dict[str, tuple[str, Callable[[Match], dict[str, str]]]] = {
    # refusal (a key of SAID): (the one-tap page and outbox action, how the match gets there)
    "changed": ("passed", _changed),
    "abandoned": ("passed", _abandoned),
    "frozen": ("passed", _frozen),
    "gone": ("passed", _gone),
    "nothing": ("undo", lambda match: {}),
}
PAGES = {"passed": "deal_passed", "undo": "undo"}


@pytest.mark.parametrize("refusal", sorted(CASES))
def test_the_page_and_the_outbox_say_a_refusal_in_the_same_words(
    owner_client: Client, make_match: MakeMatch, refusal: str
) -> None:
    action, reach = CASES[refusal]
    said = SAID[refusal]
    answers = []
    for through in ("page", "outbox"):
        match = make_match()
        reached = reach(match)
        match.refresh_from_db()
        stamp = {"version": str(match.version), "submission": f"{through}-1", **reached}
        before = (match.version, match.deal_count)
        if through == "page":
            url = reverse(f"matches:{PAGES[action]}", args=[match.scorer_token])
            board = owner_client.post(url, stamp, follow=True)
            assert board.status_code == 200
            answers.append(html.unescape(board.content.decode()))
        else:
            url = reverse("matches:outbox", args=[match.scorer_token])
            answer = owner_client.post(url, {"action": action, **stamp})
            assert answer.status_code == said.status
            assert answer.json()["code"] == said.code
            answers.append(answer.json()["message"])
        match.refresh_from_db()
        assert (match.version, match.deal_count) == before  # nothing saved
    page, outbox = answers
    assert outbox == str(said.words)
    assert outbox in page, (refusal, outbox)


def test_a_finished_match_says_it_on_the_page_and_in_the_outbox(
    owner_client: Client, make_match: MakeMatch
) -> None:
    rules = rules_from_dict({"preset": "belote", "deals_limit": 1, "target": None})
    match = make_match(rules=rules, deals=[belote_deal()])
    assert match.is_finished
    board = owner_client.post(
        reverse("matches:deal_passed", args=[match.scorer_token]),
        {"version": str(match.version)},
        follow=True,
    )
    answer = owner_client.post(
        reverse("matches:outbox", args=[match.scorer_token]),
        {"action": "passed", "version": str(match.version), "submission": "late-1"},
    )
    assert (answer.status_code, answer.json()["code"]) == (SAID["over"].status, "over")
    assert answer.json()["message"] == str(SAID["over"].words)
    assert answer.json()["message"] in html.unescape(board.content.decode())


def test_every_refusal_has_a_code_a_status_and_words_in_english_and_french() -> None:
    from django.utils import translation

    for kind, said in SAID.items():
        assert said.code and said.status in (400, 409, 413, 503), kind
        with translation.override("en"):
            english = str(said.words)
        with translation.override("fr"):
            french = str(said.words)
        assert english and french != english, kind


def _bases(node: ast.ClassDef) -> list[str]:
    return [base.id if isinstance(base, ast.Name) else ast.unparse(base) for base in node.bases]


def test_a_name_ending_in_refused_is_a_refusal_everywhere() -> None:
    """`Refused` (the concours's and the clubs' services), `WriteRefused`, `JobRefused`...: an
    exception a service raises. What a page gets back when a change was not saved is another
    thing, with another name (view_helpers.NotSaved)."""
    classes: dict[str, list[str]] = {}
    for path in sorted((ROOT / "scorekeeper").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                where = str(path.relative_to(ROOT))
                classes.setdefault(node.name, []).append(where)
                if node.name.endswith("Refused"):
                    bases = _bases(node)
                    assert any(
                        base.endswith(("Exception", "Error", "Refused")) for base in bases
                    ), f"{where}: {node.name}({', '.join(bases)}) is no exception"
    assert "NotSaved" in classes
    found: Any = classes.get("Refused", [])
    assert found and all("services" in where for where in found), found
