"""Match files in and out: what the app asks of a file, matches created from files (one, or many
in a few queries), and a match as a file."""

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction

from scorekeeper.engine.scoring import Deal as EngineDeal
from scorekeeper.engine.scoring import InvalidInput, MatchFile, MatchResult, Team, decode_json

from ..models import Deal, Match, Player
from .matches import IMPORT_BATCH, seat_players
from .players import get_or_create_player
from .scores import cache_deal, set_result

MAX_DEALS = 1000  # a match file with more is no real match (and its scoreboard would be huge)


def check_importable(match_file: MatchFile) -> MatchFile:
    """What the app asks of a match file beyond the format: four different players and a
    believable number of deals. InvalidInput names the place, as the engine's checks do."""
    if len(match_file.deals) > MAX_DEALS:
        raise InvalidInput("deals", "too_many_deals", max=MAX_DEALS)
    seen: set[str] = set()
    for index, team in enumerate(match_file.teams):
        for name in team.players or ():
            key = " ".join(name.split()).casefold()
            if key and key in seen:
                raise InvalidInput(f"teams[{index}].players", "sits_twice", name=name)
            seen.add(key)
    return match_file


def deals_in(data: bytes) -> int:
    """The deals a match file holds, read quickly (JSON only, no checks); InvalidInput if it is
    not JSON."""
    document = decode_json(data)
    if isinstance(document, dict) and isinstance(document.get("deals"), list):
        return len(document["deals"])
    return 0


def import_match(*, match_file: MatchFile, owner_key: str, owner: User | None = None) -> Match:
    """Create a match from a parsed match file (already fully checked by the engine)."""
    return import_matches(match_files=[match_file], owner_key=owner_key, owner=owner)[0]


def import_matches(
    *,
    match_files: Sequence[MatchFile],
    owner_key: str,
    owner: User | None = None,
    results: Sequence[MatchResult] | None = None,
) -> list[Match]:
    """Create these matches, in order, with their deals scored by the engine (`results`: their
    scores when the caller already has them). Everything is scored and built first, with no
    transaction open; then one transaction writes it all, a few queries per batch whatever the
    number of matches (seed_demo --bulk). A backup is restored one match per call
    (history/exports.py), so that no write holds the database for long."""
    if results is None:
        results = [match_file.score() for match_file in match_files]
    built: list[tuple[Match, list[Deal], tuple[str | None, ...]]] = []
    for match_file, result in zip(match_files, results, strict=True):
        first, second = match_file.teams
        match = Match(
            owner_key=owner_key,
            owner=owner,
            rules=match_file.rules.to_dict(),
            preset=match_file.rules.preset,
            game=match_file.rules.game,
            team0_name=first.name,
            team1_name=second.name,
            first_dealer=match_file.first_dealer,
            version=1,
        )
        set_result(match, result)
        rows = new_deal_rows(match, match_file.deals)
        for row, scored in zip(rows, result.deals, strict=True):
            cache_deal(row, scored, match.team_names)
        # Seats in playing order: team 0 player 1, team 1 player 1, team 0 player 2, ...
        names = [*(first.players or (None, None)), *(second.players or (None, None))]
        built.append((match, rows, (names[0], names[2], names[1], names[3])))
    return _write_imported(built, owner_key=owner_key, owner=owner)


@transaction.atomic
def _write_imported(
    built: list[tuple[Match, list[Deal], tuple[str | None, ...]]],
    *,
    owner_key: str,
    owner: User | None,
) -> list[Match]:
    players: dict[str, Player] = {}

    def seat(name: str | None) -> Player | None:
        if not name:
            return None
        key = " ".join(name.split()).casefold()
        if key not in players:
            players[key] = get_or_create_player(owner_key=owner_key, owner=owner, name=name)
        return players[key]

    seats = [[seat(name) for name in seated] for _match, _rows, seated in built]
    matches = [match for match, _rows, _seated in built]
    Match.objects.bulk_create(matches, batch_size=IMPORT_BATCH)
    seat_players(matches, seats)
    Deal.objects.bulk_create(
        [row for _m, rows, _s in built for row in rows], batch_size=IMPORT_BATCH
    )
    return matches


def new_deal_rows(match: Match, deals: Sequence[EngineDeal]) -> list[Deal]:
    """Unsaved rows for these deals, in order (`rescore` saves them with their scores)."""
    rows = []
    for seq, deal in enumerate(deals, start=1):
        row = Deal(match=match, seq=seq)
        row.set_from_engine(deal)
        rows.append(row)
    return rows


def match_file_for(match: Match, rows: list[Deal] | None = None) -> MatchFile:
    """The match as a match file: its frozen rules, teams, players and every deal's inputs
    (`rows`, its deals in order, when the caller already has them)."""
    if rows is None:
        rows = match.deal_rows()
    teams = []
    for team in (0, 1):
        first, second = match.seats[team], match.seats[team + 2]
        players = (first.name, second.name) if first and second else None
        teams.append(Team(match.team_names[team], players))
    return MatchFile(
        rules=match.engine_rules,
        teams=(teams[0], teams[1]),
        first_dealer=match.first_dealer,
        deals=tuple(d.to_engine() for d in rows),
    )
