"""Who sees what: a match is visible to its owner, its scorers and whoever holds its read-only
link, nobody else; on every page of the history app. Revoking the links cuts the old ones off."""

import csv
import functools
import io
import zipfile

import pytest
from django.test import Client

from scorekeeper.matches.models import Match, Player
from tests.conftest import match_maker, new_user, open_browser
from tests.shared_data import SharedClient, shared_data

from .conftest import OWNER_KEY, Cast, build_cast, in_list

# These read response.context (the figures a page was given).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("template_context")]


@shared_data
def cast() -> Cast:
    """The history tests' cast (conftest.py), built once for the module (tests/shared_data.py):
    each test gets its own copy, clients included, and its writes roll back."""
    browser = functools.partial(open_browser, kind=SharedClient)
    return build_cast(match_maker(OWNER_KEY), browser, new_user)


EVERYONE = ["owner", "scorer", "viewer", "stranger", "anonymous"]
HISTORY_OF_IT = {"owner", "scorer"}  # whose history (list, CSV, backup) holds the match


def client_of(cast: Cast, who: str) -> Client:
    client: Client = getattr(cast, who)
    return client


def csv_tokens(response: object) -> set[str]:
    body = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]
    # A token starting with "-" is written "'-..." (CSV formula neutralising, test_csv_injection).
    return {row["match"].removeprefix("'") for row in csv.DictReader(io.StringIO(body))}


def zip_names(data: bytes) -> list[str]:
    return zipfile.ZipFile(io.BytesIO(data)).namelist()


@pytest.mark.parametrize("who", EVERYONE)
def test_history_list_shows_only_ones_own_and_scored_matches(cast: Cast, who: str) -> None:
    text = client_of(cast, who).get("/history/").text
    assert in_list(text, cast.match) is (who in HISTORY_OF_IT)
    assert not in_list(text, cast.other) and cast.other.scorer_token not in text
    # The match is in play: its row opens the scoreboard, for who may score it only (issue 11).
    assert (cast.match.scorer_token in text) is (who in HISTORY_OF_IT)


@pytest.mark.parametrize("who", ["owner", "scorer", "viewer"])
def test_review_and_match_csv_open_with_the_read_only_link(cast: Cast, who: str) -> None:
    client = client_of(cast, who)
    response = client.get(f"/view/{cast.match.view_token}/review/")
    assert response.status_code == 200
    assert "Nous 1030 – 80 Eux" in response.text
    # The review hands the scorer link only to who may already score (owner, scorer).
    assert (cast.match.scorer_token in response.text) == (who != "viewer")
    response = client.get(f"/view/{cast.match.view_token}/deals.csv")
    assert response.status_code == 200
    assert csv_tokens(response) == {cast.match.view_token[:8]}


@pytest.mark.parametrize("who", EVERYONE)
def test_review_and_match_csv_need_a_valid_read_only_link(cast: Cast, who: str) -> None:
    client = client_of(cast, who)
    for token in ("made-up-token-0000000000", cast.match.scorer_token):  # no scorer token
        assert client.get(f"/view/{token}/review/").status_code == 404
        assert client.get(f"/view/{token}/deals.csv").status_code == 404


@pytest.mark.parametrize("who", EVERYONE)
def test_player_page_is_for_the_names_owner_only(cast: Cast, who: str) -> None:
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    other = Player.objects.get(owner_key="someone-else", name="Xavier")
    client = client_of(cast, who)
    response = client.get(f"/players/{alice.pk}/")
    assert response.status_code == (200 if who == "owner" else 404)
    if who == "owner":
        assert "<h1>Alice</h1>" in response.text
    assert client.get(f"/players/{other.pk}/").status_code == 404


def test_the_player_linked_to_an_account_sees_their_page(cast: Cast) -> None:
    """The person behind a name sees its page once the owner linked it to them... but only
    through names they could see: a stranger's statistics never show another owner's matches."""
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    Player.objects.filter(pk=alice.pk).update(user=cast.scorer_user)
    response = cast.scorer.get(f"/players/{alice.pk}/")
    assert response.status_code == 200
    assert response.context["stats"].matches == 1


def test_review_links_players_only_for_who_may_see_their_page(cast: Cast) -> None:
    alice = Player.objects.get(owner_key=OWNER_KEY, name="Alice")
    link = f'href="/players/{alice.pk}/"'
    assert link in cast.owner.get(f"/view/{cast.match.view_token}/review/").text
    for who in ("scorer", "viewer", "stranger"):
        text = client_of(cast, who).get(f"/view/{cast.match.view_token}/review/").text
        assert link not in text
        assert "Alice" in text


@pytest.mark.parametrize("who", EVERYONE)
def test_csv_of_all_my_matches_holds_only_mine(cast: Cast, who: str) -> None:
    response = client_of(cast, who).get("/history/deals.csv")
    assert response.status_code == 200
    expected = {cast.match.view_token[:8]} if who in HISTORY_OF_IT else set()
    assert csv_tokens(response) == expected


@pytest.mark.parametrize("who", EVERYONE)
def test_backup_holds_only_my_matches(cast: Cast, who: str) -> None:
    response = client_of(cast, who).get("/history/backup.zip")
    assert response.status_code == 200
    names = zip_names(response.content)
    if who in HISTORY_OF_IT:
        assert len(names) == 1
        assert cast.match.view_token[:8] in names[0]
    else:
        assert names == []


def test_backup_of_anothers_match_is_never_served_to_a_stranger(cast: Cast) -> None:
    other_key = cast.other.view_token[:8]
    for who in EVERYONE:
        names = zip_names(client_of(cast, who).get("/history/backup.zip").content)
        assert not any(other_key in name for name in names)


@pytest.mark.parametrize("who", EVERYONE)
def test_a_restore_belongs_to_who_restored_it(cast: Cast, who: str) -> None:
    backup = cast.owner.get("/history/backup.zip").content
    before = set(Match.objects.values_list("pk", flat=True))
    client = client_of(cast, who)
    response = client.post("/history/restore/", {"file": io.BytesIO(backup)}, follow=True)
    if who in ("viewer", "anonymous"):  # no account: sent to log in, nothing restored
        assert "Restoring a backup needs an account" in response.text
        assert set(Match.objects.values_list("pk", flat=True)) == before
        return
    assert "1 match restored." in response.text
    (restored,) = Match.objects.exclude(pk__in=before)
    assert restored.view_token != cast.match.view_token
    assert in_list(client.get("/history/").text, restored)
    for other in EVERYONE:
        if other != who:
            assert not in_list(client_of(cast, other).get("/history/").text, restored)


# Revoking the links ------------------------------------------------------------------------------


def test_owner_regenerates_the_links_and_the_old_ones_404(cast: Cast) -> None:
    old_view, old_scorer = cast.match.view_token, cast.match.scorer_token
    response = cast.owner.post(f"/score/{old_scorer}/share/renew/", {"confirm": "yes"})
    assert response.status_code == 302
    cast.match.refresh_from_db()
    new_view, new_scorer = cast.match.view_token, cast.match.scorer_token
    assert new_view != old_view and new_scorer != old_scorer
    for client in (cast.owner, cast.scorer, cast.viewer, cast.stranger):
        for url in (
            f"/view/{old_view}/",
            f"/view/{old_view}/review/",
            f"/view/{old_view}/deals.csv",
            f"/view/{old_view}/match.json",
            f"/score/{old_scorer}/",
        ):
            assert client.get(url).status_code == 404, url
    assert cast.owner.get(f"/view/{new_view}/review/").status_code == 200
    assert in_list(cast.owner.get("/history/").text, cast.match)
    # The viewer, whose link was revoked, is not handed the new one anywhere.
    assert new_view not in cast.viewer.get("/history/").text
    assert new_scorer not in cast.viewer.get("/history/").text


def test_a_revoked_scorer_loses_the_match(cast: Cast) -> None:
    """After the owner revokes the links, the scorer's history no longer lists the match (it
    would hand the new read-only link to the person it was revoked from)."""
    cast.owner.post(f"/score/{cast.match.scorer_token}/share/renew/", {"confirm": "yes"})
    cast.match.refresh_from_db()
    assert cast.match.view_token not in cast.scorer.get("/history/").text
    assert csv_tokens(cast.scorer.get("/history/deals.csv")) == set()


def test_only_the_owner_can_regenerate_the_links(cast: Cast) -> None:
    tokens = (cast.match.view_token, cast.match.scorer_token)
    response = cast.scorer.post(
        f"/score/{cast.match.scorer_token}/share/renew/", {"confirm": "yes"}, follow=True
    )
    assert "Only the match&#x27;s owner can change its links." in response.text
    cast.match.refresh_from_db()
    assert (cast.match.view_token, cast.match.scorer_token) == tokens


# Scoring from the review page, and "which one is you?" ------------------------------------


def test_the_review_offers_scoring_only_to_who_may_score(cast: Cast) -> None:
    """The owner on another device (and a scorer) find the scorer link on the review page, so
    they can share or revoke an old match; a read-only viewer does not."""
    url = f"/view/{cast.match.view_token}/review/"
    for client in (cast.owner, cast.scorer):
        html = client.get(url).text
        assert f"/score/{cast.match.scorer_token}/share/" in html
    html = cast.viewer.get(url).text
    assert cast.match.scorer_token not in html and "Live scoreboard" in html


def test_a_signed_in_scorer_says_which_player_they_are(cast: Cast) -> None:
    """Chloé was named on the owner's phone; she scored through the link with her own account
    and claims her name from the review page: her player page now opens for her."""
    chloe = Player.objects.get(owner_key=OWNER_KEY, name="Chloé")
    html = cast.scorer.get(f"/view/{cast.match.view_token}/review/").text
    assert "Were you at this table?" in html and "I am Chloé" in html
    assert cast.scorer.get(f"/players/{chloe.pk}/").status_code == 404  # not hers yet
    response = cast.scorer.post(f"/players/{chloe.pk}/me/", follow=True)
    assert "Chloé is you: statistics now gather." in response.text
    chloe.refresh_from_db()
    assert chloe.user == cast.scorer_user
    assert cast.scorer.get(f"/players/{chloe.pk}/").status_code == 200
    # Linked to one seat, she is not asked again.
    assert (
        "Were you at this table?"
        not in cast.scorer.get(f"/view/{cast.match.view_token}/review/").text
    )


@pytest.mark.parametrize("who", ["viewer", "stranger", "anonymous"])
def test_nobody_else_may_claim_a_name(cast: Cast, who: str) -> None:
    chloe = Player.objects.get(owner_key=OWNER_KEY, name="Chloé")
    client = getattr(cast, who)
    assert (
        "Were you at this table?" not in client.get(f"/view/{cast.match.view_token}/review/").text
    )
    response = client.post(f"/players/{chloe.pk}/me/")
    assert response.status_code in (302, 404)
    chloe.refresh_from_db()
    assert chloe.user is None
