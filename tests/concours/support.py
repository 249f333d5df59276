"""Helpers of the concours tests: tables scored deal by deal through the match services, as a
table's phone does."""

import random

from scorekeeper.concours import services
from scorekeeper.concours.models import Table, Tournament
from scorekeeper.engine.scoring import parse_deal
from scorekeeper.matches import services as match_services
from scorekeeper.matches.models import Match

PHONE = match_services.Author(key="table-phone", label="table link")


def play_deals(table: Table, count: int, seed: int = 0) -> Match:
    """Score `count` deals at the table's match, one by one (a taker making or failing). The
    deals follow `seed` and the table's number, not its database id: ids depend on the tests a
    worker ran before (a flushed table keeps its sequence), and the same test must play the same
    deals every time."""
    assert table.match_id is not None
    rng = random.Random(seed * 1000 + table.number)
    for n in range(count):
        deal = parse_deal(
            {"taker": n % 2, "trump": "hearts", "taker_points": rng.choice([40, 70, 90, 110, 140])}
        )
        match_services.record_deal(
            match_id=table.match_id, expected_version=None, deal=deal, author=PHONE
        )
    return Match.objects.get(pk=table.match_id)


def play_out(table: Table, seed: int = 0) -> Match:
    """Every deal of a partie of N deals: the match ends itself after the Nth."""
    match = Match.objects.get(concours_table=table)
    limit = match.engine_rules.deals_limit
    assert limit is not None
    return play_deals(table, limit - match.deal_count, seed)


def play_rounds(tournament: Tournament, rounds: int, *, finish: bool = True) -> Tournament:
    """Draw, play out (deal by deal, seeded by the round's number) and close `rounds` rounds
    through the services, then finish the concours unless told not to."""
    for number in range(1, rounds + 1):
        round_ = services.draw_round(tournament=tournament)
        for table in round_.tables.all():
            play_out(table, seed=number)
        services.close_round(round_=round_)
    if finish:
        services.finish(tournament=tournament)
    tournament.refresh_from_db()
    return tournament
