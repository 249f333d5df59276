"""The deal form's choice widgets are written out in Python for speed (matches/widgets.py): they
give byte for byte what their templates give (chips.html, Django's select.html), for every field
of the form, unbound, with input, with errors, in English and French, with names to escape."""

from collections.abc import Iterator

import pytest
from django import forms
from django.utils import translation

from scorekeeper.engine.scoring import get_preset, rules_from_dict
from scorekeeper.matches.forms import DealForm
from scorekeeper.matches.widgets import ChipSelect, FastInput, FastSelect

NAMES = ('Les "As" & <b>co</b>', "Eux d'en face")


def deal_forms() -> Iterator[DealForm]:
    for rules in (
        get_preset("coinche"),
        get_preset("belote"),
        rules_from_dict({"preset": "coinche", "sa_ta": True, "capot_bid": 250}),
    ):
        yield DealForm(rules=rules, team_names=NAMES, initial={"version": 1})
        yield DealForm(
            rules=rules,
            team_names=NAMES,
            initial={"taker": "1", "trump": "spades", "contract": "100", "ann0_0_kind": "tierce"},
        )
        bound = DealForm(
            {
                "taker": "1",
                "trump": "bogus",
                "capot": "0",
                "ann1_1_high": "K",
                "ann1_1_trump": "on",
                "belote0": "9",
                "taker_points": "200",
                "note": '<script>"x"</script>',
                "generale": "on",
            },
            rules=rules,
            team_names=NAMES,
        )
        bound.is_valid()
        yield bound


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_python_widgets_render_what_their_templates_render(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked = escaped = 0
    with translation.override(lang):
        for form in deal_forms():
            for field in form:
                if not isinstance(field.field.widget, ChipSelect | FastSelect | FastInput):
                    continue
                fast = str(field)
                with monkeypatch.context() as patch:
                    patch.setattr(type(field.field.widget), "render", forms.Widget.render)
                    reference = str(field)
                assert fast == reference, field.name
                checked += 1
                escaped += "&lt;b&gt;co&lt;/b&gt;" in fast  # the team names, escaped alike
    assert checked > 100
    assert escaped > 10
