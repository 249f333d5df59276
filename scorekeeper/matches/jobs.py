"""The matches app's kind of background job (settings.JOB_KINDS, see jobs/services.py): importing
a match file of more than IMPORT_INLINE_DEALS deals (a smaller one is imported in the request).
Three steps: the file read and checked, its deals scored, the match written; a file refused
reports the place and the reason, as the import page does."""

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.engine.scoring import InvalidInput, load_match
from scorekeeper.jobs.models import Job
from scorekeeper.jobs.services import Progress
from scorekeeper.web.words import explain

from . import services


class MatchImport:
    template = "jobs/result.html"

    def title(self) -> str:
        return _("Import a match file")

    def run(self, *, job: Job, data: bytes, progress: Progress) -> dict[str, Any]:
        progress.set_total(3)
        try:
            match_file = services.check_importable(load_match(data))
        except InvalidInput as error:
            return {"refused": [error.path, error.code, error.params]}
        progress.advance()
        scored = match_file.score()
        progress.advance()
        [match] = services.import_matches(
            match_files=[match_file], results=[scored], owner_key=job.owner_key, owner=job.owner
        )
        progress.advance()
        return {
            "teams": list(match.team_names),
            "deals": match.deal_count,
            "url": reverse("matches:scoreboard", args=[match.scorer_token]),
        }

    def result_context(self, result: dict[str, Any]) -> dict[str, Any]:
        another = {"label": _("Import another match file"), "url": reverse("matches:import")}
        if "refused" in result:
            path, code, params = result["refused"]
            reason = explain(InvalidInput(path, code, **params))
            return {
                "summary": _("This match file cannot be imported: %(reason)s") % {"reason": reason},
                "links": [another],
            }
        deals = result["deals"]
        return {
            "summary": _("Match imported."),
            "lines": [
                ngettext("%(teams)s, %(deals)s deal", "%(teams)s, %(deals)s deals", deals)
                % {"teams": " – ".join(result["teams"]), "deals": deals}
            ],
            "links": [{"label": _("Open the match"), "url": result["url"]}, another],
        }
