"""The desk's missing parts (issue 15): the co-organiser link, editing a team, importing a CSV,
every setting editable when creating (and until the first draw), correcting a closed round's
tables and the change log. Through the test client, per role: the owner, a browser holding the
co-organiser link (no account, or another account), another account, a stranger."""

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from scorekeeper.concours import services
from scorekeeper.concours.access import CO_LABEL, CO_SESSION_KEY
from scorekeeper.concours.models import ResultChange, Round, Tournament
from tests.factories import TournamentFactory

from .support import play_out

pytestmark = pytest.mark.django_db

TEAMS = ["Les As; Alice; Bruno", "Pique Dame; Chloé; David", "Trèfle; Emma; Farid",
         "Carreau; Gilles; Hana"]  # fmt: skip


def desk_url(tournament: Tournament, name: str = "desk", **kwargs: Any) -> str:
    return reverse(f"concours:{name}", kwargs={"pk": tournament.pk, **kwargs})


def page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def post(client: Client, url: str, data: dict[str, Any] | None = None) -> str:
    response = client.post(url, data or {})
    assert response.status_code == 302, response.content.decode()[:500]
    return page(client, response["Location"])


@pytest.fixture
def owner(make_user: Callable[[str], User]) -> User:
    return make_user("organiser")


@pytest.fixture
def concours(owner: User) -> Tournament:
    return TournamentFactory.create(owner=owner, name="Concours du jeudi", teams="\n".join(TEAMS))


@pytest.fixture
def owner_client(owner: User) -> Client:
    client = Client()
    client.force_login(owner)
    return client


@pytest.fixture
def co_client(concours: Tournament) -> Client:
    """A browser without an account that opened the co-organiser link."""
    client = Client()
    response = client.get(reverse("concours:co", args=[concours.co_token]))
    assert response.status_code == 302 and response["Location"] == desk_url(concours)
    return client


# ---------------------------------------------------------------------------------------------
# The co-organiser link


def test_the_owner_sees_the_co_organiser_link_and_its_qr(
    concours: Tournament, owner_client: Client
) -> None:
    html = page(owner_client, desk_url(concours))
    assert "Co-organiser link" in html
    assert f"http://testserver/concours/co/{concours.co_token}/" in html
    assert desk_url(concours, "co_qr") in html
    response = owner_client.get(desk_url(concours, "co_qr"))
    assert response.status_code == 200 and response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in response.content


def test_the_link_grants_a_browser_without_account_the_desk(
    concours: Tournament, co_client: Client
) -> None:
    html = page(co_client, desk_url(concours))
    assert "You are helping to run “Concours du jeudi”" in html
    assert "You run this desk through the co-organiser link." in html
    assert concours.co_token not in html  # the owner's panel is not shown
    assert "All my concours" not in html
    assert co_client.session[CO_SESSION_KEY] == {str(concours.pk): concours.co_token}
    assert co_client.get(desk_url(concours, "co_qr")).status_code == 200
    # It runs the desk: a team, a draw.
    post(
        co_client,
        desk_url(concours, "add"),
        {"name": "Cœur", "player1": "Inès", "player2": "Jules"},
    )
    assert concours.entrants.filter(name="Cœur").exists()
    html = post(co_client, desk_url(concours, "draw"))
    assert "Round 1 is drawn." in html


def test_results_typed_through_the_link_are_logged_as_such(
    concours: Tournament, co_client: Client, owner_client: Client, owner: User
) -> None:
    services.draw_round(tournament=concours)
    post(co_client, desk_url(concours, "paper", round=1, table=1),
         {"t1-points0": "1000", "t1-points1": "944", "t1-belotes": "1"})  # fmt: skip
    post(owner_client, desk_url(concours, "paper", round=1, table=2),
         {"t2-points0": "1000", "t2-points1": "944", "t2-belotes": "1"})  # fmt: skip
    by_table = {c.table.number: c for c in ResultChange.objects.select_related("table")}
    assert by_table[1].author is None and by_table[1].author_label == CO_LABEL
    assert by_table[2].author == owner and by_table[2].author_label == ""


def test_the_link_in_another_account_also_grants_the_desk(
    concours: Tournament, make_user: Callable[[str], User]
) -> None:
    client = Client()
    helper = make_user("helper")
    client.force_login(helper)
    assert client.get(desk_url(concours)).status_code == 404
    client.get(reverse("concours:co", args=[concours.co_token]))
    assert "You run this desk through the co-organiser link." in page(client, desk_url(concours))
    services.draw_round(tournament=concours)
    post(client, desk_url(concours, "paper", round=1, table=1),
         {"t1-points0": "1000", "t1-points1": "944"})  # fmt: skip
    change = ResultChange.objects.get()
    assert change.author == helper and change.author_label == CO_LABEL


def test_a_new_link_kills_the_old_grant(
    concours: Tournament, co_client: Client, owner_client: Client
) -> None:
    old = concours.co_token
    html = post(owner_client, desk_url(concours, "co_new"))
    assert "New co-organiser link: the old one no longer works." in html
    concours.refresh_from_db()
    assert concours.co_token != old and concours.co_token in html
    assert co_client.get(desk_url(concours)).status_code == 404
    assert co_client.post(desk_url(concours, "draw")).status_code == 404
    assert not concours.rounds.exists()
    assert Client().get(reverse("concours:co", args=[old])).status_code == 404
    # The new link grants it again.
    co_client.get(reverse("concours:co", args=[concours.co_token]))
    assert co_client.get(desk_url(concours)).status_code == 200


def test_owner_only_actions_are_refused_to_the_co_organiser(
    concours: Tournament, co_client: Client
) -> None:
    token = concours.co_token
    assert co_client.post(desk_url(concours, "co_new")).status_code == 404
    concours.refresh_from_db()
    assert concours.co_token == token


@pytest.mark.parametrize("who", ["stranger", "other account"])
def test_nobody_else_gets_the_desk(
    concours: Tournament, make_user: Callable[[str], User], who: str
) -> None:
    client = Client()
    if who == "other account":
        client.force_login(make_user("someone"))
    for name in ("desk", "co_qr"):
        assert client.get(desk_url(concours, name)).status_code == 404
    for name in ("co_new", "draw"):
        assert client.post(desk_url(concours, name)).status_code == 404
    assert client.get(reverse("concours:co", args=["not-a-token"])).status_code == 404
    # A grant for one concours opens no other.
    other = TournamentFactory.create(owner=concours.owner, name="Autre")
    client.get(reverse("concours:co", args=[other.co_token]))
    assert client.get(desk_url(concours)).status_code == 404
    assert client.get(desk_url(other)).status_code == 200


def test_a_forged_session_grant_opens_nothing(concours: Tournament) -> None:
    client = Client()
    session = client.session
    session[CO_SESSION_KEY] = {str(concours.pk): "guess"}
    session.save()
    assert client.get(desk_url(concours)).status_code == 404
    session[CO_SESSION_KEY] = ["not", "a", "dict"]
    session.save()
    assert client.get(desk_url(concours)).status_code == 404


def test_grants_kept_in_the_session_are_bounded(owner: User) -> None:
    client = Client()
    concours = [TournamentFactory.create(owner=owner, name=f"C{n}") for n in range(25)]
    for tournament in concours:
        client.get(reverse("concours:co", args=[tournament.co_token]))
    grants = client.session[CO_SESSION_KEY]
    assert (
        len(grants) == 20 and str(concours[-1].pk) in grants and str(concours[0].pk) not in grants
    )


# ---------------------------------------------------------------------------------------------
# Editing a team


def test_editing_a_team_without_javascript(concours: Tournament, owner_client: Client) -> None:
    entrant = concours.entrants.get(name="Les As")
    url = desk_url(concours, "edit_entrant", number=entrant.number)
    assert url in page(owner_client, desk_url(concours))
    html = page(owner_client, url)
    assert "Edit a team" in html and 'value="Les As"' in html and 'value="Alice"' in html
    response = owner_client.post(
        url, {"name": "  Les  Rois ", "player1": "Alice", "player2": "Bruno B."}
    )
    assert response.status_code == 302
    assert response["Location"] == desk_url(concours) + f"#entrant-{entrant.number}"
    entrant.refresh_from_db()
    assert (entrant.name, entrant.player1, entrant.player2) == ("Les Rois", "Alice", "Bruno B.")
    html = page(owner_client, response["Location"])
    assert "“Les Rois” is saved." in html and "Bruno B." in html


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"name": "Pique Dame", "player1": "A", "player2": "B"},
            "“Pique Dame” is already registered.",
        ),
        ({"name": "pique dame", "player1": "A", "player2": "B"}, "already registered"),
        ({"name": "", "player1": "A", "player2": "B"}, "This field is required."),
        ({"name": "X", "player1": "", "player2": "B"}, "This field is required."),
        ({"name": "X" * 61, "player1": "A", "player2": "B"}, "at most 60 characters"),
    ],
)
def test_a_bad_edit_says_why_and_changes_nothing(
    concours: Tournament, owner_client: Client, data: dict[str, str], message: str
) -> None:
    entrant = concours.entrants.get(name="Les As")
    version = Tournament.objects.get(pk=concours.pk).version
    response = owner_client.post(desk_url(concours, "edit_entrant", number=entrant.number), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="error-summary"' in html and message in html
    entrant.refresh_from_db()
    assert (entrant.name, entrant.player1, entrant.player2) == ("Les As", "Alice", "Bruno")
    assert Tournament.objects.get(pk=concours.pk).version == version


def test_a_renamed_team_shows_everywhere_and_at_its_open_table(
    concours: Tournament, owner_client: Client
) -> None:
    services.draw_round(tournament=concours)
    for table in Round.objects.get(tournament=concours, number=1).tables.all():
        play_out(table)
    services.close_round(round_=Round.objects.get(tournament=concours, number=1))
    services.draw_round(tournament=concours)
    entrant = concours.entrants.get(name="Les As")
    old_table = entrant.places.get(round__number=1).table
    new_table = entrant.places.get(round__number=2).table
    assert old_table is not None and new_table is not None
    post(owner_client, desk_url(concours, "edit_entrant", number=entrant.number),
         {"name": "Les Rois", "player1": "Alice", "player2": "Bruno"})  # fmt: skip
    html = page(owner_client, desk_url(concours))
    assert "Les Rois" in html and "Les As" not in html  # board, standings, registration
    public = page(Client(), reverse("concours_public:standings", args=[concours.public_token]))
    assert "Les Rois" in public and "Les As" not in public
    new_match, old_match = new_table.match, old_table.match
    assert new_match is not None and old_match is not None
    new_match.refresh_from_db()
    old_match.refresh_from_db()
    assert "Les Rois" in (new_match.team0_name, new_match.team1_name)
    assert "Les As" in (old_match.team0_name, old_match.team1_name)


def test_a_melee_player_is_renamed(owner: User, owner_client: Client) -> None:
    tournament = TournamentFactory.create(owner=owner, name="Mêlée", preset="melee")
    player = services.add_entrant(tournament=tournament, name="Alice")
    url = desk_url(tournament, "edit_entrant", number=player.number)
    html = page(owner_client, url)
    assert "Edit a player" in html and "player1" not in html
    post(owner_client, url, {"name": "Alice M."})
    player.refresh_from_db()
    assert player.name == "Alice M." and player.player1 == ""


def test_editing_a_team_per_role(
    concours: Tournament, co_client: Client, make_user: Callable[[str], User]
) -> None:
    entrant = concours.entrants.get(name="Les As")
    url = desk_url(concours, "edit_entrant", number=entrant.number)
    post(co_client, url, {"name": "Les Rois", "player1": "Alice", "player2": "Bruno"})
    assert concours.entrants.filter(name="Les Rois").exists()
    other = Client()
    other.force_login(make_user("someone"))
    for client in (Client(), other):
        assert client.get(url).status_code == 404
        assert (
            client.post(url, {"name": "Pirates", "player1": "A", "player2": "B"}).status_code == 404
        )
    assert not concours.entrants.filter(name="Pirates").exists()
    assert co_client.get(desk_url(concours, "edit_entrant", number=99)).status_code == 404


# ---------------------------------------------------------------------------------------------
# Importing a CSV file


def upload(client: Client, tournament: Tournament, data: bytes, name: str = "teams.csv") -> str:
    from django.core.files.uploadedfile import SimpleUploadedFile

    file = SimpleUploadedFile(name, data, content_type="text/csv")
    return post(client, desk_url(tournament, "import_csv"), {"file": file})


@pytest.fixture
def empty(owner: User) -> Tournament:
    return TournamentFactory.create(owner=owner, name="Concours du vendredi")


@pytest.mark.parametrize(
    "data",
    [
        b"name;player1;player2\nLes As;Alice;Bruno\nPique Dame;Chlo\xc3\xa9;David\n",
        b"\xef\xbb\xbfLes As;Alice;Bruno\r\nPique Dame;Chlo\xc3\xa9;David\r\n",  # BOM, no header
        b'Team,Player 1,Player 2\n"Les As",Alice,Bruno\n\n Pique Dame , Chlo\xc3\xa9 ,David\n',
        "Équipe;Joueur 1;Joueur 2\nLes As;Alice;Bruno;;\nPique Dame;Chloé;David\n".encode(),
    ],
    ids=["semicolons-header", "bom-crlf", "commas-quotes-blank", "french-header-trailing"],
)
def test_a_csv_file_adds_its_teams(empty: Tournament, owner_client: Client, data: bytes) -> None:
    html = upload(owner_client, empty, data)
    assert "2 added." in html and "Teams (2)" in html
    rows = list(empty.entrants.order_by("number").values_list("name", "player1", "player2"))
    assert rows == [("Les As", "Alice", "Bruno"), ("Pique Dame", "Chloé", "David")]


def test_the_desk_offers_the_csv_form_beside_the_paste_form(
    empty: Tournament, owner_client: Client
) -> None:
    html = page(owner_client, desk_url(empty))
    assert "Import a CSV file" in html and 'enctype="multipart/form-data"' in html
    assert desk_url(empty, "import_csv") in html
    assert html.index("Paste a list") < html.index("Import a CSV file")


@pytest.mark.parametrize(
    ("data", "messages"),
    [
        (
            b"name;player1;player2\nLes As;Alice;Bruno\nPique Dame;Chlo\xc3\xa9\nTr\xc3\xa8fle;;Emma\n"
            b"les as;X;Y\n",
            [
                "Line 3: Expected three columns: the team, player 1, player 2 (found 2 filled).",
                "Line 4: Expected three columns: the team, player 1, player 2 (found 2 filled).",
                "Line 5: “les as” is already registered.",
            ],
        ),
        (b"Les As;Alice;Bruno\nB\xe9atrice;Alice;Bruno\n", ["Line 2: Not UTF-8 text"]),
        (b"Les As;Alice;" + b"B" * 61 + b"\n", ["Line 1: ", "at most 60 characters"]),
        (b"name;player1;player2\n\n", ["The file has no entrant."]),
        (b"", ["The file has no entrant."]),
        (b"x" * (128 * 1024 + 1), ["The file is too big: at most 128 KB."]),
        (b"".join(b"T%d;A;B\n" % n for n in range(501)), ["too many lines: at most 500."]),
    ],
    ids=["bad-lines", "latin1", "long-name", "header-only", "empty", "too-big", "too-many-rows"],
)
def test_a_bad_csv_file_adds_nothing_and_names_each_bad_line(
    empty: Tournament, owner_client: Client, data: bytes, messages: list[str]
) -> None:
    version = Tournament.objects.get(pk=empty.pk).version
    html = upload(owner_client, empty, data)
    for message in messages:
        assert message in html
    assert "Nothing was added: correct the file and import it again." in html
    assert not empty.entrants.exists()
    assert Tournament.objects.get(pk=empty.pk).version == version


def test_many_bad_lines_are_counted(empty: Tournament, owner_client: Client) -> None:
    html = upload(owner_client, empty, b"".join(b"T%d;A\n" % n for n in range(15)))
    assert "Line 10: " in html and "Line 11: " not in html and "…and 5 more lines." in html


def test_no_file_is_a_message(empty: Tournament, owner_client: Client) -> None:
    html = post(owner_client, desk_url(empty, "import_csv"), {})
    assert "Choose a CSV file." in html


def test_a_melee_csv_has_one_column(owner: User, owner_client: Client) -> None:
    tournament = TournamentFactory.create(owner=owner, name="Mêlée", preset="melee")
    html = upload(owner_client, tournament, "Joueur\nAlice\nBruno;\nChloé;David\n".encode())
    assert "Line 4: Expected one column: the player&#x27;s name (found 2 filled)." in html
    assert not tournament.entrants.exists()
    html = upload(owner_client, tournament, "Joueur\nAlice\nBruno;\nChloé\n".encode())
    assert "3 added." in html
    assert list(tournament.entrants.values_list("name", flat=True)) == ["Alice", "Bruno", "Chloé"]


def test_a_csv_after_the_draw_adds_late_entries(concours: Tournament, owner_client: Client) -> None:
    services.draw_round(tournament=concours)
    upload(owner_client, concours, b"Coeur;Ines;Jules\n")
    assert concours.entrants.get(name="Coeur").from_round == 2


def test_importing_a_csv_per_role(
    empty: Tournament, co_client: Client, make_user: Callable[[str], User]
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    co_client.get(reverse("concours:co", args=[empty.co_token]))
    upload(co_client, empty, b"Les As;Alice;Bruno\n")
    assert empty.entrants.count() == 1
    other = Client()
    other.force_login(make_user("someone"))
    for client in (Client(), other):
        file = SimpleUploadedFile("t.csv", b"Pirates;A;B\n")
        response = client.post(desk_url(empty, "import_csv"), {"file": file})
        assert response.status_code == 404
    assert empty.entrants.count() == 1


# ---------------------------------------------------------------------------------------------
# Every setting, when creating and until the first draw

BELOTE_FORM = {
    "preset": "belote", "start": "belote", "name": "Concours de Noël", "mode": "teams",
    "rounds": "4", "game": "belote", "deals_limit": "12", "target": "", "pairing": "swiss",
    "rank1": "points", "rank2": "wins", "rank3": "difference", "rank4": "best_partie",
    "rank5": "", "rank6": "", "bye": "average", "bye_points": "",
}  # fmt: skip


def test_the_new_concours_form_shows_every_setting_from_the_format(owner_client: Client) -> None:
    html = page(owner_client, reverse("concours:list"))
    for words in ("Who registers", "Rounds", "Each table plays", "Deals per partie",
                  "Points to reach", "The draw (teams formed in advance)", "Ranked first by",
                  "A team without a table gets", "and it counts as a win"):  # fmt: skip
        assert words in html
    assert 'name="rounds" value="4"' in html and 'name="deals_limit" value="12"' in html
    html = page(owner_client, reverse("concours:list") + "?preset=coinche")
    assert 'name="rounds" value="3"' in html and 'name="target" value="2000"' in html
    assert 'name="start" value="coinche"' in html
    assert (
        '<option value="wins" selected>' in html
        and 'name="bye_win" id="id_bye_win" checked' in html
    )


def test_picking_a_format_with_htmx_swaps_the_settings_in(owner_client: Client) -> None:
    response = owner_client.get(
        reverse("concours:list") + "?preset=melee", headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<details class="settings" id="new-settings" open>')
    assert 'value="melee" id="id_mode_1" checked' in html or 'value="melee"' in html
    assert "<h1>" not in html


def test_a_concours_created_with_its_own_settings(owner: User, owner_client: Client) -> None:
    data = {**BELOTE_FORM, "rounds": "5", "deals_limit": "15", "target": "1500",
            "pairing": "random", "rank1": "wins", "rank2": "opponents_wins", "rank3": "points",
            "rank4": "", "bye": "fixed", "bye_points": "1200", "bye_win": "on"}  # fmt: skip
    response = owner_client.post(reverse("concours:list"), data)
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Concours de Noël")
    settings = tournament.engine_settings
    assert (settings.rounds, settings.pairing, settings.ranking) == (
        5,
        "random",
        ("wins", "opponents_wins", "points"),
    )
    assert (settings.partie.deals_limit, settings.partie.target) == (15, 1500)
    assert (settings.bye.points, settings.bye.win) == (1200, True)
    html = page(owner_client, desk_url(tournament))
    assert "Each table: Belote (classic), 15 deals or 1500 points" in html
    assert "A team without a table gets 1200 points and a win" in html


def test_another_format_picked_without_touching_the_settings_gives_its_values(
    owner_client: Client,
) -> None:
    """No script refilled the settings: they still hold the belote's, untouched."""
    owner_client.post(reverse("concours:list"), {**BELOTE_FORM, "preset": "coinche"})
    settings = Tournament.objects.get(name="Concours de Noël").engine_settings
    assert settings.partie.preset == "coinche" and settings.partie.target == 2000
    assert settings.rounds == 3 and settings.ranking[0] == "wins"


def test_settings_changed_then_another_format_picked_keep_the_changes(
    owner_client: Client,
) -> None:
    owner_client.post(reverse("concours:list"), {**BELOTE_FORM, "preset": "coinche", "rounds": "6"})
    settings = Tournament.objects.get(name="Concours de Noël").engine_settings
    assert settings.rounds == 6 and settings.partie.preset == "belote"


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"deals_limit": "", "target": ""}, "target", "a match needs a target or a deals limit"),
        ({"rounds": "0"}, "rounds", "greater than or equal to 1"),
        ({"rounds": "21"}, "rounds", "less than or equal to 20"),
        ({"rank2": "points"}, "rank2", "Each criterion once."),
        ({"rank1": ""}, "rank1", "This field is required."),
        ({"bye": "fixed"}, "bye_points", "Type the points a team without a table gets."),
        ({"game": "poker"}, "game", "Select a valid choice."),
        ({"mode": "solo"}, "mode", "Select a valid choice."),
    ],
)
def test_a_bad_setting_is_named_and_nothing_is_created(
    owner_client: Client, changes: dict[str, str], field: str, message: str
) -> None:
    response = owner_client.post(reverse("concours:list"), {**BELOTE_FORM, **changes})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="error-summary"' in html and message in html
    assert f'id="id_{field}_error"' in html
    assert '<details class="settings" id="new-settings" open>' in html
    assert not Tournament.objects.exists()


def test_the_settings_page_until_the_first_draw(
    concours: Tournament, owner_client: Client, co_client: Client
) -> None:
    url = desk_url(concours, "settings")
    assert url in page(owner_client, desk_url(concours))
    assert url not in page(co_client, desk_url(concours))
    html = page(owner_client, url)
    assert 'value="Concours du jeudi"' in html and 'name="rounds" value="4"' in html
    data = {**BELOTE_FORM, "name": "Concours du jeudi soir", "rounds": "3",
            "prizes": "1: Un jambon", "place": "Salle Pagnol"}  # fmt: skip
    html = post(owner_client, url, data)
    assert "The concours is saved." in html and "3 rounds" in html
    concours.refresh_from_db()
    assert concours.name == "Concours du jeudi soir" and concours.engine_settings.rounds == 3
    assert concours.prizes == {"1": "Un jambon"} and concours.place == "Salle Pagnol"
    # The seed stays: the draws stay the same.
    seed = concours.settings["seed"]
    post(owner_client, url, {**data, "rounds": "4"})
    concours.refresh_from_db()
    assert concours.settings["seed"] == seed
    # Who registers cannot change with teams registered.
    response = owner_client.post(url, {**data, "mode": "melee"})
    assert "who registers can no longer change" in response.content.decode()
    concours.refresh_from_db()
    assert concours.melee is False


def test_after_the_draw_only_the_name_date_place_and_prizes_change(
    concours: Tournament, owner_client: Client
) -> None:
    services.draw_round(tournament=concours)
    url = desk_url(concours, "settings")
    html = page(owner_client, url)
    assert "Round 1 is drawn: these settings no longer change." in html
    assert 'name="rounds"' not in html and "4 rounds" in html
    before = dict(concours.settings)
    post(owner_client, url, {**BELOTE_FORM, "name": "Renamed", "rounds": "9"})
    concours.refresh_from_db()
    assert concours.name == "Renamed" and concours.settings == before


def test_the_settings_page_is_the_owners_alone(
    concours: Tournament, co_client: Client, make_user: Callable[[str], User]
) -> None:
    url = desk_url(concours, "settings")
    other = Client()
    other.force_login(make_user("someone"))
    for client in (co_client, other, Client()):
        assert client.get(url).status_code == 404
        assert client.post(url, {**BELOTE_FORM, "name": "Pirates"}).status_code == 404
    concours.refresh_from_db()
    assert concours.name == "Concours du jeudi"


# ---------------------------------------------------------------------------------------------
# Correcting a closed round's result, and the change log


@pytest.fixture
def two_rounds(concours: Tournament) -> Tournament:
    """Round 1 closed (every table played out), round 2 drawn."""
    services.draw_round(tournament=concours)
    round1 = Round.objects.get(tournament=concours, number=1)
    for table in round1.tables.all():
        play_out(table)
    services.close_round(round_=round1)
    services.draw_round(tournament=concours)
    return concours


def test_past_rounds_offer_a_correction_per_table(
    two_rounds: Tournament, owner_client: Client
) -> None:
    html = page(owner_client, desk_url(two_rounds))
    assert "Past rounds" in html and 'id="past-round-1"' in html
    for number in (1, 2):
        url = desk_url(two_rounds, "correct", round=1, table=number)
        assert url in html
        assert f"Correct table {number} of round 1" in html
        assert f'id="id_r1_c{number}-points0"' in html
    assert 'id="past-round-2"' not in html  # round 2 is still open


def test_a_closed_rounds_table_corrected_changes_the_standings_and_is_logged(
    two_rounds: Tournament, owner_client: Client, owner: User
) -> None:
    table = Round.objects.get(tournament=two_rounds, number=1).tables.get(number=1)
    before = [table.points0, table.points1]
    response = owner_client.post(
        desk_url(two_rounds, "correct", round=1, table=1),
        {"c1-points0": "1500", "c1-points1": "444"},
    )
    assert response["Location"] == desk_url(two_rounds) + "#past-1-table-1"
    html = page(owner_client, response["Location"])
    assert "Table 1: result corrected." in html
    table.refresh_from_db()
    assert (table.points0, table.points1, table.winner, table.paper0) == (1500, 444, 0, 1500)
    change = ResultChange.objects.get(table=table)
    assert change.action == "correction" and change.author == owner
    assert change.before["points"] == before and change.after["points"] == [1500, 444]
    assert "Results typed and corrected" in html and "1 change" in html
    assert (
        f"Round 1, table 1: result corrected, {before[0]} – {before[1]} → 1500 – 444, by you"
        in html
    )
    # The standings after round 1 count the corrected totals.
    standings = page(Client(), reverse("concours_public:standings", args=[two_rounds.public_token]))
    assert "1500" in standings


def test_the_log_names_the_co_organiser_link(
    two_rounds: Tournament, co_client: Client, owner_client: Client
) -> None:
    post(co_client, desk_url(two_rounds, "correct", round=1, table=2),
         {"c2-points0": "1000", "c2-points1": "944"})  # fmt: skip
    post(owner_client, desk_url(two_rounds, "paper", round=2, table=1),
         {"t1-points0": "900", "t1-points1": "1044"})  # fmt: skip
    html = page(owner_client, desk_url(two_rounds))
    assert "2 changes" in html
    assert "Round 1, table 2: result corrected" in html and "by the co-organiser link" in html
    assert "Round 2, table 1: paper totals typed, – → 900 – 1044, by you" in html
    assert html.index("Round 2, table 1: paper") < html.index("Round 1, table 2: result")


def test_a_bad_correction_changes_nothing(two_rounds: Tournament, owner_client: Client) -> None:
    table = Round.objects.get(tournament=two_rounds, number=1).tables.get(number=1)
    for data in ({"c1-points0": "-1", "c1-points1": "5"}, {"c1-points0": "x"}, {}):
        html = post(owner_client, desk_url(two_rounds, "correct", round=1, table=1), data)
        assert "Table 1: type both totals as whole numbers from 0 to 100000." in html
    assert not ResultChange.objects.exists()
    table.refresh_from_db()
    assert table.paper0 is None


def test_corrections_per_role(two_rounds: Tournament, make_user: Callable[[str], User]) -> None:
    other = Client()
    other.force_login(make_user("someone"))
    url = desk_url(two_rounds, "correct", round=1, table=1)
    for client in (Client(), other):
        assert client.post(url, {"c1-points0": "1", "c1-points1": "2"}).status_code == 404
    assert not ResultChange.objects.exists()


def test_the_desk_queries_stay_flat_with_past_rounds_and_changes(
    owner: User, owner_client: Client
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries(teams: int) -> int:
        tournament = TournamentFactory.create(
            owner=owner,
            name=f"C{teams}",
            preset="belote",
            teams="\n".join(f"T{n}; A{n}; B{n}" for n in range(teams)),
        )
        for _ in range(2):
            round_ = services.draw_round(tournament=tournament)
            for table in round_.tables.all():
                services.record_paper_totals(table=table, totals=(1000, 944), author=owner)
            services.close_round(round_=round_)
        with CaptureQueriesContext(connection) as context:
            page(owner_client, desk_url(tournament))
        return len(context)

    assert queries(20) == queries(4)


def test_a_finished_concours_still_lets_a_name_be_corrected(
    two_rounds: Tournament, owner_client: Client
) -> None:
    round2 = Round.objects.get(tournament=two_rounds, number=2)
    for table in round2.tables.all():
        play_out(table)
    services.close_round(round_=round2)
    for _ in range(2):
        round_ = services.draw_round(tournament=two_rounds)
        for table in round_.tables.all():
            play_out(table)
        services.close_round(round_=round_)
    services.finish(tournament=two_rounds)
    entrant = two_rounds.entrants.get(name="Les As")
    url = desk_url(two_rounds, "edit_entrant", number=entrant.number)
    html = page(owner_client, desk_url(two_rounds))
    assert "Correct a name" in html and url in html
    post(owner_client, url, {"name": "Les Rois", "player1": "Alice", "player2": "Bruno"})
    html = page(owner_client, desk_url(two_rounds))
    assert "Les Rois" in html and "Les As" not in html  # the final ranking too


def test_a_signed_in_helper_finds_the_concours_in_their_list(
    concours: Tournament, make_user: Callable[[str], User], owner_client: Client
) -> None:
    client = Client()
    client.force_login(make_user("helper"))
    assert "Concours you help run" not in page(client, reverse("concours:list"))
    client.get(reverse("concours:co", args=[concours.co_token]))
    html = page(client, reverse("concours:list"))
    assert "Concours you help run" in html and desk_url(concours) in html
    post(owner_client, desk_url(concours, "co_new"))
    assert "Concours you help run" not in page(client, reverse("concours:list"))
    assert "Concours you help run" not in page(owner_client, reverse("concours:list"))


def test_the_desks_new_parts_in_french(
    two_rounds: Tournament, owner_client: Client, owner: User
) -> None:
    owner_client.cookies["django_language"] = "fr"
    services.correct_result(
        table=Round.objects.get(tournament=two_rounds, number=1).tables.get(number=1),
        totals=(1000, 944),
        author=owner,
    )
    html = page(owner_client, desk_url(two_rounds))
    assert "Lien de co-organisateur" in html and "Importer un fichier CSV" in html
    assert "Parties passées" in html and "Corriger la table 1 de la partie 1" in html
    assert "Résultats saisis et corrigés" in html and "1 modification" in html
    assert "résultat corrigé" in html and "par vous" in html
    html = page(owner_client, reverse("concours:list"))
    assert (
        "Qui s’inscrit" in html and "Donnes par partie" in html and "Classement d’abord par" in html
    )


def test_the_owner_opening_their_own_link_gets_no_grant(
    concours: Tournament, owner_client: Client
) -> None:
    response = owner_client.get(reverse("concours:co", args=[concours.co_token]))
    assert response.status_code == 302 and response["Location"] == desk_url(concours)
    assert CO_SESSION_KEY not in owner_client.session
    assert "Co-organiser link" in page(owner_client, desk_url(concours))
