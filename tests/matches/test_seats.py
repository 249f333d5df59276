"""Who sits where (issue 13): one Seat row per named seat, written with the match; the table's
constraints; and Match.seats read in one query however the match was loaded."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from scorekeeper.engine.scoring import Team, get_preset
from scorekeeper.engine.scoring.matchfile import MatchFile
from scorekeeper.matches import access, services
from scorekeeper.matches.models import Match, Player, Seat

from .conftest import MakeMatch
from .support import OWNER_KEY

pytestmark = pytest.mark.django_db


def rows(match: Match) -> list[tuple[int, str, int]]:
    return [
        (seat.position, seat.player.name, seat.team)
        for seat in Seat.objects.filter(match=match).select_related("player").order_by("position")
    ]


def test_a_new_match_writes_a_row_per_named_seat_and_none_for_a_blank_one(
    make_match: MakeMatch,
) -> None:
    match = make_match(players=("Alice", None, "Bruno", "David"))
    assert rows(match) == [(0, "Alice", 0), (2, "Bruno", 0), (3, "David", 1)]
    names = [p.name if p else None for p in Match.objects.get(pk=match.pk).seats]
    assert names == ["Alice", None, "Bruno", "David"]
    assert match.seat_name(1) == "Eux (1)"
    assert match.team_players == ("Alice & Bruno", "Eux (1) & David")
    assert list(Player.objects.get(name="Bruno").matches.all()) == [match]
    assert make_match(players=(None, None, None, None)).seats == (None, None, None, None)


def test_a_rematch_and_an_imported_match_keep_the_seats(make_match: MakeMatch) -> None:
    first = make_match(players=("Alice", "Chloé", "Bruno", "David"))
    again = services.rematch(match=first, owner_key=OWNER_KEY)
    assert rows(again) == rows(first)
    match_file = MatchFile(
        rules=get_preset("coinche"),
        teams=(Team("Nous", ("Alice", "Bruno")), Team("Eux", ("Chloé", "David"))),
        first_dealer=0,
        deals=(),
    )
    imported = services.import_match(match_file=match_file, owner_key=OWNER_KEY)
    assert rows(imported) == rows(first)
    assert Seat.objects.filter(player__name="Alice").count() == 3  # one Alice, three matches
    assert services.match_file_for(imported).teams == match_file.teams


@pytest.mark.parametrize(
    ("position", "player"),
    [(1, "Chloé"), (2, "Alice"), (4, "Emma")],
    ids=["seat taken", "player seated twice", "no fifth seat"],
)
def test_the_table_refuses_a_second_row_for_a_seat_or_a_player(
    make_match: MakeMatch, position: int, player: str
) -> None:
    match = make_match(players=("Alice", "Chloé", None, None))
    someone = Player.objects.filter(name=player).first() or Player.objects.create(
        name=player, owner_key=OWNER_KEY
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(match=match, player=someone, position=position)


def test_a_link_attaches_the_four_players_in_one_query(make_match: MakeMatch) -> None:
    match = make_match(players=("Alice", None, "Bruno", "David"))
    with CaptureQueriesContext(connection) as queries:
        found = access.match_for_viewer(match.view_token)
        names = [found.seat_name(seat) for seat in range(4)]
    assert names == ["Alice", "Eux (1)", "Bruno", "David"]
    assert len(queries) == 2  # the match, then its seats with their players


def test_a_list_reads_every_match_s_seats_in_one_more_query(make_match: MakeMatch) -> None:
    for n in range(5):
        make_match(players=(f"A{n}", f"B{n}", f"C{n}", None))
    with CaptureQueriesContext(connection) as queries:
        seated = [m.seats for m in Match.objects.with_players().order_by("pk")]
    assert [[p.name if p else None for p in s] for s in seated][-1] == ["A4", "B4", "C4", None]
    assert len(queries) == 2
