"""The deal form's widgets are drawn by their templates, the one place their HTML is written
(issue 24): the chips by templates/matches/widgets/chips.html, every other widget by Django's
own template. No widget of the form writes HTML in Python; what they draw is the expected HTML,
for every kind of widget, unbound, with input and with errors, and the team names are escaped in
English and French. (A new deal's inputs are rendered once per match: see fragments.py.)"""

from collections.abc import Iterator

import pytest
from django import forms
from django.forms.renderers import get_default_renderer
from django.utils import translation

from scorekeeper.engine.scoring import get_preset, rules_from_dict
from scorekeeper.matches.forms import DealForm
from scorekeeper.matches.widgets import ChipSelect

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
def test_every_widget_of_the_deal_form_is_drawn_by_its_template(lang: str) -> None:
    renderer = get_default_renderer()
    checked = chips = escaped = 0
    with translation.override(lang):
        for form in deal_forms():
            for field in form:
                widget = field.field.widget
                assert type(widget).render is forms.Widget.render, field.name  # no HTML in Python
                renderer.get_template(widget.template_name)  # a template of the project or Django's
                html = str(field)
                assert "<b>co</b>" not in html, field.name
                checked += 1
                chips += isinstance(widget, ChipSelect)
                escaped += "&lt;b&gt;co&lt;/b&gt;" in html  # the team names, escaped
    assert checked > 100
    assert chips > 10
    assert escaped > 10


def test_chips_are_radio_buttons_in_labels() -> None:
    form = DealForm(rules=get_preset("coinche"), team_names=NAMES, initial={"taker": "1"})
    assert str(form["taker"]) == (
        '<div class="chips">'
        '<label class="chip"><input type="radio" name="taker" value="0" required id="id_taker_0">'
        "<span>Les &quot;As&quot; &amp; &lt;b&gt;co&lt;/b&gt;</span></label>"
        '<label class="chip"><input type="radio" name="taker" value="1" required id="id_taker_1"'
        " checked><span>Eux d&#x27;en face</span></label>"
        "</div>"
    )


def test_chips_in_error_name_their_message() -> None:
    form = DealForm({"taker": "1", "trump": "bogus"}, rules=get_preset("belote"), team_names=NAMES)
    form.is_valid()
    invalid = 'required aria-invalid="true" aria-describedby="id_trump_error"'
    assert str(form["trump"]) == (
        '<div class="chips">'
        f'<label class="chip"><input type="radio" name="trump" value="spades" {invalid}'
        ' id="id_trump_0"><span>♠ spades</span></label>'
        f'<label class="chip"><input type="radio" name="trump" value="hearts" {invalid}'
        ' id="id_trump_1"><span>♥ hearts</span></label>'
        f'<label class="chip"><input type="radio" name="trump" value="diamonds" {invalid}'
        ' id="id_trump_2"><span>♦ diamonds</span></label>'
        f'<label class="chip"><input type="radio" name="trump" value="clubs" {invalid}'
        ' id="id_trump_3"><span>♣ clubs</span></label>'
        "</div>"
    )


def test_the_other_widgets_are_djangos() -> None:
    form = DealForm(
        {"taker": "1", "ann1_1_trump": "on", "ann0_0_kind": "tierce"},
        rules=get_preset("coinche"),
        team_names=NAMES,
    )
    form.is_valid()
    kinds = ["tierce", "quarte", "quinte", "carre_J", "carre_9", "carre_A", "carre_10"]
    kinds += ["carre_K", "carre_Q"]
    options = "".join(
        f'\n  <option value="{k}"{" selected" if k == "tierce" else ""}>'
        f"{k.replace('carre_', 'carré of ')}</option>\n"
        for k in kinds
    )
    assert str(form["ann0_0_kind"]) == (
        '<select name="ann0_0_kind" id="id_ann0_0_kind">'
        f'\n  <option value="">—</option>\n{options}\n</select>'
    )
    assert str(form["ann1_1_trump"]) == (
        '<input type="checkbox" name="ann1_1_trump" id="id_ann1_1_trump" checked>'
    )
    assert str(form["taker_points"]) == (
        '<input type="number" name="taker_points" inputmode="numeric" autocomplete="off"'
        ' min="0" max="162" aria-invalid="true" aria-describedby="id_taker_points_error"'
        ' id="id_taker_points">'
    )
