"""Paper (issue 15): the draw poster, the score sheets and the ranking through the test client:
what each page prints (alphabetical order, table numbers, a row per deal with its dealer, the
table link's QR code, prizes, byes and withdrawals), who may open them (the organiser and the
co-organiser link; 404 for another account, a stranger, the public link, a table link), and
their queries do not grow with the teams. Printed to PDF: tests/browser/test_concours_prints.py."""

import json
import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.concours import services
from scorekeeper.concours.models import Place, Table, Tournament
from scorekeeper.concours.views.prints import TARGET_ROWS, dealer_labels, sort_key
from scorekeeper.matches.models import Match
from tests.factories import TournamentFactory

from .support import play_out

pytestmark = pytest.mark.django_db

TEAMS = [
    ("Les As", "Alice", "Bruno"),
    ("Pique Dame", "Chloé", "David"),
    ("Trèfle", "Emma", "Farid"),
    ("Carreau", "Gilles", "Hana"),
    ("Écureuils", "Inès", "Jules"),
    ("atout", "Karim", "Léa"),
    ("Belote", "Marc", "Nina"),
    ("Rebelote", "Omar", "Paula"),
    ("Dix de der", "Quentin", "Rose"),
]


@pytest.fixture
def organiser(make_user: Callable[[str], User], client: Client) -> User:
    user = make_user("organiser")
    client.force_login(user)
    return user


def concours(
    owner: User, teams: list[tuple[str, str, str]] = TEAMS, preset: str = "belote", **kw: Any
) -> Tournament:
    return TournamentFactory.create(
        owner=owner,
        preset=preset,
        place="Salle des fêtes",
        prizes={1: "A ham", 2: "Two bottles"},
        overrides={"seed": 7, **kw},
        teams=teams,
    )


def url(tournament: Tournament, name: str, **kwargs: Any) -> str:
    return reverse(f"concours:{name}", kwargs={"pk": tournament.pk, **kwargs})


def page(client: Client, address: str) -> str:
    response = client.get(address)
    assert response.status_code == 200
    return unescape(response.content.decode())


def text_of(html: str, css_class: str) -> list[str]:
    """The text of every element whose class list starts with `css_class` (tags dropped)."""
    found = re.findall(rf'class="{css_class}[^"]*">(.*?)</(?:span|strong|td|p)>', html, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in found]


# The draw poster ---------------------------------------------------------------------------


def test_the_poster_lists_everyone_alphabetically_with_table_and_opponents(
    organiser: User, client: Client
) -> None:
    tournament = concours(organiser)
    round_ = services.draw_round(tournament=tournament)
    html = page(client, url(tournament, "print_draw", round=1))
    names = text_of(html, "poster-name")
    assert names == sorted((t[0] for t in TEAMS), key=sort_key)
    assert names[:4] == ["atout", "Belote", "Carreau", "Dix de der"]
    assert names.index("Écureuils") == names.index("Dix de der") + 1  # É among the E
    numbers = text_of(html, "poster-number")
    assert len(numbers) == 8  # nine teams: four tables, one bye
    places = Place.objects.filter(round=round_).select_related("entrant", "table")
    seated = {p.entrant.name: p for p in places}
    rows = re.findall(r'<li class="poster-row[^"]*">(.*?)</li>', html, re.S)
    assert len(rows) == 9
    for row in rows:
        name = text_of(row, "poster-name")[0]
        place = seated[name]
        if place.table is None:
            assert "Bye: no table this round" in row
            assert "poster-number" not in row
            continue
        assert text_of(row, "poster-number") == [str(place.table.number)]
        (opponent,) = [
            p.entrant.name for p in places if p.table_id == place.table_id and p != place
        ]
        assert f"Against: {opponent}" in " ".join(text_of(row, "poster-vs"))
        assert place.entrant.player1 in row and place.entrant.player2 in row
    (bye,) = [p.entrant.name for p in places if p.table is None]
    assert html.count(f">{bye}</strong>") == 1  # the bye's own line, no footer naming it again
    assert "Bye this round" not in html
    assert "Round 1: the draw" in html
    assert "Concours de la Saint-Martin" in html and "Salle des fêtes" in html
    assert 'class="poster-list poster-cols-1"' in html  # nine lines: one column
    # The heading sits in the frame's table head, which Chromium repeats on every printed page
    # (tests/browser/test_concours_prints.py reads it on page 2).
    head = re.search(
        r'<table class="poster-frame" role="presentation">\s*<thead>(.*?)</thead>', html, re.S
    )
    assert head is not None
    assert "Round 1: the draw" in head[1] and "Concours de la Saint-Martin" in head[1]


def test_alphabetical_order_as_a_reader_expects() -> None:
    names = ["Zèbres", "cœur", "Coda", "Écureuils", "Coffre", "été", "Ete", "Atout", "Æther"]
    assert sorted(names, key=sort_key) == [
        "Æther", "Atout", "Coda", "cœur", "Coffre", "Écureuils", "Ete", "été", "Zèbres",
    ]  # fmt: skip


def test_the_melee_poster_names_each_player_with_partner_and_opponents(
    organiser: User, client: Client
) -> None:
    players = [
        (name, "", "")
        for name in ("Anna", "Bea", "Carl", "Dora", "Eve", "Fred", "Gus", "Hugo", "Ida")
    ]
    tournament = concours(organiser, players, preset="melee")
    round_ = services.draw_round(tournament=tournament)
    html = page(client, url(tournament, "print_draw", round=1))
    assert text_of(html, "poster-name") == sorted(p[0] for p in players)
    assert "Find your name: your table is the big number." in html
    place = Place.objects.filter(round=round_, table__isnull=False).select_related("entrant")[0]
    assert place.table is not None
    partner = Place.objects.get(table=place.table, side=place.side, seat=1 - place.seat)
    rows = re.findall(r'<li class="poster-row[^"]*">(.*?)</li>', html, re.S)
    (row,) = [r for r in rows if text_of(r, "poster-name") == [place.entrant.name]]
    assert f"Partner: {partner.entrant.name}" in " ".join(text_of(row, "poster-vs"))
    assert text_of(row, "poster-number") == [str(place.table.number)]
    assert len(text_of(html, "poster-number")) == 8  # nine players: one on a bye


def test_a_melee_sheet_names_each_side_by_its_players_and_deals_round_them(
    organiser: User, client: Client
) -> None:
    players = [(name, "", "") for name in ("Anna", "Bea", "Carl", "Dora", "Eve", "Fred")]
    tournament = concours(organiser, players[:4], preset="melee")
    round_ = services.draw_round(tournament=tournament)
    html = page(client, url(tournament, "print_sheets", round=1))
    seat = {(p.side, p.seat): p.entrant.name for p in Place.objects.filter(round=round_)}
    side_a, side_b = f"{seat[0, 0]} & {seat[0, 1]}", f"{seat[1, 0]} & {seat[1, 1]}"
    assert f"<strong>{side_a}</strong></p>" in html  # no second line repeating the names
    assert f"<strong>{side_b}</strong></p>" in html
    dealers = re.findall(
        r'<td class="sheet-dealer"><span class="sheet-name">(.*?)</span></td>', html
    )
    assert dealers[:4] == [seat[0, 0], seat[1, 0], seat[0, 1], seat[1, 1]]


def test_a_round_not_drawn_is_404(organiser: User, client: Client) -> None:
    tournament = concours(organiser)
    for name in ("print_draw", "print_sheets"):
        assert client.get(url(tournament, name, round=1)).status_code == 404
    services.draw_round(tournament=tournament)
    assert client.get(url(tournament, "print_draw", round=2)).status_code == 404


# The score sheets --------------------------------------------------------------------------


def test_one_sheet_a_table_with_a_row_per_deal_and_its_dealer(
    organiser: User, client: Client
) -> None:
    tournament = concours(organiser)
    round_ = services.draw_round(tournament=tournament)
    tables = list(Table.objects.filter(round=round_).select_related("match").order_by("number"))
    first = tables[0]
    Match.objects.filter(concours_table=first).update(first_dealer=2)
    html = page(client, url(tournament, "print_sheets", round=1))
    sheets = re.findall(r'<article class="print-page sheet sheet-l"(.*?)</article>', html, re.S)
    assert len(sheets) == len(tables) == 4
    seats = {t.number: [t.match.seat_name(s) for s in range(4)] for t in tables if t.match}
    for table, sheet in zip(tables, sheets, strict=True):
        assert f'id="sheet-{table.number}"' in sheet
        assert f"Table {table.number}" in sheet and "Round 1" in sheet
        assert "A partie of 12 deals." in sheet
        rows = re.findall(
            r'<tr><th scope="row">(\d+)</th>'
            r'<td class="sheet-dealer"><span class="sheet-name">(.*?)</span></td>',
            sheet,
        )
        assert [int(n) for n, _ in rows] == list(range(1, 13))
        start = 2 if table == first else 0
        assert [d for _, d in rows] == [seats[table.number][(start + n) % 4] for n in range(12)]
        sides = Place.objects.filter(table=table).select_related("entrant").order_by("side")
        for place in sides:
            assert place.entrant.name in sheet
            assert place.entrant.player1 in sheet and place.entrant.player2 in sheet
        for word in (
            "Points",
            "Belote",
            "Capot",
            '<abbr title="Announcements">Ann.</abbr>',  # the preset counts announcements
            "Total",
            "Signature, team A",
            "Signature, team B",
        ):
            assert word in sheet
        # The table link's QR code, inline (the link it holds is the table's).
        assert sheet.count('class="print-qr-code"') == 1
        assert f"QR code of table {table.number}&#x27;s phone link" in sheet or (
            f"QR code of table {table.number}'s phone link" in sheet
        )
    # First deal's dealer at table 1 is seat 2: the first side's second player.
    a = Place.objects.get(table=first, side=0, seat=0).entrant
    assert re.search(
        rf'<th scope="row">1</th><td class="sheet-dealer"><span class="sheet-name">{a.player2}</span></td>',
        html,
    )


def test_a_belote_sheet_says_what_its_totals_add_up_to(organiser: User, client: Client) -> None:
    tournament = concours(organiser)
    services.draw_round(tournament=tournament)
    html = page(client, url(tournament, "print_sheets", round=1))
    line = (
        "Check before signing: total A + total B = 1944 (12 deals × 162), plus 20 a belote, "
        "90 a capot and the announcements."
    )
    assert html.count(line) == 4
    coinche = concours(organiser, TEAMS[:4], preset="coinche")
    services.draw_round(tournament=coinche)
    assert "Check before signing" not in page(client, url(coinche, "print_sheets", round=1))


def head_rows(sheet: str) -> list[list[str]]:
    """The texts of a sheet grid's two head rows, cell by cell (tags dropped)."""
    thead = re.search(r"<thead>(.*?)</thead>", sheet, re.S)
    assert thead is not None
    return [
        [
            " ".join(re.sub(r"<[^>]+>", " ", cell).split())
            for cell in re.findall(r"<th[^>]*>(.*?)</th>", row, re.S)
        ]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", thead[1], re.S)
    ]


def test_a_belote_sheet_has_an_announcements_column_only_when_they_count(
    organiser: User, client: Client
) -> None:
    tournament = concours(organiser, TEAMS[:4])
    services.draw_round(tournament=tournament)
    html = page(client, url(tournament, "print_sheets", round=1))
    sheet = re.findall(r"<article (.*?)</article>", html, re.S)[0]
    top, columns = head_rows(sheet)
    assert top[:2] == ["Deal", "Dealer"] and len(top) == 4  # then team A and team B
    assert re.search(r'colspan="4" class="sheet-team-a', sheet)
    assert columns == ["Points", "Belote", "Ann.", "Capot"] * 2
    body = re.findall(r"<tbody>(.*?)</tbody>", sheet, re.S)[0]
    first = re.findall(r"<tr>(.*?)</tr>", body, re.S)[0]
    assert first.count("<td") == 1 + 8  # the dealer, then four cells a team
    assert "90 a capot and the announcements." in sheet
    # A partie without announcements: no such column, and the check line does not name them.
    plain = concours(organiser, TEAMS[:4], partie={"preset": "belote", "deals_limit": 12,
                                                  "target": None, "announcements": False})  # fmt: skip
    services.draw_round(tournament=plain)
    sheet = re.findall(
        r"<article (.*?)</article>", page(client, url(plain, "print_sheets", round=1)), re.S
    )[0]
    assert head_rows(sheet)[1] == ["Points", "Belote", "Capot"] * 2
    assert "Ann." not in sheet and "announcements" not in sheet
    assert "plus 20 a belote and 90 a capot." in sheet


def test_a_coinche_sheet_has_the_contract_the_takers_and_coinche_columns(
    organiser: User, client: Client
) -> None:
    tournament = concours(organiser, TEAMS[:4], preset="coinche")
    round_ = services.draw_round(tournament=tournament)
    html = page(client, url(tournament, "print_sheets", round=1))
    fronts = re.findall(
        r'<article class="print-page sheet sheet-s sheet-coinche"(.*?)</article>', html, re.S
    )
    backs = re.findall(
        r'<article class="print-page sheet sheet-back sheet-coinche"(.*?)</article>', html, re.S
    )
    assert len(fronts) == len(backs) == 2  # a back page a table: a partie to 2000 may run long
    tables = Table.objects.filter(round=round_).order_by("number")
    for table, front, back in zip(tables, fronts, backs, strict=True):
        top, columns = head_rows(front)
        assert top[:3] == ["Deal", "Dealer", "Contract"]
        assert re.search(r'colspan="4" class="sheet-blank sheet-contract-head">Contract', front)
        assert (
            columns
            == ["Value", "Suit", "Taken by", "Coinche"] + ["Points", "Belote", "Total so far"] * 2
        )
        assert "Capot</th>" not in front  # a capot is a contract's value in coinche
        rows = re.findall(r'<tr><th scope="row">(\d+)</th>(.*?)</tr>', front, re.S)
        assert [int(n) for n, _ in rows] == list(range(1, TARGET_ROWS + 1))
        cells = re.findall(r"<td[^>]*>(.*?)</td>", rows[0][1])
        assert len(cells) == 1 + 4 + 6  # dealer, contract, three cells a team
        assert (
            cells[2]
            == "<span>♠</span><span>♥</span><span>♦</span><span>♣</span><span>SA</span><span>TA</span>"
        )
        assert cells[3] == "<span>A</span><span>B</span>"  # which team took it, circled
        assert cells[4] == "<span>×2</span><span>×4</span>"  # coinché, surcoinché
        assert "×2 if coinché, ×4 if surcoinché" in front
        assert (
            "QR code of table" in front
            and "Signature, team A" in front
            and "Total of the partie" in front
        )
        assert "Carry on over the page (deals 21 to 46)" in front
        # The back: the same table named, the totals carried, the deals numbered on.
        assert f"Table {table.number}" in back and "continued: deals 21 to 46" in back
        assert "Carried from the front (after deal 20)" in back
        numbers = [int(n) for n in re.findall(r'<tr><th scope="row">(\d+)</th>', back)]
        assert numbers == list(range(21, 47))
        assert head_rows(back) == head_rows(front)
        assert "print-qr-code" not in back
    # Coinche with a number of deals: no back page; without sans atout / tout atout: four suits.
    short = concours(organiser, TEAMS[:4], partie={"preset": "coinche-x3", "deals_limit": 12,
                                                  "target": None})  # fmt: skip
    services.draw_round(tournament=short)
    html = page(client, url(short, "print_sheets", round=1))
    assert "sheet-back" not in html and "Carry on over the page" not in html
    assert "<span>♣</span></td>" in html and "<span>SA</span>" not in html
    assert "<span>×2</span><span>×3</span>" in html  # this preset's multipliers
    assert (
        head_rows(re.findall(r"<article (.*?)</article>", html, re.S)[0])[1][4:]
        == ["Points", "Belote"] * 2
    )


def test_the_prints_in_french(organiser: User, client: Client) -> None:
    tournament = concours(organiser)
    services.draw_round(tournament=tournament)
    client.cookies["django_language"] = "fr"
    poster = page(client, url(tournament, "print_draw", round=1))
    assert "Partie 1\u00a0: le tirage" in poster  # a no-break space before the colon
    assert "Cherchez votre équipe\u00a0: votre table est le grand numéro." in poster
    sheets = page(client, url(tournament, "print_sheets", round=1))
    assert "Donneur" in sheets and "Signature, équipe A" in sheets
    assert "Une partie de 12 donnes." in sheets


def test_the_new_sheet_and_ranking_words_in_french(organiser: User, client: Client) -> None:
    """The coinche sheet, the announcements column and the ex æquo flag in French."""
    coinche = concours(organiser, TEAMS[:4], preset="coinche", rounds=1)
    services.draw_round(tournament=coinche)
    client.cookies["django_language"] = "fr"
    sheets = page(client, url(coinche, "print_sheets", round=1))
    for word in ("Contrat", "Valeur", "Couleur", "Pris par", "Cumul", "Total de la partie"):
        assert word in sheets, word
    assert "Report du recto (après la donne 20)" in sheets
    assert "suite\u00a0: donnes 21 à 46" in sheets
    belote = concours(organiser, TEAMS[:4], rounds=1)
    round_ = services.draw_round(tournament=belote)
    # Abbreviated as in English: "Annonces" was cut in its narrow column (issue 22).
    assert '<abbr title="Annonces">Ann.</abbr>' in page(
        client, url(belote, "print_sheets", round=1)
    )
    for table in Table.objects.filter(round=round_):
        services.record_paper_totals(table=table, totals=(1000, 900))
    services.close_round(round_=round_)
    services.finish(tournament=belote)
    ranking = page(client, url(belote, "print_ranking"))
    assert "Ex æquo\u00a0: à départager" in ranking
    assert "Les lots à partager\u00a0: A ham, Two bottles." in ranking


def test_the_qr_code_holds_the_table_link(
    organiser: User, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.concours.views import prints as print_views

    tournament = concours(organiser)
    round_ = services.draw_round(tournament=tournament)
    table = Table.objects.filter(round=round_).order_by("number").first()
    assert table is not None
    made: list[str] = []
    real = print_views.qr_svg

    def spy(link: str, title: str) -> Any:
        made.append(link)
        return real(link, title)

    monkeypatch.setattr(print_views, "qr_svg", spy)
    page(client, url(tournament, "print_sheets", round=1))
    assert made[0] == f"http://testserver/t/{table.token}/"


def test_one_table_sheet_again_after_a_new_link(organiser: User, client: Client) -> None:
    tournament = concours(organiser)
    round_ = services.draw_round(tournament=tournament)
    table = Table.objects.get(round=round_, number=3)
    services.regenerate_table_link(table=table)
    address = url(tournament, "print_sheets", round=1)
    assert f"{address}?table=3" in page(client, url(tournament, "desk"))
    html = page(client, f"{address}?table=3")
    assert re.findall(r'<article class="print-page sheet[^"]*" id="sheet-(\d+)"', html) == ["3"]
    assert html.count('class="print-qr-code"') == 1
    for bad in ("9", "0", "x", "12345", "-1", "3.0"):
        assert client.get(f"{address}?table={bad}").status_code == 404, bad


def test_no_qr_code_without_a_table_link(organiser: User, client: Client) -> None:
    tournament = concours(organiser)
    round_ = services.draw_round(tournament=tournament)
    revoked = Table.objects.filter(round=round_).order_by("number").first()
    assert revoked is not None
    Table.objects.filter(pk=revoked.pk).update(token=None)
    html = page(client, url(tournament, "print_sheets", round=1))
    sheets = re.findall(r"<article (.*?)</article>", html, re.S)
    assert "print-qr-code" not in sheets[0]
    assert all("print-qr-code" in sheet for sheet in sheets[1:])


def test_a_partie_to_a_target_gets_twenty_rows(organiser: User, client: Client) -> None:
    tournament = concours(organiser, TEAMS[:4], preset="coinche")
    services.draw_round(tournament=tournament)
    html = page(client, url(tournament, "print_sheets", round=1))
    sheets = re.findall(
        r'<article class="print-page sheet sheet-s sheet-coinche"(.*?)</article>', html, re.S
    )
    assert len(sheets) == 2
    for sheet in sheets:
        assert len(re.findall(r'<tr><th scope="row">\d+</th>', sheet)) == TARGET_ROWS
        assert "A partie to 2000 points." in sheet


def test_a_table_scored_on_paper_has_no_qr_code_and_its_dealers_from_the_teams(
    organiser: User, client: Client
) -> None:
    document = {
        "format": "belote-tournament/1",
        "name": "Concours de Pâques",
        "settings": {
            "mode": "teams",
            "rounds": 2,
            "partie": {"preset": "belote", "deals_limit": 12, "target": None},
            "seed": 1,
        },
        "entrants": [
            {"id": 1, "name": "Les As", "players": ["Alice", "Bruno"]},
            {"id": 2, "name": "Pique Dame", "players": ["Chloé", "David"]},
        ],
        "rounds": [{"tables": [{"table": 1, "sides": [1, 2], "totals": [1000, 962]}]}],
    }
    tournament = services.import_tournament(owner=organiser, text=json.dumps(document))
    html = page(client, url(tournament, "print_sheets", round=1))
    assert "print-qr-code" not in html
    dealers = re.findall(
        r'<td class="sheet-dealer"><span class="sheet-name">(.*?)</span></td>', html
    )
    assert dealers[:5] == ["Alice", "Chloé", "Bruno", "David", "Alice"]


# The ranking -------------------------------------------------------------------------------


def test_the_final_ranking_with_prizes_byes_and_withdrawals(
    organiser: User, client: Client
) -> None:
    tournament = concours(organiser, rounds=2)
    round_ = services.draw_round(tournament=tournament)
    for table in Table.objects.filter(round=round_):
        play_out(table, seed=3)
    services.close_round(round_=round_)
    gone = tournament.entrants.get(name="Carreau")
    services.withdraw(entrant=gone)
    round_ = services.draw_round(tournament=tournament)
    for table in Table.objects.filter(round=round_):
        play_out(table, seed=4)
    services.close_round(round_=round_)
    html = page(client, url(tournament, "print_ranking"))
    assert "Standings after round 2" in html
    assert "A ham" not in html  # prizes only on the final ranking
    services.finish(tournament=tournament)
    html = page(client, url(tournament, "print_ranking"))
    assert "<h1>Final ranking</h1>" in html
    rows = re.findall(
        r"<tr(?: class=\"is-withdrawn\")?>\s*<td class=\"ranking-rank\">(.*?)</tr>", html, re.S
    )
    assert len(rows) == 9
    from scorekeeper.concours import selectors

    expected = selectors.standings_rows(tournament)
    for row, want in zip(rows, expected, strict=True):
        assert want["name"] in row
        cells = re.findall(r"<td data-label=\"[^\"]+\"[^>]*>(.*?)</td>", row)
        assert cells == [str(want[k]) for k in ("played", "wins", "points", "difference",
                                                 "best_partie", "opponents_wins", "conceded")]  # fmt: skip
        if want["prize"]:
            assert f'<td class="ranking-prize" data-label="Prize">{want["prize"]}</td>' in row
        assert ('ranking-tag">withdrawn' in row) == want["withdrawn"]
        if want["byes"]:
            assert "1 bye" in row
    assert sum("1 bye" in row for row in rows) == 1  # nine teams, then eight: one bye
    assert 'ranking-tag">withdrawn' in html and "Carreau" in html
    assert "A ham" in html and "Two bottles" in html
    assert "Ranked by points, wins, difference, best partie." in html


def test_a_tie_on_a_prize_is_flagged_for_the_organiser(organiser: User, client: Client) -> None:
    tournament = concours(organiser, TEAMS[:4], rounds=1)
    round_ = services.draw_round(tournament=tournament)
    for table in Table.objects.filter(round=round_):  # both tables 1000 to 900: two equal winners
        services.record_paper_totals(table=table, totals=(1000, 900))
    services.close_round(round_=round_)
    services.finish(tournament=tournament)
    html = page(client, url(tournament, "print_ranking"))
    rows = re.findall(r'<tr>\s*<td class="ranking-rank">(\d+)</td>(.*?)</tr>', html, re.S)
    assert [rank for rank, _ in rows] == ["1", "1", "3", "3"]
    winners = [row for rank, row in rows if rank == "1"]
    for row in winners:  # not "A ham" twice: both prizes, and the flag
        assert re.search(r'<td class="ranking-prize is-tied" data-label="Prize">\s*'
                         r'<span class="ranking-tag ranking-tie">Ex æquo: to decide</span> '
                         r"A ham / Two bottles</td>", row)  # fmt: skip
    assert html.count("Ex æquo: to decide") == 2  # the two rank-3 entrants have no prize to share
    names = [re.search(r'class="ranking-name">(.*?) <small>', row)[1] for row in winners]  # type: ignore[index]
    assert (
        f"Ex æquo at rank 1: {names[0]}, {names[1]}. The prizes to share out: A ham, Two bottles. "
        "Decide who takes which before the prize-giving." in html
    )
    # Before the end (no prizes printed) nothing is flagged.
    tournament.status = Tournament.Status.PLAYING
    tournament.save(update_fields=["status"])
    assert "Ex æquo" not in page(client, url(tournament, "print_ranking"))


def test_the_ranking_before_any_round_is_closed_says_so(organiser: User, client: Client) -> None:
    tournament = concours(organiser)
    html = page(client, url(tournament, "print_ranking"))
    assert "No round is closed yet" in html


# The desk's links --------------------------------------------------------------------------


def test_the_desk_links_to_the_prints(organiser: User, client: Client) -> None:
    tournament = concours(organiser, TEAMS[:4], rounds=1)
    round_ = services.draw_round(tournament=tournament)
    html = page(client, url(tournament, "desk"))
    assert url(tournament, "print_draw", round=1) in html
    assert url(tournament, "print_sheets", round=1) in html
    for table in Table.objects.filter(round=round_):
        play_out(table)
    services.close_round(round_=round_)
    html = page(client, url(tournament, "desk"))
    assert url(tournament, "print_ranking") in html and "Print the standings" in html
    services.finish(tournament=tournament)
    assert "Print the final ranking" in page(client, url(tournament, "desk"))


# Who may print -----------------------------------------------------------------------------


def addresses(tournament: Tournament) -> list[str]:
    return [
        url(tournament, "print_draw", round=1),
        url(tournament, "print_sheets", round=1),
        url(tournament, "print_ranking"),
    ]


def test_only_the_organiser_and_the_co_organiser_link_may_print(
    make_user: Callable[[str], User], client: Client
) -> None:
    owner = make_user("organiser")
    tournament = concours(owner)
    round_ = services.draw_round(tournament=tournament)
    table = Table.objects.filter(round=round_).first()
    assert table is not None

    owner_client = Client()
    owner_client.force_login(owner)
    other = Client()
    other.force_login(make_user("someone-else"))
    public = Client()
    public.get(reverse("concours_public:standings", args=[tournament.public_token]))
    table_phone = Client()
    table_phone.get(f"/t/{table.token}/")
    helper = Client()
    assert helper.get(reverse("concours:co", args=[tournament.co_token])).status_code == 302

    for address in addresses(tournament):
        assert owner_client.get(address).status_code == 200, address
        assert helper.get(address).status_code == 200, address
        for stranger in (other, Client(), public, table_phone):
            response = stranger.get(address)
            assert response.status_code == 404, address
            assert tournament.name not in response.content.decode()
    # A new co-organiser link ends the old one's grant.
    tournament.co_token = "new-token"
    tournament.save(update_fields=["co_token"])
    assert helper.get(addresses(tournament)[0]).status_code == 404


def test_the_pages_only_read(organiser: User, client: Client) -> None:
    tournament = concours(organiser)
    services.draw_round(tournament=tournament)
    for address in addresses(tournament):
        assert client.post(address).status_code == 405


# Queries -----------------------------------------------------------------------------------


def big_concours(owner: User, teams: int) -> Tournament:
    tournament = concours(owner, [(f"Team {n:03}", f"P{n}a", f"P{n}b") for n in range(teams)])
    services.draw_round(tournament=tournament)
    return tournament


def count_queries(client: Client, address: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(address).status_code == 200
    return len(queries)


def test_the_prints_read_as_many_queries_for_150_teams_as_for_10(
    organiser: User, client: Client, django_assert_max_num_queries: Any
) -> None:
    small = big_concours(organiser, 10)
    big = big_concours(organiser, 150)
    for name in ("print_draw", "print_sheets"):
        few = count_queries(client, url(small, name, round=1))
        many = count_queries(client, url(big, name, round=1))
        assert many == few, name
        with django_assert_max_num_queries(12):
            html = page(client, url(big, name, round=1))
        if name == "print_draw":
            assert len(text_of(html, "poster-number")) == 150
            assert 'class="poster-list poster-cols-3"' in html
        else:  # 75 tables: a batch of 50 sheets a page (issue 23), then the other 25
            assert html.count('class="print-qr-code"') == 50
            html = page(client, url(big, name, round=1) + "?page=2")
            assert html.count('class="print-qr-code"') == 25
    for tournament in (small, big):
        round_ = tournament.rounds.get()
        for table in Table.objects.filter(round=round_):
            Table.objects.filter(pk=table.pk).update(
                paper0=900, paper1=1044, finished=True, points0=900, points1=1044, winner=1
            )
        services.close_round(round_=round_)
    few = count_queries(client, url(small, "print_ranking"))
    many = count_queries(client, url(big, "print_ranking"))
    assert many == few
    html = page(client, url(big, "print_ranking"))
    assert html.count('<td class="ranking-rank">') == 150


def test_a_superscript_table_number_is_no_table(organiser: User, client: Client) -> None:
    """`?table=²`: no table number (str.isdigit() says yes, int() says no): not found, as any
    other bad number, rather than a server error; a real number still gets its one sheet."""
    tournament = concours(organiser)
    services.draw_round(tournament=tournament)
    address = url(tournament, "print_sheets", round=1)
    for bad in ("²", "³", "½"):
        assert client.get(address, {"table": bad}).status_code == 404, bad
    html = page(client, f"{address}?table=2")
    assert re.findall(r'<article class="print-page sheet[^"]*" id="sheet-(\d+)"', html) == ["2"]


def test_the_ranking_marks_a_late_entry(organiser: User, client: Client) -> None:
    """Issue 22: a team that joined late (docs/tournaments.md §4: it plays from its round, with zeros
    before) is marked on the ranking print, as the desk marks it ("from round 2"); in French too.
    The desk's standings mark it the same way."""
    tournament = concours(organiser, TEAMS[:8], rounds=2)
    round_ = services.draw_round(tournament=tournament)
    for table in Table.objects.filter(round=round_):
        play_out(table, seed=3)
    services.close_round(round_=round_)
    services.add_entrant(tournament=tournament, name="Les Retardataires", players=("Yves", "Yann"))
    round_ = services.draw_round(tournament=tournament)
    for table in Table.objects.filter(round=round_):
        play_out(table, seed=4)
    services.close_round(round_=round_)
    services.finish(tournament=tournament)
    html = page(client, url(tournament, "print_ranking"))
    rows = re.findall(r'<th scope="row" class="ranking-name">(.*?)</th>', html, re.S)
    assert len(rows) == 9
    late = [row for row in rows if "Les Retardataires" in row]
    assert len(late) == 1 and 'ranking-tag ranking-late">from round 2<' in late[0]
    assert sum("from round" in row for row in rows) == 1
    desk = page(client, url(tournament, "desk"))
    start = desk.index('id="standings"')
    section = desk[start : desk.index("</table>", start)]
    assert section.count("from round 2") == 1
    client.cookies["django_language"] = "fr"
    html = page(client, url(tournament, "print_ranking"))
    assert 'ranking-late">à partir de la partie 2<' in html


@pytest.mark.parametrize(
    ("seats", "labels"),
    [
        (["Alice", "Chloé", "Bruno", "David"], ["Alice", "Chloé", "Bruno", "David"]),
        (
            ["Anne-Sophie Martin-Leclerc", "Emma", "Pierre-Emmanuel Dubois", "Farid"],
            ["Anne-Sophie", "Emma", "Pierre-Emmanuel", "Farid"],
        ),
        (
            ["Marie Dupont", "Marie Durand", "Jean Paul Martin", "Jean Pierre Martin"],
            ["Marie Dupont", "Marie Durand", "Jean Paul", "Jean Pierre"],
        ),
        (
            ["Marie de La Tour-Lauraguais", "Bob", "Marie de La Tour-Chambord", "Ana"],
            ["Marie Tour-Lauraguais", "Bob", "Marie Tour-Chambord", "Ana"],
        ),
        (
            ["Les Joyeux du Moulin", "Les Amis", "Anne", "Anne"],
            ["Les Joyeux", "Les Amis", "Anne", "Anne"],
        ),
        (["Élise", "elise martin", "Zoé", "Yann"], ["Élise", "elise martin", "Zoé", "Yann"]),
    ],
)
def test_a_sheet_s_dealer_is_told_apart_in_few_words(seats: list[str], labels: list[str]) -> None:
    """Issue 22: the dealer column prints each seat's shortest distinct form (the full names are
    in the sheet's head), so a long name does not make its rows taller."""
    assert dealer_labels(seats) == labels


def test_a_sheet_prints_the_dealers_short(organiser: User, client: Client) -> None:
    teams = [("Les As", "Anne-Sophie Martin-Leclerc", "Bruno"), ("Pique", "Chloé", "David Roi")]
    tournament = concours(organiser, teams, rounds=1)
    services.draw_round(tournament=tournament)
    html = page(client, url(tournament, "print_sheets", round=1))
    dealers = set(
        re.findall(r'<td class="sheet-dealer"><span class="sheet-name">(.*?)</span>', html)
    )
    assert dealers == {"Anne-Sophie", "Bruno", "Chloé", "David"}
    assert (
        "Anne-Sophie Martin-Leclerc &amp; Bruno" in html
        or "Anne-Sophie Martin-Leclerc & Bruno" in html
    )
