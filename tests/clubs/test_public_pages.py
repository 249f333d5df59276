"""A club's public pages (issue 16): the club page, a concours's final ranking, the season
ranking under each rule (points, placement table, best N of M, teams or players) read through the
page, a team's or player's record with its chart, privacy (only what is published), and a
constant number of queries (2 concours or 6)."""

import re
from collections.abc import Callable
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from scorekeeper.clubs.models import Club, Person, Season
from scorekeeper.concours.models import Tournament
from tests.factories import ClubFactory, TournamentFactory

from .public_support import A, final, played, season

pytestmark = pytest.mark.django_db


def text(response: object) -> str:
    content = getattr(response, "content", b"").decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", content))


def ranking(client: Client, club: Club, season_: Season, sort: str = "") -> list[list[str]]:
    """The season page's rows: [rank, name, score, won, best, played, counted]."""
    url = reverse("club_public:season", args=[club.slug, season_.pk])
    response = client.get(url + (f"?sort={sort}" if sort else ""))
    assert response.status_code == 200
    body = response.content.decode()
    table = body[body.index("<tbody>") : body.index("</tbody>")]
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
        cells = [
            re.sub(r"<[^>]+>", "", c).strip()
            for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        rank, name = cells[0].split(".", 1)
        rows.append([rank, name.strip(), *cells[1:]])
    return rows


# ---------------------------------------------------------------------------------------------
# The club page and a concours


def test_the_club_page_lists_published_concours_with_podium_and_prizes(
    client: Client, ann: User, club: Club, three: list[Tournament]
) -> None:
    upcoming = TournamentFactory.create(owner=ann, name="Janvier", date=date(2026, 1, 9))
    upcoming.club, upcoming.published, upcoming.place = club, True, "Salle Pleyel"
    upcoming.save()
    hidden = played(ann, club, "Secret", date(2025, 10, 15), A, published=False)
    season(club, "2025-2026")
    season(club, "Brouillon", published=False)
    response = client.get(reverse("club_public:club", args=[club.slug]))
    assert response.status_code == 200
    page = text(response)
    assert "Coming up Janvier" in page and "Salle Pleyel" in page
    # The latest first, each with its podium; the first's prize.
    assert page.index("Décembre") < page.index("Novembre") < page.index("Octobre")
    assert "Octobre 1 Oct 2025 1. Rois Un jambon 2. Dames 3. Valets" in page
    assert "Secret" not in page and hidden.name not in page
    assert "2025-2026" in page and "Brouillon" not in page
    assert "Archive (organisers)" not in page  # a stranger
    rois = Person.objects.get(club=club, kind="team", name="Rois")
    assert reverse("club_public:record", args=[club.slug, rois.pk]) in response.content.decode()


def _coming_up(owner: User, club: Club, name: str, when: date, **prizes: str) -> Tournament:
    """A published concours not played yet; `prizes`: {"p1": "a ham"} for rank 1."""
    tournament = TournamentFactory.create(
        owner=owner,
        name=name,
        date=when,
        prizes={int(rank[1:]): text for rank, text in prizes.items()},
    )
    tournament.club, tournament.published = club, True
    tournament.save()
    return tournament


def test_a_concours_coming_up_shows_its_prizes(
    client: Client, ann: User, club: Club, three: list[Tournament]
) -> None:
    """Its prizes are announced before it is played (a past one shows each on its podium), by
    rank, read with the concours (no query more, however many are coming up)."""
    url = reverse("club_public:club", args=[club.slug])
    _coming_up(ann, club, "Janvier", date(2026, 1, 9), p2="Deux bouteilles", p1="Un jambon")
    queries = _queries(client, url)
    _coming_up(ann, club, "Février", date(2026, 2, 6), p10="Un  lot de   consolation")
    _coming_up(ann, club, "Mars", date(2026, 3, 6))  # none announced: no line
    assert _queries(client, url) == queries
    page = text(client.get(url))
    upcoming = page[page.index("Coming up") : page.index("Past concours")]
    assert "Janvier 9 Jan 2026 Prizes: 1. Un jambon · 2. Deux bouteilles Février" in upcoming
    assert "Février 6 Feb 2026 Prizes: 10. Un lot de consolation Mars 6 Mar 2026 " in upcoming
    assert upcoming.count("Prizes:") == 2
    assert "Octobre 1 Oct 2025 1. Rois Un jambon 2. Dames" in page  # a past one: its podium


def test_the_prizes_coming_up_in_french(client: Client, ann: User, club: Club) -> None:
    _coming_up(ann, club, "Janvier", date(2026, 1, 9), p1="Un jambon")
    french = Client(headers={"accept-language": "fr"})
    try:
        page = french.get(reverse("club_public:club", args=[club.slug])).content.decode()
        assert "Lots\u00a0: 1. Un jambon" in page  # a no-break space before the colon
    finally:  # a request leaves its language active in the thread: not for the next test
        translation.activate("en")


def test_a_concours_page_shows_its_final_ranking_with_links_to_records(
    client: Client, club: Club, three: list[Tournament]
) -> None:
    response = client.get(reverse("club_public:concours", args=[club.slug, three[0].pk]))
    page = text(response)
    assert "Final ranking" in page
    assert "1. Rois Rois A & Rois B Un jambon" in page
    rois = Person.objects.get(club=club, kind="team", name="Rois")
    assert reverse("club_public:record", args=[club.slug, rois.pk]) in response.content.decode()


# ---------------------------------------------------------------------------------------------
# Every ranking rule, through the page


def test_total_points_ranks_teams_with_every_figure(
    client: Client, club: Club, three: list[Tournament]
) -> None:
    rows = ranking(client, club, season(club, rank="teams"))
    assert rows == [
        ["1", "Dames", "2600", "2", "1", "3", "3"],
        ["2", "Rois", "2300", "1", "1", "3", "3"],
        ["3", "Valets", "2100", "0", "3", "3", "3"],
        ["4", "As", "2000", "0", "2", "3", "3"],
    ]


def test_who_won_the_most_concours_is_said_and_sortable(
    client: Client, club: Club, three: list[Tournament]
) -> None:
    # Placement points where Rois lead but Dames won more concours.
    this = season(club, rank="teams", measure="placement", table=[10, 9], others=8)
    rows = ranking(client, club, this)
    page = text(client.get(reverse("club_public:season", args=[club.slug, this.pk])))
    assert "Most concours won (2): Dames" in page
    assert (
        "Octobre 1 Oct 2025 · won by Rois" in page and "Novembre 1 Nov 2025 · won by Dames" in page
    )
    by_wins = ranking(client, club, this, sort="wins")
    assert by_wins[0][1] == "Dames" and [r[1] for r in rows] != []


def test_the_placement_table_and_its_others(
    client: Client, club: Club, three: list[Tournament]
) -> None:
    default = ranking(client, club, season(club, "Défaut", rank="teams", measure="placement"))
    assert [(r[1], r[2]) for r in default] == [
        ("Dames", "70"),
        ("Rois", "58"),
        ("Valets", "48"),
        ("As", "46"),
    ]
    short = season(club, "Court", rank="teams", measure="placement", table=[10, 5], others=1)
    assert [(r[1], r[2]) for r in ranking(client, club, short)] == [
        ("Dames", "25"),
        ("Rois", "16"),
        ("As", "7"),
        ("Valets", "3"),
    ]


def test_best_n_of_m_counts_the_best_results_and_ties_break_on_best_place(
    client: Client, club: Club, three: list[Tournament]
) -> None:
    rows = ranking(client, club, season(club, rank="teams", best=2))
    # Rois 900 + 800, Dames 900 + 900; Valets and As both 1400, no win: As was 2nd once.
    assert rows == [
        ["1", "Dames", "1800", "2", "1", "3", "2"],
        ["2", "Rois", "1700", "1", "1", "3", "2"],
        ["3", "As", "1400", "0", "2", "3", "2"],
        ["4", "Valets", "1400", "0", "3", "3", "2"],
    ]


def test_players_get_their_team_s_result_and_melee_counts_only_for_players(
    client: Client, ann: User, club: Club, three: list[Tournament]
) -> None:
    melee = played(
        ann, club, "Mêlée", date(2026, 1, 10), {"Rois A": 500, "Dames A": 400, "Valets A": 300,
                                                  "As A": 200}, melee=True,
    )  # fmt: skip
    result = {row["name"]: row for row in final(melee)["rows"]}
    players = {r[1]: r for r in ranking(client, club, season(club, "Joueurs", rank="players"))}
    assert len(players) == 8
    assert players["Rois B"][2] == "2300" and players["Rois B"][5] == "3"
    assert players["Rois A"][2] == str(2300 + result["Rois A"]["points"])
    assert players["Rois A"][5] == "4"
    teams = {r[1]: r for r in ranking(client, club, season(club, "Équipes", rank="teams"))}
    assert set(teams) == {"Rois", "Dames", "Valets", "As"}
    assert teams["Rois"][5] == "3"  # the mêlée is left out of a team ranking


def test_a_season_reads_only_its_dates(
    client: Client, ann: User, club: Club, three: list[Tournament]
) -> None:
    played(ann, club, "Été", date(2026, 7, 5), {"Rois": 100, "As": 900})
    rows = ranking(client, club, season(club, rank="teams"))
    assert {r[1]: r[5] for r in rows}["As"] == "3"


def test_a_merge_joins_two_spellings_in_the_ranking(
    client: Client, ann: User, club: Club, three: list[Tournament]
) -> None:
    from scorekeeper.clubs import services as club_services

    played(ann, club, "Janvier", date(2026, 1, 5), {"ROIS ": 900, "Les As": 100})
    this = season(club, rank="teams")
    rows = {r[1]: r for r in ranking(client, club, this)}
    # One team: case and spaces folded; shown under the club's name for it (issue 22: the
    # spelling first met, not the latest).
    assert rows["Rois"][5] == "4" and "ROIS" not in rows
    assert rows["As"][5] == "3" and rows["Les As"][5] == "1"
    kept = Person.objects.get(club=club, kind="team", name="As")
    merged = Person.objects.get(club=club, kind="team", name="Les As")
    club_services.merge_people(club=club, kept=kept, merged=merged, user=ann)
    rows = {r[1]: r for r in ranking(client, club, this)}
    # Merged: the kept spelling, not the latest (issue 22).
    assert "Les As" not in rows and rows["As"][5] == "4"


# ---------------------------------------------------------------------------------------------
# A record


def test_a_player_record_with_its_figures_best_result_and_chart(
    client: Client, club: Club, three: list[Tournament]
) -> None:
    rois = Person.objects.get(club=club, kind="team", name="Rois")
    response = client.get(reverse("club_public:record", args=[club.slug, rois.pk]))
    assert response.status_code == 200
    page = text(response)
    assert "3 concours played 1 won 2 podiums (top 3) 2.3 average place" in page
    assert "Best result: 1 of 4 , Octobre" in page
    body = response.content.decode()
    assert '<svg class="chart"' in body and 'role="img"' in body
    assert "3 concours, from 1 Oct 2025 to 1 Dec 2025." in body
    assert "Places in order: 1 of 4, 2 of 4, 4 of 4." in body
    # The list, the latest first.
    assert page.index("Décembre") < page.index("Novembre") < page.rindex("Octobre")
    player = Person.objects.get(club=club, kind="player", name="Rois A")
    page = text(client.get(reverse("club_public:record", args=[club.slug, player.pk])))
    assert "Player" in page and "3 concours played" in page and "Rois" in page


# ---------------------------------------------------------------------------------------------
# Privacy


def test_only_what_is_published_is_shown(
    client: Client, ann: User, club: Club, three: list[Tournament],
    make_user: Callable[[str], User],
) -> None:  # fmt: skip
    hidden = played(ann, club, "Secret", date(2025, 10, 15), {"Fantômes": 999, "Rois": 1})
    hidden.published = False
    hidden.save()
    draft = season(club, "Brouillon", published=False)
    public = season(club, rank="teams")
    other = ClubFactory.create(organiser=make_user("bob"), name="Autre club", town="Lyon")
    foreign = played(ann, other, "Ailleurs", date(2025, 10, 2), A)
    foreign_season = season(other)
    slug = club.slug
    assert client.get(reverse("club_public:concours", args=[slug, hidden.pk])).status_code == 404
    assert client.get(reverse("club_public:concours", args=[slug, foreign.pk])).status_code == 404
    for name in ("season", "season_csv", "season_print"):
        assert client.get(reverse(f"club_public:{name}", args=[slug, draft.pk])).status_code == 404
        assert (
            client.get(reverse(f"club_public:{name}", args=[slug, foreign_season.pk])).status_code
            == 404
        )
    rows = ranking(client, club, public)
    assert "Fantômes" not in [r[1] for r in rows]
    assert {r[1]: r[5] for r in rows}["Rois"] == "3"
    ghost = Person.objects.get(club=club, kind="team", name="Fantômes")
    assert client.get(reverse("club_public:record", args=[slug, ghost.pk])).status_code == 404
    rois = Person.objects.get(club=club, kind="team", name="Rois")
    page = text(client.get(reverse("club_public:record", args=[slug, rois.pk])))
    assert "Secret" not in page and "3 concours played" in page
    assert client.get(reverse("club_public:club", args=["no-such-club"])).status_code == 404
    foreign_rois = Person.objects.get(club=other, kind="team", name="Rois")
    url = reverse("club_public:record", args=[slug, foreign_rois.pk])
    assert client.get(url).status_code == 404


def test_every_role_sees_only_what_is_published(
    ann: User, club: Club, three: list[Tournament], make_user: Callable[[str], User]
) -> None:
    """The public pages are the same for the club's own organisers as for anyone: an organiser
    publishes to show, and reads unpublished work on the desk, never here. Only the archive's
    links differ."""
    hidden = played(ann, club, "Secret", date(2025, 10, 15), {"Fantômes": 999, "Rois": 1},
                    published=False)  # fmt: skip
    draft = season(club, "Brouillon", published=False)
    public = season(club, "Publique", rank="teams")
    ghost = Person.objects.get(club=club, kind="team", name="Fantômes")
    olga = make_user("olga")
    ClubFactory.create(organiser=olga, name="Autre club", town="Lyon")
    roles = {"organiser": ann, "other club's organiser": olga, "another account": make_user("sam")}
    clients = {"stranger": Client()}
    for role, user in roles.items():
        clients[role] = Client()
        clients[role].force_login(user)
    slug = club.slug
    for role, visitor in clients.items():
        page = text(visitor.get(reverse("club_public:club", args=[slug])))
        assert "Octobre" in page and "Publique" in page, role
        assert "Secret" not in page and "Brouillon" not in page, role
        assert ("Archive (organisers)" in page) == (role == "organiser"), role
        found = text(visitor.get(reverse("club_public:club", args=[slug]), {"q": "fantômes"}))
        assert "Not found" in found, role
        for address in (
            reverse("club_public:concours", args=[slug, hidden.pk]),
            reverse("club_public:season", args=[slug, draft.pk]),
            reverse("club_public:season_csv", args=[slug, draft.pk]),
            reverse("club_public:season_print", args=[slug, draft.pk]),
            reverse("club_public:record", args=[slug, ghost.pk]),
        ):
            assert visitor.get(address).status_code == 404, (role, address)
        rows = ranking(visitor, club, public)
        assert {r[1]: r[5] for r in rows} == {"Dames": "3", "Rois": "3", "Valets": "3",
                                               "As": "3"}, role  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Speed: a constant number of queries


def _queries(client: Client, url: str) -> int:
    client.get(url)  # the first read may record new names as people
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_pages_read_a_constant_number_of_queries(client: Client, ann: User, club: Club) -> None:
    this = season(club, rank="players")
    months = [date(2025, m, 1) for m in (9, 10, 11, 12)] + [date(2026, m, 1) for m in (1, 2)]
    for when in months[:2]:
        played(ann, club, f"C {when}", when, A)
    rois = Person.objects.get(club=club, kind="player", name="Rois A")
    urls = [
        reverse("club_public:club", args=[club.slug]),
        reverse("club_public:season", args=[club.slug, this.pk]),
        reverse("club_public:record", args=[club.slug, rois.pk]),
    ]
    before = [_queries(client, url) for url in urls]
    for when in months[2:]:
        played(ann, club, f"C {when}", when, {**A, "Nouveaux": 500})
    after = [_queries(client, url) for url in urls]
    assert before == after
    assert max(after) <= 8


def test_a_stale_stored_ranking_is_computed_again_and_the_get_writes_nothing(
    client: Client, club: Club, three: list[Tournament]
) -> None:
    Tournament.objects.filter(pk=three[0].pk).update(final_standings=None)
    page = text(client.get(reverse("club_public:club", args=[club.slug])))
    assert "1. Rois Un jambon" in page
    three[0].refresh_from_db()
    assert three[0].final_standings is None  # a GET never writes: `finish` and corrections store


def test_the_season_and_a_record_in_french(club: Club, three: list[Tournament]) -> None:
    french = Client(headers={"accept-language": "fr"})
    this = season(club, rank="teams", best=2)
    try:
        page = text(french.get(reverse("club_public:season", args=[club.slug, this.pk])))
        assert "Le plus de concours gagnés (2) : Dames" in page
        assert "seuls les 2 meilleurs résultats comptent" in page
        rois = Person.objects.get(club=club, kind="team", name="Rois")
        page = text(french.get(reverse("club_public:record", args=[club.slug, rois.pk])))
        assert "concours joués" in page and "Meilleur résultat : 1 sur 4" in page
    finally:  # a request leaves its language active in the thread: not for the next test
        translation.activate("en")


def test_find_a_player_or_a_team_from_the_club_page(
    client: Client, ann: User, club: Club, three: list[Tournament]
) -> None:
    played(ann, club, "Secret", date(2025, 10, 15), {"Rois cachés": 999, "Dames": 1},
           published=False)  # fmt: skip
    url = reverse("club_public:club", args=[club.slug])
    response = client.get(url, {"q": "  rOIs  "})
    page = text(response)
    rois = Person.objects.get(club=club, kind="team", name="Rois")
    player = Person.objects.get(club=club, kind="player", name="Rois A")
    body = response.content.decode()
    assert reverse("club_public:record", args=[club.slug, rois.pk]) in body
    assert reverse("club_public:record", args=[club.slug, player.pk]) in body
    assert "Rois cachés" not in page  # only in an unpublished concours
    page = text(client.get(url, {"q": "cachés"}))
    assert "Not found" in page and "No team or player of a published concours" in page


def test_a_record_is_the_engine_s_record_of_the_person(
    client: Client, ann: User, club: Club, three: list[Tournament]
) -> None:
    """The record page reads only the person's rows; the seasons engine over every concours of
    the club gives the same record (a player in teams and à la mêlée, a team)."""
    from scorekeeper.clubs import public_selectors as ps
    from scorekeeper.engine import season as seasons

    played(ann, club, "Mêlée", date(2026, 1, 10), {"Rois A": 500, "As B": 400, "Valets A": 300,
                                                   "Dames B": 200}, melee=True)  # fmt: skip
    items = ps.finished_in(club)
    people = ps.People.of(club)
    concours = ps.engine_concours(items, people)
    for kind, name in (("player", "Rois A"), ("player", "Dames A"), ("team", "As")):
        person = Person.objects.get(club=club, kind=kind, name=name)
        page = ps.record_page(club, person)
        assert page is not None
        rank: seasons.RankBy = "teams" if kind == "team" else "players"
        assert page.record == seasons.records(concours, rank)[person.key]


def test_shared_places_share_their_placement_points(client: Client, ann: User, club: Club) -> None:
    # However the draw pairs them, the two 500s share 1st and the two 400s share 3rd.
    played(ann, club, "Égalités", date(2025, 10, 1), {"Nord": 500, "Sud": 500, "Est": 400,
                                                       "Ouest": 400})  # fmt: skip
    rows = ranking(client, club, season(club, rank="teams", measure="placement"))
    assert [(r[0], r[2], r[3], r[4]) for r in rows] == [
        ("1", "25", "1", "1"),
        ("1", "25", "1", "1"),
        ("3", "16", "0", "3"),
        ("3", "16", "0", "3"),
    ]
    assert [r[1] for r in rows] == ["Nord", "Sud", "Est", "Ouest"]  # a shared rank: by name


def test_the_club_page_lists_earlier_concours_without_their_ranking(
    client: Client, club: Club, three: list[Tournament], monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.clubs import public_selectors

    monkeypatch.setattr(public_selectors, "RECENT", 2)
    page = text(client.get(reverse("club_public:club", args=[club.slug])))
    recent, earlier = page.split("Earlier concours")
    assert "Décembre" in recent and "Novembre" in recent and "Octobre" not in recent
    assert "Octobre 1 Oct 2025" in earlier and "Un jambon" not in earlier


def test_an_empty_season_and_a_rule_stored_wrong_never_fail(client: Client, club: Club) -> None:
    empty = season(club, "Vide")
    page = text(client.get(reverse("club_public:season", args=[club.slug, empty.pk])))
    assert "No finished concours in this season yet." in page
    Season.objects.filter(pk=empty.pk).update(rule={"measure": "nonsense", "best": -1})
    response = client.get(reverse("club_public:season", args=[club.slug, empty.pk]))
    assert response.status_code == 200 and "the points scored in each concours" in text(response)
    csv_url = reverse("club_public:season_csv", args=[club.slug, empty.pk])
    assert client.get(csv_url).status_code == 200


def test_a_tie_on_a_prize_shows_as_ex_aequo_on_the_club_pages(
    client: Client, ann: User, club: Club
) -> None:
    """Issue 22: two tied firsts share out the first two prizes, two tied thirds the third (one
    prize for two): ex æquo with the prizes to share, on the podium and the concours's page;
    before, both firsts showed the first prize and the second was dropped."""
    prizes = {1: "Un jambon", 2: "Deux bouteilles", 3: "Un panier garni"}
    points = {"Rois": 1000, "Dames": 1000, "Valets": 900, "As": 900}
    tournament = played(ann, club, "Ex aequo", date(2025, 10, 1), points, prizes=prizes)
    assert [row["rank"] for row in final(tournament)["rows"]] == [1, 1, 3, 3]
    first, second, third, fourth = (row["name"] for row in final(tournament)["rows"])
    page = text(client.get(reverse("club_public:club", args=[club.slug])))
    shared = "Ex æquo: to decide Un jambon / Deux bouteilles"
    last = "Ex æquo: to decide Un panier garni"
    assert f"1. {first} {shared} 1. {second} {shared} 3. {third} {last} 3. {fourth} {last}" in page
    url = reverse("club_public:concours", args=[club.slug, tournament.pk])
    page = text(client.get(url))
    assert page.count(shared) == 2 and page.count(last) == 2
    assert page.count("Deux bouteilles") == 2  # never dropped
    french = Client(headers={"accept-language": "fr"})
    try:
        page = text(french.get(url))
        assert (
            page.count("Ex æquo : à départager Un jambon / Deux bouteilles") == 2
        )  # text(): spaces folded
    finally:
        translation.activate("en")
