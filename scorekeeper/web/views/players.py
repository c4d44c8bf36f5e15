"""What the players' pages show: a player's figures as rows, his running totals as a chart, the circle's
standings. Charts are the app's own SVG: no script, the same bytes for the same data, readable at 390 px and
in dark mode (strokes in currentColor)."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from markupsafe import Markup, escape

from ...engine import Chart, DealLine, Filter, PlayerStats, PulkaLine, Record, Running
from ...engine.settlement import round_half_away
from ...files.statsfile import stats_json
from ..domain.pulkas import Pulka
from .csvfile import CsvWriter, drained

LEVELS = ("6", "7", "8", "9", "10")
WIDTH, HEIGHT, PAD = 360, 140, 24


def rows(stats: PlayerStats[str], name_of: Any) -> dict[str, Any]:
    """The stats object (docs/club.md §2) as the page's tables read it: the same numbers as the API's."""
    data = stats_json(stats, name_of)
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


def pair_charts(pair: Mapping[str, Chart]) -> list[tuple[str, Markup]]:
    """What a player won from one other, running, one chart per preset."""
    return [(preset, chart(points, preset)) for preset, points in sorted(pair.items())]


CSV_HEAD = ["date", "pulka", "title", "player", "seat", "players", "preset", "currency", "finished", "deals",
            "whists", "whists_exact", "money"]


def csv_rows(lines: Iterable[PulkaLine[str]], name_of: Callable[[str], str], titles: Mapping[str, str]
             ) -> Iterator[str]:
    """One row per pulka × player (docs/club.md §1's filters already applied): his balance exact (a fraction) and
    rounded as the stats object rounds it, his money in cents, the others of the table by name."""
    out = io.StringIO()
    writer = CsvWriter(out)
    writer.writerow(CSV_HEAD)
    for line in lines:
        r = line.record
        writer.writerow([str(r.started), r.pulka, titles.get(r.pulka, ""), name_of(r.players[line.seat]),
                         line.seat + 1, " · ".join(name_of(p) for p in r.players), r.preset, r.currency,
                         int(r.finished), line.deals, round_half_away(line.net), line.net, line.money])
        yield drained(out)
    yield drained(out)


def every_seat(records: Iterable[Record[str]], filter: Filter[str]) -> list[PulkaLine[str]]:
    """The circle's counted pulkas, the latest first, each with a line for every seat."""
    counted = sorted((r for r in records if filter.admits(r)), key=lambda r: r.started, reverse=True)
    return [PulkaLine(r, seat) for r in counted for seat in range(len(r.players))]


DEALS_HEAD = ["date", "pulka", "title", "deal", "player", "role", "deal_type", "contract", "tricks", "moved",
              "moved_exact"]


def deal_csv(found: Iterable[tuple[PulkaLine[str], Pulka, Sequence[DealLine]]], name_of: Callable[[str], str]
             ) -> Iterator[str]:
    """One row per deal × player: his role, what the deal was, his tricks, and the whists it moved his balance
    by (rounded as the stats object rounds, and exact); a pulka's rows add up to his balance in it."""
    out = io.StringIO()
    writer = CsvWriter(out)
    writer.writerow(DEALS_HEAD)
    for line, pulka, deals in found:
        for d in deals:
            deal = pulka.deals[d.number - 1]
            tricks = (deal.tricks or {}).get(d.seat, "")
            writer.writerow([str(line.record.started), pulka.uid, pulka.name, d.number,
                             name_of(line.record.players[d.seat]), d.role.value, deal.type.value, deal.contract or "",
                             tricks, round_half_away(d.moved), d.moved])
            yield drained(out)
    yield drained(out)
