"""The scoreboard and the changes made from it: edit, delete and undo with plain forms (PRG) and
through htmx (the #scoreboard partial comes back), a deal's history page, the 10-second poll, and
the rematch button."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.engine.scoring import ManualDeal, PassedDeal, PlayedDeal, Trump, rules_from_dict
from scorekeeper.matches.models import Deal, DealChange, Match

from .conftest import MakeMatch, Snapshot
from .support import coinche_deal, deal_post

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def match(make_match: MakeMatch) -> Match:
    return make_match(deals=[coinche_deal(), coinche_deal(taker=1, points=40), PassedDeal()])


def link(name: str, match: Match, **kwargs: object) -> str:
    return reverse(f"matches:{name}", kwargs={"token": match.scorer_token, **kwargs})


def test_the_scoreboard_shows_totals_turn_and_every_deal_newest_first(
    owner_client: Client, match: Match
) -> None:
    page = owner_client.get(link("scoreboard", match))
    assert page.status_code == 200
    html = page.text
    title = f"<title>Scoreboard · Nous {match.total0}–{match.total1} Eux · Belote score</title>"
    assert title in html
    assert f'aria-label="Nous total">{match.total0}</p>' in html
    assert f'aria-label="Eux total">{match.total1}</p>' in html
    assert '<progress class="progress" max="2000"' in html and "Target 2000" in html
    # Three deals were dealt by seats 0, 1, 2: David (seat 3) deals next, Alice speaks first.
    assert "<strong>David</strong> deals, <strong>Alice</strong> speaks first" in html
    numbers = [html.index(f'<span class="num">{n}</span>') for n in (3, 2, 1)]
    assert numbers == sorted(numbers)
    assert "Dealt by Chloé" in html
    assert "Nous: 160 base + 80 contract = 240" in html  # deal 2's breakdown
    assert "All passed" in html
    assert f'hx-get="{link("scoreboard", match)}?v={match.version}"' in html


def test_the_scoreboard_varies_on_htmx_and_a_poll_returns_the_partial(
    owner_client: Client, match: Match
) -> None:
    for name, token in (("scoreboard", match.scorer_token), ("viewer", match.view_token)):
        url = reverse(f"matches:{name}", args=[token])
        full = owner_client.get(url)
        assert "HX-Request" in full["Vary"]
        assert full.text.lstrip().startswith("<!doctype html>")
        partial = owner_client.get(url, headers=HTMX)
        assert "HX-Request" in partial["Vary"]
        html = partial.text.strip()
        assert html.startswith('<section id="scoreboard"') and html.endswith("</section>")
        assert "<html" not in html and f">{match.total0}</p>" in html
        # A poll with the version the page already shows: 204, nothing to swap.
        same = owner_client.get(url, {"v": match.version}, headers=HTMX)
        assert same.status_code == 204 and same.content == b""
        older = owner_client.get(url, {"v": match.version - 1}, headers=HTMX)
        assert older.status_code == 200 and '<section id="scoreboard"' in older.text


def test_editing_a_deal(owner_client: Client, match: Match) -> None:
    page = owner_client.get(link("deal_edit", match, seq=2))
    assert page.status_code == 200 and "Edit deal 2" in page.text
    assert 'name="taker_points" value="40"' in page.text
    response = owner_client.post(
        link("deal_edit", match, seq=2), deal_post(match.version, taker="1", taker_points="90")
    )
    assert response.status_code == 302 and response["Location"] == link("scoreboard", match)
    row = Deal.objects.get(match=match, seq=2)
    assert (row.taker_points, row.outcome, row.score1) == (90, "made", 170)
    match.refresh_from_db()
    assert (match.total0, match.total1) == (180 + 70, 60 + 170)
    board = owner_client.get(link("scoreboard", match))
    assert "Deal 2 changed." in board.text
    change = DealChange.objects.get(action="edit")
    assert change.before is not None and change.before["taker_points"] == 40
    assert change.after is not None and change.after["taker_points"] == 90


def test_a_passed_deal_can_become_a_played_one(owner_client: Client, match: Match) -> None:
    page = owner_client.get(link("deal_edit", match, seq=3))
    assert page.status_code == 200
    owner_client.post(link("deal_edit", match, seq=3), deal_post(match.version))
    assert Deal.objects.get(match=match, seq=3).kind == "played"


def test_an_invalid_edit_keeps_the_input_and_saves_nothing(
    owner_client: Client, match: Match, snapshot: Snapshot
) -> None:
    state = snapshot()
    response = owner_client.post(
        link("deal_edit", match, seq=1), deal_post(match.version, taker_points="170")
    )
    assert response.status_code == 200
    assert 'value="170"' in response.text and "less than or equal to 162" in response.text
    assert snapshot() == state


def test_an_edit_that_would_leave_a_deal_after_the_end_is_refused(
    owner_client: Client, make_match: MakeMatch, snapshot: Snapshot
) -> None:
    match = make_match(rules_from_dict({"preset": "coinche", "target": 500}), [coinche_deal()] * 2)
    state = snapshot()
    data = deal_post(match.version, contract="capot", taker_points="", capot="0")
    response = owner_client.post(link("deal_edit", match, seq=1), data)
    assert response.status_code == 200
    assert (
        '<div class="form-errors" id="error-summary" role="alert" tabindex="-1" autofocus>'
        in response.text
    )
    assert "the match was already over after deal 1" in response.text
    assert snapshot() == state


def test_the_htmx_preview_of_an_edit(
    owner_client: Client, match: Match, snapshot: Snapshot
) -> None:
    state = snapshot()
    response = owner_client.post(
        link("deal_edit", match, seq=1), deal_post(match.version, taker_points="30"), headers=HTMX
    )
    html = response.text.strip()
    assert html.startswith('<section id="preview"') and "Failed" in html
    assert snapshot() == state


def test_deleting_a_deal(owner_client: Client, match: Match) -> None:
    page = owner_client.get(link("deal_delete", match, seq=1))
    assert page.status_code == 200 and "<form" in page.text
    assert Deal.objects.filter(match=match).count() == 3  # a GET deletes nothing
    response = owner_client.post(link("deal_delete", match, seq=1), {"version": match.version})
    assert response.status_code == 302 and response["Location"] == link("scoreboard", match)
    assert list(Deal.objects.filter(match=match).values_list("seq", "number")) == [(2, 1), (3, 2)]
    match.refresh_from_db()
    assert (match.total0, match.total1, match.deal_count) == (240, 0, 2)
    board = owner_client.get(link("scoreboard", match))
    assert "Deal 1 deleted. Undo brings it back." in board.text


def test_undo_without_javascript(owner_client: Client, match: Match) -> None:
    response = owner_client.post(link("undo", match), {"version": match.version})
    assert response.status_code == 302 and response["Location"] == link("scoreboard", match)
    assert Deal.objects.filter(match=match).count() == 2
    board = owner_client.get(response["Location"])
    assert "Undone: deal 3 recorded (all passed)." in board.text  # the Undo button's words
    assert "All passed" not in board.text.split('<h2 class="deals-title">')[1]


def test_undo_through_htmx_returns_the_updated_scoreboard(
    owner_client: Client, match: Match
) -> None:
    owner_client.post(link("deal_delete", match, seq=2), {"version": match.version})
    match.refresh_from_db()
    assert (match.total0, match.total1) == (180, 60)
    response = owner_client.post(link("undo", match), {"version": match.version}, headers=HTMX)
    assert response.status_code == 200
    html = response.text.strip()
    assert html.startswith('<section id="scoreboard"') and "<html" not in html
    assert "Undone: deal 2 deleted." in html
    assert 'aria-label="Nous total">420</p>' in html
    assert f"?v={match.version + 1}" in html
    assert Deal.objects.filter(match=match).count() == 3


def test_undo_with_nothing_to_undo_says_so(
    owner_client: Client, make_match: MakeMatch, snapshot: Snapshot
) -> None:
    match = make_match()
    state = snapshot()
    response = owner_client.post(link("undo", match), {"version": match.version}, follow=True)
    assert response.status_code == 200 and "Nothing to undo." in response.text
    assert snapshot() == state


def test_a_deal_history_shows_every_change_with_author_and_time(
    owner_client: Client, other_client: Client, match: Match
) -> None:
    other_client.post(link("deal_edit", match, seq=1), deal_post(match.version, taker_points="120"))
    page = owner_client.get(link("deal_log", match, seq=1))
    assert page.status_code == 200
    html = page.text
    assert "History of deal 1" in html
    assert html.count("<li>") >= 2
    assert "Edited" in html and "Added" in html
    assert html.index("Edited") < html.index("Added")  # newest first
    assert re.search(r"through the scorer link \(phone [0-9a-f]{4}\)", html)
    assert "by the phone that created the match" in html
    # The edit: what changed is marked, the rest is plain.
    assert "80 ♥ · taken by Nous · <mark>100 card points</mark>" in html
    assert "80 ♥ · taken by Nous · <mark>120 card points</mark>" in html
    assert "<time datetime=" in html


def test_the_history_of_a_deleted_deal(owner_client: Client, match: Match) -> None:
    owner_client.post(link("deal_delete", match, seq=2), {"version": match.version})
    page = owner_client.get(link("deal_log", match, seq=2))
    assert page.status_code == 200
    assert "History of a deleted deal" in page.text and "Deleted" in page.text


def test_an_imported_deal_has_a_history_page_without_changes(
    owner_client: Client, match: Match
) -> None:
    DealChange.objects.filter(match=match).delete()
    page = owner_client.get(link("deal_log", match, seq=1))
    assert page.status_code == 200 and "Recorded once" in page.text


def test_the_deal_logs_former_address_redirects(owner_client: Client, match: Match) -> None:
    """The change log of a deal was at .../deal/<n>/history/ ("history" is now the history
    app's: past matches); the old address, kept in a bookmark, still leads to it."""
    old = f"/score/{match.scorer_token}/deal/1/history/"
    response = owner_client.get(old + "?x=1")
    assert response.status_code == 301
    assert response["Location"] == link("deal_log", match, seq=1) + "?x=1"
    assert link("deal_log", match, seq=1) == f"/score/{match.scorer_token}/deal/1/log/"
    board = owner_client.get(link("scoreboard", match)).text
    assert f'href="/score/{match.scorer_token}/deal/1/log/"' in board


def test_the_winner_banner_and_the_rematch(owner_client: Client, make_match: MakeMatch) -> None:
    match = make_match(rules_from_dict({"preset": "belote", "target": 100}), [ManualDeal((0, 150))])
    board = owner_client.get(link("scoreboard", match))
    assert "★ Winner: Eux" in board.text
    viewer = owner_client.get(reverse("matches:viewer", args=[match.view_token]))
    assert "★ Winner: Eux" in viewer.text and "Rematch" not in viewer.text
    response = owner_client.post(link("rematch", match))
    new = Match.objects.exclude(pk=match.pk).get()
    assert response.status_code == 302 and response["Location"] == link("scoreboard", new)
    assert new.rematch_of == match and new.rules == match.rules and new.first_dealer == 1
    htmx = owner_client.post(link("rematch", match), headers=HTMX)
    newer = Match.objects.latest("id")
    assert htmx["HX-Redirect"] == link("scoreboard", newer)


def test_a_draw_banner(owner_client: Client, make_match: MakeMatch) -> None:
    rules = rules_from_dict({"preset": "belote", "target": None, "deals_limit": 1})
    match = make_match(rules, [ManualDeal((10, 10))])
    board = owner_client.get(link("scoreboard", match))
    assert "A draw!" in board.text and "deal 1 of 1" in board.text


def test_the_litige_reserve_is_shown(owner_client: Client, make_match: MakeMatch) -> None:
    match = make_match("belote", [PlayedDeal(taker=0, trump=Trump.SPADES, taker_points=81)])
    assert match.reserve > 0
    board = owner_client.get(link("scoreboard", match))
    # "Litige" is French: marked so on the English page (issue 12).
    litige = '<span lang="fr">Litige</span>'
    assert f"{litige}: {match.reserve} points held in reserve" in board.text


@pytest.mark.parametrize("action", ["deal_passed", "undo"])
def test_a_board_swapped_in_by_a_post_still_polls_the_board(
    owner_client: Client, match: Match, action: str
) -> None:
    """After "All passed" or "Undo" through htmx, the new board keeps polling the scoreboard (not
    the POST-only URL it came from)."""
    response = owner_client.post(link(action, match), {"version": match.version}, headers=HTMX)
    match.refresh_from_db()
    assert response.status_code == 200
    assert f'hx-get="{link("scoreboard", match)}?v={match.version}"' in response.text
    assert "HX-Request" in response["Vary"]
    poll = owner_client.get(link("scoreboard", match), {"v": match.version}, headers=HTMX)
    assert poll.status_code == 204


def test_the_read_only_board_polls_the_read_only_link(client: Client, match: Match) -> None:
    html = client.get(reverse("matches:viewer", args=[match.view_token])).text
    viewer = reverse("matches:viewer", args=[match.view_token])
    assert f'hx-get="{viewer}?v={match.version}"' in html
    assert match.scorer_token not in html


def test_a_double_tap_on_all_passed_records_one_deal_and_no_warning(
    owner_client: Client, match: Match
) -> None:
    page = owner_client.get(link("scoreboard", match)).text
    submission = page.split('name="submission" value="', 1)[1].split('"', 1)[0]
    data = {"version": match.version, "submission": submission}
    owner_client.post(link("deal_passed", match), data)
    second = owner_client.post(link("deal_passed", match), data, follow=True)
    assert match.deals.count() == 4
    assert "changed on another phone" not in second.text


def test_an_overlong_submission_id_is_ignored(
    owner_client: Client, match: Match, snapshot: Snapshot
) -> None:
    """No database error (PostgreSQL checks the 64 characters): the id is just not used."""
    data = {"version": match.version, "submission": "x" * 65}
    response = owner_client.post(link("deal_passed", match), data)
    assert response.status_code == 302
    assert match.deals.count() == 4
    assert DealChange.objects.latest("id").submission is None


def test_an_unknown_qr_code_kind_is_not_found(owner_client: Client, match: Match) -> None:
    assert owner_client.get(link("qr", match, kind="view")).status_code == 200
    assert owner_client.get(link("qr", match, kind="scorer")).status_code == 200
    assert owner_client.get(link("qr", match, kind="other")).status_code == 404


def test_a_finished_match_links_to_its_review(owner_client: Client, make_match: MakeMatch) -> None:
    """Issue 22: the scoreboard of a finished match (and its read-only view) leads to the
    review page (the chart, the facts); one in play does not yet."""
    playing = make_match()
    assert reverse("history:review", args=[playing.view_token]) not in (
        owner_client.get(link("scoreboard", playing)).text
    )
    match = make_match(rules_from_dict({"preset": "belote", "target": 100}), [ManualDeal((0, 150))])
    review = reverse("history:review", args=[match.view_token])
    for url in (link("scoreboard", match), reverse("matches:viewer", args=[match.view_token])):
        board = owner_client.get(url).text
        assert re.search(rf'<a [^>]*href="{re.escape(review)}"[^>]*>Review the match</a>', board)
    # Also when the board is swapped in by htmx (the deal that ends the match, a poll).
    fragment = owner_client.get(link("scoreboard", match), headers=HTMX).text
    assert f'href="{review}"' in fragment


def test_all_passed_has_one_wording_in_french(owner_client: Client, make_match: MakeMatch) -> None:
    """Issue 22: "Tous passent" on the button, "Tout le monde a passé" in the list: one wording,
    the button's, everywhere (the list, the breakdown, the review, the player page)."""
    from django.conf import settings

    from scorekeeper.engine.scoring import PassedDeal

    match = make_match(deals=[PassedDeal()])
    owner_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    pages = [
        owner_client.get(link("scoreboard", match)).text,
        owner_client.get(reverse("history:review", args=[match.view_token])).text,
    ]
    for html in pages:
        assert "Tout le monde" not in html and "tout le monde" not in html
    board = re.sub(r"<[^>]+>", "", pages[0])
    assert board.count("Tous passent") >= 3  # the button, the deal's line, its breakdown
    assert "1 donne où tous passent" in pages[1]
