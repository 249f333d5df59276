"""Undo you can trust (issue 11): the Undo button says what it undoes, asks before changing a
finished match, and Redo brings back what was just undone until a new change is made; Undo and
Rematch are never side by side."""

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper.engine.scoring import ManualDeal, PassedDeal, rules_from_dict
from scorekeeper.matches import services
from scorekeeper.matches.models import DealChange, Match

from .conftest import MakeMatch, Snapshot
from .support import CREATOR, coinche_deal, deal_post

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def match(make_match: MakeMatch) -> Match:
    return make_match(deals=[coinche_deal(), coinche_deal(taker=1, points=40)])


def link(name: str, match: Match, **kwargs: object) -> str:
    return reverse(f"matches:{name}", kwargs={"token": match.scorer_token, **kwargs})


def fresh(match: Match) -> Match:
    return Match.objects.get(pk=match.pk)


def board(client: Client, match: Match) -> str:
    return str(client.get(link("scoreboard", match)).text)


def buttons(html: str) -> list[str]:
    """The text of every button on the page, spaces collapsed."""
    found = re.findall(r"<button[^>]*>(.*?)</button>", html, re.S)
    return [re.sub(r"[ \t\r\n]+", " ", b).strip() for b in found]  # no-break spaces kept


def post(client: Client, name: str, match: Match, **data: object) -> object:
    return client.post(link(name, match), {"version": fresh(match).version, **data}, follow=True)


def totals(match: Match) -> tuple[int, int, int]:
    match = fresh(match)
    return (match.total0, match.total1, match.deal_count)


# The button says what it undoes -----------------------------------------------------------------


def test_undo_names_a_recorded_deal(owner_client: Client, match: Match) -> None:
    assert "Undo: deal 2 recorded" in buttons(board(owner_client, match))


def test_undo_names_an_edited_and_a_deleted_deal(owner_client: Client, match: Match) -> None:
    owner_client.post(link("deal_edit", match, seq=1), deal_post(match.version, taker_points="120"))
    assert DealChange.objects.latest("id").action == "edit"
    assert "Undo: deal 1 edited" in buttons(board(owner_client, match))
    owner_client.post(link("deal_delete", match, seq=2), {"version": fresh(match).version})
    assert DealChange.objects.latest("id").action == "delete"
    assert "Undo: deal 2 deleted" in buttons(board(owner_client, match))


def test_undo_names_passed_and_manual_deals(owner_client: Client, match: Match) -> None:
    owner_client.post(link("deal_passed", match), {"version": match.version})
    assert fresh(match).deal_count == 3
    assert "Undo: deal 3 recorded (all passed)" in buttons(board(owner_client, match))
    data = {"version": fresh(match).version, "score0": "20", "score1": ""}
    owner_client.post(link("deal_manual", match), data)
    assert fresh(match).deal_count == 4
    assert "Undo: deal 4 recorded (manual score)" in buttons(board(owner_client, match))
    data = {"version": fresh(match).version, "score0": "30", "score1": ""}
    owner_client.post(link("deal_manual_edit", match, seq=4), data)
    assert "Undo: deal 4 edited (manual score)" in buttons(board(owner_client, match))


def test_nothing_to_undo_shows_no_undo_button(owner_client: Client, make_match: MakeMatch) -> None:
    html = board(owner_client, make_match())
    assert not [b for b in buttons(html) if b.startswith(("Undo", "Redo"))]


def test_the_read_only_board_has_neither_undo_nor_redo(client: Client, match: Match) -> None:
    services.undo_last_change(match_id=match.pk, expected_version=None, author=CREATOR)
    html = client.get(reverse("matches:viewer", args=[match.view_token])).text
    assert "Undo" not in html and "Redo" not in html and "/redo/" not in html


def test_the_messages_use_the_same_words(owner_client: Client, match: Match) -> None:
    undone = post(owner_client, "undo", match)
    assert "Undone: deal 2 recorded." in undone.text  # type: ignore[attr-defined]
    redone = post(owner_client, "redo", match)
    assert "Redone: deal 2 recorded." in redone.text  # type: ignore[attr-defined]


def test_in_french_undo_is_defaire_never_annuler(owner_client: Client, match: Match) -> None:
    owner_client.cookies["django_language"] = "fr"
    with translation.override("fr"):
        html = board(owner_client, match)
        assert "Défaire\u00a0: donne 2 enregistrée" in buttons(html)
        undone = post(owner_client, "undo", match).text  # type: ignore[attr-defined]
        assert "Refaire\u00a0: donne 2 enregistrée" in buttons(undone)
        assert "Défaire\u00a0: donne 1 enregistrée" in buttons(undone)
        assert "Annul" not in undone and "annul" not in undone
        owner_client.post(link("deal_delete", match, seq=1), {"version": fresh(match).version})
        html = board(owner_client, match)
        assert "Donne 1 supprimée. «\u00a0Défaire\u00a0» la fait revenir." in html
        assert "Défaire\u00a0: donne 1 supprimée" in buttons(html)


# Confirmation when the match is finished --------------------------------------------------------


@pytest.fixture
def finished(make_match: MakeMatch) -> Match:
    rules = rules_from_dict({"preset": "belote", "target": 100})
    match = make_match(rules, [ManualDeal((30, 0)), ManualDeal((0, 150))])
    assert match.is_finished
    return match


def test_undo_of_a_finished_match_asks_first_without_javascript(
    owner_client: Client, finished: Match, snapshot: Snapshot
) -> None:
    state = snapshot()
    response = owner_client.post(link("undo", finished), {"version": finished.version})
    assert response.status_code == 200 and "<html" in response.text
    assert "The match is over." in response.text
    assert 'name="confirm" value="yes"' in response.text
    assert "Yes, undo: deal 2 recorded (manual score)" in buttons(response.text)
    assert snapshot() == state  # nothing undone yet
    confirmed = owner_client.post(
        link("undo", finished), {"version": finished.version, "confirm": "yes"}
    )
    assert confirmed.status_code == 302
    assert totals(finished) == (30, 0, 1) and not fresh(finished).is_finished


def test_undo_of_a_finished_match_asks_first_with_htmx(
    owner_client: Client, finished: Match, snapshot: Snapshot
) -> None:
    state = snapshot()
    response = owner_client.post(
        link("undo", finished), {"version": finished.version}, headers=HTMX
    )
    html = response.text.strip()
    assert html.startswith('<section id="scoreboard"') and "<html" not in html
    assert "The match is over." in html and 'name="confirm" value="yes"' in html
    assert 'hx-post="{}"'.format(link("undo", finished)) in html
    assert "Keep the result" in html
    assert snapshot() == state
    response = owner_client.post(
        link("undo", finished), {"version": finished.version, "confirm": "yes"}, headers=HTMX
    )
    assert "Undone: deal 2 recorded (manual score)." in response.text
    assert "The match is over." not in response.text
    assert totals(finished) == (30, 0, 1)


def test_a_match_in_play_is_undone_without_a_question(owner_client: Client, match: Match) -> None:
    response = owner_client.post(link("undo", match), {"version": match.version})
    assert response.status_code == 302
    assert fresh(match).deal_count == 1


def test_undo_and_rematch_are_never_side_by_side(owner_client: Client, finished: Match) -> None:
    html = board(owner_client, finished)
    rematch = html.index(link("rematch", finished))
    undo = html.index('action="{}"'.format(link("undo", finished)))
    deals = html.index('<ol class="deals"')
    assert rematch < deals < undo  # the whole deal list stands between them


# Redo -------------------------------------------------------------------------------------------


def test_redo_brings_back_what_was_just_undone(owner_client: Client, match: Match) -> None:
    before = totals(match)
    assert not [b for b in buttons(board(owner_client, match)) if b.startswith("Redo")]
    post(owner_client, "undo", match)
    assert totals(match)[2] == 1
    assert "Redo: deal 2 recorded" in buttons(board(owner_client, match))
    post(owner_client, "redo", match)
    assert totals(match) == before
    redo = DealChange.objects.latest("id")
    undo = DealChange.objects.get(action="undo")
    assert redo.undoes == undo and redo.action == "add" and redo.is_redo
    assert undo.undone and redo.after == undo.before and redo.before is None
    html = board(owner_client, match)
    assert not [b for b in buttons(html) if b.startswith("Redo")]
    assert "Undo: deal 2 recorded" in buttons(html)  # undo the redo


def test_redo_several_steps_in_order(owner_client: Client, match: Match) -> None:
    owner_client.post(link("deal_edit", match, seq=1), deal_post(match.version, taker_points="120"))
    owner_client.post(link("deal_delete", match, seq=2), {"version": fresh(match).version})
    states = [totals(match)]
    for _ in range(4):  # delete, edit, add 2, add 1
        post(owner_client, "undo", match)
        states.append(totals(match))
    assert states[-1] == (0, 0, 0)
    labels = []
    for step in range(4):
        html = board(owner_client, match)
        labels.append(next(b for b in buttons(html) if b.startswith("Redo")))
        post(owner_client, "redo", match)
        assert totals(match) == states[-2 - step]
    assert labels == [
        "Redo: deal 1 recorded",
        "Redo: deal 2 recorded",
        "Redo: deal 1 edited",
        "Redo: deal 2 deleted",
    ]
    assert fresh(match).deals.get().taker_points == 120
    response = post(owner_client, "redo", match)
    assert "Nothing to redo." in response.text  # type: ignore[attr-defined]


def test_undo_after_redo_and_redo_again(owner_client: Client, match: Match) -> None:
    before = totals(match)
    for _ in range(3):
        post(owner_client, "undo", match)
        post(owner_client, "redo", match)
    assert totals(match) == before
    post(owner_client, "undo", match)
    post(owner_client, "undo", match)
    post(owner_client, "redo", match)
    post(owner_client, "redo", match)
    assert totals(match) == before


@pytest.mark.parametrize("change", ["add", "edit", "delete", "passed"])
def test_a_new_change_clears_the_redo_chain(
    owner_client: Client, match: Match, snapshot: Snapshot, change: str
) -> None:
    post(owner_client, "undo", match)
    version = fresh(match).version
    if change == "add":
        owner_client.post(link("deal_new", match), deal_post(version))
    elif change == "edit":
        owner_client.post(link("deal_edit", match, seq=1), deal_post(version, taker_points="90"))
    elif change == "delete":
        owner_client.post(link("deal_delete", match, seq=1), {"version": version})
    else:
        owner_client.post(link("deal_passed", match), {"version": version})
    assert fresh(match).version == version + 1
    assert not [b for b in buttons(board(owner_client, match)) if b.startswith("Redo")]
    state = snapshot()
    response = post(owner_client, "redo", match)
    assert "Nothing to redo." in response.text  # type: ignore[attr-defined]
    assert snapshot() == state


def test_a_stale_redo_from_a_second_phone_is_refused(
    owner_client: Client, other_client: Client, match: Match, snapshot: Snapshot
) -> None:
    post(owner_client, "undo", match)
    stale = fresh(match).version
    post(owner_client, "redo", match)  # the first phone redoes
    state = snapshot()
    response = other_client.post(link("redo", match), {"version": stale}, follow=True)
    assert "The match changed on another phone meanwhile." in response.text
    assert snapshot() == state


def test_a_double_tap_on_undo_or_redo_acts_once(owner_client: Client, match: Match) -> None:
    html = board(owner_client, match)
    undo_id = re.search(r'name="submission" value="([\w-]+-undo)"', html)
    assert undo_id is not None
    data = {"version": match.version, "submission": undo_id[1]}
    for _ in range(2):
        response = owner_client.post(link("undo", match), data, follow=True)
        assert "Undone: deal 2 recorded." in response.text
        assert "The match changed" not in response.text
    assert totals(match)[2] == 1 and DealChange.objects.filter(action="undo").count() == 1
    html = board(owner_client, match)
    redo_id = re.search(r'name="submission" value="([\w-]+-redo)"', html)
    assert redo_id is not None
    data = {"version": fresh(match).version, "submission": redo_id[1]}
    for _ in range(2):
        response = owner_client.post(link("redo", match), data, follow=True, headers=HTMX)
        assert "Redone: deal 2 recorded." in response.text
    assert totals(match)[2] == 2 and DealChange.objects.filter(undoes__isnull=False).count() == 2


def test_redo_is_refused_on_the_read_only_link_and_to_get(
    client: Client, owner_client: Client, match: Match, snapshot: Snapshot
) -> None:
    post(owner_client, "undo", match)
    state = snapshot()
    url = reverse("matches:redo", args=[match.view_token])
    assert client.post(url, {"version": fresh(match).version}).status_code == 404
    assert owner_client.get(link("redo", match)).status_code == 405
    assert snapshot() == state


def test_the_history_shows_redos_in_words(owner_client: Client, match: Match) -> None:
    post(owner_client, "undo", match)
    post(owner_client, "redo", match)
    html = owner_client.get(link("deal_log", match, seq=2)).text
    entries = re.findall(r"<strong>(.*?)</strong>", html)
    assert entries[:3] == ["Redone (added)", "Undone", "Added"]


def test_a_poll_after_an_undo_shows_the_new_buttons(owner_client: Client, match: Match) -> None:
    """The polled fragment's ETag moves with the buttons: a phone that polled before another
    undid gets the new fragment (Redo), not 304."""
    first = owner_client.get(link("scoreboard", match), headers=HTMX)
    tag = first["ETag"]
    services.undo_last_change(match_id=match.pk, expected_version=None, author=CREATOR)
    again = owner_client.get(link("scoreboard", match), headers={**HTMX, "If-None-Match": tag})
    assert again.status_code == 200
    assert "Redo: deal 2 recorded" in buttons(again.text)
    services.redo_last_undo(match_id=match.pk, expected_version=None, author=CREATOR)
    third = owner_client.get(
        link("scoreboard", match), headers={**HTMX, "If-None-Match": again["ETag"]}
    )
    assert third.status_code == 200
    assert not [b for b in buttons(third.text) if b.startswith("Redo")]


def test_the_redo_service_on_passed_deals_and_deletes(make_match: MakeMatch) -> None:
    match = make_match(deals=[coinche_deal(), PassedDeal()])
    services.delete_deal(match_id=match.pk, seq=1, expected_version=None, author=CREATOR)
    services.undo_last_change(match_id=match.pk, expected_version=None, author=CREATOR)
    assert fresh(match).deal_count == 2
    redo = services.redo_last_undo(match_id=match.pk, expected_version=None, author=CREATOR)
    assert redo.action == "delete" and redo.after is None and fresh(match).deal_count == 1
    with pytest.raises(services.NothingToRedo):
        services.redo_last_undo(match_id=match.pk, expected_version=None, author=CREATOR)


def test_all_passed_says_so_with_its_undo_beside_it(
    owner_client: Client, make_match: MakeMatch
) -> None:
    """Issue 41: "All passed" records at once; the result it says comes with Undo in its line
    (a form, so without JavaScript too), and the board shows no second Undo."""
    match = make_match()
    url = reverse("matches:deal_passed", args=[match.scorer_token])
    html = owner_client.post(url, {"version": match.version}, follow=True).text
    line = re.search(r'<li class="msg msg-success msg-with-undo">(.*?)</li>', html, re.S)
    assert line is not None, html
    assert "Deal 1: all passed." in line.group(1)
    assert f'action="/score/{match.scorer_token}/undo/"' in line.group(1)
    assert "Undo: deal 1 recorded (all passed)" in line.group(1)
    assert html.count("Undo: deal 1 recorded (all passed)") == 1
    # Once the message is read, the board's own Undo is back under its buttons.
    board = owner_client.get(reverse("matches:scoreboard", args=[match.scorer_token])).text
    assert "msg-with-undo" not in board
    assert re.search(r'<div class="undo-redo">\s*<form[^>]*/undo/', board)
