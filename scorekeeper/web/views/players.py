"""What the players' pages show: a player's figures as rows, his running totals as a chart, the circle's
standings. Charts are the app's own SVG: no script, the same bytes for the same data, readable at 390 px and
in dark mode (strokes in currentColor)."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from markupsafe import Markup, escape

from ...engine.stats import PlayerStats, Running

LEVELS = ("6", "7", "8", "9", "10")
WIDTH, HEIGHT, PAD = 360, 140, 24


def rows(stats: PlayerStats[str], name_of: Any) -> dict[str, Any]:
    """The stats object (CLUB.md §2) as the page's tables read it: the same numbers as the API's."""
    data = stats.to_json(name_of)
    return {
        "data": data,
        "declarer": [(level, data["declarer"][level]) for level in LEVELS],
        "misere": data["declarer"]["misere"],
    }


def chart(points: Sequence[tuple[object, Fraction | Decimal]], label: str) -> Markup:
    """A running total as a line over the pulkas in date order, with the zero line; empty for no point."""
    if not points:
        return Markup("")
    values = [float(v) for _, v in points]
    low, high = min(0.0, *values), max(0.0, *values)
    span = (high - low) or 1.0
    step = (WIDTH - 2 * PAD) / max(1, len(values) - 1)

    def y(value: float) -> float:
        return round(HEIGHT - PAD - (value - low) / span * (HEIGHT - 2 * PAD), 1)

    line = " ".join(f"{round(PAD + i * step, 1)},{y(v)}" for i, v in enumerate(values))
    last = values[-1]
    return Markup(
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}" '
        f'xmlns="http://www.w3.org/2000/svg">'
        f'<line x1="{PAD}" x2="{WIDTH - PAD}" y1="{y(0)}" y2="{y(0)}" stroke="currentColor" stroke-opacity=".35" '
        f'stroke-dasharray="4 3"/>'
        f'<polyline points="{line}" fill="none" stroke="currentColor" stroke-width="2"/>'
        f'<text x="{WIDTH - PAD}" y="{max(12.0, y(last) - 6)}" text-anchor="end" font-size="12" '
        f'fill="currentColor">{escape(_short(last))}</text></svg>')


def charts(running: Running) -> list[tuple[str, Markup]]:
    """One chart per preset (whists) and per currency (money): never summed across them."""
    found = [(preset, chart(points, preset)) for preset, points in sorted(running.net.items())]
    return found + [(currency or "¤", chart(points, currency)) for currency, points in sorted(running.money.items())]


def _short(value: float) -> str:
    return f"{value:+.2f}".rstrip("0").rstrip(".")
