"""The engines speak in codes and data, `scorekeeper/web/words.py` in sentences: every error code raised
anywhere and every breakdown item has its words in English and in French (a new code without
them fails here), no French rendering falls back to the English words, and the engines'
sources hold no sentence at all."""

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

import pytest
from django.utils import translation
from django.utils.translation import trans_real

from scorekeeper.engine.scoring import Announcement, Formula, Kind, Note, Param, Rank, Term
from scorekeeper.engine.scoring.breakdown import NoteKey, TermLabel
from scorekeeper.web import words

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted((ROOT / "scorekeeper").rglob("*.py"))
SCORING = ROOT / "scorekeeper" / "scoring"
RAISERS = {"InvalidInput", "TournamentError"}
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _constants(node: ast.expr, scope: ast.AST) -> set[str] | None:
    """The string values `node` can take: a literal, either side of `a if c else b`, or a local
    name assigned only such values in `scope`; None when it forwards a code from elsewhere."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        body, orelse = _constants(node.body, scope), _constants(node.orelse, scope)
        return None if body is None or orelse is None else body | orelse
    if isinstance(node, ast.Name):
        values: set[str] = set()
        for assign in ast.walk(scope):
            if isinstance(assign, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == node.id for t in assign.targets
            ):
                found = _constants(assign.value, scope)
                if found is None:
                    return None
                values |= found
        return values or None
    return None


@functools.cache
def raised_codes() -> tuple[tuple[str, str, frozenset[str]], ...]:
    """(where, code, keyword params) for every InvalidInput / TournamentError built in the app
    (the sources parsed once a test run: two tests read them)."""
    return tuple((where, code, frozenset(params)) for where, code, params in _raised_codes())


def _raised_codes() -> Iterator[tuple[str, str, set[str]]]:
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        relative = path.relative_to(ROOT)
        for scope in ast.walk(tree):
            if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Module):
                continue
            for call in ast.walk(scope):
                if not isinstance(call, ast.Call):
                    continue
                name = _name(call.func)
                if name != "TextFault" and name not in RAISERS:
                    continue
                where = f"{relative}:{call.lineno}"
                if name == "TextFault":  # engine/scoring/free_text.py: TextFault(code, char)
                    assert call.args and isinstance(call.args[0], ast.Constant), where
                    yield where, str(call.args[0].value), {"char"} if len(call.args) > 1 else set()
                    continue
                assert len(call.args) >= 2, f"{where}: InvalidInput(path, code, **params)"
                codes = _constants(call.args[1], scope)
                # `error.code`, or a `code` read back from a session: a code raised elsewhere.
                forwarded = _name(call.args[1]) == "code"
                assert codes is not None or forwarded, f"{where}: the code must be a literal"
                params = {k.arg for k in call.keywords if k.arg}
                for code in codes or ():
                    yield where, code, params


def fr_catalogue() -> Any:
    return trans_real.translation("fr")._catalog  # type: ignore[attr-defined]


def msgid(text: Any) -> str:
    """The catalogue key of a lazy translation: `context\\x04msgid` for pgettext_lazy."""
    return "\x04".join(text._args)


def test_every_code_raised_has_words_that_take_its_params() -> None:
    found = list(raised_codes())
    codes = {code for _, code, _ in found}
    assert len(codes) > 90  # both engines, the match file, backups and services
    assert codes <= set(words.ERRORS), sorted(codes - set(words.ERRORS))
    for where, code, params in found:
        template, renames = words.ERRORS[code]
        with translation.override(None):
            needed = set(PLACEHOLDER.findall(str(template)))
        given = {renames.get(param, param) for param in params}
        assert needed <= given, f"{where}: {code} needs {needed - given}"


def test_no_words_for_a_code_nobody_raises() -> None:
    codes = {code for _, code, _ in raised_codes()}
    assert set(words.ERRORS) - codes == set()


def sample_params(code: str) -> dict[str, Param]:
    template, renames = words.ERRORS[code]
    back = {new: old for old, new in renames.items()}
    with translation.override(None):
        return {back.get(p, p): 7 for p in PLACEHOLDER.findall(str(template))}


@pytest.mark.parametrize("code", sorted(words.ERRORS))
def test_every_error_reads_in_english_and_in_french(code: str) -> None:
    template, _ = words.ERRORS[code]
    assert msgid(template) in fr_catalogue(), f"{code}: no French for {msgid(template)!r}"
    with translation.override("en"):
        english = words.reason(code, **sample_params(code))
    with translation.override("fr"):
        french = words.reason(code, **sample_params(code))
    assert english != code and "%(" not in english and "%(" not in french
    assert french != english, code


ITEMS = (Announcement(Kind.TIERCE, Rank.KING), Announcement(Kind.CARRE, Rank.JACK))


def sample_note(key: str) -> list[Note]:
    if key == "contract":
        return [
            Note("contract", team=0, contract=contract, trump=trump, coinche=coinche)
            for contract in (110, "capot", "generale")
            for trump in ("hearts", "no_trump", "all_trump")
            for coinche in ("none", "coinche", "surcoinche")
        ]
    return [
        Note(key, team=1, points=81, other=162, contract=90, trump="spades", items=ITEMS)  # type: ignore[arg-type]
    ]


@pytest.mark.parametrize("key", get_args(NoteKey))
def test_every_breakdown_note_reads_in_english_and_in_french(key: str) -> None:
    templates = words.CONTRACT_NOTES.values() if key == "contract" else [words.NOTES[key]]
    for template in templates:
        assert msgid(template) in fr_catalogue(), msgid(template)
    for note in sample_note(key):
        with translation.override("en"):
            english = words.breakdown_line(note, ("Us", "Them"))
        with translation.override("fr"):
            french = words.breakdown_line(note, ("Nous", "Eux"))
        assert english and "%(" not in english and "%(" not in french
        assert french.replace("Nous", "Us").replace("Eux", "Them") != english, key


@pytest.mark.parametrize("label", get_args(TermLabel))
def test_every_breakdown_term_has_french_words(label: str) -> None:
    assert msgid(words.TERMS[label]) in fr_catalogue()
    line = Formula("score", 0, (Term(20, label), Term(200, label, times=2)), rounded=220)  # type: ignore[arg-type]
    with translation.override("en"):
        english = words.breakdown_line(line, ("Us", "Them"))
    with translation.override("fr"):
        french = words.breakdown_line(line, ("Us", "Them"))
    assert english.startswith("Us: 20 ") and french.startswith("Us\u00a0: 20 ")


def test_every_other_engine_word_has_its_french() -> None:
    """Trumps, announcement kinds, formulas, rule names, settings, choices, outcomes."""
    lazy = [
        *words.BREAKDOWN_TRUMPS.values(), *words.ANNOUNCEMENT_KINDS.values(), words.FORMULA,
        words.TRUMP_ANNOUNCEMENT, *words.PRESET_NAMES.values(), *words.PRESET_SUMMARIES.values(),
        *words.SETTING_LABELS.values(), *words.CHOICE_LABELS.values(),
        *words.SETTING_HELP.values(), *words.TRUMP_LABELS.values(), *words.OUTCOME_LABELS.values(),
    ]  # fmt: skip
    missing = [msgid(t) for t in lazy if not isinstance(t, str) and msgid(t) not in fr_catalogue()]
    assert missing == []


def test_every_breakdown_the_engine_gives_reads_in_both_languages() -> None:
    """A scored match's breakdown: French words, never the English ones, with the teams' names."""
    from scorekeeper.engine.scoring import PRESETS, Deal, PassedDeal, PlayedDeal, Trump, score_match

    deals: list[Deal] = [
        PlayedDeal(0, Trump.HEARTS, 110, "coinche", taker_points=120, belote=(1, 0)),
        PlayedDeal(1, Trump.NO_TRUMP, "capot", capot=1, announcements=((), ITEMS[:1])),
        PassedDeal(),
    ]
    result = score_match(PRESETS["coinche"], deals)
    for deal in result.deals:
        with translation.override("en"):
            english = words.breakdown(deal.breakdown, ("Us", "Them"))
        with translation.override("fr"):
            french = words.breakdown(deal.breakdown, ("Us", "Them"))
        assert len(english) == len(french)
        assert not set(english) & set(french), (english, french)


# ---------------------------------------------------------------------------------------------
# No sentence inside the scoring engine.

# Data that reads like words but is not for people: the match format's default team names
# (docs/file-formats.md §1: `["Team 1", "Team 2"]`), stored in a file as written.
NOT_SENTENCES = {"Team 1", "Team 2"}
WORDS_WITH_A_SPACE = re.compile(r"[^\W\d_]{2,}.*\s|\s.*[^\W\d_]{2,}")


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def test_no_sentence_in_the_scoring_engine() -> None:
    """No string literal with words and a space in scorekeeper/engine/scoring/ (docstrings and comments
    aside): what it says is a code and params, worded by scorekeeper/web/words.py."""
    found = []
    for path in sorted(SCORING.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
                and node.value not in NOT_SENTENCES
                and WORDS_WITH_A_SPACE.search(node.value)
            ):
                found.append(f"{path.name}:{node.lineno}: {node.value!r}")
    assert found == []


def test_no_regex_over_engine_messages() -> None:
    """The regex layer is gone: nothing translates the engine's English back."""
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        assert "translate_engine_message" not in text, path
        assert not re.search(r"error\.message\b", text), path


def test_the_words_languages_are_the_sites() -> None:
    from django.conf import settings

    assert tuple(code for code, _ in settings.LANGUAGES) == words.LANGS


def test_a_reserve_received_and_a_reserve_kept_read_apart() -> None:
    """Issue 41: the deal form's summary said "held in reserve" of the points a deal receives
    and of those it keeps for the next deal."""
    for lang, received, kept in (
        ("en", "90 + 81 from the last litige", "81 kept for the next deal"),
        ("fr", "90 + 81 du litige précédent", "81 gardés pour la donne suivante"),
    ):
        with translation.override(lang):
            assert (words.reserve_received(90, 81), words.reserve_kept(81)) == (received, kept)


def test_card_points_are_card_points_in_english_as_in_french() -> None:
    """Issue 41: the English breakdown said "Nous: 52 cards" where the French says "points"."""
    line = Formula("score", 1, (Term(52, "cards"),), rounded=50)
    with translation.override("en"):
        assert words.breakdown_line(line, ("Us", "Them")) == "Them: 52 card points → 50"
    with translation.override("fr"):
        assert words.breakdown_line(line, ("Nous", "Eux")) == "Eux\u00a0: 52 points → 50"
