"""What the database and the services refuse: bad states never stored; registration's pasted
lists; the standings selector's query count, constant in the number of teams."""

from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from scorekeeper.concours import selectors, services
from scorekeeper.concours.models import Entrant, Place, Round, Table, Tournament
from scorekeeper.concours.services import LineRefused, Refused, split_line
from scorekeeper.engine.tournament import TournamentError
from tests.factories import TournamentFactory

from .support import play_deals

pytestmark = pytest.mark.django_db


def concours(owner: User, teams: int, **overrides: object) -> Tournament:
    return TournamentFactory.create(
        owner=owner,
        name="Test",
        overrides={"seed": 5, **overrides},
        teams="\n".join(f"Team {i}; A{i}; B{i}" for i in range(1, teams + 1)),
    )


def refuses(action: Callable[[], object]) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        action()


def test_constraints_refuse_bad_states(make_user: Callable[[str], User]) -> None:
    tournament = concours(make_user("o"), 5)
    round1 = services.draw_round(tournament=tournament)
    table = round1.tables.get(number=1)
    entrant = Entrant.objects.get(tournament=tournament, number=1)
    refuses(lambda: Round.objects.create(tournament=tournament, number=1))
    refuses(lambda: Table.objects.create(round=round1, number=1))
    # An entrant at most once per round: a second place (a bye) is refused.
    refuses(lambda: Place.objects.create(round=round1, entrant=entrant))
    refuses(lambda: Entrant.objects.create(tournament=tournament, number=1, name="Again"))
    refuses(lambda: Table.objects.filter(pk=table.pk).update(paper0=10))  # one total alone
    refuses(lambda: Table.objects.filter(pk=table.pk).update(winner=0))  # pending with a winner
    refuses(lambda: Table.objects.filter(pk=table.pk).update(finished=True, winner=2))
    refuses(lambda: Place.objects.create(round=round1, entrant=entrant, side=0))  # side, no table
    new = Entrant.objects.create(tournament=tournament, number=9, name="Nine")
    place = round1.places.filter(table=table).first()
    assert place is not None
    refuses(
        lambda: Place.objects.create(
            round=round1, entrant=new, table=table, side=place.side, seat=place.seat
        )
    )


def test_services_refuse_what_the_concours_does_not_allow(
    make_user: Callable[[str], User],
) -> None:
    tournament = concours(make_user("o"), 4)
    with pytest.raises(Refused) as refused:
        services.add_entrant(tournament=tournament, name="team 1", players=("X", "Y"))
    assert refused.value.code == "duplicate_name"
    with pytest.raises(TournamentError):
        services.add_entrant(tournament=tournament, name="Five", players=("X", ""))
    with pytest.raises(Refused):
        services.finish(tournament=tournament)  # no round yet
    round1 = services.draw_round(tournament=tournament)
    first = Entrant.objects.get(tournament=tournament, number=1)
    with pytest.raises(Refused) as refused:
        services.check_in(entrant=first, present=False)
    assert refused.value.code == "check_in_closed"
    with pytest.raises(Refused) as refused:
        services.withdraw(entrant=first, before_round=1)
    assert refused.value.code == "round_already_drawn"
    with pytest.raises(Refused) as refused:
        services.add_entrant(tournament=tournament, name="Late", players=("X", "Y"), from_round=1)
    assert refused.value.code == "round_already_drawn"
    with pytest.raises(Refused) as refused:
        services.finish(tournament=tournament)
    assert refused.value.code == "round_open"
    table = round1.tables.get(number=1)
    with pytest.raises(Refused) as refused:
        services.correct_result(table=table, totals=(1000, 944))
    assert refused.value.code == "table_not_finished"
    with pytest.raises(TournamentError):
        services.record_paper_totals(table=table, totals=(-1, 100))
    for table in round1.tables.all():
        services.record_paper_totals(table=table, totals=(1000, 944))
    services.close_round(round_=round1)
    with pytest.raises(Refused) as refused:
        services.record_paper_totals(table=table, totals=(1000, 944))
    assert refused.value.code == "round_closed"
    # A phone scoring after the round closed changes nothing in the standings.
    before = selectors.standings_rows(tournament)
    services.regenerate_table_link(table=table)
    assert selectors.standings_rows(tournament) == before


def test_pasted_lists() -> None:
    assert split_line("Les As; Alice ;Bruno") == ["Les As", "Alice", "Bruno"]
    assert split_line("Les As\tAlice\tBruno") == ["Les As", "Alice", "Bruno"]
    assert split_line("Les As, Alice, Bruno") == ["Les As", "Alice", "Bruno"]
    assert split_line("Dupont, fils; Alice; Bruno") == ["Dupont, fils", "Alice", "Bruno"]


def test_a_pasted_list_is_all_or_nothing(make_user: Callable[[str], User]) -> None:
    tournament = TournamentFactory.create(owner=make_user("o"), name="T", preset="belote")
    text = "Les As; Alice; Bruno\n\n# a comment\nAlice; Bruno\nOnly a name\n"
    with pytest.raises(LineRefused) as refused:
        services.add_entrants_from_text(tournament=tournament, text=text)
    assert (refused.value.code, refused.value.params["line"]) == ("line_fields", 5)
    assert not tournament.entrants.exists()
    added = services.add_entrants_from_text(tournament=tournament, text=text.rsplit("\n", 2)[0])
    assert [e.name for e in added] == ["Les As", "Alice & Bruno"]
    with pytest.raises(LineRefused) as refused:
        services.add_entrants_from_text(tournament=tournament, text="X; Y; Z\nles as; C; D")
    assert (refused.value.code, refused.value.params["line"]) == ("duplicate_name", 2)
    assert tournament.entrants.count() == 2


def test_standings_queries_do_not_grow_with_the_teams(make_user: Callable[[str], User]) -> None:
    owner = make_user("o")
    counts = []
    for teams in (6, 21):
        tournament = concours(owner, teams)
        for _ in range(2):
            round_ = services.draw_round(tournament=tournament)
            tables = list(round_.tables.all())
            play_deals(tables[0], 12)
            for table in tables[1:]:
                services.record_paper_totals(table=table, totals=(1000, 944))
            services.close_round(round_=round_)
        services.draw_round(tournament=tournament)
        play_deals(tournament.rounds.get(number=3).tables.get(number=1), 3)
        selectors.standings(tournament)  # the sync writes the moved table once
        with CaptureQueriesContext(connection) as queries:
            rows = selectors.standings(tournament)
        assert len(rows) == teams
        counts.append(len(queries))
    assert counts[0] == counts[1] == 4, counts  # four reads, no sync (issue 22: reads only)


def test_the_seeding_command(make_user: Callable[[str], User]) -> None:
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("seed_concours", teams=7, rounds=2, planned=3, stdout=out, stderr=StringIO())
    tournament = Tournament.objects.get(pk=int(out.getvalue()))
    assert tournament.rounds.filter(closed_at__isnull=False).count() == 2
    assert Table.objects.filter(round__tournament=tournament, deal_count=12).count() == 6
    assert len(selectors.standings(tournament)) == 7
    services.draw_round(tournament=tournament)  # a third round may still be drawn


def test_every_refusal_has_words() -> None:
    """Each code the services refuse with is worded (REFUSALS), or is an engine code the engines'
    words already say."""
    import re
    from pathlib import Path

    from scorekeeper.concours import words
    from scorekeeper.web.words import ERRORS

    files = sorted(Path(services.__file__).parent.glob("*.py"))  # the services package
    source = "\n".join(path.read_text(encoding="utf-8") for path in files)
    codes = set(re.findall(r'(?<!Write)Refused\(\s*"([a-z_]+)"', source))
    assert len(codes) > 10
    assert codes <= set(words.REFUSALS)
    # What a table's match refuses (its phones' writes) is worded too.
    writes = set(re.findall(r'WriteRefused\(\s*"([a-z_]+)"', source))
    assert writes and writes <= set(words.WRITE_REFUSALS)
    assert words.refusal(Refused("tables_pending", round=2, tables=[3, 7])) == (
        "Tables still playing: 3, 7."
    )
    line = LineRefused("too_long", line=4, max=60)
    assert "too_long" in ERRORS
    assert words.refusal(line) == "Line 4: must be at most 60 characters"


def test_a_refusal_in_french() -> None:
    from django.utils import translation

    from scorekeeper.concours import words

    with translation.override("fr"):
        assert words.refusal(LineRefused("duplicate_name", line=2, name="Les As")) == (
            "Ligne 2\u00a0: «\u00a0Les As\u00a0» est déjà inscrit."
        )


def test_the_change_key_moves_with_any_deal(make_user: Callable[[str], User]) -> None:
    """The projector's poll: one query tells whether anything changed."""
    tournament = concours(make_user("o"), 4)
    token = tournament.public_token
    first = selectors.change_key(public_token=token)
    round1 = services.draw_round(tournament=tournament)
    drawn = selectors.change_key(public_token=token)
    assert drawn != first
    with CaptureQueriesContext(connection) as queries:
        assert selectors.change_key(public_token=token) == drawn
    assert len(queries) == 1
    play_deals(round1.tables.get(number=2), 1)  # a phone scores: no reader has synced yet
    assert selectors.change_key(public_token=token) != drawn
    assert selectors.change_key(public_token="nope") is None
