"""A club's public pages (issue 16), under /club/<slug>/, no account needed: the club page (its
upcoming and past published concours, its published seasons), a concours's final ranking, a
season's ranking (sortable by concours won; as CSV and as a printable A4 page), a team's or
player's record with its chart of places. Only what the organisers published: an unpublished
concours or season, or a person no published concours holds, is a 404.

The club's archive (a zip of its concours' files, seasons, people and merges) and its restore
are for the club's organisers only (404 for anyone else, signed in or not), linked from their
desk."""

import io
import zipfile

from django import forms
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from scorekeeper.engine.tournament import TournamentError
from scorekeeper.jobs.services import JobRefused, active_job, start_job
from scorekeeper.matches.access import device_key
from scorekeeper.web import throttle
from scorekeeper.web.words import reason

from .. import exports, public_selectors
from .. import jobs as club_jobs
from ..charts import places_chart, places_text
from ..models import Club, ClubOrganiser, Person, Season


def _club(slug: str) -> Club:
    return get_object_or_404(Club, slug=slug)


def _season(club: Club, pk: int) -> Season:
    return get_object_or_404(Season, club=club, pk=pk, published=True)


@require_safe
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    page = public_selectors.club_page(club)
    query = " ".join(request.GET.get("q", "").split())[: public_selectors.MAX_QUERY]
    found, more = public_selectors.find_people(club, query)
    context = {
        "page": page,
        "club": club,
        "organiser": _is_organiser(request, club),
        "query": query,
        "found": found,
        "more": more,
    }
    return render(request, "clubs/public/club.html", context)


@require_safe
def concours_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = _club(slug)
    item = public_selectors.concours_page(club, pk)
    if item is None:
        raise Http404
    people = public_selectors.People.of(club)
    links = public_selectors.links(item, people)
    rows = [
        {**row, "name": links[int(row["id"])]["name"], "links": links[int(row["id"])]}
        for row in item.ranking
    ]
    return render(request, "clubs/public/concours.html", {"club": club, "item": item, "rows": rows})


def _sort(request: HttpRequest) -> str:
    value = request.GET.get("sort", "rank")
    return value if value in public_selectors.SORTS else "rank"


@require_safe
def season_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = _club(slug)
    page = public_selectors.season_page(club, _season(club, pk))
    sort = _sort(request)
    context = {
        "club": club,
        "page": page,
        "rows": _rows(club, page, sort),
        "sort": sort,
        "sorts": [
            ("rank", _("Rank")),
            ("wins", _("Concours won")),
            ("played", pgettext("concours counted", "Played")),
            ("name", _("Name")),
        ],
    }
    return render(request, "clubs/public/season.html", context)


def _rows(club: Club, page: public_selectors.SeasonPage, sort: str) -> list[dict[str, object]]:
    """The ranking's rows with each record's address (built once: hundreds of rows)."""
    prefix = reverse("club_public:record", args=[club.slug, 0]).removesuffix("0/")
    out: list[dict[str, object]] = []
    for row in public_selectors.sorted_rows(page, sort):
        if row.key.startswith(public_selectors.NO_PLAYERS):
            continue
        person = public_selectors.person_id(row.key)
        out.append(
            {
                "rank": row.rank,
                "name": row.name,
                "url": f"{prefix}{person}/" if person is not None else "",
                "score": row.score,
                "won": row.won,
                "best": row.best_place,
                "played": row.played,
                "counted": len(row.counted),
            }
        )
    return out


@require_safe
def season_print(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = _club(slug)
    page = public_selectors.season_page(club, _season(club, pk))
    context = {"club": club, "page": page, "rows": _rows(club, page, "rank")}
    return render(request, "clubs/public/season_print.html", context)


CSV_HEADER = (
    gettext_lazy("Rank"),
    gettext_lazy("Name"),
    gettext_lazy("Score"),
    gettext_lazy("Results counted"),
    gettext_lazy("Concours won"),
    gettext_lazy("Best place"),
    pgettext_lazy("concours counted", "Played"),
    gettext_lazy("Podiums"),
    gettext_lazy("Average place"),
)


@require_safe
def season_csv(request: HttpRequest, slug: str, pk: int) -> StreamingHttpResponse:
    club = _club(slug)
    season = _season(club, pk)
    page = public_selectors.season_page(club, season)
    header = [str(name) for name in CSV_HEADER]
    response = StreamingHttpResponse(
        exports.season_csv(page, header), content_type="text/csv; charset=utf-8"
    )
    name = slugify(f"{club.slug}-{season.name}") or "season"
    response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
    return response


@require_safe
def record_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    club = _club(slug)
    person = get_object_or_404(Person, club=club, pk=pk)
    page = public_selectors.record_page(club, person)
    if page is None:
        raise Http404
    results = page.results
    context = {
        "club": club,
        "page": page,
        "record": page.record,
        "best": page.record.best,
        "results": list(reversed(results)),
        "chart": places_chart(results) if len(results) > 1 else None,
        "chart_text": places_text(results),
    }
    return render(request, "clubs/public/record.html", context)


# ---------------------------------------------------------------------------------------------
# The archive: organisers only


def _is_organiser(request: HttpRequest, club: Club) -> bool:
    user = request.user
    return bool(
        user.is_authenticated and ClubOrganiser.objects.filter(club=club, user=user).exists()
    )


def _organised(request: HttpRequest, slug: str) -> Club:
    club = _club(slug)
    if not _is_organiser(request, club):
        raise Http404
    return club


@require_safe
def archive(request: HttpRequest, slug: str) -> HttpResponse:
    club = _organised(request, slug)
    response = HttpResponse(exports.archive_zip(club), content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="club-{club.slug}.zip"'
    return response


class RestoreForm(forms.Form):
    """The archive's size and that it is a zip, checked at once; the job reads the rest."""

    file = forms.FileField(label=gettext_lazy("Club archive (.zip)"))

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        if upload.size > settings.BACKUP_MAX_BYTES:
            raise forms.ValidationError(
                _("The file is too large: at most %(mb)s MB.")
                % {"mb": settings.BACKUP_MAX_BYTES // (1024 * 1024)}
            )
        data: bytes = upload.read()
        if not zipfile.is_zipfile(io.BytesIO(data)):
            raise forms.ValidationError(
                _("Nothing was restored: %(reason)s") % {"reason": reason("not_zip")}
            )
        return data


@require_http_methods(["GET", "HEAD", "POST"])
def restore(request: HttpRequest, slug: str) -> HttpResponse:
    """The restore's form. Its POST admits the archive at once (`exports.admit_archive`: the
    zip, the manifest, the deals counted against the limits and the account's hour; a refusal
    is said here, nothing started), then starts the restore as a background job
    (clubs/jobs.py) and shows the job's page: its progress, then what was restored or why
    nothing was. One job at a time."""
    club = _organised(request, slug)
    bound = request.method == "POST"
    form = RestoreForm(request.POST if bound else None, request.FILES if bound else None)
    status, busy, wait = 200, None, None
    if bound and form.is_valid():
        assert request.user.is_authenticated
        owner_key, data = device_key(request), form.cleaned_data["file"]
        try:
            if (busy := active_job(owner=request.user, owner_key=owner_key)) is not None:
                raise JobRefused(busy)
            exports.admit_archive(club=club, owner=request.user, data=data)
            job = start_job(
                kind=club_jobs.KIND,
                owner=request.user,
                owner_key=owner_key,
                data=data,
                params=club_jobs.params(club),
            )
        except JobRefused as refused:
            status, busy = 409, refused.active
            form.add_error(
                "file",
                _(
                    "Nothing was restored: a job of yours is still running (see My jobs). "
                    "Wait for it to end, then try again."
                ),
            )
        except (TournamentError, exports.FileRefused, exports.HourlyLimit) as error:
            if isinstance(error, exports.HourlyLimit):
                status, wait = 429, error.seconds
            form.add_error("file", club_jobs.refusal_words(error))
        else:
            return redirect("jobs:job", pk=job.pk)
    context = {"club": club, "form": form, "busy": busy}
    page = render(request, "clubs/public/restore.html", context, status=status)
    return throttle.retry_after(page, wait)
