"""A concours's records (issue 15): its file and standings CSV downloaded from the desk, a file
imported as a new concours (finished or under way; a bad file creates nothing and says why),
and deleting a concours with its table matches."""

import csv
import datetime
import html
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from django.urls import reverse

from scorekeeper.concours import exports, selectors, services
from scorekeeper.concours.models import Entrant, Round, Table, Tournament
from scorekeeper.engine import tournament as tournament_engine
from scorekeeper.matches.models import Match
from tests.factories import TournamentFactory

from .support import play_out, play_rounds

pytestmark = pytest.mark.django_db

TEAMS = "\n".join(
    [
        '=HYPERLINK("http://evil"); Alice; Bruno',
        "Pique Dame; Chloé; David",
        "Trèfle; Emma; Farid",
        "Carreau; -Gilles; Hana",
        "Cœur; Inès; Jules",
    ]
)


@pytest.fixture
def organiser(make_user: Callable[[str], User], client: Client) -> User:
    user = make_user("organiser")
    client.force_login(user)
    return user


def played(owner: User, rounds: int = 2, *, finish: bool = True) -> Tournament:
    """A five-team concours (a bye each round) of `rounds` rounds, each table played out."""
    tournament = TournamentFactory.create(
        owner=owner,
        overrides={"rounds": rounds, "seed": 7},
        prizes={1: "A ham"},
        date=datetime.date(2026, 11, 11),
        teams=TEAMS,
    )
    return play_rounds(tournament, rounds, finish=finish)


def url(name: str, tournament: Tournament) -> str:
    return reverse(f"concours:{name}", args=[tournament.pk])


# Downloads -----------------------------------------------------------------------------------


def test_the_file_downloads_and_imports_back_as_the_same_concours(
    organiser: User, client: Client
) -> None:
    tournament = played(organiser)
    response = client.get(url("export", tournament))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="concours-de-la-saint-martin-2026-11-11.json"'
    )
    document = json.loads(response.content)
    assert document["format"] == "belote-tournament/1"
    assert document["name"] == "Concours de la Saint-Martin"
    assert len(document["rounds"]) == 2
    assert all("deals" in t for r in document["rounds"] for t in r["tables"])

    upload = SimpleUploadedFile("c.json", response.content, "application/json")
    response = client.post(reverse("concours:import"), {"file": upload})
    copy = Tournament.objects.latest("pk")
    assert copy.pk != tournament.pk
    assert response.status_code == 302  # to the import's job page (issue 23), linking the desk
    assert f'href="{url("desk", copy)}"' in client.get(response["Location"]).content.decode()
    assert copy.owner == organiser
    assert copy.status == Tournament.Status.FINISHED
    assert copy.rounds.filter(closed_at__isnull=False).count() == 2

    def without_prize(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{k: v for k, v in row.items() if k != "prize"} for row in rows]

    # The same standings (the file holds no prizes).
    assert without_prize(selectors.standings_rows(copy)) == without_prize(
        selectors.standings_rows(tournament)
    )
    # Its tables are matches of the organiser's, their deals scored again.
    matches = Match.objects.filter(concours_table__round__tournament=copy)
    assert matches.count() == 4
    assert set(matches.values_list("owner", flat=True)) == {organiser.pk}
    assert all(m.status == Match.Status.FINISHED for m in matches)


def test_the_standings_csv_is_formula_safe_with_every_figure(
    organiser: User, client: Client
) -> None:
    tournament = played(organiser)
    response = client.get(url("standings_csv", tournament))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="concours-de-la-saint-martin-2026-11-11-standings.csv"'
    )
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")  # Excel reads UTF-8 with its BOM
    rows = list(csv.DictReader(io.StringIO(text[1:])))
    assert list(rows[0]) == [
        "rank", "id", "team", "player1", "player2", "played", "won", "drawn", "lost", "byes",
        "wins", "points", "conceded", "difference", "best_partie", "opponents_wins",
        "tie_break", "withdrawn", "prize",
    ]  # fmt: skip
    final = selectors.standings_rows(tournament)
    assert [int(r["points"]) for r in rows] == [r["points"] for r in final]
    assert [int(r["rank"]) for r in rows] == [r["rank"] for r in final]
    by_name = {r["team"]: r for r in rows}
    assert '\'=HYPERLINK("http://evil")' in by_name
    assert by_name["Carreau"]["player1"] == "'-Gilles"
    assert by_name["Trèfle"]["player2"] == "Farid"
    assert rows[0]["prize"] == "A ham"
    assert sum(int(r["byes"]) for r in rows) == 2

    after_1 = client.get(url("standings_csv", tournament), {"round": "1"})
    assert after_1["Content-Disposition"].endswith('-standings-round-1.csv"')
    rows_1 = list(csv.DictReader(io.StringIO(after_1.content.decode()[1:])))
    assert [int(r["points"]) for r in rows_1] == [
        r["points"] for r in selectors.standings_rows(tournament, 1)
    ]
    assert sum(int(r["played"]) for r in rows_1) == 4


@pytest.mark.parametrize("bad", ["3", "0", "x", "-1", "99999999", "²", "１"])
def test_standings_after_a_round_not_drawn_is_a_message(
    organiser: User, client: Client, bad: str
) -> None:
    tournament = played(organiser, finish=False)
    response = client.get(url("standings_csv", tournament), {"round": bad})
    assert response.status_code == 302
    assert response["Location"] == url("desk", tournament)
    page = client.get(response["Location"]).content.decode()
    assert "No standings after that round: it is not drawn." in page


def test_melee_csv_names_players() -> None:
    assert exports.columns(True)[:3] == ["rank", "id", "name"]


def test_the_desk_links_the_files(organiser: User, client: Client) -> None:
    tournament = played(organiser)
    page = client.get(url("desk", tournament)).content.decode()
    assert url("export", tournament) in page
    assert f"{url('standings_csv', tournament)}?round=1" in page
    assert f"{url('standings_csv', tournament)}?round=2" not in page  # the final ranking is
    assert f'href="{url("standings_csv", tournament)}"' in page
    assert url("delete", tournament) in page


def test_a_file_name_is_safe() -> None:
    tournament = Tournament(name='Ça "va" / ../../etc;\r\nX: y')
    assert exports.file_name(tournament, ".json") == "ca-va-etc-x-y.json"
    assert exports.file_name(Tournament(name="♠♥"), ".csv") == "concours.csv"


# Import --------------------------------------------------------------------------------------


def document(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "belote-tournament/1",
        "name": "Concours du printemps",
        "date": "2026-04-12",
        "settings": {"mode": "teams", "rounds": 2,
                     "partie": {"preset": "belote", "deals_limit": 12, "target": None},
                     "pairing": "swiss", "ranking": ["points", "wins"],
                     "bye": {"points": "average", "win": False}, "seed": 1},
        "entrants": [
            {"id": 1, "name": "Les As", "players": ["Alice", "Bruno"]},
            {"id": 2, "name": "Pique Dame", "players": ["Chloé", "David"]},
            {"id": 3, "name": "Trèfle", "players": ["Emma", "Farid"]},
        ],
        "rounds": [
            {"tables": [{"table": 1, "sides": [1, 2], "totals": [1712, 1520]}], "byes": [3]},
        ],
    }  # fmt: skip
    data.update(changes)
    return data


def upload(client: Client, data: dict[str, Any] | bytes) -> Any:
    """The file sent, and the page it leads to: the form again (a file too large or not JSON),
    or the import's job page (issue 23: the job ran at once) with the concours or the refusal."""
    content = data if isinstance(data, bytes) else json.dumps(data).encode()
    return client.post(
        reverse("concours:import"),
        {"file": SimpleUploadedFile("concours.json", content, "application/json")},
        follow=True,
    )


def test_a_paper_concours_under_way_imports_at_its_round(organiser: User, client: Client) -> None:
    response = upload(client, document())
    tournament = Tournament.objects.get()
    assert "“Concours du printemps” is imported." in response.content.decode()
    assert f'href="{url("desk", tournament)}"' in response.content.decode()
    assert tournament.status == Tournament.Status.PLAYING
    assert tournament.name == "Concours du printemps"
    assert str(tournament.date) == "2026-04-12"
    table = Table.objects.get()
    assert table.paper == (1712, 1520) and table.finished and table.match is None
    assert Round.objects.get().is_closed
    assert "Draw round 2" in client.get(url("desk", tournament)).content.decode()


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"not json", "Nothing was imported:"),
        (json.dumps(document(format="belote-match/1")).encode(), "Nothing was imported: format"),
        (
            json.dumps(
                document(rounds=[{"tables": [{"table": 1, "sides": [1, 9]}], "byes": [3]}])
            ).encode(),
            "rounds[0].tables[0].sides[1]",
        ),
        (json.dumps(document(surprise=1)).encode(), "Nothing was imported:"),
        (json.dumps([1, 2]).encode(), "Nothing was imported:"),
        (b"\xff\xfe\x00{", "Nothing was imported:"),
        (b"", "The submitted file is empty."),
    ],
)
def test_a_bad_file_imports_nothing_and_says_why(
    organiser: User, client: Client, content: bytes, says: str
) -> None:
    response = upload(client, content)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="form-errors"' in html  # the form's summary, or the job's refusal
    assert says in html
    assert not Tournament.objects.exists()
    assert not Match.objects.exists()


@override_settings(TOURNAMENT_FILE_MAX_BYTES=1024 * 1024)
def test_a_file_too_large_is_refused(organiser: User, client: Client) -> None:
    response = upload(client, b" " * (1024 * 1024 + 1))
    assert response.status_code == 200
    assert "The file is too large (1 MB at most)." in response.content.decode()
    assert not Tournament.objects.exists()


def test_too_many_deals_are_refused(
    organiser: User, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(services.imports, "IMPORT_MAX_DEALS", 2)
    deals = [{"taker": 0, "trump": "hearts", "taker_points": 92}] * 3
    data = document(
        rounds=[{"tables": [{"table": 1, "sides": [1, 2], "deals": deals}], "byes": [3]}]
    )
    response = upload(client, data)
    assert "The file holds 3 deals; one import takes 2 at most." in response.content.decode()
    assert not Tournament.objects.exists()
    assert not Match.objects.exists()


def test_import_needs_an_account(client: Client) -> None:
    response = upload(client, document())
    assert response.redirect_chain[0][0].startswith(reverse("accounts:login"))
    assert not Tournament.objects.exists()


def test_the_list_page_offers_the_import(organiser: User, client: Client) -> None:
    html = client.get(reverse("concours:list")).content.decode()
    assert f'action="{reverse("concours:import")}" enctype="multipart/form-data"' in html
    assert 'name="file"' in html
    assert client.get(reverse("concours:import")).status_code == 200


# Deleting ------------------------------------------------------------------------------------


def test_deleting_a_concours_deletes_its_table_matches(organiser: User, client: Client) -> None:
    tournament = played(organiser, finish=False)
    other = played(organiser, rounds=1)
    mine = set(
        Match.objects.filter(concours_table__round__tournament=tournament).values_list(
            "pk", flat=True
        )
    )
    assert len(mine) == 4
    confirm = client.get(url("delete", tournament))
    assert confirm.status_code == 200
    html = confirm.content.decode()
    assert "Delete Concours de la Saint-Martin?" in html
    assert "4 table matches (their deals, their links)" in html
    assert "5 entrants" in html
    assert tournament.pk and Tournament.objects.filter(pk=tournament.pk).exists()  # GET: nothing

    response = client.post(url("delete", tournament))
    assert response.status_code == 302
    assert response["Location"] == reverse("concours:list")
    page = client.get(response["Location"]).content.decode()
    assert "“Concours de la Saint-Martin” is deleted, with its 4 table matches." in page
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert not Entrant.objects.filter(tournament_id=tournament.pk).exists()
    gone = Match.objects.filter(pk__in=mine)
    assert gone.count() == 4 and not gone.filter(deleted_at__isnull=True).exists()
    # Their links answer 404 as any deleted match's.
    match = gone.first()
    assert match is not None
    assert client.get(reverse("matches:scoreboard", args=[match.scorer_token])).status_code == 404
    # The other concours and its matches are untouched.
    assert Tournament.objects.filter(pk=other.pk).exists()
    assert not Match.objects.filter(
        concours_table__round__tournament=other, deleted_at__isnull=False
    ).exists()


def test_only_the_owner_deletes(
    organiser: User, client: Client, make_user: Callable[[str], User]
) -> None:
    tournament = played(organiser, rounds=1)
    stranger = Client()
    assert stranger.post(url("delete", tournament)).status_code == 404
    other = Client()
    other.force_login(make_user("other"))
    assert other.get(url("delete", tournament)).status_code == 404
    assert other.post(url("delete", tournament)).status_code == 404
    assert Tournament.objects.filter(pk=tournament.pk).exists()
    assert not Match.objects.filter(deleted_at__isnull=False).exists()


def test_files_are_the_owners(
    organiser: User, client: Client, make_user: Callable[[str], User]
) -> None:
    tournament = played(organiser, rounds=1)
    other = Client()
    other.force_login(make_user("other"))
    for name in ("export", "standings_csv"):
        assert other.get(url(name, tournament)).status_code == 404
        assert Client().get(url(name, tournament)).status_code == 404


def test_engine_roundtrip_of_export() -> None:
    """The engine reads back what the desk writes (the file's own check)."""
    assert tournament_engine.load_tournament(json.dumps(document())).name == "Concours du printemps"


def test_a_melee_csv_has_a_row_a_player(organiser: User, client: Client) -> None:
    players = ["Alice", "Bruno", "Chloé", "David", "Emma", "Farid", "Gilles", "@Hana"]
    tournament = TournamentFactory.create(
        owner=organiser,
        name="Mêlée",
        preset="melee",
        overrides={"rounds": 1, "seed": 2},
        teams="\n".join(players),
    )
    round_ = services.draw_round(tournament=tournament)
    for table in round_.tables.all():
        play_out(table)
    services.close_round(round_=round_)
    text = client.get(url("standings_csv", tournament)).content.decode()
    rows = list(csv.DictReader(io.StringIO(text[1:])))
    assert list(rows[0])[:3] == ["rank", "id", "name"] and "team" not in rows[0]
    assert sorted(r["name"] for r in rows) == sorted([*players[:7], "'@Hana"])


def test_a_concours_under_way_imports_with_its_tables_deals(
    organiser: User, client: Client
) -> None:
    """A table still playing comes in with its deals in its match (the organiser's), and the
    concours carries on from there."""
    deals = [{"taker": 0, "trump": "hearts", "taker_points": 92}] * 3
    data = document(
        rounds=[{"tables": [{"table": 1, "sides": [1, 2], "deals": deals}], "byes": [3]}]
    )
    response = upload(client, data)
    tournament = Tournament.objects.get()
    assert f'href="{url("desk", tournament)}"' in response.content.decode()
    assert tournament.status == Tournament.Status.PLAYING
    table = Table.objects.get()
    assert not table.finished and not table.round.is_closed
    match = Match.objects.get(concours_table=table)
    assert match.deal_count == 3 and match.owner == organiser
    assert table.deal_count == 3
    assert client.get(reverse("concours:table", args=[table.token])).status_code == 302


@override_settings(IMPORTS_PER_HOUR=2)
def test_imports_are_limited_per_account_and_hour(organiser: User, client: Client) -> None:
    for _ in range(2):
        assert upload(client, b"not json").status_code == 200  # refused files count too
    response = upload(client, document())
    assert response.status_code == 429
    assert "Too many concours files imported by this account." in response.content.decode()
    assert int(response["Retry-After"]) > 0
    assert not Tournament.objects.exists()


def test_two_entrants_of_one_name_are_refused(organiser: User, client: Client) -> None:
    """Issue 23: the import refuses two entrants of one name as the desk does, names read as a
    reader reads them (`folding.fold`: case and accents set aside), at the second one."""
    entrants = document()["entrants"]
    entrants[2] = {"id": 3, "name": "LES ÀS", "players": ["Emma", "Farid"]}
    response = upload(client, document(entrants=entrants))
    assert (
        "Nothing was imported: entrants[2].name: LES ÀS appears twice (first at entrants[0].name)"
        in html.unescape(response.content.decode())
    )
    assert not Tournament.objects.exists()
    # The desk reads names the same way.
    tournament = TournamentFactory.create(owner=organiser, name="Printemps")
    services.add_entrant(tournament=tournament, name="Les As", players=("Alice", "Bruno"))
    with pytest.raises(services.Refused) as found:
        services.add_entrant(tournament=tournament, name="LES ÀS", players=("Emma", "Farid"))
    assert found.value.code == "duplicate_name"
    other = services.add_entrant(tournament=tournament, name="Trèfle", players=("Chloé", "David"))
    with pytest.raises(services.Refused):
        services.edit_entrant(entrant=other, name="les as", players=("Chloé", "David"))
