"""The paper check of docs/tournaments.md §2: the difference and a hint, never a refusal; its words
in English and French."""

import pytest
from django.utils import translation

from scorekeeper.concours.words import paper_warning
from scorekeeper.engine.scoring import rules_from_dict
from scorekeeper.engine.tournament import PaperCheck, paper_check

BELOTE_12 = rules_from_dict({"preset": "belote", "deals_limit": 12, "target": None})

CASES = [
    # (totals, belotes, capots, announcements, difference, hint, count, English warning)
    ((1000, 944), 0, 0, 0, 0, None, 0, None),  # 12 × 162 = 1944
    ((1000, 984), 2, 0, 0, 0, None, 0, None),
    ((1000, 1034), 0, 1, 0, 0, None, 0, None),  # a capot: 252 instead of 162
    ((1000, 1044), 0, 0, 100, 0, None, 0, None),
    ((1000, 964), 2, 0, 0, -20, "belote", 1, "20 missing: a belote?"),
    ((1000, 944), 2, 0, 0, -40, "belote", 2, "40 missing: 2 belotes?"),
    ((1000, 964), 0, 0, 0, 20, "belote", 1, "20 too many: a belote not typed in?"),
    ((1000, 944), 0, 1, 0, -90, "capot", 1, "90 missing: a capot?"),
    ((1000, 1034), 0, 0, 0, 90, "capot", 1, "90 too many: a capot not typed in?"),
    ((1000, 944), 0, 0, 50, -50, "announcement", 1, "50 missing: an announcement?"),
    ((1100, 944), 0, 0, 0, 100, "announcement", 1, "100 too many: an announcement not typed in?"),
    ((1000, 782), 0, 0, 0, -162, "deal", 1, "162 missing: a deal not written down?"),
    ((1000, 620), 0, 0, 0, -324, "deal", 2, "324 missing: 2 deals not written down?"),
    ((1162, 944), 0, 0, 0, 162, "deal", 1, "162 too many: a deal written twice?"),
    ((1000, 1244), 0, 0, 0, 300, "typo", 1, "300 too many: a digit written wrong?"),
    ((1000, 937), 0, 0, 0, -7, "typo", 1, "7 missing: a digit written wrong?"),
    ((1000, 931), 0, 0, 0, -13, None, 0, "13 missing."),
    ((1013, 944), 0, 0, 0, 13, None, 0, "13 too many."),
]


@pytest.mark.parametrize(
    ("totals", "belotes", "capots", "announcements", "difference", "hint", "count", "words"), CASES
)
def test_paper_check(
    totals: tuple[int, int], belotes: int, capots: int, announcements: int, difference: int,
    hint: str | None, count: int, words: str | None,
) -> None:  # fmt: skip
    check = paper_check(
        BELOTE_12, totals, belotes=belotes, capots=capots, announcements=announcements
    )
    assert check is not None
    assert (check.difference, check.hint, check.count) == (difference, hint, count)
    assert check.written == sum(totals)
    assert check.ok is (difference == 0)
    assert paper_warning(check) == words


def test_the_deals_played_may_be_given() -> None:
    check = paper_check(BELOTE_12, (900, 720), deals=10)
    assert check is not None and (check.expected, check.ok) == (1620, True)


@pytest.mark.parametrize(
    "rules",
    [
        {"preset": "belote"},  # to a target: the number of deals is not known
        {"preset": "coinche", "deals_limit": 12},
        {"preset": "belote", "deals_limit": 12, "rounding": "half_up"},
    ],
)
def test_no_check_where_the_totals_are_not_known(rules: dict[str, object]) -> None:
    assert paper_check(rules_from_dict(rules), (1000, 944)) is None


def test_french_warnings() -> None:
    with translation.override("fr"):
        assert (
            paper_warning(PaperCheck(1944, 1924, -20, "belote", 1))
            == "20 manquants\u00a0: une belote\u00a0?"
        )
        assert (
            paper_warning(PaperCheck(1944, 1620, -324, "deal", 2))
            == "324 manquants\u00a0: 2 donnes non notées\u00a0?"
        )
        assert paper_warning(PaperCheck(1944, 1957, 13, None, 0)) == "13 de trop."
