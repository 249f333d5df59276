"""Plays a whole concours through the tournament engine with random results, and reports how the
draws behaved.

    .venv/bin/python scripts/simulate_tournament.py --teams 40 --rounds 5 [--melee] [--seed 1]
        [--pairing swiss|random] [--deals]

Every round is drawn by `draw_round` (as `pair_round` does), then each table gets a random result:
paper totals (a classic belote partie of 12 deals: 1,944 card points shared, plus belotes), or
with --deals twelve random deals scored by the scoring engine. Prints, round by round, the time
of the draw and its rematches; then the rematches in all, the byes per entrant, the spread of the
position gaps (how far apart in the standings the entrants of a table were when drawn), the time
per draw, and the top of the final standings. With --melee, --teams is the number of players.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from dataclasses import replace

from scorekeeper.engine.scoring import Deal, parse_deal, rules_from_dict
from scorekeeper.engine.tournament import (
    Draw,
    Entrant,
    Settings,
    Table,
    Tournament,
    append_round,
    draw_round,
    standings,
)

PARTIE = rules_from_dict({"preset": "belote", "deals_limit": 12, "target": None})
SUITS = ["spades", "hearts", "diamonds", "clubs"]


def new_concours(entrants: int, rounds: int, *, melee: bool, seed: int, pairing: str) -> Tournament:
    settings = Settings(
        seed=seed,
        mode="melee" if melee else "teams",
        rounds=rounds,
        partie=PARTIE,
        pairing="random" if pairing == "random" else "swiss",
    )
    people = tuple(
        Entrant(i, f"Player {i}") if melee else Entrant(i, f"Team {i}", (f"A{i}", f"B{i}"))
        for i in range(1, entrants + 1)
    )
    return Tournament(settings, people, name="Simulated concours")


def random_deals(rnd: random.Random) -> tuple[Deal, ...]:
    deals = []
    for _ in range(12):
        item: dict[str, object] = {
            "taker": rnd.randint(0, 1),
            "trump": rnd.choice(SUITS),
            "taker_points": rnd.randint(40, 162),
        }
        if rnd.random() < 0.3:
            item["belote"] = rnd.choice([[1, 0], [0, 1]])
        deals.append(parse_deal(item))
    return tuple(deals)


def random_totals(rnd: random.Random) -> tuple[int, int]:
    share = rnd.randint(500, 1444)
    belotes = 20 * rnd.randint(0, 4)
    return share + belotes, 1944 - share


def play(draw: Draw, rnd: random.Random, *, deals: bool) -> Draw:
    """The drawn round with a result at every table."""
    tables: list[Table] = []
    for table in draw.tables:
        if deals:
            tables.append(replace(table, deals=random_deals(rnd)))
        else:
            tables.append(replace(table, totals=random_totals(rnd)))
    return replace(draw, tables=tuple(tables))


def gaps(tournament: Tournament, draw: Draw) -> list[float]:
    """How far apart in the standings (before the draw) the two sides of each table were."""
    position = {row.id: i for i, row in enumerate(standings(tournament))}
    out = []
    for table in draw.tables:
        a, b = (statistics.mean(position[e] for e in side) for side in table.sides)
        out.append(abs(a - b))
    return out


def simulate(
    entrants: int, rounds: int, *, melee: bool, seed: int, pairing: str, deals: bool, quiet: bool
) -> tuple[Tournament, list[float]]:
    rnd = random.Random(seed)
    tournament = new_concours(entrants, rounds, melee=melee, seed=seed, pairing=pairing)
    times: list[float] = []
    all_gaps: list[float] = []
    rematches = 0
    for _ in range(rounds):
        start = time.perf_counter()
        draw = draw_round(tournament)
        times.append(time.perf_counter() - start)
        round_gaps = gaps(tournament, draw)
        if draw.round > 1:
            all_gaps.extend(round_gaps)
        rematches += draw.rematches
        if not quiet:
            print(
                f"round {draw.round}: {len(draw.tables)} tables, {len(draw.byes)} byes, "
                f"{draw.rematches} rematches, draw {times[-1] * 1000:.1f} ms, "
                f"mean gap {statistics.mean(round_gaps) if round_gaps else 0:.2f}"
            )
        tournament = append_round(tournament, play(draw, rnd, deals=deals))
    if not quiet:
        report(tournament, times, all_gaps, rematches)
    return tournament, times


def report(
    tournament: Tournament, times: list[float], all_gaps: list[float], rematches: int
) -> None:
    byes = Counter(e for r in tournament.rounds for e in r.byes)
    per_entrant = Counter(byes.get(e.id, 0) for e in tournament.entrants)
    print(f"\nrematches in all: {rematches}")
    print(
        "byes per entrant: " + ", ".join(f"{n} bye(s): {c}" for n, c in sorted(per_entrant.items()))
    )
    if all_gaps:
        ordered = sorted(all_gaps)
        print(
            "position gaps from round 2: "
            f"min {ordered[0]:.1f}, median {statistics.median(ordered):.1f}, "
            f"90% {ordered[int(0.9 * (len(ordered) - 1))]:.1f}, max {ordered[-1]:.1f}, "
            f"mean {statistics.mean(ordered):.2f}"
        )
    print(
        f"time per draw: median {statistics.median(times) * 1000:.1f} ms, "
        f"max {max(times) * 1000:.1f} ms"
    )
    print("\ntop of the standings:")
    for row in standings(tournament)[:5]:
        print(
            f"  {row.rank:>3}. {row.name:<12} wins {row.wins:<4} points {row.points:>6} "
            f"byes {row.byes}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teams", type=int, required=True, help="teams (players with --melee)")
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--melee", action="store_true", help="players drawn into new pairs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pairing", choices=["swiss", "random"], default="swiss")
    parser.add_argument("--deals", action="store_true", help="tables scored from random deals")
    args = parser.parse_args()
    simulate(
        args.teams, args.rounds, melee=args.melee, seed=args.seed, pairing=args.pairing,
        deals=args.deals, quiet=False,
    )  # fmt: skip


if __name__ == "__main__":
    main()
