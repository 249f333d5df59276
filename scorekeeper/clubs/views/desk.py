"""The club organiser's pages (issue 16), signed in, under /clubs/: the organiser's clubs and a
new one; a club's desk (its organisers and invite link, its concours to attach, publish or
detach, its seasons); a season's form; the merge tool. Thin views: a form reads, a service
writes, POST-redirect-GET; a refusal is a message and changes nothing. Every club page is its
organisers' alone: 404 for anyone else (no hint the club exists)."""

import unicodedata

from django.contrib import messages
from django.contrib.auth.models import User
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scorekeeper.concours.models import Tournament
from scorekeeper.engine.season import rule_from_dict
from scorekeeper.engine.tournament import TournamentError
from scorekeeper.web.addresses import absolute_url
from scorekeeper.web.words import reason

from .. import selectors, services
from ..forms import ClubForm, SeasonForm
from ..models import NAME_MAX, Club, Person, Season, spelling_key
from ..services import Refused
from ..words import refusal, rule_error

MAX_OWN_CONCOURS = 200  # the organiser's concours offered to attach, newest first


def _login(request: HttpRequest) -> HttpResponse:
    return redirect(f"{reverse('accounts:login')}?next={request.path}")


def _club(request: HttpRequest, pk: int) -> Club:
    """A club its organiser opens; 404 for anyone else, signed in or not."""
    club = selectors.organised(request.user, pk)
    if club is None:
        raise Http404
    return club


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _back(club: Club, anchor: str = "") -> HttpResponse:
    url = reverse("clubs:desk", args=[club.pk])
    return redirect(f"{url}#{anchor}" if anchor else url)


def _public(name: str, *args: object) -> str | None:
    """A URL of the club's public pages (club_public), None if they are not installed."""
    try:
        return reverse(f"club_public:{name}", args=args)
    except NoReverseMatch:
        return None


def public_url(club: Club) -> str:
    """The club's public page."""
    return _public("club", club.slug) or f"/club/{club.slug}/"


@require_http_methods(["GET", "HEAD", "POST"])
def club_list(request: HttpRequest) -> HttpResponse:
    """The clubs the signed-in account organises, and the New club form."""
    if not request.user.is_authenticated:
        return _login(request)
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(
                user=_user(request), name=form.cleaned_data["name"], town=form.cleaned_data["town"]
            )
        except Refused as error:
            form.add_error(None, refusal(error))
        except TournamentError as error:
            form.add_error(
                error.path if error.path in form.fields else None,
                reason(error.code, **error.params),
            )
        else:
            messages.success(request, _("The club “%(name)s” is created.") % {"name": club.name})
            return redirect("clubs:desk", pk=club.pk)
    clubs = selectors.clubs_of(_user(request))
    latest = selectors.latest_published_seasons(clubs)
    rows = [
        {
            "club": club,
            "public_url": public_url(club),
            "season": latest.get(club.pk),
            "season_url": _public("season", club.slug, latest[club.pk].pk)
            if club.pk in latest
            else None,
        }
        for club in clubs
    ]
    return render(request, "clubs/list.html", {"form": form, "clubs": rows})


@require_safe
def desk(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(request, pk)
    user = _user(request)
    concours = list(
        Tournament.objects.filter(club=club)
        .select_related("owner")
        .order_by("-date", "-created_at")
    )
    own = list(
        Tournament.objects.filter(owner=user, club__isnull=True).order_by("-created_at")[
            :MAX_OWN_CONCOURS
        ]
    )
    seasons = [
        (season, _public("season", club.slug, season.pk) if season.published else None)
        for season in Season.objects.filter(club=club).order_by("-start", "-id")
    ]
    organisers = list(club.memberships.select_related("user").order_by("added_at", "id"))
    people = dict(
        Person.objects.filter(club=club).values_list("kind").annotate(n=Count("id")).order_by()
    )
    context = {
        "club": club,
        "form": ClubForm(initial={"name": club.name, "town": club.town}),
        "organisers": organisers,
        "invite_url": absolute_url(request, reverse("clubs:join", args=[club.invite_token])),
        "public_url": public_url(club),
        "concours": concours,
        "own": own,
        "seasons": seasons,
        "teams": people.get("team", 0),
        "players": people.get("player", 0),
        "merges": selectors.merge_log(club, 5),
    }
    return render(request, "clubs/desk.html", context)


@require_POST
def edit(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(request, pk)
    form = ClubForm(request.POST)
    if not form.is_valid():  # each refused field named (a town with a direction control...)
        for name, errors in form.errors.items():
            label = form.fields[name].label if name in form.fields else ""
            for error in errors:
                messages.error(
                    request, _("%(path)s: %(reason)s") % {"path": label, "reason": error}
                )
        return _back(club, "club")
    try:
        services.update_club(
            club=club, name=form.cleaned_data["name"], town=form.cleaned_data["town"]
        )
    except TournamentError as error:
        messages.error(request, reason(error.code, **error.params))
    else:
        messages.success(request, _("Saved."))
    return _back(club, "club")


@require_POST
def invite_new(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(request, pk)
    services.regenerate_invite(club=club)
    messages.success(request, _("New invite link: the old one no longer works."))
    return _back(club, "organisers")


@require_safe
def join(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link opened: signed in, the account now organises the club (signed out, the
    login page first, then back here)."""
    if not request.user.is_authenticated:
        return _login(request)
    club = get_object_or_404(Club, invite_token=token)
    try:
        joined = services.join(club=club, user=_user(request))
    except Refused as error:
        messages.error(request, refusal(error))
        return redirect("clubs:list")
    if joined:
        messages.success(request, _("You now organise the club “%(name)s”.") % {"name": club.name})
    return _back(club)


@require_POST
def leave(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(request, pk)
    try:
        services.leave(club=club, user=_user(request))
    except Refused as error:
        messages.error(request, refusal(error))
        return _back(club, "organisers")
    messages.success(request, _("You no longer organise “%(name)s”.") % {"name": club.name})
    return redirect("clubs:list")


def _posted_concours(request: HttpRequest) -> Tournament:
    value = request.POST.get("concours", "")
    if not value.isascii() or not value.isdecimal() or len(value) > 18:
        raise Http404
    return get_object_or_404(Tournament, pk=int(value))


@require_POST
def attach(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(request, pk)
    tournament = _posted_concours(request)
    if tournament.owner_id != request.user.pk:
        raise Http404  # someone else's concours: no hint it exists
    try:
        services.attach(club=club, tournament=tournament, user=_user(request))
    except Refused as error:
        messages.error(request, refusal(error))
    else:
        messages.success(
            request,
            _("“%(name)s” is one of the club's concours (not published yet).")
            % {"name": tournament.name},
        )
    return _back(club, "concours")


def _club_concours(request: HttpRequest, club: Club) -> Tournament:
    tournament = _posted_concours(request)
    if tournament.club_id != club.pk:
        raise Http404
    return tournament


@require_POST
def detach(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(request, pk)
    tournament = _club_concours(request, club)
    services.detach(club=club, tournament=tournament)
    messages.success(
        request,
        _("“%(name)s” is no longer one of the club's concours.") % {"name": tournament.name},
    )
    return _back(club, "concours")


@require_POST
def publish(request: HttpRequest, pk: int) -> HttpResponse:
    club = _club(request, pk)
    tournament = _club_concours(request, club)
    shown = request.POST.get("published") == "1"
    services.publish(club=club, tournament=tournament, published=shown)
    if shown:
        text = _("“%(name)s” is shown on the club's public page.")
    else:
        text = _("“%(name)s” is no longer shown on the club's public page.")
    messages.success(request, text % {"name": tournament.name})
    return _back(club, "concours")


# ---------------------------------------------------------------------------------------------
# Seasons


def _season_form(request: HttpRequest, club: Club, season: Season | None) -> HttpResponse:
    if request.method == "POST":
        form = SeasonForm(request.POST)
    elif season is not None:
        initial = {
            "name": season.name,
            "start": season.start,
            "end": season.end,
            "published": season.published,
            **SeasonForm.initial_for(rule_from_dict(season.rule)),
        }
        form = SeasonForm(initial=initial)
    else:
        form = SeasonForm(initial=SeasonForm.initial_for())
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        fields = {
            "name": data["name"],
            "start": data["start"],
            "end": data["end"],
            "rule": form.rule(),
            "published": data["published"],
        }
        try:
            if season is None:
                season = services.create_season(club=club, **fields)
            else:
                services.update_season(season=season, **fields)
        except Refused as error:
            form.add_error("end" if error.code == "season_dates" else None, refusal(error))
        except TournamentError as error:
            field, text = rule_error(error)
            form.add_error(field or None, text)
        else:
            messages.success(request, _("The season “%(name)s” is saved.") % {"name": season.name})
            return _back(club, "seasons")
    return render(request, "clubs/season.html", {"club": club, "season": season, "form": form})


@require_http_methods(["GET", "HEAD", "POST"])
def season_new(request: HttpRequest, pk: int) -> HttpResponse:
    return _season_form(request, _club(request, pk), None)


@require_http_methods(["GET", "HEAD", "POST"])
def season_edit(request: HttpRequest, pk: int, season: int) -> HttpResponse:
    club = _club(request, pk)
    return _season_form(request, club, get_object_or_404(Season, pk=season, club=club))


@require_POST
def season_delete(request: HttpRequest, pk: int, season: int) -> HttpResponse:
    club = _club(request, pk)
    row = get_object_or_404(Season, pk=season, club=club)
    services.delete_season(season=row)
    messages.success(request, _("The season “%(name)s” is deleted.") % {"name": row.name})
    return _back(club, "seasons")


# ---------------------------------------------------------------------------------------------
# The merge tool


@require_safe
def people(request: HttpRequest, pk: int) -> HttpResponse:
    """The club's similar names."""
    club = _club(request, pk)
    context = {
        "club": club,
        "groups": selectors.suggestions(club),
        "log": selectors.merge_log(club),
    }
    return render(request, "clubs/people.html", context)


@require_safe
def find_pair(request: HttpRequest, pk: int) -> HttpResponse:
    """Two names typed by hand (a team's or a player's, as written in any concours of the club):
    on to the merge's confirm page, or back with what was not found."""
    club = _club(request, pk)
    kind = request.GET.get("kind")
    names = [request.GET.get("keep", "")[:NAME_MAX], request.GET.get("merge", "")[:NAME_MAX]]
    if kind not in ("team", "player") or not all(spelling_key(name) for name in names):
        messages.error(request, _("Choose teams or players and type both names."))
        return redirect("clubs:people", pk=club.pk)
    # A spelling with a control character (a NUL, which PostgreSQL refuses even in a query) is
    # nobody's: every alias is a name the engine read (`read_name`). Not found, not looked up.
    found = selectors.people_named(club, kind, [n for n in names if not _has_control(n)])
    unclear = [name for name in names if len(found.get(name, ())) != 1]
    if unclear:
        for name in unclear:
            shown = " ".join("".join(c for c in name if not _has_control(c)).split())
            if found.get(name):
                text = (
                    _("Several teams are written like “%(name)s”: type the name as in a concours.")
                    if kind == "team"
                    else _(
                        "Several players are written like “%(name)s”: "
                        "type the name as in a concours."
                    )
                )
            elif kind == "team":
                text = _("No team “%(name)s” in the club's concours.")
            else:
                text = _("No player “%(name)s” in the club's concours.")
            messages.error(request, text % {"name": shown})
        return redirect("clubs:people", pk=club.pk)
    keep, other = (next(iter(found[name])) for name in names)
    return redirect(f"{reverse('clubs:merge', args=[club.pk])}?keep={keep}&merge={other}")


def _has_control(text: str) -> bool:
    return any(unicodedata.category(char) in ("Cc", "Cs") for char in text)


def _person_id(value: str | None) -> int:
    if not value or not value.isascii() or not value.isdecimal() or len(value) > 18:
        raise Http404
    return int(value)


@require_http_methods(["GET", "HEAD", "POST"])
def merge(request: HttpRequest, pk: int) -> HttpResponse:
    """Confirm, then merge: every spelling of "merge" now names "keep"."""
    club = _club(request, pk)
    data = request.POST if request.method == "POST" else request.GET
    keep_id, merge_id = _person_id(data.get("keep")), _person_id(data.get("merge"))
    lines = selectors.person_lines(club, [keep_id, merge_id])
    if keep_id == merge_id or keep_id not in lines or merge_id not in lines:
        messages.error(request, _("These two names cannot be merged: pick them again."))
        return redirect("clubs:people", pk=club.pk)
    keep, other = lines[keep_id], lines[merge_id]
    if keep.person.kind != other.person.kind:  # a crafted link: no confirm page, as no merge
        messages.error(request, refusal(Refused("merge_kinds")))
        return redirect("clubs:people", pk=club.pk)
    if request.method == "POST":
        try:
            services.merge_people(
                club=club, kept=keep.person, merged=other.person, user=_user(request)
            )
        except Refused as error:
            messages.error(request, refusal(error))
        else:
            messages.success(
                request,
                _("“%(merged)s” is merged into “%(kept)s”.")
                % {"merged": other.person.name, "kept": keep.person.name},
            )
        return redirect("clubs:people", pk=club.pk)
    played = selectors.concours_played(club, [keep.person, other.person])
    context = {
        "club": club,
        "keep": keep,
        "other": other,
        "keep_played": played.get(keep_id, 0),
        "other_played": played.get(merge_id, 0),
    }
    return render(request, "clubs/merge.html", context)
