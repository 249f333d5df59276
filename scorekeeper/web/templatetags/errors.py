"""{% load errors %}: what a form's error summary lists (partials/error_summary.html); whether a
page's messages warn (partials/messages.html)."""

from collections.abc import Iterable

from django import forms, template
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message

from scorekeeper.web.forms import ErrorSummary, error_summary

register = template.Library()


@register.filter(name="error_summary")
def error_summary_filter(form: forms.BaseForm) -> ErrorSummary:
    return error_summary(form)


@register.filter
def warns(messages: Iterable[Message]) -> bool:
    """Whether a page's messages (partials/messages.html) hold a warning or an error: they are
    then an alert, not a mere status."""
    return any(message.level >= constants.WARNING for message in messages)
