"""A record's places over time as a server-drawn SVG chart (the review page's way: plain
coordinates for `templates/history/chart.html`, no library, no script), and the same in words
for a screen reader.

The place is drawn upside down from the points of a running total: 1st at the top, the largest
field at the bottom, one point per concours in date order; a second, lighter line shows how many
entrants each concours had (the bottom of the possible), so a 5th of 60 reads better than a 5th
of 6."""

from collections.abc import Sequence

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scorekeeper.concours.seasons import ConcoursResult
from scorekeeper.history.charts import (
    HEIGHT,
    PAD_BOTTOM,
    PAD_LEFT,
    PAD_RIGHT,
    PAD_TOP,
    WIDTH,
    Chart,
    Line,
    Tick,
)

STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500)


def places_chart(results: Sequence[ConcoursResult]) -> Chart:
    """Place after place (1 at the top) and each concours's field, against the concours's rank
    in the list (1, 2, ...)."""
    bottom = max([2, *(r.field for r in results)])
    step = next((s for s in STEPS if (bottom - 1) / s <= 5), STEPS[-1])
    span_x = max(len(results) - 1, 1)
    plot_w = WIDTH - PAD_LEFT - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(i: int) -> float:
        return round(PAD_LEFT + plot_w * i / span_x, 1) if len(results) > 1 else WIDTH / 2

    def y(place: int) -> float:
        return round(PAD_TOP + plot_h * (place - 1) / (bottom - 1), 1)

    places = " ".join(f"{x(i)},{y(r.place)}" for i, r in enumerate(results))
    fields = " ".join(f"{x(i)},{y(r.field)}" for i, r in enumerate(results))
    lines = [Line("t1 club-field", fields, _("Entrants")), Line("t0", places, _("Place"))]
    values = [1, *range(step if step > 1 else 2, bottom + 1, step)]
    ticks = [Tick(y(v), str(v)) for v in values]
    every = max(1, span_x // 6)
    x_labels = [(x(i), str(i + 1)) for i in range(0, len(results), every)]
    return Chart(WIDTH, HEIGHT, lines, ticks, None, x_labels)


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
