"""The club archive's restore as a background job (issue 23; `jobs.services`, kind
"club_restore"): the restore page admits the archive in the request (`exports.admit_archive`:
its size, the zip, the manifest, the deals counted against the limits and the account's hour)
and starts it; the worker reads and scores each concours (a step each), then writes them all in
one transaction (a step each, the count seen when it commits). The result, kept on the job as
JSON and worded in the page's language: the counts and links of the old result message, or the
one refusal with its path (nothing written)."""

from typing import Any

from django.contrib.auth.models import User
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.concours import services as tournament_services
from scorekeeper.concours.words import refusal
from scorekeeper.engine.tournament import TournamentError
from scorekeeper.jobs.models import Job
from scorekeeper.jobs.services import Progress

from . import exports
from .models import Club, ClubOrganiser
from .words import REFUSALS, archive_error, hourly_limit

KIND = "club_restore"


def params(club: Club) -> dict[str, Any]:
    return {"club": club.pk}


class ClubRestore:
    template = "clubs/jobs/restore_result.html"

    def title(self) -> str:
        return _("Restore a club archive")

    def run(self, *, job: Job, data: bytes, progress: Progress) -> dict[str, Any]:
        club = Club.objects.filter(pk=job.params.get("club")).first()
        owner = job.owner
        if club is None or owner is None or not _organises(owner, club):
            return {"refused": {"kind": "club", "code": "not_organiser"}}
        steps = _Steps(progress)
        try:
            plan = exports.read_archive(
                club=club, owner=owner, data=data, progress=steps.read, admitted=True
            )
            steps.writing(len(plan.concours))
            result = exports.write_archive(club=club, owner=owner, plan=plan, progress=steps.wrote)
        except (TournamentError, exports.FileRefused, exports.HourlyLimit) as error:
            return {"refused": refused_json(error), "club": _club(club)}
        club.refresh_from_db(fields=["name"])  # a fresh club takes the archive's
        return {
            "club": _club(club),
            "restored": [[t.pk, t.name] for t in result.restored],
            "skipped": len(result.skipped),
            "seasons": result.seasons,
            "merges": result.merges,
        }

    def result_context(self, result: dict[str, Any]) -> dict[str, Any]:
        club = result.get("club")
        links = _links(club) if club else {}
        if "refused" in result:
            return {"refused": _refusal(result["refused"]), **links}
        restored = result["restored"]
        text = ngettext("%(n)s concours restored.", "%(n)s concours restored.", len(restored)) % {
            "n": len(restored)
        }
        if skipped := result["skipped"]:
            text += " " + ngettext(
                "%(n)s skipped: the club already has it.",
                "%(n)s skipped: the club already has them.",
                skipped,
            ) % {"n": skipped}
        if seasons := result["seasons"]:
            text += " " + ngettext("%(n)s season restored.", "%(n)s seasons restored.", seasons) % {
                "n": seasons
            }
        if merges := result["merges"]:
            text += " " + ngettext(
                "%(n)s merge of names restored.", "%(n)s merges of names restored.", merges
            ) % {"n": merges}
        return {
            "summary": text,
            **links,
            "concours": [
                {"name": name, "url": reverse("concours:desk", kwargs={"pk": pk})}
                for pk, name in restored
            ],
        }


class _Steps:
    """The job's progress: one step a concours read and scored, one a concours written."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.read_total = 0

    def read(self, done: int, total: int) -> None:
        if done == 1:
            self.read_total = total
            self.progress.set_total(2 * total)
        self.progress.advance()

    def writing(self, total: int) -> None:
        if self.read_total != total:
            self.progress.set_total(self.progress.done + total)

    def wrote(self, done: int, total: int) -> None:
        self.progress.advance()  # saved inside the write's transaction: seen when it commits


def _club(club: Club) -> dict[str, Any]:
    return {"pk": club.pk, "slug": club.slug, "name": club.name}


def _links(club: dict[str, Any]) -> dict[str, Any]:
    return {
        "club": {"name": club["name"], "url": reverse("clubs:desk", kwargs={"pk": club["pk"]})},
        "again": reverse("club_public:restore", kwargs={"slug": club["slug"]}),
    }


def _organises(user: User, club: Club) -> bool:
    return ClubOrganiser.objects.filter(club=club, user=user).exists()


def refused_json(error: Exception) -> dict[str, Any]:
    """A refusal of the restore (exports' ArchiveError, FileRefused, HourlyLimit) as JSON: its
    kind, path, code and params, worded when shown (`_refusal`)."""
    if isinstance(error, exports.FileRefused):
        code, params = error.refusal.code, dict(error.refusal.params)
        return {"kind": "file", "path": error.file, "code": code, "params": params}
    if isinstance(error, exports.HourlyLimit):
        return {"kind": "hour", "limit": error.limit, "seconds": error.seconds}
    assert isinstance(error, TournamentError)  # an ArchiveError: the path starts with the file
    path, code, params = error.path, error.code, dict(error.params)
    return {"kind": "archive", "path": path, "code": code, "params": params}


def refusal_words(error: Exception) -> str:
    """A refusal of the restore in the page's language (the restore page says it at once)."""
    return _refusal(refused_json(error))


def _refusal(refused: dict[str, Any]) -> str:
    """The refusal, in the page's language: where (the file, the place in it), then what."""
    kind = refused["kind"]
    if kind == "archive":
        error = exports.ArchiveError(refused["path"], refused["code"], **refused["params"])
        return _("Nothing was restored: %(reason)s") % {"reason": archive_error(error)}
    if kind == "file":
        text = refusal(tournament_services.Refused(refused["code"], **refused["params"]))
        if refused["path"]:
            text = _("%(path)s: %(reason)s") % {"path": refused["path"], "reason": text}
        return _("Nothing was restored: %(reason)s") % {"reason": text}
    if kind == "hour":
        return hourly_limit(refused["limit"], refused["seconds"])
    return _("Nothing was restored: %(reason)s") % {"reason": str(REFUSALS[refused["code"]])}
