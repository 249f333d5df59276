"""Issue 26 on the desk: a round robin and a final bracket after qualifying rounds (docs/
tournaments.md §7) through the services and the pages: the rounds' stage stored, the bracket
drawn round by round, equal totals sent through by seed and said on the page, the final ranking
by final place (desk, public page, print, the club's stored rows), the export and import with
bracket rounds, an old file still valid, the swap refused, the settings in words."""

import json
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.concours import selectors, services
from scorekeeper.concours.forms import settings_words
from scorekeeper.concours.models import Round, Tournament
from scorekeeper.concours.phones import header
from scorekeeper.concours.services import Refused
from scorekeeper.engine import tournament as tournament_engine
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db

NAMES = ["As", "Pique", "Trèfle", "Carreau", "Cœur", "Atout", "Belote", "Rebelote", "Dix", "Der"]


def teams(count: int) -> str:
    return "\n".join(f"{NAMES[i]}; P{i}a; P{i}b" for i in range(count))


def paper_round(round_: Round, *, equal: bool = False) -> None:
    """Every table of the round typed from paper: side 0 wins (or equal totals), then closed."""
    for table in round_.tables.order_by("number"):
        totals = (1000, 1000) if equal else (1100 + 10 * table.number, 844 - 10 * table.number)
        services.record_paper_totals(table=table, totals=totals)
    services.close_round(round_=round_)


FINAL_8 = {"size": 8, "consolation": True, "third_place": True}


def bracket_concours(owner: User, final: dict[str, Any] = FINAL_8, count: int = 10) -> Tournament:
    return TournamentFactory.create(
        owner=owner,
        name="Coupe",
        overrides={"seed": 7, "rounds": 3, "final": final},
        teams=teams(count),
    )


def test_qualifying_then_bracket_with_consolation_to_final_ranking(
    make_user: Callable[[str], User],
) -> None:
    tournament = bracket_concours(make_user("org"))
    for _ in range(3):
        paper_round(services.draw_round(tournament=tournament))
    stages = []
    while True:
        snap = selectors.snapshot(tournament)
        state = selectors.progress(snap)
        if not state.more:
            break
        round_ = services.draw_round(tournament=tournament)
        stages.append((round_.stage, round_.tables.count()))
        paper_round(round_)
    # Quarter-finals, consolation semi-finals, semi-finals, consolation final, final + 3rd place.
    assert stages == [("final", 4), ("consolation", 2), ("final", 2), ("consolation", 1),
                      ("final", 2)]  # fmt: skip
    assert state.complete
    with pytest.raises(tournament_engine.TournamentError):
        services.draw_round(tournament=tournament)  # the bracket is complete
    services.finish(tournament=tournament)
    tournament.refresh_from_db()
    # The app's final places are the engine's from the exported file.
    document = selectors.export_document(tournament)
    assert [r.get("stage") for r in document["rounds"]] == [None, None, None, "final",
        "consolation", "final", "consolation", "final"]  # fmt: skip
    engine = tournament_engine.load_tournament(json.dumps(document))
    report = tournament_engine.standings_report(engine)
    places = {row["id"]: row["final_place"] for row in report["standings"]}
    assert tournament.final_standings is not None
    stored = tournament.final_standings["rows"]
    assert [row["rank"] for row in stored] == sorted(places.values())
    assert {row["id"]: row["rank"] for row in stored} == places
    assert sorted(places.values()) == [1, 2, 3, 4, 5, 6, 7, 7, 9, 10]
    # The desk shows the bracket and the final ranking by place, ex æquo at 7.
    client = Client()
    client.force_login(tournament.owner)
    page = client.get(reverse("concours:desk", args=[tournament.pk])).content.decode()
    assert "Final bracket" in page and "Quarter-finals" in page and "Consolation final" in page
    assert "Third place" in page and "after qualifying" in page
    # The file imports back as a finished concours with its bracket rounds.
    again = services.import_tournament(owner=tournament.owner, text=json.dumps(document))
    assert list(again.rounds.values_list("stage", flat=True)) == ["", "", "", "final",
        "consolation", "final", "consolation", "final"]  # fmt: skip
    assert again.status == Tournament.Status.FINISHED
    assert again.final_standings is not None
    assert again.final_standings["rows"] == stored


def test_equal_totals_the_better_seed_goes_through_and_the_page_says_so(
    make_user: Callable[[str], User],
) -> None:
    tournament = bracket_concours(make_user("org"), {"size": 4}, count=6)
    for _ in range(3):
        paper_round(services.draw_round(tournament=tournament))
    semis = services.draw_round(tournament=tournament)
    assert semis.stage == "final"
    first_place = semis.places.filter(table__isnull=False).first()
    last_place = semis.places.filter(table__isnull=False).last()
    assert first_place is not None and last_place is not None
    with pytest.raises(Refused) as refused:
        services.redraw_round(round_=semis)
    assert refused.value.code == "redraw_fixed"
    with pytest.raises(Refused) as refused:
        services.swap_entrants(round_=semis, first=first_place.entrant, second=last_place.entrant)
    assert refused.value.code == "swap_bracket"
    paper_round(semis, equal=True)
    snap = selectors.snapshot(tournament)
    bracket = selectors.bracket_of(snap)
    assert bracket is not None
    first = bracket.rounds[0].tables[0]
    assert first.winner == 0 and first.seeds == (1, 4)
    client = Client()
    client.force_login(tournament.owner)
    page = client.get(reverse("concours:desk", args=[tournament.pk])).content.decode()
    assert "Equal totals: the better seed (1) goes through." in page
    # The final is drawn between the two better seeds, with the final's partie.
    final = services.draw_round(tournament=tournament)
    assert final.tables.count() == 1
    sides = final.places.order_by("side").values_list("entrant__number", flat=True)
    assert list(sides) == [bracket.seeds[0], bracket.seeds[1]]


def test_finish_refused_while_the_bracket_is_unfinished(make_user: Callable[[str], User]) -> None:
    tournament = bracket_concours(make_user("org"), {"size": 4}, count=6)
    for _ in range(3):
        paper_round(services.draw_round(tournament=tournament))
    paper_round(services.draw_round(tournament=tournament))  # the semi-finals
    with pytest.raises(Refused) as refused:
        services.finish(tournament=tournament)
    assert refused.value.code == "bracket_unfinished"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.PLAYING


def test_round_robin_of_five_everyone_meets_once_and_swap_is_refused(
    make_user: Callable[[str], User],
) -> None:
    tournament = TournamentFactory.create(
        owner=make_user("org"),
        name="Ligue",
        overrides={"seed": 1, "rounds": 5, "pairing": "round_robin"},
        teams=teams(5),
    )
    met: list[tuple[int, int]] = []
    byes: list[int] = []
    for number in range(1, 6):
        round_ = services.draw_round(tournament=tournament)
        if number == 1:
            first, second = round_.places.filter(table__isnull=False)[:2]
            with pytest.raises(Refused) as refused:
                services.swap_entrants(round_=round_, first=first.entrant, second=second.entrant)
            assert refused.value.code == "swap_round_robin"
            with pytest.raises(Refused) as refused:
                services.redraw_round(round_=round_)
            assert refused.value.code == "redraw_fixed"
            with pytest.raises(Refused) as refused:
                services.add_entrant(tournament=tournament, name="Late", players=("a", "b"))
            assert refused.value.code == "round_robin_late_entry"
        for table in round_.tables.all():
            pair = sorted(table.places.values_list("entrant__number", flat=True))
            met.append((pair[0], pair[1]))
        byes += list(
            round_.places.filter(table__isnull=True).values_list("entrant__number", flat=True)
        )
        paper_round(round_)
    assert sorted(met) == list(combinations(range(1, 6), 2))
    assert sorted(byes) == [1, 2, 3, 4, 5]
    services.finish(tournament=tournament)


def test_round_robin_more_rounds_than_teams_allow_is_refused_on_the_desk(
    make_user: Callable[[str], User],
) -> None:
    owner = make_user("org")
    tournament = TournamentFactory.create(
        owner=owner,
        name="Ligue",
        overrides={"seed": 1, "rounds": 5, "pairing": "round_robin"},
        teams=teams(4),
    )
    client = Client()
    client.force_login(owner)
    response = client.post(reverse("concours:draw", args=[tournament.pk]), follow=True)
    assert (
        "A round robin of 4 teams has at most 3 rounds: change Rounds to 3 or fewer in the "
        "settings (Format, Change the settings), then draw round 1." in response.content.decode()
    )
    assert not tournament.rounds.exists()


def test_new_concours_form_with_a_final_bracket_and_its_words(
    make_user: Callable[[str], User],
) -> None:
    owner = make_user("org")
    client = Client()
    client.force_login(owner)
    data = {
        "preset": "belote", "start": "belote", "name": "Championnat", "mode": "teams",
        "rounds": "3", "game": "belote", "deals_limit": "12", "pairing": "swiss",
        "rank1": "points", "rank2": "wins", "rank3": "head_to_head", "rank4": "lots",
        "bye": "average", "final_size": "8", "final_third_place": "on",
        "final_consolation": "on", "final_game": "belote", "final_deals_limit": "16",
    }  # fmt: skip
    response = client.post(reverse("concours:list"), data)
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Championnat")
    assert tournament.settings["final"] == {
        "size": 8, "partie": {"preset": "belote", "deals_limit": 16, "target": None},
        "consolation": True, "third_place": True,
    }  # fmt: skip
    assert tournament.settings["ranking"] == ["points", "wins", "head_to_head", "lots"]
    words = settings_words(tournament.settings)
    assert "Then the best 8 of the standings play a knockout bracket" in words
    assert "The first-round losers play a consolation bracket" in words
    assert any(line.startswith("Each bracket table:") and "16 deals" in line for line in words)
    # A consolation in a bracket of 4: refused on its field, nothing created.
    bad = {**data, "name": "Petit", "final_size": "4"}
    response = client.post(reverse("concours:list"), bad)
    assert response.status_code == 200
    assert not Tournament.objects.filter(name="Petit").exists()
    # The settings page shows the bracket choices filled in.
    page = client.get(reverse("concours:settings", args=[tournament.pk])).content.decode()
    assert 'name="final_size" value="8"' in page and "checked" in page


def test_round_robin_in_melee_is_a_form_error(make_user: Callable[[str], User]) -> None:
    client = Client()
    client.force_login(make_user("org"))
    data = {
        "preset": "melee", "start": "melee", "name": "Mêlée", "mode": "melee", "rounds": "3",
        "game": "belote", "deals_limit": "12", "pairing": "round_robin", "rank1": "points",
        "bye": "average",
    }  # fmt: skip
    response = client.post(reverse("concours:list"), data)
    assert response.status_code == 200
    assert not Tournament.objects.filter(name="Mêlée").exists()


def test_public_page_projector_and_print_show_the_bracket(
    make_user: Callable[[str], User],
) -> None:
    tournament = bracket_concours(make_user("org"), {"size": 4, "third_place": True}, count=6)
    for _ in range(3):
        paper_round(services.draw_round(tournament=tournament))
    semis = services.draw_round(tournament=tournament)
    snap = selectors.snapshot(tournament)
    bracket = selectors.bracket_of(snap)
    assert bracket is not None
    top = next(e for e in snap.entrants if e.number == bracket.seeds[0])
    public = Client()
    url = reverse("concours_public:standings", args=[tournament.public_token])
    page = public.get(url, {"q": top.name}).content.decode()
    assert "Semi-finals: <strong>table 1</strong>" in page
    assert "bracket-side" in page and "is-you" in page
    projector = public.get(
        reverse("concours_public:projector", args=[tournament.public_token])
    ).content.decode()
    assert "proj-bracket" in projector and "Semi-finals" in projector
    organiser = Client()
    organiser.force_login(tournament.owner)
    printed = organiser.get(reverse("concours:print_bracket", args=[tournament.pk]))
    assert printed.status_code == 200
    text = printed.content.decode()
    assert "A4, landscape" in text and "Winner of table 1" in text and "Third place" in text
    assert semis.stage == "final"


def test_print_bracket_without_a_final_says_so(make_user: Callable[[str], User]) -> None:
    owner = make_user("org")
    tournament = TournamentFactory.create(owner=owner, name="Simple", overrides={"seed": 1})
    client = Client()
    client.force_login(owner)
    page = client.get(reverse("concours:print_bracket", args=[tournament.pk])).content.decode()
    assert "has no final bracket" in page


def test_an_old_file_without_stage_imports_as_qualifying_rounds(
    make_user: Callable[[str], User],
) -> None:
    old = {
        "format": "belote-tournament/1",
        "name": "Ancien",
        "settings": {"mode": "teams", "rounds": 1, "seed": 3},
        "entrants": [
            {"id": 1, "name": "A", "players": ["a", "b"]},
            {"id": 2, "name": "B", "players": ["c", "d"]},
        ],
        "rounds": [{"tables": [{"table": 1, "sides": [1, 2], "totals": [900, 720]}]}],
    }
    tournament = services.import_tournament(owner=make_user("org"), text=json.dumps(old))
    assert list(tournament.rounds.values_list("stage", flat=True)) == [""]
    assert tournament.status == Tournament.Status.FINISHED
    document = selectors.export_document(tournament)
    assert "final" not in document["settings"] and "stage" not in document["rounds"][0]


def test_desk_queries_do_not_grow_with_the_bracket(make_user: Callable[[str], User]) -> None:
    """The desk of a concours in its bracket reads a fixed number of queries: a bracket of 8
    and one of 4 the same."""
    counts = []
    for size, count in ((4, 6), (8, 10)):
        tournament = bracket_concours(make_user(f"org{size}"), {"size": size}, count=count)
        for _ in range(3):
            paper_round(services.draw_round(tournament=tournament))
        paper_round(services.draw_round(tournament=tournament))
        client = Client()
        client.force_login(tournament.owner)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("concours:desk", args=[tournament.pk])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def run_everything(tournament: Tournament) -> list[Round]:
    """Every round drawn and typed from paper, qualifying and bracket; the bracket rounds."""
    bracket_rounds = []
    while selectors.progress(selectors.snapshot(tournament)).more:
        round_ = services.draw_round(tournament=tournament)
        if round_.stage:
            bracket_rounds.append(round_)
        paper_round(round_)
    return bracket_rounds


def test_prizes_by_final_place_ex_aequo_and_the_brackets_own_partie(
    make_user: Callable[[str], User],
) -> None:
    final = {**FINAL_8, "partie": {"preset": "belote", "deals_limit": 4, "target": None}}
    tournament = bracket_concours(make_user("org"), final)
    tournament.prizes = {"1": "Un jambon", "7": "Une bouteille", "8": "Un saucisson"}
    tournament.save(update_fields=["prizes"])
    bracket_rounds = run_everything(tournament)
    for round_ in bracket_rounds:  # the table phones play the final's partie
        for table in round_.tables.select_related("match"):
            assert table.match is not None
            assert table.match.engine_rules.deals_limit == 4
    qualifying = Round.objects.filter(tournament=tournament, stage="").first()
    assert qualifying is not None
    played = qualifying.tables.select_related("match").first()
    assert played is not None and played.match is not None
    assert played.match.engine_rules.deals_limit == 12
    services.finish(tournament=tournament)
    rows = selectors.standings_rows(tournament)
    assert [row["rank"] for row in rows] == [1, 2, 3, 4, 5, 6, 7, 7, 9, 10]
    assert rows[0]["prize"] == "Un jambon"
    assert rows[6]["shared"] == rows[7]["shared"] == ["Une bouteille", "Un saucisson"]
    client = Client()
    client.force_login(tournament.owner)
    page = client.get(reverse("concours:desk", args=[tournament.pk])).content.decode()
    assert "Ex æquo at rank 7" in page
    public = Client().get(reverse("concours_public:standings", args=[tournament.public_token]))
    text = public.content.decode()
    assert "Une bouteille" in text and "Winner:" in text
    assert "After round 4" not in text  # a bracket round leaves the standings be
    printed = client.get(reverse("concours:print_ranking", args=[tournament.pk])).content.decode()
    assert "Ex æquo at rank 7" in printed


def test_standings_keep_their_qualifying_order_while_the_bracket_is_played(
    make_user: Callable[[str], User],
) -> None:
    tournament = bracket_concours(make_user("org"), {"size": 4}, count=6)
    for _ in range(3):
        paper_round(services.draw_round(tournament=tournament))
    before = [row["id"] for row in selectors.standings_rows(tournament)]
    paper_round(services.draw_round(tournament=tournament))  # semi-finals
    during = selectors.standings_rows(tournament)
    assert [row["id"] for row in during] == before
    assert "final_place" not in during[0]
    client = Client()
    client.force_login(tournament.owner)
    page = client.get(reverse("concours:desk", args=[tournament.pk])).content.decode()
    assert "Standings after round 3" in page


def test_a_bracket_tables_phone_and_records_name_its_round(
    make_user: Callable[[str], User],
) -> None:
    tournament = bracket_concours(make_user("org"), {"size": 4}, count=6)
    for _ in range(3):
        paper_round(services.draw_round(tournament=tournament))
    semis = services.draw_round(tournament=tournament)
    table = semis.tables.select_related("round__tournament", "match").get(number=1)
    assert table.match is not None
    assert header(table, table.match).startswith("Table 1 · round 4 · Semi-finals · ")
    found = selectors.played_in([table.match.pk])[table.match.pk]
    assert (found.round, found.rounds) == (4, 5)  # 3 qualifying rounds, semi-finals, final


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_desk_offers_no_entry_a_round_robin_or_the_last_round_would_refuse(
    make_user: Callable[[str], User], lang: str
) -> None:
    """Once a round robin's first round is drawn, or every round of a Swiss concours, the desk
    says why no entrant can join instead of offering the forms; a POST is still refused by the
    service, with its words, and writes nothing. Before that, the forms are there."""
    owner = make_user("org")
    client = Client(headers={"accept-language": lang})
    client.force_login(owner)
    league = TournamentFactory.create(
        owner=owner,
        name="Ligue",
        overrides={"seed": 1, "rounds": 3, "pairing": "round_robin"},
        teams=teams(4),
    )
    swiss = TournamentFactory.create(
        owner=owner, name="Suisse", overrides={"seed": 1, "rounds": 2}, teams=teams(4)
    )
    add = 'action="{}"'
    round_robin = {
        "en": "A round robin takes no late entry: every team plays from round 1.",
        "fr": "Un championnat ne prend pas d’inscription tardive\u00a0: chaque équipe joue dès "
        "la partie 1.",
    }[lang]
    all_drawn = {
        "en": "Every round is drawn: a late entry can no longer join.",
        "fr": "Toutes les parties sont tirées\u00a0: une inscription tardive ne peut plus y entrer.",
    }[lang]
    two_rounds = {"en": "The concours has 2 rounds.", "fr": "Le concours compte 2 parties."}[lang]
    cases = ((league, round_robin, round_robin), (swiss, all_drawn, two_rounds))
    for tournament, line, refusal in cases:
        desk = reverse("concours:desk", args=[tournament.pk])
        forms = [
            reverse(f"concours:{name}", args=[tournament.pk])
            for name in ("add", "paste", "import_csv")
        ]
        page = client.get(desk).content.decode()
        assert all(add.format(url) in page for url in forms)  # before the draw
        assert 'id="entry-closed"' not in page
        services.draw_round(tournament=tournament)
        if tournament is swiss:
            page = client.get(desk).content.decode()
            assert all(add.format(url) in page for url in forms)  # round 2 can take one
            paper_round(tournament.rounds.get(number=1))
            services.close_round(round_=tournament.rounds.get(number=1))
            services.draw_round(tournament=tournament)
        page = client.get(desk).content.decode()
        assert not any(add.format(url) in page for url in forms)
        assert f'<p class="help" id="entry-closed">{line}</p>' in page
        # The service refuses what the page no longer offers.
        before = tournament.entrants.count()
        data = {"name": "Late", "player1": "a", "player2": "b"}
        response = client.post(forms[0], data, follow=True)
        assert refusal in response.content.decode()
        assert tournament.entrants.count() == before
