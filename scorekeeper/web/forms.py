"""What every form of the site shares: the error summary's contents, and fields that point at
their error messages (aria-describedby) even when they are a group of radios.

The templates give each field's message the id `<field id>_error` (partials/field.html,
partials/chipfield.html and the deal form's announcement rows), as Django's own do."""

from dataclasses import dataclass
from typing import Any

from django import forms
from django.forms.renderers import TemplatesSetting
from django.utils.translation import gettext as _


class DescribedBoundField(forms.BoundField):
    """Django names a field's error message in its widget's aria-describedby, but not for widgets
    drawn in a fieldset (radios): their radios get aria-invalid only. Here they get both, so a
    screen reader says what is wrong when a radio of the group takes focus."""

    def build_widget_attrs(self, attrs: dict[str, Any], widget: Any = None) -> dict[str, Any]:
        attrs = super().build_widget_attrs(attrs, widget)
        if self.use_fieldset and self.errors and self.auto_id and "aria-describedby" not in attrs:
            attrs["aria-describedby"] = f"{self.auto_id}_error"
        return attrs


class FormRenderer(TemplatesSetting):
    """settings.FORM_RENDERER: widgets drawn from templates/ (TemplatesSetting), every form's
    fields described as above."""

    bound_field_class = DescribedBoundField


def focus_target(field: forms.BoundField) -> str:
    """The id of the control a link to `field` should focus: a group's first radio, else the
    field's own control."""
    if field.field.widget.use_fieldset:
        subwidgets = field.subwidgets
        return str(subwidgets[0].id_for_label) if subwidgets else ""
    return str(field.id_for_label or "")


@dataclass(frozen=True)
class FieldErrors:
    target: str  # the id the link goes to
    label: str
    messages: list[str]


@dataclass(frozen=True)
class ErrorSummary:
    messages: list[str]  # the form's own errors and its hidden fields' (no field to go to)
    fields: list[FieldErrors]  # the visible fields in error, in page order


def error_summary(form: forms.BaseForm) -> ErrorSummary:
    """What partials/error_summary.html lists for `form`."""
    messages = [str(error) for error in form.non_field_errors()]
    fields = []
    for field in form:
        if not field.errors:
            continue
        if field.is_hidden:
            messages.extend(str(error) for error in field.errors)
        else:
            fields.append(
                FieldErrors(focus_target(field), str(field.label), [str(e) for e in field.errors])
            )
    return ErrorSummary(list(dict.fromkeys(messages)), fields)  # a message said once


def too_large(limit: int) -> forms.ValidationError:
    """An upload over `limit` bytes (settings.MATCH_FILE_MAX_BYTES or BACKUP_MAX_BYTES, the one
    place the limits are defined), in words."""
    return forms.ValidationError(
        _("The file is too large (%(size)s MB at most).") % {"size": limit // (1024 * 1024)}
    )
