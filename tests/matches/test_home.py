"""The home page: a first visit is told what the app is; a returning phone gets its latest matches
first, the rest being one tap away in My matches."""

from django.test import Client

from scorekeeper.matches.views import RECENT

from .conftest import MakeMatch


def test_a_first_visit_explains_the_app(client: Client) -> None:
    page = client.get("/").text
    assert "<h1>Keep the score of your belote and coinche games</h1>" in page
    assert "Your matches" not in page and "All my matches" not in page


def test_a_returning_phone_sees_its_latest_matches(
    owner_client: Client, make_match: MakeMatch
) -> None:
    matches = [make_match(team_names=(f"Team {n}", "Eux")) for n in range(RECENT + 2)]
    page = owner_client.get("/").text
    shown = [m for m in matches if m.scorer_token in page]
    assert shown == matches[-RECENT:]  # the newest ones
    assert page.index("Team 9") < page.index("Team 2")  # newest first
    assert 'href="/history/">All my matches →</a>' in page
    assert "One phone on the table" not in page  # no sales pitch to a regular
    assert 'class="sr-only">Keep the score of your belote and coinche games</h1>' in page
