"""The history's kind of background job (settings.JOB_KINDS, see jobs/services.py): restoring a
backup. The page admits the zip in the request (exports.admit_backup: readable, within the deal
limits, counted against the account's hour) and starts the job; the job writes the matches
(exports.write_backup, a step per file) and its result lists them and the files refused, worded
here in the page's language (the job's page, and restore_done for a result kept in a session
before jobs)."""

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.engine.scoring import InvalidInput
from scorekeeper.jobs.models import Job
from scorekeeper.jobs.services import Progress
from scorekeeper.web.words import explain

from . import exports

LISTED = 500  # restored matches and refused files named in the result (the rest are counted)


def restore_result(result: exports.RestoreResult) -> dict[str, Any]:
    """The result as JSON: [name, view token, team, team, deals] per match restored, [name, path,
    code, params] per file refused, and the counts."""
    return {
        "restored": [
            [r.name, r.match.view_token, *r.match.team_names, r.match.deal_count]
            for r in result.restored[:LISTED]
        ],
        "refused": [
            [r.name, r.error.path, r.error.code, r.error.params] for r in result.refused[:LISTED]
        ],
        "counts": [len(result.restored), len(result.refused)],
    }


def restore_words(saved: dict[str, Any]) -> dict[str, Any]:
    """What the result page says (history/restore_result.html), in the page's language."""
    restored, refused = saved["counts"]
    summary = ngettext("%(n)s match restored.", "%(n)s matches restored.", restored) % {
        "n": restored
    }
    if refused:
        summary = _("%(restored)s, %(refused)s.") % {
            "restored": ngettext("%(n)s match restored", "%(n)s matches restored", restored)
            % {"n": restored},
            "refused": ngettext("%(n)s file refused", "%(n)s files refused", refused)
            % {"n": refused},
        }
    return {
        "summary": summary,
        "restored": [
            {"name": name, "token": token, "teams": f"{team0} – {team1}", "deals": deals}
            for name, token, team0, team1, deals in saved["restored"]
        ],
        "refused": [
            _("%(path)s: %(reason)s")
            % {"path": name, "reason": explain(InvalidInput(path, code, **dict(*params)))}
            # [name, path, code, params]; a session from before codes holds [name, path, message]
            # (shown as it is: an unknown code is its own words).
            for name, path, code, *params in saved["refused"]
        ],
        "more_restored": restored - len(saved["restored"]),
        "more_refused": refused - len(saved["refused"]),
    }


class HistoryRestore:
    """Restoring a backup for its account (`job.owner`), a step per file of the zip."""

    template = "history/restore_result.html"

    def title(self) -> str:
        return _("Restore a backup")

    def run(self, *, job: Job, data: bytes, progress: Progress) -> dict[str, Any]:
        assert job.owner is not None  # a restore needs an account (views.restore)
        written = exports.write_backup(
            data=data, owner_key=job.owner_key, owner=job.owner, progress=progress
        )
        return restore_result(written)

    def result_context(self, result: dict[str, Any]) -> dict[str, Any]:
        return restore_words(result)
