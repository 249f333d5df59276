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
- Round robin (§7): the round of the circle-method schedule (`round_robin.py`), a team withdrawn
  before it leaving its opponent on a bye.
- The final bracket (§7), once every qualifying round is finished: its next round
  (`bracket.py`).
Tables are numbered by the best-placed entrant (Swiss) or in draw order (round 1, random,
mêlée)."""

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from . import round_robin
from .bracket import bracket_state
from .byes import bye_count, choose_byes
from .errors import TournamentError
from .matching import min_cost_pairs
from .random_source import DrawRandom
from .settings import Stage
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
    stage: Stage | None = None  # a round of the final bracket (§7)

    def as_round(self) -> Round:
        if self.stage is not None:
            return Round(self.tables, written=("stage", "tables"), stage=self.stage)
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


def _last_round_finished(tournament: Tournament, results: Sequence[RoundResult]) -> None:
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


def _check_can_draw(
    tournament: Tournament, results: Sequence[RoundResult], withdrawn: Sequence[int]
) -> None:
    settings = tournament.settings
    if len(tournament.rounds) >= settings.rounds:
        raise TournamentError("rounds", "all_rounds_drawn", rounds=settings.rounds)
    _last_round_finished(tournament, results)
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
    if settings.final is not None and len(tournament.rounds) >= settings.rounds:
        return _draw_bracket(tournament, results, withdrawn)
    _check_can_draw(tournament, results, withdrawn)
    number = len(tournament.rounds) + 1
    if settings.pairing == "round_robin":
        return _draw_round_robin(tournament, number, withdrawn)
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
    rematches, rematch_tables = _rematches(tables, history, settings.melee)
    return Draw(number, tables, tuple(byes), tuple(withdrawn), rematches, rematch_tables)


def _rematches(
    tables: Sequence[Table], history: History, melee: bool
) -> tuple[int, tuple[int, ...]]:
    rematch_tables, rematches = [], 0
    for table in tables:
        found = sum(history.partnered(*side) for side in table.sides if len(side) == 2)
        if melee:
            found += history.meeting_again(*table.sides)
        else:
            found += history.met(table.sides[0][0], table.sides[1][0])
        if found:
            rematch_tables.append(table.number)
            rematches += found
    return rematches, tuple(rematch_tables)


def _draw_round_robin(tournament: Tournament, number: int, withdrawn: Sequence[int]) -> Draw:
    """§7: round `number` of the circle-method schedule."""
    teams = round_robin.entered(tournament)
    most = round_robin.max_rounds(len(teams))
    if tournament.settings.rounds > most:
        raise TournamentError(
            "settings.rounds", "round_robin_rounds", max=max(most, 0), teams=len(teams)
        )
    schedule = round_robin.schedule_round(
        teams, number, round_robin.gone_before(tournament, number, withdrawn)
    )
    if not schedule.pairs:
        active = len(tournament.active(number, tuple(withdrawn)))
        raise TournamentError("entrants", "too_few_entrants", active=active, needed=2)
    tables = tuple(
        Table(i, ((a,), (b,)), written=("table", "sides"))
        for i, (a, b) in enumerate(schedule.pairs, 1)
    )
    rematches, rematch_tables = _rematches(tables, History(tournament), melee=False)
    return Draw(number, tables, schedule.byes, tuple(withdrawn), rematches, rematch_tables)


def _draw_bracket(
    tournament: Tournament, results: Sequence[RoundResult], withdrawn: Sequence[int]
) -> Draw:
    """§7: the next round of the final bracket, once every qualifying round and the bracket's
    previous round are finished."""
    final = tournament.settings.final
    assert final is not None
    if withdrawn:
        raise TournamentError("withdrawn[0]", "not_in_bracket")
    _last_round_finished(tournament, results)
    state = bracket_state(tournament, results)
    assert state is not None
    if state.short is not None:
        raise TournamentError(
            "settings.final.size", "too_few_for_final", size=final.size, active=state.short
        )
    if state.next is None:
        raise TournamentError("rounds", "bracket_complete", max=len(tournament.rounds))
    planned = state.rounds[state.next]
    tables = []
    for table in planned.tables:
        a, b = table.sides
        assert a is not None and b is not None
        tables.append(Table(table.number, ((a,), (b,)), written=("table", "sides")))
    return Draw(len(tournament.rounds) + 1, tuple(tables), (), (), 0, (), planned.stage)


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
