"""A concours file's import as a background job (issue 23; `jobs.services`, kind
"concours_import"): the import page's POST checks the file's size and that it is JSON, counts it
against IMPORTS_PER_HOUR, then starts it; the worker reads the file (two entrants of one name,
more than IMPORT_MAX_DEALS deals: refused before any scoring), scores each round's tables (a step
a round), then writes the concours in one transaction (a last step). The result, kept on the job
as JSON and worded in the page's language: the concours imported with its link, or the refusal
with its path (nothing written)."""

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from scorekeeper.engine.tournament import TournamentError
from scorekeeper.jobs.models import Job
from scorekeeper.jobs.services import Progress
from scorekeeper.web.words import explain

from . import services
from .words import refusal

KIND = "concours_import"


class ConcoursImport:
    template = "concours/jobs/import_result.html"

    def title(self) -> str:
        return _("Import a concours")

    def run(self, *, job: Job, data: bytes, progress: Progress) -> dict[str, Any]:
        owner = job.owner
        if owner is None:  # the account was deleted meanwhile (its jobs go with it)
            return {"refused": {"kind": "gone"}}

        def round_scored(done: int, total: int) -> None:
            if done == 1:
                progress.set_total(total + 1)  # each round, then the writing
            progress.advance()

        try:
            prepared = services.prepare_import(data, progress=round_scored)
            tournament = services.write_import(owner=owner, prepared=prepared)
        except TournamentError as error:
            path, code, params = error.path, error.code, dict(error.params)
            return {"refused": {"kind": "file", "path": path, "code": code, "params": params}}
        except services.Refused as error:
            return {"refused": {"kind": "state", "code": error.code, "params": dict(error.params)}}
        progress.advance()
        return {
            "concours": tournament.pk,
            "name": tournament.name,
            "entrants": len(prepared.entrants),
            "rounds": len(prepared.engine.rounds),
            "deals": prepared.deals,
        }

    def result_context(self, result: dict[str, Any]) -> dict[str, Any]:
        again = reverse("concours:import")
        if "refused" in result:
            refused = result["refused"]
            code = refused.get("code", "")  # a code the engine raised, read back from the job
            if refused["kind"] == "file":
                error = TournamentError(refused["path"], code, **refused["params"])
                reason = explain(error)
            elif refused["kind"] == "state":
                reason = refusal(services.Refused(code, **refused["params"]))
            else:
                reason = _("the account is gone.")
            return {
                "refused": _("Nothing was imported: %(reason)s") % {"reason": reason},
                "again": again,
            }
        return {
            "summary": _("“%(name)s” is imported.") % {"name": result["name"] or "—"},
            "url": reverse("concours:desk", kwargs={"pk": result["concours"]}),
            "again": again,
        }
