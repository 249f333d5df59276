"""One concours, one queue no more (issue 43): a deal at a table that plays on writes only its own
rows (its match, its table), never the concours's, so the saves of all its tables do not wait on
one row; the pages still see every deal (the change key sums the open tables' match versions)
and the standings' version still moves when a table finishes."""

import pytest

from scorekeeper.concours import selectors
from scorekeeper.concours.models import Table, Tournament
from tests.concours.support import play_deals, play_out
from tests.factories import TournamentFactory

TEAMS = "\n".join(f"Team {n}; P{n}a; P{n}b" for n in range(1, 5))


@pytest.mark.django_db
def test_a_deal_at_a_table_that_plays_on_leaves_the_concours_row_alone() -> None:
    tournament = TournamentFactory.create(teams=TEAMS, drawn=True)
    table = Table.objects.get(round__tournament=tournament, number=1)
    version = Tournament.objects.get(pk=tournament.pk).version
    key = selectors.change_key(public_token=tournament.public_token)
    play_deals(table, 2)
    assert Tournament.objects.get(pk=tournament.pk).version == version
    moved = selectors.change_key(public_token=tournament.public_token)
    assert moved != key  # the projector, the public page and the desk still see the deals
    table.refresh_from_db()
    assert table.deal_count == 2 and not table.finished
    play_out(table)  # the partie's last deal: its result now counts in the standings
    assert Tournament.objects.get(pk=tournament.pk).version == version + 1
