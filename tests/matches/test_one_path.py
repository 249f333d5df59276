"""One path each: the deal form is built for a match in one place (`view_helpers.deal_form`), and every
record, edit, undo and redo of a page or of the outbox opens with one preamble
(`view_helpers.change_by`: the match, this request's author, the version checked, the one-time id),
so the pages and the outbox cannot part on how a change is stamped. Checked on the source, as
the import contracts are; the deal pages' and the outbox's behaviour is tested by
test_deal_views.py, test_undo_redo.py and test_outbox.py."""

import ast
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "scorekeeper" / "matches"


def calls(name: str) -> list[str]:
    """Where the app calls `name(...)` (a name or an attribute), as `file:function`."""
    found = []
    for path in sorted(APP.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Call):
                    callee = node.func
                    called = callee.id if isinstance(callee, ast.Name) else None
                    if isinstance(callee, ast.Attribute):
                        called = callee.attr
                    if called == name:
                        found.append(f"{path.relative_to(APP)}:{function.name}")
    return sorted(set(found))


def keyword_users(keyword: str) -> list[str]:
    """Where the app passes `keyword=` in a call, as `file:function`."""
    found = []
    for path in sorted(APP.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and any(k.arg == keyword for k in node.keywords):
                    found.append(f"{path.relative_to(APP)}:{function.name}")
    return sorted(set(found))


def test_the_deal_form_is_built_for_a_match_in_one_place() -> None:
    assert calls("DealForm") == ["view_helpers.py:deal_form"]


def test_every_stamped_change_opens_with_one_preamble() -> None:
    """The services' `expected_version` and `submission` are given by `change_by` alone among
    the pages and views (a deal's delete, whose form has no one-time id, passes its version
    itself; the services pass them on inside)."""
    outside = [
        where
        for where in keyword_users("expected_version")
        if where.startswith(("view_helpers.py", "views/"))
    ]
    assert outside == ["view_helpers.py:change_by", "views/deals.py:deal_delete"]
    stamped = [
        where
        for where in keyword_users("submission")
        if where.startswith(("view_helpers.py", "views/"))
    ]
    assert stamped == ["view_helpers.py:change_by"]


def test_a_new_deal_and_an_edit_are_one_page() -> None:
    """deal_new and deal_edit find their match (and the deal) and hand over to one page."""
    assert calls("_deal_page") == ["views/deals.py:deal_edit", "views/deals.py:deal_new"]
