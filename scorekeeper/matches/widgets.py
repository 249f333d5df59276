"""The deal form's chips: radio buttons drawn as big tappable chips (see .chips in app.css).

Their HTML is written in one place, templates/matches/widgets/chips.html; the form's other
widgets are Django's, drawn from its templates (input and select from the faster copies in
templates/django/forms/widgets/, which draw the same HTML). Rendering the deal form's inputs (a
dozen choice fields, about 150 options) through templates is the dearest part of a deal's page,
so a new deal's inputs are rendered once per match and language and then remembered
(fragments.py): the templates are drawn for a match's first deal, an edit, or a form sent back
with errors."""

from django import forms


class ChipSelect(forms.RadioSelect):
    """Radio buttons drawn as chips, by templates/matches/widgets/chips.html."""

    template_name = "matches/widgets/chips.html"
