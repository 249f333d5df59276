"""Issue 42: Back after logging out on a club computer must not show a private page again. Every
page the app renders is `Cache-Control: private, no-store` unless its view declares otherwise
(scorekeeper/web/headers.py, the one place of the rule): the desk, the scoreboard and its share
page with the links, the match and concours files, an account's lists, the job page, the public
pages (their header names who is signed in). What declares its own caching keeps it: public
files, the polled fragments revalidated by their ETag (`private, no-cache`, still answered 304),
the service worker."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from scorekeeper.concours.models import Table
from scorekeeper.jobs.models import Job
from scorekeeper.web.headers import ResponseHeadersMiddleware
from tests.conftest import Browser
from tests.factories import OWNER_KEY, TournamentFactory

pytestmark = pytest.mark.django_db

NO_STORE = {"private", "no-store"}
HTMX = {"HX-Request": "true"}
TEAMS = "Les As; Ana; Bo\nLes Rois; Cy; Dan\nLes Dames; Eva; Fred\nLes Valets; Gus; Hugo"


def directives(response: Any) -> set[str]:
    header = response.get("Cache-Control", "")
    return {part.strip() for part in header.split(",") if part.strip()}


def assert_private(response: Any, where: str) -> None:
    assert response.status_code in (200, 302), (where, response.status_code)
    assert directives(response) == NO_STORE, (where, response.get("Cache-Control"))


def test_a_match_s_pages_and_files_are_never_stored(
    browser: Browser, make_match: Callable[..., Any], make_user: Callable[[str], User]
) -> None:
    owner = make_user("owner")
    match = make_match(owner=owner)
    phone = browser(OWNER_KEY, owner)
    token, view = match.scorer_token, match.view_token
    pages = {
        "scoreboard": reverse("matches:scoreboard", args=[token]),
        "share page (its links)": reverse("matches:share", args=[token]),
        "match.json": reverse("matches:export", args=[token]),
        "viewer's match.json": reverse("matches:export_viewer", args=[view]),
        "viewer": reverse("matches:viewer", args=[view]),
        "deal form": reverse("matches:deal_new", args=[token]),
        "manage": reverse("matches:manage", args=[token]),
        "my matches": reverse("history:history"),
        "home": reverse("home"),
    }
    for where, address in pages.items():
        assert_private(phone.get(address), where)


def test_the_desk_and_its_files_are_never_stored(make_user: Callable[[str], User]) -> None:
    organiser = make_user("organiser")
    tournament = TournamentFactory.create(owner=organiser, teams=TEAMS, drawn=True)
    client = Client()
    client.force_login(organiser)
    table = Table.objects.filter(round__tournament=tournament).order_by("number").first()
    assert table is not None and table.token is not None
    pages = {
        "desk": reverse("concours:desk", args=[tournament.pk]),
        "concours.json": reverse("concours:export", args=[tournament.pk]),
        "standings CSV": reverse("concours:standings_csv", args=[tournament.pk]),
        "concours list": reverse("concours:list"),
        "table link (a redirect to its scorer link)": reverse("concours:table", args=[table.token]),
        "table clock": reverse("concours:table_clock", args=[table.token]),
        "public page (the header names the account)": reverse(
            "concours_public:standings", args=[tournament.public_token]
        ),
        "projector": reverse("concours_public:projector", args=[tournament.public_token]),
    }
    for where, address in pages.items():
        assert_private(client.get(address), where)


def test_a_job_page_is_never_stored_and_its_poll_is_revalidated(browser: Browser) -> None:
    job = Job.objects.create(kind="history_restore", owner_key="phone", state="queued")
    phone = browser("phone")
    assert_private(phone.get(f"/jobs/{job.pk}/"), "job page")
    assert_private(phone.get("/jobs/"), "my jobs")
    poll = phone.get(f"/jobs/{job.pk}/", headers=HTMX)
    assert directives(poll) == {"private", "no-cache"}  # kept only to be revalidated
    again = phone.get(f"/jobs/{job.pk}/", headers=HTMX | {"If-None-Match": poll["ETag"]})
    assert again.status_code == 304


def test_polled_fragments_keep_their_revalidation_and_public_files_their_caching(
    make_user: Callable[[str], User],
) -> None:
    tournament = TournamentFactory.create(owner=make_user("organiser"), teams=TEAMS)
    projector = reverse("concours_public:projector", args=[tournament.public_token])
    client = Client()
    fragment = client.get(projector, headers=HTMX)
    assert directives(fragment) == {"private", "no-cache"}
    assert (
        client.get(projector, headers=HTMX | {"If-None-Match": fragment["ETag"]}).status_code == 304
    )
    qr = client.get(reverse("concours_public:qr", args=[tournament.public_token]))
    assert directives(qr) == {"public", "max-age=3600"}
    assert directives(client.get("/sw.js")) == {"no-cache"}


def test_the_rule_is_the_view_s_declaration_or_no_store() -> None:
    """The middleware alone: an answer saying nothing is private, no-store; one declaring its
    caching keeps it, word for word."""

    def declared(value: str | None) -> Callable[..., HttpResponse]:
        def view(request: object) -> HttpResponse:
            response = HttpResponse("x")
            if value is not None:
                response["Cache-Control"] = value
            return response

        return view

    request = RequestFactory().get("/")
    assert ResponseHeadersMiddleware(declared(None))(request)["Cache-Control"] in (
        "private, no-store",
        "no-store, private",
    )
    for value in ("public, max-age=60", "private, no-cache", "no-cache"):
        assert ResponseHeadersMiddleware(declared(value))(request)["Cache-Control"] == value
