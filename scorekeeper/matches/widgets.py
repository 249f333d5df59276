"""The deal form's widgets, written out in Python.

The deal form has a dozen choice fields (chips and the announcements' selects, about 150 options)
and a dozen inputs; Django renders each widget, and each option, through included templates,
which was two thirds of the server's time for a deal (scripts/profile_deal_cycle.py). These
widgets write the very same HTML directly: `templates/matches/widgets/chips.html` and Django's
`select.html`, `select_option.html`, `input.html` and `attrs.html` stay the reference, and
tests/matches/test_widgets.py checks that both give identical bytes for every field of the form,
bound, unbound and with errors."""

import html
from typing import Any

from django import forms
from django.forms.widgets import Input
from django.utils.functional import Promise
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe


def _text(value: Any) -> str:
    """`{{ value }}` (and `{{ value|stringformat:'s' }}`): str() then escaped unless safe."""
    if type(value) is str:  # most of them: what conditional_escape does, without its checks
        return html.escape(value)
    if isinstance(value, Promise):  # a lazy translation: translated once, not per method call
        value = str(value)
    return str(conditional_escape(value))


def _attrs(attrs: dict[str, Any]) -> str:
    """django/forms/widgets/attrs.html: True is a bare attribute, False is left out."""
    out = []
    for name, value in attrs.items():
        if value is False:
            continue
        out.append(f" {_text(name)}" if value is True else f' {_text(name)}="{_text(value)}"')
    return "".join(out)


class FastInput(Input):
    """Django's input.html written out (number, text, hidden and checkbox inputs)."""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        value_attr = "" if widget["value"] is None else f' value="{_text(widget["value"])}"'
        return mark_safe(  # every part escaped
            f'<input type="{_text(widget["type"])}" name="{_text(widget["name"])}"'
            f"{value_attr}{_attrs(widget['attrs'])}>"
        )


class NumberInput(FastInput, forms.NumberInput):
    pass


class TextInput(FastInput, forms.TextInput):
    pass


class HiddenInput(FastInput, forms.HiddenInput):
    pass


class CheckboxInput(FastInput, forms.CheckboxInput):
    pass


class FastSelect(forms.Select):
    """forms.Select with Django's select.html and select_option.html written out."""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        out = [f'<select name="{_text(widget["name"])}"{_attrs(widget["attrs"])}>']
        for group_name, options, _index in widget["optgroups"]:
            if group_name:
                out.append(f'\n  <optgroup label="{_text(group_name)}">')
            for option in options:
                out.append(
                    f'\n  <option value="{_text(option["value"])}"{_attrs(option["attrs"])}>'
                    f"{_text(option['label'])}</option>\n"  # select_option.html's last line
                )
            if group_name:
                out.append("\n  </optgroup>")
        out.append("\n</select>")
        return mark_safe("".join(out))  # every part escaped above


class ChipSelect(forms.RadioSelect):
    """Radio buttons drawn as big tappable chips (see .chips in app.css): the markup of
    templates/matches/widgets/chips.html, written out."""

    template_name = "matches/widgets/chips.html"

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        out = ['<div class="chips">']
        for _group, options, _index in widget["optgroups"]:
            for option in options:
                value_attr = "" if option["value"] is None else f' value="{_text(option["value"])}"'
                out.append(
                    f'<label class="chip"><input type="{_text(option["type"])}"'
                    f' name="{_text(option["name"])}"{value_attr}{_attrs(option["attrs"])}>'
                    f"<span>{_text(option['label'])}</span></label>"
                )
        out.append("</div>")
        return mark_safe("".join(out))  # every part escaped above
