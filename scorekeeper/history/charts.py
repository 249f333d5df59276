"""Server-rendered SVG charts: plain coordinates for a template, no chart library, no script."""

from collections.abc import Sequence
from dataclasses import dataclass, field

WIDTH, HEIGHT = 320, 180
PAD_LEFT, PAD_RIGHT, PAD_TOP, PAD_BOTTOM = 36, 8, 10, 22


@dataclass(frozen=True)
class Line:
    css: str  # a class of app.css: the colour of the line
    points: str  # "x,y x,y ..." for <polyline points>
    label: str


@dataclass(frozen=True)
class Tick:
    y: float
    label: str


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    css: str  # a class of app.css: its colour
    label: str  # its tooltip ("2 of 5, 5 Oct 2025")


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: list[Line]
    ticks: list[Tick]
    target_y: float | None
    x_labels: list[tuple[float, str]]
    plot_left: int = PAD_LEFT
    plot_right: int = WIDTH - PAD_RIGHT
    plot_bottom: int = HEIGHT - PAD_BOTTOM
    dots: list[Dot] = field(default_factory=list)  # a marker on each point (the club record's)
    # The first x label starts at the plot's left edge and the last ends at its right one (dates
    # wider than a number: neither runs into the y labels nor off the chart).
    x_labels_inside: bool = False


NICE_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000, 10_000)


def _nice_scale(span: float) -> tuple[int, int]:
    """(top, step): the smallest round step that covers `span` in at most five gridlines."""
    for step in NICE_STEPS:
        count = -(-span // step)
        if count <= 5:
            return int(max(count, 1) * step), step
    step = int(-(-span // 5))
    return step * 5, step


def line_chart(
    series: Sequence[tuple[str, str, Sequence[float]]],
    *,
    target: float | None = None,
    floor: float = 0,
) -> Chart:
    """Series of (css class, label, values), plotted against their index (0 = start)."""
    longest = max((len(values) for _, _, values in series), default=0)
    highest = max([target or 0, *(max(values, default=0) for _, _, values in series), floor + 1])
    span, tick_step = _nice_scale(highest - floor)
    top = floor + span
    span_x = max(longest - 1, 1)
    plot_w = WIDTH - PAD_LEFT - PAD_RIGHT
    plot_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(i: int) -> float:
        return round(PAD_LEFT + plot_w * i / span_x, 1)

    def y(v: float) -> float:
        return round(PAD_TOP + plot_h * (1 - (v - floor) / (top - floor)), 1)

    lines = [
        Line(css, " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values)), label)
        for css, label, values in series
    ]
    ticks = [
        Tick(y(value), str(round(value))) for value in range(int(floor), int(top) + 1, tick_step)
    ]
    step = max(1, span_x // 6)
    x_labels = [(x(i), str(i)) for i in range(0, longest, step)]
    return Chart(WIDTH, HEIGHT, lines, ticks, y(target) if target else None, x_labels)
