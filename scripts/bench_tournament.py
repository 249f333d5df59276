"""Timings of the tournament engine against the targets of issue 14: pairing 150 teams after 5
rounds (< 1 s), a mêlée round of 300 players (< 2 s), the standings of 150 teams × 6 rounds
(< 50 ms). Each figure is the median of several runs.

    .venv/bin/python scripts/bench_tournament.py [--runs 7]

The concours are played by scripts/simulate_tournament.py (random paper totals; the standings
also with every table scored from 12 random deals by the scoring engine). The exit code is 0
whatever the figures: this is a benchmark, not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bench_report import print_table
from simulate_tournament import new_concours, play

from scorekeeper.engine.tournament import (
    Tournament,
    append_round,
    draw_round,
    round_results,
    standings,
)


def played(entrants: int, rounds: int, *, melee: bool = False, deals: bool = False) -> Tournament:
    """A concours with `rounds` rounds drawn and played (one more planned)."""
    rnd = random.Random(1)
    tournament = new_concours(entrants, rounds + 1, melee=melee, seed=2026, pairing="swiss")
    for _ in range(rounds):
        tournament = append_round(tournament, play(draw_round(tournament), rnd, deals=deals))
    return tournament


def median_ms(runs: int, action: Callable[[], object]) -> tuple[float, float]:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples), max(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    runs = parser.parse_args().runs
    rows = []

    swiss = played(150, 5)
    median, worst = median_ms(runs, lambda: draw_round(swiss))
    rows.append(["pair round 6, 150 teams (Swiss)", f"{median:.0f}", f"{worst:.0f}", "1000"])

    for rounds in (0, 5):
        melee = played(300, rounds, melee=True)
        median, worst = median_ms(runs, lambda: draw_round(melee))  # noqa: B023 (used at once)
        label = f"mêlée round {rounds + 1}, 300 players"
        rows.append([label, f"{median:.0f}", f"{worst:.0f}", "2000"])

    six = played(150, 6)
    median, worst = median_ms(runs * 3, lambda: standings(six))
    rows.append(["standings, 150 teams × 6 rounds (totals)", f"{median:.1f}", f"{worst:.1f}", "50"])
    with_deals = played(150, 6, deals=True)
    median, worst = median_ms(runs, lambda: standings(with_deals))
    rows.append(["  same, every table from 12 deals", f"{median:.1f}", f"{worst:.1f}", "-"])
    results = round_results(with_deals)
    median, worst = median_ms(runs * 3, lambda: standings(with_deals, results))
    rows.append(["  same, table results already known", f"{median:.1f}", f"{worst:.1f}", "-"])

    print_table(["measure", "median ms", "max ms", "target ms"], rows, right={1, 2, 3})


if __name__ == "__main__":
    main()
