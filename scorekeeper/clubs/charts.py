"""A record's places over time as a server-drawn SVG chart (the review page's way: plain
coordinates for `templates/history/chart.html`, no library, no script), and the same in words
for a screen reader.

The place is drawn upside down from the points of a running total: 1st at the top, the largest
field a little above the bottom axis (so that its line is not read as the axis), one dot per
concours in date order, the x axis labelled with dates (month and year); a second, lighter line
shows how many entrants each concours had (the bottom of the possible), so a 5th of 60 reads
better than a 5th of 6."""

from collections.abc import Sequence

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.engine.season import ConcoursResult
from scorekeeper.history.charts import (
    HEIGHT,
    PAD_BOTTOM,
    PAD_LEFT,
    PAD_RIGHT,
    PAD_TOP,
    WIDTH,
    Chart,
    Dot,
    Line,
    Tick,
)

STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500)
BELOW = 0.15  # room under the largest field, a share of the places' span
MAX_X_LABELS = 3  # the first, the middle, the last: "Sept. 2025" is about 55 of 320 units wide
MONTH = "N Y"  # "Oct. 2025", "oct. 2025": Django's localised month abbreviation


def places_chart(results: Sequence[ConcoursResult]) -> Chart:
    """Place after place (1 at the top, a dot each) and each concours's field, evenly spaced in
    date order; x labels: the first and last concours's month, and the middle one's."""
    bottom = max([2, *(r.field for r in results)])
    step = next((s for s in STEPS if (bottom - 1) / s <= 5), STEPS[-1])
    count = len(results)
    span_x = max(count - 1, 1)
    plot_w = WIDTH - PAD_LEFT - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM
    span_y = (bottom - 1) * (1 + BELOW)

    def x(i: int) -> float:
        return round(PAD_LEFT + plot_w * i / span_x, 1) if count > 1 else WIDTH / 2

    def y(place: int) -> float:
        return round(PAD_TOP + plot_h * (place - 1) / span_y, 1)

    places = " ".join(f"{x(i)},{y(r.place)}" for i, r in enumerate(results))
    fields = " ".join(f"{x(i)},{y(r.field)}" for i, r in enumerate(results))
    lines = [Line("t1 club-field", fields, _("Entrants")), Line("t0", places, _("Place"))]
    dots = [
        Dot(
            x(i),
            y(r.place),
            "t0",
            _("%(place)s of %(field)s, %(date)s")
            % {"place": r.place, "field": r.field, "date": date_format(r.date, "DATE_FORMAT")},
        )
        for i, r in enumerate(results)
    ]
    values = [1, *range(step if step > 1 else 2, bottom + 1, step)]
    ticks = [Tick(y(v), str(v)) for v in values]
    shown = min(count, MAX_X_LABELS)
    indexes = sorted({round(k * (count - 1) / max(shown - 1, 1)) for k in range(shown)})
    x_labels = [(x(i), date_format(results[i].date, MONTH)) for i in indexes]
    return Chart(WIDTH, HEIGHT, lines, ticks, None, x_labels, dots=dots, x_labels_inside=count > 1)


def places_text(results: Sequence[ConcoursResult]) -> str:
    """The chart in words: how many concours, from when to when, the best and worst places."""
    if not results:
        return _("No concours yet.")
    first, last = results[0], results[-1]
    best = min(r.place for r in results)
    worst = max(r.place for r in results)
    count = len(results)
    text = ngettext(
        "%(count)s concours, on %(first)s.",
        "%(count)s concours, from %(first)s to %(last)s.",
        count,
    ) % {
        "count": count,
        "first": date_format(first.date, "DATE_FORMAT"),
        "last": date_format(last.date, "DATE_FORMAT"),
    }
    places = ", ".join(
        _("%(place)s of %(field)s") % {"place": r.place, "field": r.field} for r in results
    )
    summary = _("Best place %(best)s, worst %(worst)s. Places in order: %(places)s.") % {
        "best": best,
        "worst": worst,
        "places": places,
    }
    return f"{text} {summary}"
