"""The club organiser's pages through the test client: a club created, its desk, the invite
link, concours attached, published and removed, seasons created and edited (bad input answered
in words, nothing changed), the merge tool with its confirm step and log, the names suggested at
registration; every club page 404 for anyone but the club's organisers."""

import html as entities
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper.clubs import services
from scorekeeper.clubs.models import Club, ClubOrganiser, MergeLog, Person, Season
from scorekeeper.concours.models import Tournament
from tests.factories import ClubFactory, TournamentFactory

pytestmark = pytest.mark.django_db

MakeUser = Callable[[str], User]


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return entities.unescape(response.content.decode())


def post(client: Client, url: str, data: dict[str, Any] | None = None) -> str:
    response = client.post(url, data or {})
    assert response.status_code == 302, response.content.decode()[:500]
    return page(client, response["Location"])


@pytest.fixture
def ann(make_user: MakeUser, client: Client) -> User:
    user = make_user("ann")
    client.force_login(user)
    return user


@pytest.fixture
def club(ann: User) -> Club:
    return ClubFactory.create(organiser=ann)


def url(name: str, club: Club, **kwargs: Any) -> str:
    return reverse(f"clubs:{name}", kwargs={"pk": club.pk, **kwargs})


def test_create_a_club_and_open_its_desk(ann: User, client: Client) -> None:
    html = page(client, reverse("clubs:list"))
    assert "You organise no club yet." in html
    response = client.post(reverse("clubs:list"), {"name": "Belote Club", "town": "Rouen"})
    club = Club.objects.get()
    assert response["Location"] == url("desk", club)
    html = page(client, response["Location"])
    assert "<h1>Belote Club</h1>" in html and "Rouen" in html
    assert f"/clubs/join/{club.invite_token}/" in html
    assert f'href="/club/{club.slug}/"' in html
    assert "ann (you)" in html
    html = page(client, reverse("clubs:list"))
    assert "Belote Club" in html and "0 concours" in html


def test_a_club_without_a_name_is_refused(ann: User, client: Client) -> None:
    response = client.post(reverse("clubs:list"), {"name": "  ", "town": ""})
    assert response.status_code == 200
    assert 'id="error-summary"' in response.content.decode()
    response = client.post(reverse("clubs:list"), {"name": "x" * 101})
    assert response.status_code == 200
    assert not Club.objects.exists()


def test_the_list_asks_a_stranger_to_log_in(client: Client) -> None:
    response = client.get(reverse("clubs:list"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_invite_link_makes_an_organiser(
    club: Club, client: Client, make_user: MakeUser
) -> None:
    link = reverse("clubs:join", args=[club.invite_token])
    bob = make_user("bob")
    stranger = Client()
    response = stranger.get(link)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    other = Client()
    other.force_login(bob)
    assert other.get(url("desk", club)).status_code == 404
    html = page(other, other.get(link)["Location"])
    assert "You now organise the club “Belote Club de Rouen”." in html
    assert ClubOrganiser.objects.filter(club=club, user=bob).exists()
    # New link: the old one is dead.
    post(client, url("invite_new", club))
    club.refresh_from_db()
    carol = Client()
    carol.force_login(make_user("carol"))
    assert carol.get(link).status_code == 404
    assert page(carol, carol.get(reverse("clubs:join", args=[club.invite_token]))["Location"])
    # Bob leaves.
    html = post(other, url("leave", club))
    assert "You no longer organise" in html
    assert not ClubOrganiser.objects.filter(club=club, user=bob).exists()


def test_a_malformed_invite_link_is_404(club: Club, make_user: MakeUser) -> None:
    """A link that cannot be an invite (a NUL, a dot: a token has only a slug's letters) is a
    404 before any lookup (PostgreSQL refused a NUL in the query: a 500)."""
    bob = Client()
    bob.force_login(make_user("bob"))
    for token in (f"{club.invite_token[:10]}%00{club.invite_token[10:]}", "a.b", "%07"):
        assert bob.get(f"/clubs/join/{token}/").status_code == 404, token
    assert [user.username for user in club.organisers.all()] == ["ann"]


def test_attach_publish_and_remove_a_concours(
    ann: User, club: Club, client: Client, make_user: MakeUser
) -> None:
    mine = TournamentFactory.create(
        owner=ann, name="Concours de mars", teams=[("Les As", "Alice", "Bruno")]
    )
    theirs = TournamentFactory.create(owner=make_user("bob"), name="Theirs")
    html = page(client, url("desk", club))
    assert f'<option value="{mine.pk}">Concours de mars</option>' in html
    assert "Theirs" not in html
    html = post(client, url("attach", club), {"concours": mine.pk})
    assert "“Concours de mars” is one of the club's concours (not published yet)." in html
    assert "not shown" in html
    mine.refresh_from_db()
    assert (mine.club_id, mine.published) == (club.pk, False)
    # Someone else's concours: 404, nothing changes.
    assert client.post(url("attach", club), {"concours": theirs.pk}).status_code == 404
    assert client.post(url("attach", club), {"concours": "x"}).status_code == 404
    theirs.refresh_from_db()
    assert theirs.club_id is None
    html = post(client, url("publish", club), {"concours": mine.pk, "published": "1"})
    assert "is shown on the club's public page" in html
    assert Tournament.objects.get(pk=mine.pk).published
    html = post(client, url("publish", club), {"concours": mine.pk, "published": "0"})
    assert not Tournament.objects.get(pk=mine.pk).published
    html = post(client, url("detach", club), {"concours": mine.pk})
    assert "is no longer one of the club's concours" in html
    assert Tournament.objects.get(pk=mine.pk).club_id is None
    # Not in the club: 404.
    assert client.post(url("publish", club), {"concours": mine.pk}).status_code == 404


SEASON = {"name": "Saison 2026–2027", "start": "2026-09-01", "end": "2027-06-30",
          "rank": "players", "measure": "placement", "table": "25 20 16 13", "others": "1",
          "best": "", "published": "on"}  # fmt: skip


def test_create_and_edit_a_season(club: Club, client: Client) -> None:
    html = page(client, url("season_new", club))
    assert 'value="25 20 16 13 11 10 9 8 7 6 5 4 3 2 1"' in html  # the default table
    html = post(client, url("season_new", club), SEASON)
    assert "The season “Saison 2026–2027” is saved." in html
    season = Season.objects.get()
    assert f'href="/club/{club.slug}/season/{season.pk}/">Its ranking</a>' in html
    assert "Change “Saison 2026–2027”" in html
    assert season.rule == {"measure": "placement", "table": [25, 20, 16, 13], "others": 1,
                           "best": None, "rank": "players"}  # fmt: skip
    assert season.published
    html = page(client, reverse("clubs:list"))  # the ranking two taps from the concours list
    assert f'href="/club/{club.slug}/season/{season.pk}/">Ranking: Saison 2026–2027</a>' in html
    html = page(client, url("season_edit", club, season=season.pk))
    assert 'value="25 20 16 13"' in html and 'value="placement" id="id_measure_1" checked' in html
    post(client, url("season_edit", club, season=season.pk),
         {**SEASON, "measure": "points", "rank": "teams", "best": "5", "published": ""})  # fmt: skip
    season.refresh_from_db()
    assert (season.rule["measure"], season.rule["rank"], season.rule["best"]) == (
        "points",
        "teams",
        5,
    )
    assert not season.published


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"table": "25 30"}, "Place 2: must not be more than the points of the place before (25)"),
        ({"table": "25 x"}, "Place 2: “x” is not a whole number."),
        ({"others": "30"}, "must not be more than the points of the place before (13)"),
        ({"end": "2026-01-01"}, "The season ends before it starts."),
        ({"best": "0"}, "Ensure this value is greater than or equal to 1."),
        ({"measure": "luck"}, "Select a valid choice."),
        ({"start": "not a date"}, "Enter a valid date."),
        ({"name": ""}, "This field is required."),
    ],
)
def test_a_bad_season_is_refused_in_words(
    club: Club, client: Client, change: dict[str, str], words: str
) -> None:
    response = client.post(url("season_new", club), {**SEASON, **change})
    assert response.status_code == 200
    html = entities.unescape(response.content.decode())
    assert 'id="error-summary"' in html and words in html
    assert not Season.objects.exists()


def test_an_empty_others_follows_a_table_ending_at_zero(club: Club, client: Client) -> None:
    post(client, url("season_new", club), {**SEASON, "table": "10 5 0", "others": ""})
    assert Season.objects.get().rule["others"] == 0
    post(client, url("season_new", club), {**SEASON, "name": "B", "table": "", "others": ""})
    assert Season.objects.get(name="B").rule["others"] == 1  # the default table


def test_delete_a_season(club: Club, client: Client) -> None:
    post(client, url("season_new", club), SEASON)
    season = Season.objects.get()
    html = post(client, url("season_delete", club, season=season.pk))
    assert "is deleted" in html and not Season.objects.exists()


def test_the_merge_tool_with_its_confirm_step_and_log(
    ann: User, club: Club, client: Client
) -> None:
    TournamentFactory.create(owner=ann, teams=[("Les As", "René Dupont", "Bruno")], club=club)
    TournamentFactory.create(
        owner=ann, name="Avril", teams=[("Les As", "Rene  Dupont", "Bruno")], club=club
    )
    # Registered after the concours joined the club: recorded when the tool opens.
    late = TournamentFactory.create(owner=ann, name="Mai", club=club)
    from scorekeeper.concours import services as tournament_services

    tournament_services.add_entrant(tournament=late, name="Les Ás", players=("Chloé", "Bruno"))
    html = page(client, url("people", club))
    assert "Rene Dupont" in html and "René Dupont" in html and "Les Ás" in html
    people = {p.name: p for p in Person.objects.filter(club=club)}
    kept, merged = people["René Dupont"], people["Rene Dupont"]
    group = next(g for g in html.split('class="clubs-group"') if "Dupont" in g)
    # Radio buttons, each with the whole name (a select cut it at 200 % text, accent and all).
    for field in ("keep", "merge"):
        for person in (kept, merged):
            assert re.search(
                rf'<input type="radio" name="{field}" value="{person.pk}" id="{field}-\d-\d"'
                rf"( checked)?><span>{person.name}</span></label>",
                group,
            )
    assert "<select" not in group
    confirm = f"{url('merge', club)}?keep={kept.pk}&merge={merged.pk}"
    html = page(client, confirm)
    assert "Every result of “Rene Dupont” will count for “René Dupont”" in html
    assert html.count("played 1 concours") == 2
    assert Person.objects.filter(pk=merged.pk).exists()  # nothing merged by looking
    html = post(client, url("merge", club), {"keep": kept.pk, "merge": merged.pk})
    assert "“Rene Dupont” is merged into “René Dupont”." in html
    assert not Person.objects.filter(pk=merged.pk).exists()
    log = MergeLog.objects.get()
    assert (log.kept, log.merged_name, log.by) == (kept, "Rene Dupont", ann)
    assert "Merges done" in html
    # Merged again (a second tab): refused in words, nothing changes.
    html = post(client, url("merge", club), {"keep": kept.pk, "merge": merged.pk})
    assert "These two names cannot be merged: pick them again." in html
    assert client.get(f"{url('merge', club)}?keep=x&merge=1").status_code == 404
    html = post(client, url("merge", club), {"keep": kept.pk, "merge": people["Les As"].pk})
    assert "A team and a player cannot be merged." in html
    assert MergeLog.objects.count() == 1


def test_a_team_and_a_player_have_no_confirm_page(ann: User, club: Club, client: Client) -> None:
    """A crafted link pairing a team with a player is sent back to the list with the merge's own
    refusal, like the POST: no confirm page offers what cannot be done. A digit that is not
    0-9 (a superscript two) is no id: a 404, not a 500."""
    TournamentFactory.create(owner=ann, teams=[("Les As", "René Dupont", "Bruno")], club=club)
    page(client, url("people", club))  # the club's people recorded
    team = Person.objects.get(club=club, kind="team", name="Les As")
    player = Person.objects.get(club=club, kind="player", name="René Dupont")
    for keep, other in ((team, player), (player, team)):
        response = client.get(f"{url('merge', club)}?keep={keep.pk}&merge={other.pk}")
        assert response.status_code == 302 and response["Location"] == url("people", club)
        html = page(client, response["Location"])
        assert "A team and a player cannot be merged." in html
        assert "will count for" not in html
    assert client.get(f"{url('merge', club)}?keep=%C2%B2&merge={team.pk}").status_code == 404
    attach = client.post(url("attach", club), {"concours": "\u00b2"})
    assert attach.status_code == 404
    assert not MergeLog.objects.exists() and Person.objects.filter(club=club).count() == 3


def test_two_names_typed_by_hand(ann: User, club: Club, client: Client) -> None:
    TournamentFactory.create(
        owner=ann, teams=[("Les As", "Jean-Pierre Martin", "Bruno")], club=club
    )
    TournamentFactory.create(
        owner=ann, name="Avril", teams=[("Les As", "JP Martin", "Bruno")], club=club
    )
    html = page(client, url("people", club))
    assert "No similar names." in html
    people = {p.name: p for p in Person.objects.filter(club=club)}
    find = url("find_pair", club)
    response = client.get(
        find, {"kind": "player", "keep": "jean-pierre  MARTIN", "merge": "JP Martin"}
    )
    assert response.status_code == 302
    keep, other = people["Jean-Pierre Martin"].pk, people["JP Martin"].pk
    assert response["Location"] == f"{url('merge', club)}?keep={keep}&merge={other}"
    html = page(client, response["Location"])
    assert "Every result of “JP Martin” will count for “Jean-Pierre Martin”" in html
    # Not found, as a team, or half typed: back with words, nothing merged.
    html = post_get(client, find, {"kind": "team", "keep": "Jean-Pierre Martin", "merge": "x"})
    assert "No team “Jean-Pierre Martin” in the club's concours." in html
    assert "No team “x” in the club's concours." in html
    html = post_get(client, find, {"kind": "dog", "keep": "a", "merge": "b"})
    assert "Choose teams or players and type both names." in html
    html = post_get(client, find, {"kind": "player", "keep": "JP Martin", "merge": " "})
    assert "Choose teams or players and type both names." in html
    assert not MergeLog.objects.exists()


def post_get(client: Client, address: str, data: dict[str, str]) -> str:
    """A GET form that redirects: the page it lands on."""
    response = client.get(address, data)
    assert response.status_code == 302
    return page(client, response["Location"])


def test_a_name_typed_with_a_control_character_is_nobody(
    ann: User, club: Club, client: Client
) -> None:
    """No name of a concours holds a control character: a name typed with a NUL or a bell is
    not found, in words (not even looked up: PostgreSQL refuses a NUL in a query, a 500)."""
    TournamentFactory.create(owner=ann, teams=[("Les As", "Alice", "Bruno")], club=club)
    TournamentFactory.create(
        owner=ann, name="Avril", teams=[("Les Ás", "Alice", "Bruno")], club=club
    )
    find = url("find_pair", club)
    html = post_get(client, find, {"kind": "team", "keep": "Les\x00 As", "merge": "Les Ás"})
    assert "No team “Les As” in the club's concours." in html
    assert "No team “Les Ás”" not in html
    html = post_get(client, find, {"kind": "team", "keep": "Les As", "merge": "Les \x07Ás"})
    assert "No team “Les Ás” in the club's concours." in html
    assert not MergeLog.objects.exists() and Person.objects.filter(kind="team").count() == 2


def test_names_suggested_from_the_clubs_past_entrants(
    ann: User, club: Club, client: Client, make_user: MakeUser
) -> None:
    bob = make_user("bob")
    services.join(club=club, user=bob)
    TournamentFactory.create(
        owner=bob, name="Bob's", teams=[("Les Rois", "Zoé", "Yann")], club=club
    )
    TournamentFactory.create(
        owner=bob,
        name="Bob's mêlée",
        preset="melee",
        teams=["Xavier", "Walid", "Victor", "Ugo"],
        club=club,
    )
    TournamentFactory.create(owner=bob, name="Not the club's", teams=[("Secret", "Tess", "Sam")])
    tournament = TournamentFactory.create(owner=ann, name="Ann's", club=club)
    html = page(client, reverse("concours:desk", args=[tournament.pk]))
    assert '<option value="Les Rois">' in html and '<option value="Zoé">' in html
    assert '<datalist id="past-players">' in html
    players = html.split('<datalist id="past-players">')[1].split("</datalist>")[0]
    assert '<option value="Xavier">' in players  # a mêlée entrant is a player
    assert "Secret" not in html and "Tess" not in html
    assert f'href="/clubs/{club.pk}/">Its club</a>' in html
    # Outside the club: only Ann's own concours.
    alone = TournamentFactory.create(owner=ann, name="Alone")
    html = page(client, reverse("concours:desk", args=[alone.pk]))
    assert "Les Rois" not in html and "Its club" not in html


@pytest.fixture
def roles(club: Club, make_user: MakeUser) -> dict[str, Client]:
    """Everyone but the organiser: an organiser of another club, another account, a stranger."""
    other_organiser, someone = make_user("olga"), make_user("sam")
    ClubFactory.create(organiser=other_organiser, name="Autre club")
    clients = {
        "other club's organiser": Client(),
        "another account": Client(),
        "stranger": Client(),
    }
    clients["other club's organiser"].force_login(other_organiser)
    clients["another account"].force_login(someone)
    return clients


def test_every_club_page_is_404_for_everyone_else(
    ann: User, club: Club, client: Client, roles: dict[str, Client]
) -> None:
    tournament = TournamentFactory.create(
        owner=ann, teams=[("Les As", "Alice", "Bruno")], club=club
    )
    TournamentFactory.create(
        owner=ann, name="Avril", teams=[("Les As", "Alicé", "Bruno")], club=club
    )
    season = services.create_season(
        club=club, name="S", start=tournament.created_at.date(), end=tournament.created_at.date(),
        rule={},
    )  # fmt: skip
    alice = Person.objects.get(club=club, name="Alice")
    alice2 = Person.objects.get(club=club, name="Alicé")
    gets = [
        url("desk", club),
        url("season_new", club),
        url("season_edit", club, season=season.pk),
        url("people", club),
        f"{url('merge', club)}?keep={alice.pk}&merge={alice2.pk}",
    ]
    redirects = [f"{url('find_pair', club)}?kind=player&keep=Alice&merge=Alicé"]
    posts = [
        (url("edit", club), {"name": "Hacked"}),
        (url("invite_new", club), {}),
        (url("leave", club), {}),
        (url("attach", club), {"concours": tournament.pk}),
        (url("detach", club), {"concours": tournament.pk}),
        (url("publish", club), {"concours": tournament.pk, "published": "1"}),
        (url("season_new", club), SEASON),
        (url("season_edit", club, season=season.pk), SEASON),
        (url("season_delete", club, season=season.pk), {}),
        (url("merge", club), {"keep": alice.pk, "merge": alice2.pk}),
    ]
    token = club.invite_token
    for role, other in roles.items():
        for address in gets + redirects:
            assert other.get(address).status_code == 404, (role, address)
        for address, data in posts:
            assert other.post(address, data).status_code == 404, (role, address)
    club.refresh_from_db()
    tournament.refresh_from_db()
    assert (club.name, club.invite_token) == ("Belote Club de Rouen", token)
    assert (tournament.club_id, tournament.published) == (club.pk, False)
    assert Season.objects.filter(pk=season.pk).exists() and Season.objects.count() == 1
    assert not MergeLog.objects.exists() and Person.objects.filter(pk=alice2.pk).exists()
    assert list(club.organisers.all()) == [ann]
    # The other club's organiser sees only their own club in the list.
    html = page(roles["other club's organiser"], reverse("clubs:list"))
    assert "Autre club" in html and "Belote Club de Rouen" not in html
    # And the organiser sees every page.
    for address in gets:
        assert client.get(address).status_code == 200, address
    for address in redirects:
        assert client.get(address).status_code == 302, address


def test_the_desk_makes_a_constant_number_of_queries(
    ann: User, club: Club, client: Client, django_assert_max_num_queries: Any
) -> None:
    for n in range(3):
        TournamentFactory.create(
            owner=ann, name=f"C{n}", teams=[(f"T{n}", f"A{n}", f"B{n}")], club=club
        )
    post(client, url("season_new", club), SEASON)
    with django_assert_max_num_queries(12) as small:
        page(client, url("desk", club))
    desk_queries = len(small)
    for n in range(3, 15):
        TournamentFactory.create(
            owner=ann, name=f"C{n}", teams=[(f"T{n}", f"A{n}", f"B{n}")], club=club
        )
        TournamentFactory.create(owner=ann, name=f"Own {n}")
    for n in range(5):
        post(client, url("season_new", club), {**SEASON, "name": f"S{n}"})
    with django_assert_max_num_queries(desk_queries):
        page(client, url("desk", club))
    with django_assert_max_num_queries(12) as tool:
        page(client, url("people", club))
    tool_queries = len(tool)
    TournamentFactory.create(
        owner=ann, name="More", teams=[("Tx", "Ax", "Bx"), ("Ty", "Ay", "By")], club=club
    )
    with django_assert_max_num_queries(tool_queries):
        page(client, url("people", club))


def test_the_desk_in_french(club: Club, client: Client) -> None:
    client.cookies["django_language"] = "fr"
    html = page(client, url("desk", club))
    assert "Les concours du club" in html and "Nouvelle saison" in html
    assert "Trouver et fusionner les noms semblables" in html
