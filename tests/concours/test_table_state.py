"""Issue 22, part A: a concours table's state lives in one place and the server enforces it.

Every write to a table's match (add, edit, delete, undo, redo, all passed, manual score) asks the
concours first (matches.holder: `check_write`, inside the write's transaction): time called or
partie over, the phones and the accounts that scored are refused with the reason, the organiser
may still correct the deals while the round is open but adds none; a paper result locks the deals
for everyone; a renewed link takes the right to write from the old link and from every account
that scored through it (they keep the match in their history, read-only). The concours learns of
each change in the same transaction (`after_write`), so no page writes while it is read."""

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper.concours import services
from scorekeeper.concours.models import Table, Tournament
from scorekeeper.engine.scoring import PassedDeal, parse_deal
from scorekeeper.matches import services as match_services
from scorekeeper.matches.models import Match, MatchScorer
from tests.factories import TournamentFactory
from tests.matches.support import deal_post

from .support import PHONE, play_deals, play_out

pytestmark = pytest.mark.django_db

TEAMS = "Les As; Alice; Bruno\nPique Dame; Chloé; David\nTrèfle; Emma; Farid\nCarreau; Gilles; Hana"


def concours(organiser: User, teams: str = TEAMS, **partie: Any) -> Tournament:
    rules = {"preset": "belote", "deals_limit": 12, "target": None, **partie}
    return TournamentFactory.create(
        owner=organiser, overrides={"partie": rules}, teams=teams, drawn=True
    )


def first_table(tournament: Tournament) -> Table:
    return Table.objects.select_related("round__tournament", "match").get(
        round__tournament=tournament, round__number=1, number=1
    )


def stored(table: Table) -> Table:
    return Table.objects.select_related("round__tournament", "match").get(pk=table.pk)


def match_of(table: Table) -> Match:
    return Match.objects.get(concours_table=table)


def belote_post(version: int, **changes: str) -> dict[str, str]:
    return deal_post(version, contract="", coinche="", **changes)


@pytest.fixture
def organiser(make_user: Callable[[str], User]) -> User:
    return make_user("organiser")


@pytest.fixture
def desk(organiser: User) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def sams_phone(make_user: Callable[[str], User], table: Table) -> Client:
    """A signed-in account that opens the table's link and scores a deal there (Les As take and
    make 150): it becomes a scorer of the match (MatchScorer)."""
    sam = make_user("sam")
    phone = Client()
    phone.force_login(sam)
    assert table.token
    scorer = phone.get(reverse("concours:table", args=[table.token]))["Location"]
    match = match_of(table)
    saved = phone.post(
        reverse("matches:deal_new", args=[match.scorer_token]),
        belote_post(match.version, taker_points="150"),
    )
    assert saved.status_code == 302, saved.content.decode()[:500]
    assert scorer.startswith("/score/")
    assert MatchScorer.objects.filter(match=match, user=sam).exists()
    return phone


def every_write(phone: Client, match: Match) -> dict[str, Any]:
    """Each write a scorer page offers, posted straight to its address with the current scorer
    link and version: what the database holds after each."""
    token, version = match.scorer_token, match.version
    posts = {
        "add": (reverse("matches:deal_new", args=[token]), belote_post(version, taker="1")),
        "passed": (reverse("matches:deal_passed", args=[token]), {"version": version}),
        "manual": (
            reverse("matches:deal_manual", args=[token]),
            {"score0": "0", "score1": "300", "note": "", "version": version},
        ),
        "edit": (
            reverse("matches:deal_edit", args=[token, 1]),
            belote_post(version, taker="1", taker_points="150"),
        ),
        "delete": (reverse("matches:deal_delete", args=[token, 1]), {"version": version}),
        "undo": (reverse("matches:undo", args=[token]), {"version": version, "confirm": "yes"}),
        "redo": (reverse("matches:redo", args=[token]), {"version": version}),
    }
    out = {}
    for name, (url, data) in posts.items():
        response = phone.post(url, data, follow=True)
        out[name] = response
    return out


def snapshot_of(table: Table) -> tuple[Any, ...]:
    match = match_of(table)
    fresh = stored(table)
    return (
        match.deal_count,
        match.total0,
        match.total1,
        list(match.deals.values_list("seq", "taker", "taker_points", "manual0")),
        fresh.finished,
        fresh.points,
        fresh.winner,
    )


# The bug as found: an account that scored keeps scoring after New link and after Call time ------


def test_an_account_that_scored_loses_writing_when_the_organiser_renews_the_link(
    organiser: User, desk: Client, make_user: Callable[[str], User]
) -> None:
    tournament = concours(organiser)
    table = first_table(tournament)
    phone = sams_phone(make_user, table)
    renew = reverse("concours:table_link", kwargs={"pk": tournament.pk, "round": 1, "table": 1})
    assert desk.post(renew).status_code == 302
    match = match_of(table)
    # Its home page and My matches still list the match (it scored there), read-only: no new
    # scorer link handed out.
    for page in (reverse("home"), reverse("history:history")):
        html = phone.get(page).text
        assert match.scorer_token not in html, page
        assert f"/view/{match.view_token}/" in html, page
    # A form posted straight to the new scorer link is refused, with the reason, and changes
    # nothing.
    before = snapshot_of(table)
    for name, response in every_write(phone, match).items():
        assert "link was renewed" in response.text, (name, response.redirect_chain)
        assert snapshot_of(table) == before, name
    # Opening the scorer link it was not given shows the match without the deal form.
    board = phone.get(reverse("matches:scoreboard", args=[match.scorer_token])).text
    assert "Record a deal" not in board
    # The organiser keeps writing while the round is open.
    organiser_post = desk.post(
        reverse("matches:deal_new", args=[match.scorer_token]), belote_post(match.version)
    )
    assert organiser_post.status_code == 302
    assert match_of(table).deal_count == 2
    # A phone that scans the new link scores (it never reached the match through the old one).
    fresh_phone = Client()
    new = fresh_phone.get(reverse("concours:table", args=[stored(table).token]))["Location"]
    match = match_of(table)
    saved = fresh_phone.post(f"{new}deal/", belote_post(match.version))
    assert saved.status_code == 302 and match_of(table).deal_count == 3


def test_after_call_time_an_account_that_scored_is_refused_everything(
    organiser: User, make_user: Callable[[str], User]
) -> None:
    tournament = concours(organiser)
    table = first_table(tournament)
    phone = sams_phone(make_user, table)
    services.call_time(table=stored(table))
    result = stored(table)
    assert result.finished and result.winner == 0  # Les As made 150 of 162
    match = match_of(table)
    for page in (reverse("home"), reverse("history:history")):
        assert match.scorer_token not in phone.get(page).text, page
    before = snapshot_of(table)
    for name, response in every_write(phone, match).items():
        assert "Time was called" in response.text, name
        assert snapshot_of(table) == before, name  # the winner did not flip
    assert stored(table).winner == 0
    # Its match says the table's result: ended, won by the higher total.
    review = phone.get(reverse("history:review", args=[match.view_token])).text
    assert f"won by {match.team_names[0]}" in review and "In play" not in review


def test_after_call_time_the_organiser_corrects_deals_but_adds_none(
    organiser: User, desk: Client
) -> None:
    tournament = concours(organiser)
    table = first_table(tournament)
    play_deals(table, 2)
    services.call_time(table=stored(table))
    match = match_of(table)
    token = match.scorer_token
    added = desk.post(reverse("matches:deal_new", args=[token]), belote_post(match.version))
    assert added.status_code == 302
    assert "Time was called" in desk.get(added["Location"]).text
    assert match_of(table).deal_count == 2
    # An edit is accepted, and the table's result follows in the same transaction.
    edited = desk.post(
        reverse("matches:deal_edit", args=[token, 1]),
        belote_post(match.version, taker="1", taker_points="162"),
    )
    assert edited.status_code == 302
    match = match_of(table)
    fresh = stored(table)
    assert fresh.finished and fresh.ended
    assert fresh.points == (match.total0, match.total1)
    assert fresh.match_version == match.version
    # The deal form is not offered: the partie is over.
    board = desk.get(reverse("matches:scoreboard", args=[match.scorer_token])).text
    assert "Record a deal" not in board


def test_after_its_nth_deal_the_phone_is_refused_and_the_table_already_finished(
    organiser: User,
) -> None:
    tournament = concours(organiser, deals_limit=2)
    table = first_table(tournament)
    phone = Client()
    phone.get(reverse("concours:table", args=[table.token]))
    for _ in range(2):
        match = match_of(table)
        saved = phone.post(
            reverse("matches:deal_new", args=[match.scorer_token]), belote_post(match.version)
        )
        assert saved.status_code == 302
    # The same transaction finished the table and renewed its phones' link: no reader needed.
    fresh = stored(table)
    assert fresh.finished and fresh.match_version == match_of(table).version
    assert match_of(table).scorer_token != match.scorer_token
    # The page the Save lands on says so, without writing.
    landing = phone.get(saved["Location"]).text
    assert "Result sent to the organiser" in landing
    assert "Record a deal" not in landing


def test_the_service_itself_refuses_a_phone_once_the_partie_is_over(organiser: User) -> None:
    tournament = concours(organiser, deals_limit=2)
    table = first_table(tournament)
    play_out(table)
    match = match_of(table)
    deal = parse_deal({"taker": 1, "trump": "hearts", "taker_points": 162})
    attempts: dict[str, Callable[[], object]] = {
        "edit": lambda: match_services.edit_deal(
            match_id=match.pk, seq=1, expected_version=None, deal=deal, author=PHONE
        ),
        "delete": lambda: match_services.delete_deal(
            match_id=match.pk, seq=1, expected_version=None, author=PHONE
        ),
        "undo": lambda: match_services.undo_last_change(
            match_id=match.pk, expected_version=None, author=PHONE
        ),
        "passed": lambda: match_services.record_deal(
            match_id=match.pk, expected_version=None, deal=PassedDeal(), author=PHONE
        ),
    }
    before = snapshot_of(table)
    for name, attempt in attempts.items():
        with pytest.raises(match_services.WriteRefused) as refused:
            attempt()
        assert refused.value.reason == "partie_over", name
        assert snapshot_of(table) == before, name


def test_a_paper_result_locks_the_deals_for_everyone(organiser: User, desk: Client) -> None:
    tournament = concours(organiser)
    table = first_table(tournament)
    play_deals(table, 2)
    services.record_paper_totals(table=stored(table), totals=(1200, 800), over_deals=True)
    match = match_of(table)
    before = snapshot_of(table)
    for name, response in every_write(desk, match).items():
        assert "paper sheet" in response.text, name
        assert snapshot_of(table) == before, name


def test_an_organiser_edit_that_reopens_a_finished_partie_reopens_the_table(
    organiser: User, desk: Client
) -> None:
    """The organiser deletes the last deal of a partie that ended itself: the table is playing
    again at once (no reader needed), and its link leads a phone to the match again."""
    tournament = concours(organiser, deals_limit=2)
    table = first_table(tournament)
    play_out(table)
    assert stored(table).finished
    match = match_of(table)
    deleted = desk.post(
        reverse("matches:deal_delete", args=[match.scorer_token, 2]), {"version": match.version}
    )
    assert deleted.status_code == 302
    fresh = stored(table)
    assert not fresh.finished and fresh.deal_count == 1
    phone = Client().get(reverse("concours:table", args=[fresh.token]))
    assert phone["Location"] == reverse("matches:scoreboard", args=[match_of(table).scorer_token])


# No page writes while it is read ------------------------------------------------------------


WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)


def writes(client: Client, url: str, **headers: str) -> list[str]:
    """The data writes (sessions left out: a browser's own state) a GET of `url` makes."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        response = client.get(url, headers=headers)
    assert response.status_code in (200, 302, 304), (url, response.status_code)
    return [
        q["sql"]
        for q in queries.captured_queries
        if WRITE.match(q["sql"]) and "django_session" not in q["sql"]
    ]


def test_reading_the_concours_writes_nothing(
    organiser: User, desk: Client, make_user: Callable[[str], User]
) -> None:
    """Tables scored deal by deal (one ended by its Nth deal, one time-called, one playing):
    the desk, the public page, the projector, their polls, the table links, the table's
    scoreboard and its read-only board write nothing, and show every result already."""
    six = f"{TEAMS}\nCœur; Inès; Jules\nPique; Karim; Léa"
    tournament = concours(organiser, six, deals_limit=3)
    done, timed, playing = Table.objects.filter(round__tournament=tournament).order_by("number")
    play_out(done)
    play_deals(timed, 1)
    play_deals(playing, 1)
    services.call_time(table=stored(timed))
    phone = Client()
    public = reverse("concours_public:standings", args=[tournament.public_token])
    projector = reverse("concours_public:projector", args=[tournament.public_token])
    pages: list[tuple[Client, str, dict[str, str]]] = [
        (desk, reverse("concours:desk", args=[tournament.pk]), {}),
        (phone, public, {}),
        (phone, public, {"HX-Request": "true"}),
        (phone, projector, {}),
        (phone, projector, {"HX-Request": "true"}),
    ]
    for table in (done, timed, playing):
        match = match_of(table)
        pages += [
            (phone, reverse("concours:table", args=[stored(table).token]), {}),
            (phone, reverse("concours:table", args=[stored(table).token]), {"HX-Request": "1"}),
            (desk, reverse("matches:scoreboard", args=[match.scorer_token]), {}),
            (phone, reverse("matches:viewer", args=[match.view_token]), {}),
        ]
    for client, url, headers in pages:
        assert writes(client, url, **headers) == [], url
    # Every result was already stored by the deals' own transactions.
    assert stored(done).finished and stored(timed).finished and not stored(playing).finished
    assert stored(playing).points == (match_of(playing).total0, match_of(playing).total1)


def test_an_imported_time_called_table_is_ended_on_its_match_too(organiser: User) -> None:
    """A file's table whose time was called: its match says the table's result (finished,
    the higher total winning), as a drawn table's does, and takes no more deals."""
    import json

    from tests.engine.tournament.builders import example

    document = example()
    document["rounds"][0]["tables"][1]["ended"] = True  # 92 (+ belote-free) against 70
    tournament = services.import_tournament(owner=organiser, text=json.dumps(document))
    table = Table.objects.get(round__tournament=tournament, number=2)
    match = match_of(table)
    assert table.finished and table.ended and table.winner == 0
    assert match.is_finished and match.ended_at is not None and match.winner == 0
    assert table.round.closed_at is not None  # every table finished: the round was closed
    with pytest.raises(match_services.MatchFrozen):
        match_services.record_deal(
            match_id=match.pk, expected_version=None, deal=PassedDeal(), author=PHONE
        )


# Per role, once time is called and once the link is renewed ---------------------------------


def test_who_may_write_once_time_is_called(
    organiser: User, desk: Client, make_user: Callable[[str], User]
) -> None:
    """The organiser and a co-organiser correct the deals (no new one); the table's phone, the
    account that scored there, the read-only link and a stranger write nothing."""
    tournament = concours(organiser)
    table = first_table(tournament)
    sam = sams_phone(make_user, table)  # an account that scored
    phone = Client()  # the table's phone, anonymous
    old_scorer = phone.get(reverse("concours:table", args=[table.token]))["Location"]
    play_deals(table, 1)
    services.call_time(table=stored(table))
    helper = Client()
    helper.get(reverse("concours:co", args=[tournament.co_token]))
    viewer, stranger = Client(), Client()

    def edit(client: Client, points: str) -> int:
        match = match_of(table)
        url = reverse("matches:deal_edit", args=[match.scorer_token, 1])
        client.post(url, belote_post(match.version, taker_points=points))
        return match_of(table).deals.get(seq=1).taker_points or 0

    def add(client: Client) -> int:
        match = match_of(table)
        client.post(
            reverse("matches:deal_new", args=[match.scorer_token]), belote_post(match.version)
        )
        return match_of(table).deal_count

    assert edit(desk, "140") == 140 and add(desk) == 2
    assert edit(helper, "130") == 130 and add(helper) == 2
    for client in (sam, phone):
        assert edit(client, "60") == 130 and add(client) == 2
        # Nor is the deal form offered to them: the scoreboard, with the reason.
        token = match_of(table).scorer_token
        for form in ("deal_new", "deal_manual"):
            shown = client.get(reverse(f"matches:{form}", args=[token]), follow=True)
            assert shown.redirect_chain[0][0] == reverse("matches:scoreboard", args=[token])
            assert "Time was called" in shown.text and 'name="taker_points"' not in shown.text
    # Each correction moved the table's result with it, in its own transaction.
    assert stored(table).points == (match_of(table).total0, match_of(table).total1)
    # The phone's old scorer link is gone (sent to the table's read-only link).
    assert phone.get(old_scorer)["Location"] == reverse("concours:table", args=[table.token])
    match = match_of(table)
    board = viewer.get(reverse("matches:viewer", args=[match.view_token])).text
    assert "Record a deal" not in board and "/delete/" not in board
    assert viewer.post(reverse("matches:viewer", args=[match.view_token])).status_code == 405
    assert stranger.get(old_scorer).status_code == 404
    deals = reverse("concours:table_deals", kwargs={"pk": tournament.pk, "round": 1, "table": 1})
    assert stranger.get(deals).status_code == 404 and sam.get(deals).status_code == 404
    assert match_of(table).deal_count == 2


def test_a_co_organiser_who_scored_keeps_writing_after_new_link(
    organiser: User, make_user: Callable[[str], User]
) -> None:
    tournament = concours(organiser)
    table = first_table(tournament)
    helper = Client()
    helper.force_login(make_user("helper"))
    helper.get(reverse("concours:co", args=[tournament.co_token]))
    match = match_of(table)
    helper.post(reverse("matches:deal_new", args=[match.scorer_token]), belote_post(match.version))
    assert match_of(table).deal_count == 1
    services.regenerate_table_link(table=stored(table))
    match = match_of(table)
    helper.post(reverse("matches:deal_new", args=[match.scorer_token]), belote_post(match.version))
    assert match_of(table).deal_count == 2


def test_the_refusals_are_said_in_french(organiser: User, make_user: Callable[[str], User]) -> None:
    tournament = concours(organiser)
    table = first_table(tournament)
    phone = sams_phone(make_user, table)
    phone.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    services.regenerate_table_link(table=stored(table))
    match = match_of(table)
    url = reverse("matches:deal_passed", args=[match.scorer_token])
    html = phone.post(url, {"version": match.version}, follow=True).text
    assert "Ce lien de marqueur a été renouvelé" in html
    services.call_time(table=stored(table))
    other = Client(headers={"accept-language": "fr"})
    other.get(reverse("concours:table", args=[stored(table).token]))
    match = match_of(table)
    url = reverse("matches:deal_delete", args=[match.scorer_token, 1])
    html = other.post(url, {"version": match.version}, follow=True).text
    assert "Fin du temps à cette table" in html and match_of(table).deal_count == 1
