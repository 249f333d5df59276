"""templates/django/forms/widgets/ holds faster copies of Django's input and select templates
(attrs.html and select_option.html written in, so that a select of 20 options is one template
rendered, not 41): they must draw exactly what Django's own templates draw."""

from typing import Any

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates

from scorekeeper.web.forms import FormRenderer

CHOICES = [("", "—"), ("a", "Anna"), ("b", "Ben & <Chloé>"), (1, "One"), (None, "Nothing")]
GROUPED = [("Team 1", [("a", "Anna"), ("c", "Chloé")]), ("Team 2", [("b", "Ben")]), ("x", "Loose")]


class LabelledOption(forms.Select):
    """A select whose options are drawn by another template: the copy must still include it."""

    option_template_name = "django/forms/widgets/input_option.html"


WIDGETS: list[tuple[str, forms.Widget, Any]] = [
    ("select", forms.Select(choices=CHOICES), "b"),
    ("select none chosen", forms.Select(choices=CHOICES), None),
    ("select of an integer", forms.Select(choices=CHOICES), 1),
    ("select with groups", forms.Select(choices=GROUPED), "c"),
    (
        "select with attrs",
        forms.Select(
            choices=CHOICES,
            attrs={"required": True, "disabled": False, "aria-describedby": 'x"y', "class": "big"},
        ),
        "a",
    ),
    ("select multiple", forms.SelectMultiple(choices=GROUPED), ["a", "b"]),
    ("null boolean", forms.NullBooleanSelect(), True),
    ("other option template", LabelledOption(choices=CHOICES), "a"),
    ("text", forms.TextInput(attrs={"maxlength": 40, "autofocus": True}), "Ben & <Chloé>"),
    ("text empty", forms.TextInput(), None),
    ("number", forms.NumberInput(attrs={"min": 0, "step": 10, "inputmode": "numeric"}), 162),
    ("hidden", forms.HiddenInput(), "v1"),
    ("multiple hidden", forms.MultipleHiddenInput(), ["1", "2"]),
    ("email", forms.EmailInput(attrs={"readonly": True}), "a@b.c"),
    ("password", forms.PasswordInput(render_value=True), "secret"),
    ("date", forms.DateInput(), "2026-11-27"),
    ("checkbox", forms.CheckboxInput(), True),
    ("checkbox off", forms.CheckboxInput(attrs={"disabled": True}), False),
    ("checkboxes", forms.CheckboxSelectMultiple(choices=GROUPED), ["a"]),
    ("radios", forms.RadioSelect(choices=CHOICES), "b"),
    ("file", forms.ClearableFileInput(), None),
]


@pytest.mark.parametrize(("widget", "value"), [w[1:] for w in WIDGETS], ids=[w[0] for w in WIDGETS])
def test_the_sites_widget_templates_draw_what_djangos_draw(
    widget: forms.Widget, value: Any
) -> None:
    attrs = {"id": "id_field"}
    ours = widget.render("field", value, attrs, renderer=FormRenderer())
    djangos = widget.render("field", value, attrs, renderer=DjangoTemplates())
    assert ours == djangos
    assert ours  # something was drawn


def test_the_copies_are_the_ones_drawn() -> None:
    """The site's renderer reads templates/ first: the copies, not Django's own."""
    renderer = FormRenderer()
    for name in ("input", "select"):
        template = renderer.get_template(f"django/forms/widgets/{name}.html")
        assert template is not None
        origin = template.origin.name
        assert "/templates/django/forms/widgets/" in origin and "site-packages" not in origin
