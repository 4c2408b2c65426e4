"""Line charts drawn on the server as SVG (the template writes the elements): the net worth of
every player over a game's rounds, and a player's rating over their rated games. No script,
so a chart reads the same without JavaScript and prints."""

from __future__ import annotations

from dataclasses import dataclass, field

WIDTH = 640
HEIGHT = 260
LEFT, RIGHT, TOP, BOTTOM = 108, 14, 14, 34


@dataclass
class Line:
    label: str
    colour: str
    points: str  # "x,y x,y ..." for <polyline points>
    last_x: float = 0
    last_y: float = 0
    dashed: bool = False


@dataclass
class Chart:
    width: int = WIDTH
    height: int = HEIGHT
    lines: list[Line] = field(default_factory=list)
    y_ticks: list[tuple[float, str]] = field(default_factory=list)  # (y, label)
    x_ticks: list[tuple[float, str]] = field(default_factory=list)
    left: int = LEFT
    bottom: float = HEIGHT - BOTTOM
    right: float = WIDTH - RIGHT
    x_label: str = ""
    description: str = ""


def _nice_step(span: float, count: int = 4) -> float:
    raw = span / count if span > 0 else 1
    magnitude = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * magnitude:
            return m * magnitude
    return 10 * magnitude


def line_chart(xs: list[int], series: list[tuple[str, str, list[float]]], *, x_label: str = "",
               y_format=str, description: str = "", floor_zero: bool = True) -> Chart:
    """``series``: (label, colour, one value per x). The y axis starts at 0 unless
    ``floor_zero`` is false (ratings), where it hugs the values."""
    chart = Chart(x_label=x_label, description=description)
    values = [v for _l, _c, vs in series for v in vs]
    if not xs or not values:
        return chart
    lo, hi = min(values), max(values)
    if floor_zero:
        lo = min(0, lo)
    if hi == lo:
        hi, lo = hi + 1, lo - 1 if not floor_zero else lo
    step = _nice_step(hi - lo)
    lo = (lo // step) * step
    hi = -((-hi) // step) * step
    x0, x1 = min(xs), max(xs)
    top, bottom, left, right = TOP, HEIGHT - BOTTOM, LEFT, WIDTH - RIGHT

    def px(x: float) -> float:
        return round(left + (right - left) * ((x - x0) / (x1 - x0) if x1 > x0 else 0.5), 1)

    def py(y: float) -> float:
        return round(bottom - (bottom - top) * (y - lo) / (hi - lo), 1)

    for label, colour, vs in series:
        pts = [(px(x), py(v)) for x, v in zip(xs, vs, strict=True)]
        chart.lines.append(Line(label=label, colour=colour, points=" ".join(f"{x},{y}" for x, y in pts),
                                last_x=pts[-1][0], last_y=pts[-1][1]))
    y = lo
    while y <= hi + step / 1000:
        chart.y_ticks.append((py(y), y_format(int(y) if float(y).is_integer() else y)))
        y += step
    xstep = max(1, int(_nice_step(x1 - x0, 6))) if x1 > x0 else 1
    x = x0
    while x <= x1:
        chart.x_ticks.append((px(x), str(x)))
        x += xstep
    return chart
