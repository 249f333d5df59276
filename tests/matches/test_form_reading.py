"""The deal form's one builder (`engine/scoring/form_reading.py`): `DealForm.clean` builds its deal
through `build_deal`, marking its errors with their codes in web/words.py's words; and the
in-browser reading of the same POSTs (`deal_from_form`: its own cleaning of the fields, as
Django's fields clean them, then the same builder) gives the same deal when the form is valid, the
same first error (field and code) when it is not. Random POSTs built from valid deals of the
engine's property strategies, then altered field by field, plus table cases."""

from typing import Any
from unittest import mock

import pytest
from django.http import QueryDict
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.scoring import PRESETS, Rules, deal_to_dict, form_reading, get_preset
from scorekeeper.engine.scoring.form_reading import (
    Built,
    deal_from_form,
    form_fields,
    missing_points,
    read_fields,
)
from scorekeeper.matches.forms import deal as deal_form_module
from scorekeeper.matches.forms.deal import DealForm, deal_initial
from scorekeeper.web.words import describe
from tests.engine.scoring.test_properties import played_deal, rule_set

NAMES = ("Us", "Them")
# Values tried in place of a field's own: valid ones of other fields, and what a form must refuse
# or read leniently as Django does.
ODD_VALUES = ["", " ", "0", "1", "2", "3", "4", "on", "true", "false", "False", "no", "none",
              "coinche", "surcoinche", "capot", "generale", "hearts", "no_trump", "all_trump",
              "80", "90", "160", "162", "163", "-1", " 81 ", "81.0", "81.5", "1_0", "٨١", "１６２",
              "abc", "\x00", "a\x00", "x" * 1001, "\u202e", "carre_J", "tierce", "quinte", "K",
              "A", "9", "capot:0", "generale:1", "12345678901234567890123", "1000000000",
              "a b", "x" * 65]  # fmt: skip


def as_query(post: dict[str, str]) -> QueryDict:
    data = QueryDict(mutable=True)
    for key, value in post.items():
        data[key] = value
    return data


def server_reading(post: dict[str, str], rules: Rules) -> dict[str, Any]:
    form = DealForm(as_query(post), rules=rules, team_names=NAMES)
    if form.is_valid():
        assert form.deal is not None
        return {"deal": deal_to_dict(form.deal)}
    field = next(iter(form.errors))
    code = form.errors.as_data()[field][0].code
    return {"error": {"code": code, "field": None if field == "__all__" else field}}


def assert_same(post: dict[str, str], rules: Rules) -> dict[str, Any]:
    ours = deal_from_form(post, rules)
    server = server_reading(post, rules)
    if "deal" in server:
        assert ours == server, post
    else:
        assert "error" in ours, (post, ours, server)
        assert ours["error"]["field"] == server["error"]["field"], (post, ours, server)
        assert ours["error"]["code"] == server["error"]["code"], (post, ours, server)
    return ours


def as_post(initial: dict[str, Any]) -> dict[str, str]:
    out = {}
    for key, value in initial.items():
        if value is None or value is False:
            continue
        out[key] = "on" if value is True else str(value)
    return out


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_fields_are_the_forms_in_its_order(preset: str) -> None:
    rules = get_preset(preset)
    assert list(form_fields(rules)) == list(DealForm(rules=rules, team_names=NAMES).fields)


@st.composite
def posts(draw: Any) -> tuple[Rules, dict[str, str]]:
    """A valid deal's POST (`deal_initial`, as the edit page fills it), then some fields
    changed, dropped or added."""
    rules = rule_set(draw)
    post = as_post(deal_initial(played_deal(draw, rules)))
    post.setdefault("belote0", "0")
    post.setdefault("belote1", "0")
    names = sorted(form_fields(rules))
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.sampled_from(names))
        action = draw(st.integers(0, 2))
        if action == 0:
            post.pop(name, None)
        else:
            post[name] = draw(st.sampled_from(ODD_VALUES))
    return rules, post


@settings(max_examples=600, deadline=None)
@given(posts())
def test_random_posts_read_as_the_server_reads_them(case: tuple[Rules, dict[str, str]]) -> None:
    assert_same(case[1], case[0])


@settings(max_examples=300, deadline=None)
@given(posts())
def test_the_form_builds_its_deal_by_the_one_builder(case: tuple[Rules, dict[str, str]]) -> None:
    """DealForm.clean hands Django's cleaned fields to form_reading.build_deal, once, and shows
    what it built: its deal, or its errors on their fields with their codes and words. Where
    Django's fields refuse the POST (or no card points are given: said with the other missing
    fields), nothing is built."""
    rules, post = case
    calls: list[tuple[dict[str, Any], Built]] = []

    def spy(clean: dict[str, Any], rules: Rules) -> Built:
        built = form_reading.build_deal(clean, rules)
        calls.append((dict(clean), built))
        return built

    with mock.patch.object(deal_form_module, "build_deal", spy):
        form = DealForm(as_query(post), rules=rules, team_names=NAMES)
        valid = form.is_valid()
    read = read_fields(post, rules)  # the browser's cleaning of the same fields
    if "error" in read or missing_points(read["clean"]) is not None:
        assert calls == []
        assert not valid
        return
    [(clean, built)] = calls
    assert clean == read["clean"]  # Django's fields read the POST as form_reading's do
    assert form.deal is built.deal
    assert form.points_left_out == built.points_left_out
    assert valid == (built.deal is not None)
    marked = [
        (field, error.code, list(error.messages))
        for field, errors in form.errors.as_data().items()
        for error in errors
    ]
    expected = [
        (error.field or "__all__", error.code, [describe(error.reason)]) for error in built.errors
    ]
    assert marked == expected


def test_the_forms_own_checks_keep_their_codes_and_words() -> None:
    """The card points that do not add up, a deciding top card missing and an engine error
    (two belotes in a suit contract) are marked with their codes, in web/words.py's words."""
    rules = get_preset("coinche")
    sums = DealForm(
        as_query({**COINCHE, "taker_points": "110", "defence_points": "50"}),
        rules=rules,
        team_names=NAMES,
    )
    assert not sums.is_valid()
    [error] = sums.errors.as_data()["defence_points"]
    assert (error.code, error.messages) == (
        "points_sum",
        ["The two teams' card points add up to 162."],
    )
    belotes = DealForm(
        as_query({**COINCHE, "taker_points": "100", "belote0": "1", "belote1": "1"}),
        rules=rules,
        team_names=NAMES,
    )
    assert not belotes.is_valid()
    [error] = belotes.errors.as_data()["belote0"]
    assert (error.code, error.messages) == (
        "too_many_belotes_suit",
        ["only one belote-rebelote in a suit contract"],
    )
    tops = DealForm(
        as_query(
            {**BELOTE, "taker_points": "90", "ann0_0_kind": "tierce", "ann1_0_kind": "tierce"}
        ),
        rules=get_preset("belote"),
        team_names=NAMES,
    )
    assert not tops.is_valid()
    assert {name: [e.code for e in errors] for name, errors in tops.errors.as_data().items()} == {
        "ann0_0_high": ["top_card_required"],
        "ann1_0_high": ["top_card_required"],
    }
    assert tops.errors["ann0_0_high"] == [
        "Give the top card: it decides whose announcements count."
    ]


COINCHE = {"taker": "0", "contract": "100", "trump": "hearts", "coinche": "none",
           "belote0": "0", "belote1": "0"}  # fmt: skip
BELOTE = {"taker": "1", "trump": "spades", "belote0": "0", "belote1": "0"}


@pytest.mark.parametrize(
    ("preset", "post", "expected"),
    [
        ("coinche", {**COINCHE, "taker_points": "110"}, "deal"),
        ("coinche", {**COINCHE, "defence_points": "52"}, "deal"),
        ("coinche", {**COINCHE, "taker_points": "110", "defence_points": "50"}, "points_sum"),
        ("coinche", COINCHE, "required"),
        ("coinche", {**COINCHE, "taker_points": "163"}, "max_value"),
        ("coinche", {**COINCHE, "taker_points": "81.0"}, "deal"),
        ("coinche", {**COINCHE, "taker_points": "x"}, "invalid"),
        ("coinche", {**COINCHE, "contract": "capot"}, "deal"),  # preselected: the takers' capot
        ("coinche", {**COINCHE, "contract": "95", "taker_points": "100"}, "invalid_choice"),
        ("coinche", {**COINCHE, "taker_points": "100", "note": "a\x00"}, "control_character"),
        # the pattern (64 characters at most) speaks first, as in Django
        ("coinche", {**COINCHE, "taker_points": "100", "submission": "x" * 65}, "invalid"),
        (
            "coinche",
            {**COINCHE, "taker_points": "100", "belote0": "1", "belote1": "1"},
            "too_many_belotes_suit",
        ),
        ("coinche", {**COINCHE, "taker_points": "100", "version": "-1"}, "min_value"),
        ("coinche", {**COINCHE, "taker_points": "100", "version": "1000000000"}, "max_value"),
        ("coinche", {**COINCHE, "taker_points": "100", "submission": "a b"}, "invalid"),
        ("coinche", {**COINCHE, "taker_points": "100", "submission": "a-1_B"}, "deal"),
        ("belote", {**BELOTE, "taker_points": "82"}, "deal"),
        ("belote", {**BELOTE, "capot": "1", "generale": "on"}, None),
        ("belote", {**BELOTE, "taker_points": "82", "generale": "0"}, "generale_without_capot"),
        ("belote", {**BELOTE, "trump": "no_trump", "taker_points": "82"}, "invalid_choice"),
        (
            "belote",
            {**BELOTE, "taker_points": "90", "ann0_0_kind": "tierce", "ann1_0_kind": "tierce"},
            "top_card_required",
        ),
        (
            "belote",
            {
                **BELOTE,
                "taker_points": "90",
                "ann0_0_kind": "tierce",
                "ann0_0_high": "K",
                "ann1_0_kind": "quarte",
            },
            "deal",
        ),
    ],
)
def test_cases(preset: str, post: dict[str, str], expected: str | None) -> None:
    ours = assert_same(post, get_preset(preset))
    if expected == "deal":
        assert "deal" in ours
    elif expected is not None:
        assert ours["error"]["code"] == expected


def test_points_typed_over_a_preselected_capot_take_it_back() -> None:
    """Issue 41: as DealForm._preselect, card points typed over a bid's preselected capot take it
    back (and the générale's box): a failed bid, scored on them."""
    post = {**COINCHE, "contract": "generale", "capot": "0", "generale": "on",
            "preselected": "generale:0", "taker_points": "140"}  # fmt: skip
    ours = assert_same(post, get_preset("coinche"))
    deal = ours["deal"]
    assert "capot" not in deal and not deal.get("generale") and deal["taker_points"] == 140
