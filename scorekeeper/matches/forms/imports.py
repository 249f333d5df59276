"""A match file to import."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from scorekeeper.engine.scoring import InvalidInput, load_match
from scorekeeper.engine.scoring.matchfile import MatchFile
from scorekeeper.web.forms import too_large
from scorekeeper.web.words import explain

from ..services.imports import MAX_DEALS, check_importable, deals_in


class ImportForm(forms.Form):
    """A match file: read and checked whole (a MatchFile), but one of more than
    IMPORT_INLINE_DEALS deals is only counted (JSON read, no scoring) and kept as its bytes, for a
    background job (matches/jobs.py) to check and import."""

    file = forms.FileField(label=_("Match file (.json)"))

    def clean_file(self) -> MatchFile | bytes:
        upload = self.cleaned_data["file"]
        if upload.size > settings.MATCH_FILE_MAX_BYTES:
            raise too_large(settings.MATCH_FILE_MAX_BYTES)
        data: bytes = upload.read()
        try:
            if (deals := deals_in(data)) > settings.IMPORT_INLINE_DEALS:
                if deals > MAX_DEALS:
                    raise InvalidInput("deals", "too_many_deals", max=MAX_DEALS)
                return data
            return check_importable(load_match(data))
        except InvalidInput as error:
            raise forms.ValidationError(
                _("This match file cannot be imported: %(reason)s") % {"reason": explain(error)}
            ) from None
