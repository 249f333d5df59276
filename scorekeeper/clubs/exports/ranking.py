"""A season's ranking as CSV (the public season page's download), a line a row."""

from __future__ import annotations

import csv
from collections.abc import Iterator, Sequence

from scorekeeper.web.spreadsheet import Echo, safe_cell

from ..public_selectors import SeasonPage


def season_csv(page: SeasonPage, header: Sequence[str]) -> Iterator[str]:
    """The season's ranking, a line a row: rank, name, score, results counted, concours won,
    best place, played, podiums, average place (`header`: the column names in the page's
    language)."""
    writer = csv.writer(Echo())
    yield writer.writerow([safe_cell(str(name)) for name in header])
    for row in page.rows:
        yield writer.writerow(
            [
                safe_cell(value)
                for value in (
                    row.rank,
                    row.name,
                    row.score,
                    len(row.counted),
                    row.won,
                    row.best_place,
                    row.played,
                    row.podiums,
                    f"{row.average_place:.2f}",
                )
            ]
        )
