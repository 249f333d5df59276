"""{% load errors %}: what a form's error summary lists (partials/error_summary.html)."""

from django import forms, template

from scorekeeper.web.forms import ErrorSummary, error_summary

register = template.Library()


@register.filter(name="error_summary")
def error_summary_filter(form: forms.BaseForm) -> ErrorSummary:
    return error_summary(form)
