"""Drawing the next round (docs/tournaments.md §5): byes (§4), then tables.

- Round 1, and every round of `random` pairing: a random order of the active entrants (in id
  order, shuffled by `DrawRandom(seed, round)`), paired first with second, third with fourth...;
  in round 1 the last ones of the order sit out. In later `random` rounds the byes are drawn first,
  then the order is redrawn (up to `ATTEMPTS` times) until it has no rematch; if none of those has
  none, the pairs come from a minimum-cost matching on the last order (fewest rematches, then
  pairs close in that order), so a rematch happens only when no pairing avoids it.
- Swiss from round 2: the bye aside, the others in standing order, paired by a minimum-cost
  perfect matching: fewest rematches, then the smallest sum of squared position gaps.
- Mêlée, every round: the byes, partners from a random order (no repeated partner when avoidable),
  then the sides paired at random (as few players meeting an opponent again as possible).
Tables are numbered by the best-placed entrant (Swiss) or in draw order (round 1, random,
mêlée)."""

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .byes import bye_count, choose_byes
from .errors import TournamentError
from .matching import min_cost_pairs
from .random_source import DrawRandom
from .standings import RoundResult, round_results, standings
from .tournament import Round, Side, Table, Tournament

ATTEMPTS = 30  # random orders tried before the matching decides
MELEE_ATTEMPTS = 8  # partner drawings tried in mêlée for sides that meet no one again


@dataclass(frozen=True, slots=True)
class Draw:
    round: int  # 1-based
    tables: tuple[Table, ...]
    byes: tuple[int, ...]
    withdrawn: tuple[int, ...]
    rematches: int  # teams: tables of two teams that met before; mêlée: repeated partners plus
    # players meeting an opponent again
    rematch_tables: tuple[int, ...]  # the numbers of the tables holding them

    def as_round(self) -> Round:
        return Round(self.tables, self.byes, self.withdrawn, ("tables", "byes", "withdrawn"))


class History:
    """Who met whom (opponents, partners) and who had a bye, over the rounds of the file."""

    def __init__(self, tournament: Tournament) -> None:
        self.opponents: dict[int, set[int]] = defaultdict(set)
        self.partners: dict[int, set[int]] = defaultdict(set)
        self.had_bye: set[int] = set()
        for round_ in tournament.rounds:
            self.had_bye.update(round_.byes)
            for table in round_.tables:
                for mine in table.sides[0]:
                    for theirs in table.sides[1]:
                        self.opponents[mine].add(theirs)
                        self.opponents[theirs].add(mine)
                for side in table.sides:
                    if len(side) == 2:
                        self.partners[side[0]].add(side[1])
                        self.partners[side[1]].add(side[0])

    def met(self, a: int, b: int) -> bool:
        return b in self.opponents.get(a, ())

    def partnered(self, a: int, b: int) -> bool:
        return b in self.partners.get(a, ())

    def meeting_again(self, side_a: Side, side_b: Side) -> int:
        """Players of the two sides who meet an opponent they met before."""
        opponents = self.opponents
        count = 0
        for mine, theirs in ((side_a, side_b), (side_b, side_a)):
            for player in mine:
                met = opponents.get(player)
                if met and (theirs[0] in met or theirs[-1] in met):
                    count += 1
        return count


def _random_pairs[T](
    items: Sequence[T], rng: DrawRandom, penalty: Callable[[T, T], int]
) -> tuple[list[tuple[T, T]], int]:
    """Pairs of `items` from a random order, redrawn until no pair has a penalty; after
    `ATTEMPTS` orders, the fewest penalties by matching on the last order. With the total
    penalty of the pairs."""
    order: list[T] = list(items)
    for _ in range(ATTEMPTS):
        order = rng.shuffle(items)
        pairs = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
        if not any(penalty(a, b) for a, b in pairs):
            return pairs, 0
    matched = min_cost_pairs(len(order), lambda a, b: penalty(order[a], order[b]))
    pairs = [(order[a], order[b]) for a, b in matched]
    return pairs, sum(penalty(a, b) for a, b in pairs)


def _check_can_draw(
    tournament: Tournament, results: Sequence[RoundResult], withdrawn: Sequence[int]
) -> None:
    settings = tournament.settings
    if len(tournament.rounds) >= settings.rounds:
        raise TournamentError("rounds", "all_rounds_drawn", rounds=settings.rounds)
    if results:
        for t, result in enumerate(results[-1].tables):
            if not result.finished:
                last = len(results) - 1
                raise TournamentError(
                    f"rounds[{last}].tables[{t}]",
                    "round_not_finished",
                    round=last + 1,
                    table=tournament.rounds[last].tables[t].number,
                )
    known = {entrant.id for entrant in tournament.entrants}
    gone = tournament.withdrawal_round()
    for index, entrant_id in enumerate(withdrawn):
        path = f"withdrawn[{index}]"
        if entrant_id not in known:
            raise TournamentError(path, "unknown_entrant", id=entrant_id)
        if entrant_id in gone or entrant_id in withdrawn[:index]:
            first = (
                f"rounds[{gone[entrant_id] - 1}].withdrawn"
                if entrant_id in gone
                else f"withdrawn[{withdrawn.index(entrant_id)}]"
            )
            raise TournamentError(path, "already_withdrawn", id=entrant_id, first=first)


def draw_round(
    tournament: Tournament,
    *,
    withdrawn: Sequence[int] = (),
    results: Sequence[RoundResult] | None = None,
) -> Draw:
    """The draw of the round after the file's last one, `withdrawn` leaving before it.
    TournamentError when it cannot be drawn: every round drawn, a table of the last round not
    finished, an unknown or already withdrawn entrant, fewer than one table of active entrants."""
    settings = tournament.settings
    if results is None:
        results = round_results(tournament)
    _check_can_draw(tournament, results, withdrawn)
    number = len(tournament.rounds) + 1
    active = tournament.active(number, tuple(withdrawn))
    needed = 4 if settings.melee else 2
    if len(active) < needed:
        raise TournamentError("entrants", "too_few_entrants", active=len(active), needed=needed)
    history = History(tournament)
    rng = DrawRandom(settings.seed, number)
    count = bye_count(settings, len(active))
    sides: list[tuple[Side, Side]]
    if settings.melee:
        sides, byes = _melee(active, count, number, history, rng)
    elif number == 1 or settings.pairing == "random":
        sides, byes = _random_teams(active, count, number, history, rng)
    else:
        order = [row.id for row in standings(tournament, results) if row.id in set(active)]
        byes = choose_byes(count, order, history.had_bye)
        rest = [entrant for entrant in order if entrant not in byes]
        pairs = min_cost_pairs(len(rest), lambda a, b: int(history.met(rest[a], rest[b])))
        sides = [((rest[a],), (rest[b],)) for a, b in pairs]  # best-placed first
    tables = tuple(Table(i, pair, written=("table", "sides")) for i, pair in enumerate(sides, 1))
    rematch_tables, rematches = [], 0
    for table in tables:
        found = sum(history.partnered(*side) for side in table.sides if len(side) == 2)
        if settings.melee:
            found += history.meeting_again(*table.sides)
        else:
            found += history.met(table.sides[0][0], table.sides[1][0])
        if found:
            rematch_tables.append(table.number)
            rematches += found
    return Draw(number, tables, tuple(byes), tuple(withdrawn), rematches, tuple(rematch_tables))


def _random_teams(
    active: list[int], count: int, number: int, history: History, rng: DrawRandom
) -> tuple[list[tuple[Side, Side]], list[int]]:
    if number == 1:
        order = rng.shuffle(active)
        byes, rest = order[len(order) - count :], order[: len(order) - count]
        pairs = [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
    else:
        byes = choose_byes(count, active, history.had_bye, rng)
        rest = [entrant for entrant in active if entrant not in byes]
        pairs, _ = _random_pairs(rest, rng, lambda a, b: int(history.met(a, b)))
    return [((a,), (b,)) for a, b in pairs], byes


def _melee(
    active: list[int], count: int, number: int, history: History, rng: DrawRandom
) -> tuple[list[tuple[Side, Side]], list[int]]:
    """Partners without a repeat when avoidable, then sides paired with as few players meeting an
    opponent again as possible; when that is not none, other partner drawings (as free of
    repeats) are tried, up to `MELEE_ATTEMPTS`, and the best kept."""
    if number == 1:
        order = rng.shuffle(active)
        byes, players = order[len(order) - count :], order[: len(order) - count]
    else:
        byes = choose_byes(count, active, history.had_bye, rng)
        players = [player for player in active if player not in byes]
    best: tuple[tuple[int, int], list[tuple[Side, Side]]] | None = None
    for _ in range(MELEE_ATTEMPTS):
        if number == 1 and best is None:
            partners = [(players[i], players[i + 1]) for i in range(0, len(players), 2)]
            repeated = 0
        else:
            partners, repeated = _random_pairs(
                players, rng, lambda a, b: int(history.partnered(a, b))
            )
        pairs, again = _random_pairs(partners, rng, history.meeting_again)
        if best is None or (repeated, again) < best[0]:
            best = ((repeated, again), [(a, b) for a, b in pairs])
        if not again or repeated:  # no better partners to find by drawing again
            break
    assert best is not None
    return best[1], byes
