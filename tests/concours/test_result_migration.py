"""Migration concours 0004 (issue 22; the app was labelled "tournaments" then): on a database of
before, a table's stored result could lag its match (it was read again when a page was looked at);
now that no page writes, it is brought up to date once. The rows are made as the former code left
them, the database migrated back to before issue 22 and forward again: every table then says what
its match says, and each match what its table says (time called, paper)."""

from typing import Any

import pytest
from django.contrib.auth.models import User

from scorekeeper.concours import services
from scorekeeper.concours.models import Table, Tournament
from scorekeeper.matches.models import Match
from tests.factories import TournamentFactory
from tests.migrating import migrate

from .support import play_deals, play_out

pytestmark = pytest.mark.django_db(transaction=True)

TEAMS = "\n".join(f"Team {n}; P{n}a; P{n}b" for n in range(1, 9))
BEFORE = {"concours": "0003_table_matches_held", "matches": "0012_match_in_concours_frozen"}


def lag(table: Table, **fields: Any) -> None:
    """The table as the former code left it before any page read it."""
    Table.objects.filter(pk=table.pk).update(**fields)


def test_tables_made_the_old_way_are_brought_up_to_date(back_and_forth: None) -> None:
    organiser = User.objects.create_user("organiser")
    tournament = TournamentFactory.create(
        owner=organiser,
        name="Concours",
        overrides={"partie": {"preset": "belote", "deals_limit": 2, "target": None}},
        teams=TEAMS,
        drawn=True,
    )
    playing, ended_itself, timed, typed = Table.objects.filter(
        round__tournament=tournament
    ).order_by("number")
    start = {t.pk: Table.objects.get(pk=t.pk).match_version for t in (playing, ended_itself)}
    # A table under way, its deal never read by the concours.
    play_deals(playing, 1)
    lag(playing, deal_count=0, points0=None, points1=None, match_version=start[playing.pk])
    # A partie that ended itself, unread: not finished, its phones' link not renewed.
    old_token = Match.objects.get(concours_table=ended_itself).scorer_token
    play_out(ended_itself)
    Match.objects.filter(concours_table=ended_itself).update(scorer_token=old_token)
    lag(ended_itself, finished=False, winner=None, points0=None, points1=None, deal_count=0,
        finished_at=None, match_version=start[ended_itself.pk])  # fmt: skip
    # Time called: the table finished, its match still "playing".
    play_deals(timed, 1)
    services.call_time(table=Table.objects.get(pk=timed.pk))
    Match.objects.filter(concours_table=timed).update(
        ended_at=None, status="playing", winner=None, finished_at=None
    )
    # Paper totals over a phone's deal: the match still shows the phone's totals, in play.
    play_deals(typed, 1)
    services.record_paper_totals(table=Table.objects.get(pk=typed.pk), totals=(900, 700),
                                 over_deals=True)  # fmt: skip
    phone = Match.objects.get(concours_table=typed).deal_rows()[-1]
    Match.objects.filter(concours_table=typed).update(
        typed_at=None, status="playing", winner=None, total0=phone.total0, total1=phone.total1
    )
    version = Tournament.objects.get(pk=tournament.pk).version

    migrate(*BEFORE.items())  # both apps back in one go: one pass over the migrations' states
    migrate()

    def both(table: Table) -> tuple[Table, Match]:
        return Table.objects.get(pk=table.pk), Match.objects.get(concours_table=table)

    table, match = both(playing)
    assert not table.finished and table.deal_count == 1
    assert table.points == (match.total0, match.total1) and table.match_version == match.version
    table, match = both(ended_itself)
    assert table.finished and table.winner == match.winner and table.deal_count == 2
    assert table.points == (match.total0, match.total1)
    assert match.scorer_token != old_token  # its phones are done
    assert table.match_version == match.version
    table, match = both(timed)
    assert match.is_finished and match.ended_at is not None
    assert match.winner == table.winner and table.finished and table.ended
    table, match = both(typed)
    assert match.is_typed and (match.total0, match.total1) == (900, 700) and match.winner == 0
    assert match.deal_count == 1
    assert Tournament.objects.get(pk=tournament.pk).version > version
    # And it stays so: a second run changes nothing.
    snapshot = list(Table.objects.order_by("pk").values())
    migrate(("concours", "0003_table_matches_held"))
    migrate()
    assert list(Table.objects.order_by("pk").values()) == snapshot
