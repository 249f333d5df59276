"""Issue 22, the merge tool: the spelling the organiser keeps is the one every club page shows
(season rankings, their CSV and print, records, the club page, a concours's ranking, Find), and
names are compared with case, accents and ligatures folded ("Cœur" and "Coeur" are similar;
"trefle" finds "Trèfle")."""

import csv
import html as entities
import io
import re
from collections.abc import Callable
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scorekeeper.clubs import selectors, services
from scorekeeper.clubs.models import Club, MergeLog, Person, Season
from scorekeeper.concours.models import Tournament
from scorekeeper.web.folding import fold
from tests.factories import ClubFactory, TournamentFactory

from .public_support import played, season

pytestmark = pytest.mark.django_db


def test_fold_sets_case_accents_ligatures_and_spaces_aside() -> None:
    assert fold("Cœur") == fold("COEUR") == fold("coeur") == "coeur"
    assert fold("ŒUVRE") == "oeuvre" and fold("Æsop") == fold("ÆSOP") == "aesop"
    assert fold("Straße") == "strasse" and fold("Trèfle") == "trefle"
    assert fold("  René   DUPONT ") == "rene dupont"
    assert fold("Łódź") == "lodz" and fold("Ørsted") == "orsted" and fold("ﬁnal") == "final"
    assert fold("L’As") == fold("L'As") == "l'as"
    assert fold("Jean-René") == "jean-rene"  # punctuation kept: a fold, not a loose key
    assert fold("") == "" and fold("   ") == ""


def test_coeur_and_coeur_with_a_ligature_are_similar(make_user: Callable[[str], User]) -> None:
    ann = make_user("ann")
    club = ClubFactory.create(organiser=ann, name="Club", town="Rouen")
    TournamentFactory.create(owner=ann, teams=[("Cœur", "Æsa Lind", "Bruno")], club=club)
    TournamentFactory.create(
        owner=ann, name="Avril", teams=[("Coeur", "Aesa Lind", "Bruno")], club=club
    )
    TournamentFactory.create(
        owner=ann, name="Mai", teams=[("Les Piques", "Hans Groß", "Hans Gross")], club=club
    )
    groups = {
        tuple(sorted(line.person.name for line in group)) for group in selectors.suggestions(club)
    }
    assert ("Coeur", "Cœur") in groups
    assert ("Aesa Lind", "Æsa Lind") in groups
    assert ("Hans Gross", "Hans Groß") not in groups  # one spelling already: ß is ss


# ---------------------------------------------------------------------------------------------
# The kept spelling, everywhere


@pytest.fixture
def merged(make_user: Callable[[str], User]) -> tuple[Club, Season, Season]:
    """Two concours: "Cœur" (Zoé Lefèvre, Jean Dupont) wins the first, "Coeur" (Zoe Lefevre,
    Jean Dupont) the second, the latest. The organiser merged "Coeur" into "Cœur" and "Zoe
    Lefevre" into "Zoé Lefèvre": they keep the first spellings, not the latest."""
    ann = make_user("ann")
    club = ClubFactory.create(organiser=ann, name="Belote Club", town="Rouen")
    players = {"Cœur": ("Zoé Lefèvre", "Jean Dupont"), "Coeur": ("Zoe Lefevre", "Jean Dupont")}
    played(ann, club, "Octobre", date(2025, 10, 1), {"Cœur": 900, "Dames": 800, "Valets": 700,
           "As": 600}, players=players)  # fmt: skip
    played(ann, club, "Novembre", date(2025, 11, 1), {"Coeur": 900, "Dames": 800, "Valets": 700,
           "As": 600}, players=players)  # fmt: skip
    for kind, kept, other in (("team", "Cœur", "Coeur"), ("player", "Zoé Lefèvre", "Zoe Lefevre")):
        services.merge_people(
            club=club,
            kept=Person.objects.get(club=club, kind=kind, name=kept),
            merged=Person.objects.get(club=club, kind=kind, name=other),
            user=ann,
        )
    return club, season(club, "Équipes", rank="teams"), season(club, "Joueurs", rank="players")


def text(client: Client, url: str, **query: str) -> str:
    response = client.get(url, query)
    assert response.status_code == 200, url
    content = entities.unescape(response.content.decode())
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", content))


def test_the_kept_spelling_in_the_season_rankings_csv_and_print(
    client: Client, merged: tuple[Club, Season, Season]
) -> None:
    club, teams, players = merged
    page = text(client, reverse("club_public:season", args=[club.slug, teams.pk]))
    assert "1. Cœur" in page and "Coeur" not in page  # ranked, most wins, each concours's winner
    page = text(client, reverse("club_public:season_print", args=[club.slug, teams.pk]))
    assert "Cœur" in page and "Coeur" not in page
    response = client.get(reverse("club_public:season_csv", args=[club.slug, teams.pk]))
    body = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[1][:2] == ["1", "Cœur"] and "Coeur" not in body
    page = text(client, reverse("club_public:season", args=[club.slug, players.pk]))
    assert "Zoé Lefèvre" in page and "Zoe Lefevre" not in page
    response = client.get(reverse("club_public:season_csv", args=[club.slug, players.pk]))
    body = b"".join(response.streaming_content).decode()  # type: ignore[attr-defined]
    assert "Zoé Lefèvre" in body and "Zoe Lefevre" not in body


def test_the_kept_spelling_in_the_records(
    client: Client, merged: tuple[Club, Season, Season]
) -> None:
    club = merged[0]
    team = Person.objects.get(club=club, kind="team", name="Cœur")
    page = text(client, reverse("club_public:record", args=[club.slug, team.pk]))
    assert "Cœur · Belote Club" in page  # the title
    assert re.search(r"Cœur Team · also written Coeur", page), page[:600]
    zoe = Person.objects.get(club=club, kind="player", name="Zoé Lefèvre")
    page = text(client, reverse("club_public:record", args=[club.slug, zoe.pk]))
    assert "Zoé Lefèvre · Belote Club" in page and "also written Zoe Lefevre" in page
    # Her team's results are the kept team's name, the Novembre one too.
    assert page.count("Cœur") >= 2 and "Coeur" not in page
    jean = Person.objects.get(club=club, kind="player", name="Jean Dupont")
    page = text(client, reverse("club_public:record", args=[club.slug, jean.pk]))
    assert "Coeur" not in page and "Cœur" in page


def test_the_kept_spelling_on_the_club_page_a_concours_and_find(
    client: Client, merged: tuple[Club, Season, Season]
) -> None:
    club = merged[0]
    home = reverse("club_public:club", args=[club.slug])
    page = text(client, home)
    assert page.count("1. Cœur") == 2 and "Coeur" not in page  # both podiums
    november = Tournament.objects.get(name="Novembre")
    page = text(client, reverse("club_public:concours", args=[club.slug, november.pk]))
    assert "Cœur" in page and "Zoé Lefèvre" in page
    assert "Coeur" not in page and "Zoe Lefevre" not in page
    team = Person.objects.get(club=club, kind="team", name="Cœur")
    zoe = Person.objects.get(club=club, kind="player", name="Zoé Lefèvre")
    for typed in ("coeur", "CŒUR", "cœur"):
        response = client.get(home, {"q": typed})
        body = entities.unescape(response.content.decode())
        assert reverse("club_public:record", args=[club.slug, team.pk]) in body, typed
        found = body[body.index('id="found-title"') :]
        assert ">Cœur</a>" in found and "Coeur" not in found, typed
    response = client.get(home, {"q": "zoe lefevre"})
    body = entities.unescape(response.content.decode())
    assert reverse("club_public:record", args=[club.slug, zoe.pk]) in body
    found = body[body.index('id="found-title"') :]
    assert ">Zoé Lefèvre</a>" in found and "Zoe Lefevre" not in found


def test_find_folds_accents_on_the_club_page(
    client: Client, make_user: Callable[[str], User]
) -> None:
    ann = make_user("ann")
    club = ClubFactory.create(organiser=ann, name="Club", town="Rouen")
    played(ann, club, "Octobre", date(2025, 10, 1), {"Trèfle": 900, "Pique": 800},
           players={"Trèfle": ("René Dupont", "Anaïs"), "Pique": ("Œdipe Roi", "Bo")})  # fmt: skip
    home = reverse("club_public:club", args=[club.slug])
    for typed, name in (("trefle", "Trèfle"), ("rene dupont", "René Dupont"),
                        ("oedipe", "Œdipe Roi"), ("ANAIS", "Anaïs"),
                        # Issue 42: the words typed in any order, hyphens as spaces.
                        ("dupont rene", "René Dupont"), ("roi-oedipe", "Œdipe Roi")):  # fmt: skip
        body = entities.unescape(client.get(home, {"q": typed}).content.decode())
        found = body[body.index('id="found-title"') :]
        assert f">{name}</a>" in found, typed


# ---------------------------------------------------------------------------------------------
# Two names typed by hand in the merge tool


def test_two_names_typed_by_hand_are_found_with_accents_folded(
    make_user: Callable[[str], User], client: Client
) -> None:
    ann = make_user("ann")
    client.force_login(ann)
    club = ClubFactory.create(organiser=ann, name="Club", town="Rouen")
    TournamentFactory.create(owner=ann, teams=[("Trèfle", "Œdipe Roi", "Bruno")], club=club)
    TournamentFactory.create(
        owner=ann, name="Avril", teams=[("Club du Trefle", "Oedipe Roi", "Bruno")], club=club
    )
    TournamentFactory.create(owner=ann, name="Mai", teams=[("Les As", "Chloé", "Bruno")], club=club)
    TournamentFactory.create(
        owner=ann, name="Juin", teams=[("Les Ás", "Chloé", "Bruno")], club=club
    )
    find = reverse("clubs:find_pair", args=[club.pk])
    merge = reverse("clubs:merge", args=[club.pk])
    people = {(p.kind, p.name): p.pk for p in Person.objects.filter(club=club)}
    response = client.get(find, {"kind": "team", "keep": "trefle", "merge": "CLUB DU TRÈFLE"})
    assert response.status_code == 302
    keep, other = people[("team", "Trèfle")], people[("team", "Club du Trefle")]
    assert response["Location"] == f"{merge}?keep={keep}&merge={other}"
    response = client.get(find, {"kind": "player", "keep": "oedipe roi", "merge": "Œdipe Roi"})
    keep, other = people[("player", "Oedipe Roi")], people[("player", "Œdipe Roi")]
    assert response["Location"] == f"{merge}?keep={keep}&merge={other}"  # exact spelling first
    # Typed as neither spelling of two teams alike: which one is not guessed.
    response = client.get(find, {"kind": "team", "keep": "les äs", "merge": "Trèfle"})
    assert response.status_code == 302 and response["Location"] == reverse(
        "clubs:people", args=[club.pk]
    )
    page = entities.unescape(client.get(response["Location"]).content.decode())
    assert "Several teams are written like “les äs”: type the name as in a concours." in page
    client.cookies["django_language"] = "fr"
    try:
        response = client.get(find, {"kind": "player", "keep": "chloe", "merge": "Bruno"})
        page = entities.unescape(client.get(response["Location"]).content.decode())
        assert "Plusieurs joueurs" not in page  # one Chloé: found
        response = client.get(find, {"kind": "team", "keep": "LES AS", "merge": "les äs"})
        page = entities.unescape(client.get(response["Location"]).content.decode())
        assert "Plusieurs équipes s’écrivent comme «\u00a0les äs\u00a0»" in page
    finally:
        translation.activate("en")
    assert not MergeLog.objects.exists()
