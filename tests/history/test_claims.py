"""Issue 10 §1, "This is me" leaked unshared matches: a signed-in scorer of one match claimed a
seat name from it, then saw that name's player page with the owner's other, never-shared matches
(and those made after the links were revoked), and the real player could no longer claim it.

Now a player page counts only the matches its viewer may see (owner, scorer, read-only link
holder), for every viewer; a claim made through a scorer link is tied to that match and revoking
its links drops it; the owner sees who claimed which name and can unlink it."""

import re
from collections.abc import Callable
from dataclasses import dataclass
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scorekeeper.history.selectors import Companion
from scorekeeper.matches import services
from scorekeeper.matches.models import Match, MatchScorer, Player, Seat
from tests.conftest import Browser

from .conftest import FACTS_DEALS, OWNER_KEY, Cast, MakeMatch, author

# These read response.context (the figures a page was given).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("template_context")]

HIDDEN_NAMES = ("Emma", "Farid", "Gaëlle")  # only at the owner's never-shared table
LATER_NAMES = ("Hugo", "Inès", "Jules")  # only at the table made after the revocation


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def player(name: str) -> Player:
    return Player.objects.get(owner_key=OWNER_KEY, name=name)


def revoke(cast: Cast) -> None:
    response = cast.owner.post(f"/score/{cast.match.scorer_token}/share/renew/", {"confirm": "yes"})
    assert response.status_code == 302
    cast.match.refresh_from_db()


@dataclass(frozen=True)
class Story:
    cast: Cast
    hidden: Match  # the owner's other match with Chloé, never shared
    clients: dict[str, Client]


@pytest.fixture
def story(cast: Cast, make_match: MakeMatch) -> Story:
    """The cast's match (Alice, Chloé, Bruno, David; in play) and a finished match of the same
    owner where Chloé plays with Farid against Emma and Gaëlle, shared with nobody."""
    hidden = make_match(
        "coinche",
        FACTS_DEALS,  # seat 0's team wins 2170 to 410
        owner=cast.owner_user,
        team_names=("Secret", "Hidden"),
        players=("Chloé", "Emma", "Farid", "Gaëlle"),
    )
    clients = {
        "owner": cast.owner,
        "scorer": cast.scorer,
        "viewer": cast.viewer,  # holds the read-only link
        "another account": cast.stranger,
        "stranger": cast.anonymous,
    }
    return Story(cast, hidden, clients)


# The exact sequence of the report ---------------------------------------------------------------

# Per viewer: how many of Chloé's matches her page counts (None: the page is a 404).
CLAIMED = {"owner": 2, "scorer": 1, "viewer": None, "another account": None, "stranger": None}
REVOKED = {"owner": 3, "scorer": None, "viewer": None, "another account": None, "stranger": None}


@pytest.mark.parametrize("who", list(CLAIMED))
def test_claim_see_revoke_see_again(story: Story, make_match: MakeMatch, who: str) -> None:
    cast, chloe = story.cast, player("Chloé")
    # 1. The scorer (signed in, holding only the scorer link of one match) claims Chloé.
    response = cast.scorer.post(f"/players/{chloe.pk}/me/", follow=True)
    assert "Chloé is you: statistics now gather." in response.text
    chloe.refresh_from_db()
    assert chloe.user == cast.scorer_user

    # 2. Chloé's page, as each viewer sees it.
    client = story.clients[who]
    response = client.get(f"/players/{chloe.pk}/")
    expected = CLAIMED[who]
    if expected is None:
        assert response.status_code == 404
    else:
        assert response.status_code == 200
        assert response.context["stats"].matches == expected
        shown = text_of(response.text)
        for name in HIDDEN_NAMES:
            assert (name in shown) is (who == "owner"), name

    # 3. The owner revokes the links, then plays another match with Chloé.
    revoke(cast)
    make_match(
        "coinche",
        FACTS_DEALS[:1],  # a match without a deal counts nowhere (issue 11)
        owner=cast.owner_user,
        team_names=("Later", "Again"),
        players=("Chloé", "Hugo", "Inès", "Jules"),
    )
    chloe.refresh_from_db()
    assert chloe.user is None  # the claim went with the scorer link it was made through

    # 4. Chloé's page again.
    response = client.get(f"/players/{chloe.pk}/")
    expected = REVOKED[who]
    if expected is None:
        assert response.status_code == 404
    else:
        assert response.status_code == 200
        assert response.context["stats"].matches == expected
        shown = text_of(response.text)
        for name in (*HIDDEN_NAMES, *LATER_NAMES):
            assert name in shown


def test_the_scorer_sees_only_the_scored_match_in_every_figure(story: Story) -> None:
    cast, chloe = story.cast, player("Chloé")
    cast.scorer.post(f"/players/{chloe.pk}/me/")
    response = cast.scorer.get(f"/players/{chloe.pk}/")
    stats = response.context["stats"]
    # The cast's match only: Chloé (seat 1) with David against Alice and Bruno, three deals, in
    # play; the hidden finished match (a win of Chloé's, three capots...) counts nowhere.
    assert (stats.matches, stats.finished, stats.wins) == (1, 0, 0)
    assert stats.deals == 3
    assert stats.taken.total == 1  # Eux's 90 ♥ (the hidden match's Eux are not Chloé's team)
    assert stats.capots == 0
    assert stats.form == []
    assert stats.partners == [Companion(player("David"), matches=1, finished=0, wins=0)]
    assert stats.opponents == [
        Companion(player("Alice"), matches=1, finished=0, wins=0),
        Companion(player("Bruno"), matches=1, finished=0, wins=0),
    ]
    html = response.text
    assert "Secret" not in html and "Hidden" not in html
    assert "<polyline" not in html  # no form chart


def test_the_owner_does_not_see_the_claimers_own_matches(
    story: Story, make_match: MakeMatch
) -> None:
    """Chloé's page for the match's owner, once the scorer claimed her: the scorer's other names
    and their matches (made on the scorer's phone) are not the owner's to see."""
    cast, chloe = story.cast, player("Chloé")
    own = make_match(
        "coinche",
        FACTS_DEALS,
        owner_key="scorer-device",
        owner=cast.scorer_user,
        team_names=("Sam's", "Friends"),
        players=("Sam S.", "Karim", "Léa", "Marc"),
    )
    sam = Player.objects.get(owner_key="scorer-device", name="Sam S.")
    assert cast.scorer.post(f"/players/{sam.pk}/me/").status_code == 302
    cast.scorer.post(f"/players/{chloe.pk}/me/")
    assert set(Player.objects.filter(user=cast.scorer_user)) == {sam, player("Chloé")}
    # The scorer's own page gathers both names over what the scorer sees: own match + scored one.
    assert cast.scorer.get(f"/players/{sam.pk}/").context["stats"].matches == 2

    response = cast.owner.get(f"/players/{chloe.pk}/")
    stats = response.context["stats"]
    assert stats.matches == 2  # the shared match and the hidden one: the owner's own
    assert stats.wins == 1
    assert list(response.context["linked_names"]) == []
    shown = text_of(response.text)
    for name in ("Sam S.", "Karim", "Léa", "Marc"):
        assert name not in shown
    assert own.view_token not in response.text


def test_a_read_only_link_the_player_opened_counts_on_their_page(
    story: Story, browser: Browser, make_user: Callable[[str], User]
) -> None:
    """The real Chloé scores the first match and claims her name; the owner sends her only the
    read-only link of the other one: her page counts both, and nothing else of the owner's."""
    cast, chloe = story.cast, player("Chloé")
    real = make_user("chloe")
    phone = browser("chloes-phone", real)
    assert phone.get(f"/score/{cast.match.scorer_token}/").status_code == 200
    assert phone.post(f"/players/{chloe.pk}/me/").status_code == 302
    assert phone.get(f"/players/{chloe.pk}/").context["stats"].matches == 1
    assert phone.get(f"/view/{story.hidden.view_token}/").status_code == 200
    response = phone.get(f"/players/{chloe.pk}/")
    assert response.context["stats"].matches == 2
    assert "Emma" in text_of(response.text)
    # The review page counts as opening the link too.
    later = Match.objects.create(
        owner_key=OWNER_KEY,
        owner=cast.owner_user,
        rules=story.hidden.rules,
        preset=story.hidden.preset,
        game=story.hidden.game,
        team0_name="Later",
        team1_name="Again",
    )
    Seat.objects.create(match=later, player=chloe, position=0)
    # A match without a deal counts nowhere (issue 11).
    services.record_deal(
        match_id=later.pk, expected_version=None, deal=FACTS_DEALS[0], author=author(OWNER_KEY)
    )
    assert phone.get(f"/players/{chloe.pk}/").context["stats"].matches == 2
    assert phone.get(f"/view/{later.view_token}/review/").status_code == 200
    assert phone.get(f"/players/{chloe.pk}/").context["stats"].matches == 3
    # New links forget it: the read-only link she held no longer counts.
    cast.owner.post(f"/score/{story.hidden.scorer_token}/share/renew/", {"confirm": "yes"})
    assert phone.get(f"/players/{chloe.pk}/").context["stats"].matches == 2


def test_a_name_one_may_open_without_a_visible_match_says_so(cast: Cast) -> None:
    """Chloé linked by an admin to the stranger's account: the page opens (the name is theirs)
    but they see none of the owner's matches, and the page says so instead of zeros."""
    chloe = player("Chloé")
    Player.objects.filter(pk=chloe.pk).update(user=User.objects.get(username="stan"))
    response = cast.stranger.get(f"/players/{chloe.pk}/")
    assert response.status_code == 200
    assert response.context["stats"].matches == 0
    shown = text_of(response.text)
    assert "No match of Chloé that you can see" in shown
    assert "Partners" not in shown and "David" not in shown


# Claims tied to the scorer link -----------------------------------------------------------------


def test_a_claim_records_the_scorer_link_it_was_made_through(cast: Cast) -> None:
    chloe, alice = player("Chloé"), player("Alice")
    cast.scorer.post(f"/players/{chloe.pk}/me/")
    cast.owner.post(f"/players/{alice.pk}/me/")  # the name's owner: no link involved
    chloe.refresh_from_db()
    alice.refresh_from_db()
    assert (chloe.user, chloe.claimed_through) == (cast.scorer_user, cast.match)
    assert (alice.user, alice.claimed_through) == (cast.owner_user, None)


def test_revoking_drops_scorer_claims_only(
    cast: Cast, browser: Browser, make_user: Callable[[str], User], make_match: MakeMatch
) -> None:
    """The scorer's claim (Chloé) goes; the owner's own (Alice) and one made by the account that
    named the player (Bruno, named on Nina's account) stay, as does a claim made through the
    scorer link of another match."""
    nina = make_user("nina")
    Player.objects.filter(pk=player("Bruno").pk).update(owner=nina)
    chloe, alice, bruno, david = (player(n) for n in ("Chloé", "Alice", "Bruno", "David"))
    cast.scorer.post(f"/players/{chloe.pk}/me/")
    cast.owner.post(f"/players/{alice.pk}/me/")
    assert browser("ninas-phone", nina).post(f"/players/{bruno.pk}/me/").status_code == 302
    other = make_match("coinche", owner=cast.owner_user, players=("David", "Nils", "Olga", "Paul"))
    dan = make_user("dan")
    dans = browser("dans-phone", dan)
    dans.get(f"/score/{other.scorer_token}/")
    dans.post(f"/players/{david.pk}/me/")
    claims = dict(Player.objects.filter(user__isnull=False).values_list("name", "user__username"))
    assert claims == {"Chloé": "sam", "Alice": "olivia", "Bruno": "nina", "David": "dan"}

    revoke(cast)
    claims = dict(Player.objects.filter(user__isnull=False).values_list("name", "user__username"))
    assert claims == {"Alice": "olivia", "Bruno": "nina", "David": "dan"}
    # The scorer lost the match, and with it the name's page.
    assert not MatchScorer.objects.filter(match=cast.match).exists()
    assert cast.scorer.get(f"/players/{chloe.pk}/").status_code == 404


def test_an_already_claimed_name_says_to_ask_the_owner(
    cast: Cast, browser: Browser, make_user: Callable[[str], User]
) -> None:
    chloe = player("Chloé")
    cast.scorer.post(f"/players/{chloe.pk}/me/")
    real = browser("chloes-phone", make_user("chloe"))
    real.get(f"/score/{cast.match.scorer_token}/")
    response = real.post(f"/players/{chloe.pk}/me/", follow=True)
    assert response.status_code == 200  # back on the match's review page, not a 404
    assert response.redirect_chain[-1][0] == f"/view/{cast.match.view_token}/review/"
    assert (
        "This name is already linked to another account. If it is yours, ask the match&#x27;s "
        "owner to unlink it." in response.text
    )
    chloe.refresh_from_db()
    assert chloe.user == cast.scorer_user


# The owner sees the claims and undoes one -------------------------------------------------------


def claims_section(html: str) -> str:
    found = re.search(r'<section class="share" id="claims">(.*?)</section>', html, re.S)
    return text_of(found.group(1)) if found else ""


def test_the_owner_sees_who_claimed_which_name(cast: Cast) -> None:
    cast.scorer.post(f"/players/{player('Chloé').pk}/me/")
    cast.owner.post(f"/players/{player('Alice').pk}/me/")
    section = claims_section(cast.owner.get(f"/score/{cast.match.scorer_token}/share/").text)
    assert "Chloé: sam, through this match's scorer link" in section
    assert "Alice: olivia, by the name's owner" in section
    assert "Bruno" not in section and "David" not in section  # nobody's
    # Only the owner: a scorer's share page has no such list.
    assert claims_section(cast.scorer.get(f"/score/{cast.match.scorer_token}/share/").text) == ""


def test_the_owner_undoes_a_claim_and_the_real_player_claims_the_name(
    cast: Cast, browser: Browser, make_user: Callable[[str], User]
) -> None:
    chloe = player("Chloé")
    cast.scorer.post(f"/players/{chloe.pk}/me/")
    url = f"/score/{cast.match.scorer_token}/share/unlink/{chloe.pk}/"
    # Nobody but the owner can unlink it.
    real = browser("chloes-phone", make_user("chloe"))
    real.get(f"/score/{cast.match.scorer_token}/")
    for client in (cast.scorer, real):
        response = client.post(url, follow=True)
        assert "Only the match&#x27;s owner can unlink a name." in response.text
    chloe.refresh_from_db()
    assert chloe.user == cast.scorer_user

    response = cast.owner.post(url, follow=True)
    assert "Chloé is no longer linked to sam: the right player can now claim it." in response.text
    assert Player.objects.filter(pk=chloe.pk, user=None, claimed_through=None).exists()
    assert claims_section(response.text) == ""
    assert cast.scorer.get(f"/players/{chloe.pk}/").status_code == 404

    response = real.post(f"/players/{chloe.pk}/me/", follow=True)
    assert "Chloé is you: statistics now gather." in response.text
    assert Player.objects.values_list("user__username", flat=True).get(pk=chloe.pk) == "chloe"


def test_unlinking_a_name_not_at_this_table_changes_nothing(cast: Cast) -> None:
    xavier = Player.objects.get(owner_key="someone-else", name="Xavier")
    Player.objects.filter(pk=xavier.pk).update(user=cast.scorer_user)
    for pk in (xavier.pk, 999_999):
        response = cast.owner.post(
            f"/score/{cast.match.scorer_token}/share/unlink/{pk}/", follow=True
        )
        assert response.status_code == 200
        assert "This name is not linked to an account at this table." in response.text
    xavier.refresh_from_db()
    assert xavier.user == cast.scorer_user
    # GET is not an action.
    url = f"/score/{cast.match.scorer_token}/share/unlink/{player('Alice').pk}/"
    assert cast.owner.get(url).status_code == 405


# Query count ------------------------------------------------------------------------------------


def test_a_linked_players_page_does_not_grow_with_the_data(
    cast: Cast, make_match: MakeMatch
) -> None:
    chloe = player("Chloé")
    cast.scorer.post(f"/players/{chloe.pk}/me/")
    url = f"/players/{chloe.pk}/"
    cast.scorer.get(url)  # shows (and forgets) the claim's message

    def count() -> int:
        with CaptureQueriesContext(connection) as context:
            assert cast.scorer.get(url).status_code == 200
        return len(context.captured_queries)

    few = count()
    for i in range(6):
        match = make_match(
            "coinche",
            FACTS_DEALS[:3],
            owner=cast.owner_user,
            players=("Chloé", f"Opponent {i}", f"Partner {i}", "David"),
        )
        cast.scorer.get(f"/score/{match.scorer_token}/" if i % 2 else f"/view/{match.view_token}/")
    assert cast.scorer.get(url).context["stats"].matches == 7
    assert count() == few
