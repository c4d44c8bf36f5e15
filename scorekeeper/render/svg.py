"""The classic paper pulya as one SVG string (docs/sheet.md §1).

The geometry is docs/sheet.md's parametric recipe: a rectangle with three spokes
for 3 players, a square with two diagonals for 4. Every sector has a gora,
a pulya and a whist band; text is laid into axis-aligned boxes inscribed in
those bands, so fitting it is plain arithmetic on a box, whatever the angle.

The same string goes into the web page and the PDF, which is why it follows
WeasyPrint's limits: styles in the SVG's own <style>, currentColor, no var(),
dy instead of dominant-baseline (docs/sheet.md §3.3).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol
from html import escape

from ..i18n import translate
from ..engine import Column, Points, Rules, Sheet
from ..resources import STATIC_DIR
from ..i18n.words import Msg
from .text import chain, decimal, points

# Clockwise round the table, so a sector's left neighbour is the next position.
POSITIONS = {3: ("bottom", "left", "right"), 4: ("bottom", "left", "top", "right")}
# "As at the table": each sector reads from its own edge (docs/sheet.md §1.5).
TABLE_ANGLE = {"bottom": 0, "left": 90, "top": 180, "right": -90}
ORIENTATIONS = ("table", "upright")

# Text fitting needs widths without a font engine: these are DejaVu Sans Bold
# advances in em (the bold newest value is the widest case), rounded up; any
# other glyph counts as 1.05 em, wider than all but a few Cyrillic capitals.
# Narrower fallback fonts in a browser only leave more room.
GLYPH_WIDTH = dict.fromkeys("0123456789", 0.70) | {".": 0.38, ",": 0.38, "-": 0.42, "\u2212": 0.84, " ": 0.35}
OTHER_WIDTH = 1.05
LINE_HEIGHT = 1.2
BAND_FONT, SMALLEST_FONT = 16.0, 4.5  # large enough to read on a phone, where the sheet is ~300 px wide
NAME_FONT, SMALLEST_NAME_FONT = 14.0, 6.0
PAD = 3.0  # between a band's lines and its text
MARGIN = 24.0  # outside the frame, for the players' names

# One stylesheet for the sheet wherever it is drawn: embedded in the SVG for the PDF, linked by the pages.
STYLE = (STATIC_DIR / "sheet.css").read_text(encoding="utf-8")


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2

    def inset(self, pad: float) -> Box:
        return Box(self.x0 + pad, self.y0 + pad, self.x1 - pad, self.y1 - pad)

    def frame(self, angle: int) -> tuple[float, float]:
        """Width along the text and height across it, once the text is turned by `angle`."""
        w, h = self.x1 - self.x0, self.y1 - self.y0
        return (h, w) if angle % 180 else (w, h)


@dataclass(frozen=True)
class Sector:
    whists: tuple[Box, ...]  # columns from the owner's left to his right
    pulya: Box
    gora: Box
    name: Box


@dataclass(frozen=True)
class Layout:
    width: float
    height: float
    top: float  # the margin above the frame (none is needed with 3 players)
    centre: tuple[float, float, float]  # cx, cy, r
    lines: tuple[str, ...]  # SVG elements
    sectors: dict[str, Sector]


def _n(x: float) -> str:
    return f"{x:.1f}".removesuffix(".0")


def _line(x1: float, y1: float, x2: float, y2: float, cls: str = "spoke") -> str:
    return f'<line class="{cls}" x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}"/>'


def _spoke(corner: tuple[float, float], cx: float, cy: float, r: float) -> str:
    """A spoke from a corner that stops on the circle."""
    dx, dy = cx - corner[0], cy - corner[1]
    length = math.hypot(dx, dy)
    return _line(*corner, cx - dx * r / length, cy - dy * r / length)


def _three(W: float = 420, H: float = 400) -> Layout:
    """docs/sheet.md §1.3, measured on a paper drawing."""
    a, b, r = 0.125 * W, 0.115 * W, 0.14 * min(W, H)
    cx, cy = W / 2, H / 2

    def diag(x: float) -> float:  # y of the left diagonal at x
        return H - x * (H - cy) / cx

    def diag_x(y: float) -> float:  # x of the left diagonal at y
        return (H - y) * cx / (H - cy)

    ys = diag(a / 2) / 2
    lines = [
        f'<rect class="frame" x="0" y="0" width="{_n(W)}" height="{_n(H)}"/>',
        _line(cx, 0, cx, cy - r),
        _spoke((0, H), cx, cy, r),
        _spoke((W, H), cx, cy, r),
        *(f'<polyline class="boundary" points="{_n(d)},0 {_n(d)},{_n(diag(d))} {_n(W - d)},{_n(diag(d))} '
          f'{_n(W - d)},0"/>' for d in (a, a + b)),
        _line(0, ys, a, ys, "split"),
        _line(W - a, ys, W, ys, "split"),
        _line(cx, diag(a), cx, H, "split"),
    ]
    gora_x = cx - r - PAD  # the side gora boxes stop short of the circle
    gora_y = cy + r + PAD
    sectors = {
        "left": Sector(
            whists=(Box(0, 0, a, ys), Box(0, ys, a, diag(a))),
            pulya=Box(a, 0, a + b, diag(a + b)),
            gora=Box(a + b, 0, gora_x, diag(gora_x)),
            name=Box(-MARGIN, 0, 0, H),
        ),
        "right": Sector(
            whists=(Box(W - a, ys, W, diag(a)), Box(W - a, 0, W, ys)),
            pulya=Box(W - a - b, 0, W - a, diag(a + b)),
            gora=Box(W - gora_x, 0, W - a - b, diag(gora_x)),
            name=Box(W, 0, W + MARGIN, H),
        ),
        "bottom": Sector(
            whists=(Box(a, diag(a), cx, H), Box(cx, diag(a), W - a, H)),
            pulya=Box(a + b, diag(a + b), W - a - b, diag(a)),
            gora=Box(diag_x(gora_y), gora_y, W - diag_x(gora_y), diag(a + b)),
            name=Box(0, H, W, H + MARGIN),
        ),
    }
    return Layout(W, H, 4, (cx, cy, r), tuple(lines), sectors)


def _four(S: float = 400) -> Layout:
    """docs/sheet.md §1.4: the square, its two diagonals and two concentric inset squares."""
    a, b, r = 0.125 * S, 0.115 * S, 0.12 * S
    c = S / 2
    d = a + b
    ts = [a, a / 2 + (S - a) / 3, a / 2 + 2 * (S - a) / 3, S - a]  # column edges along a band
    lines = [
        f'<rect class="frame" x="0" y="0" width="{_n(S)}" height="{_n(S)}"/>',
        *(_spoke(corner, c, c, r) for corner in ((0, 0), (S, 0), (S, S), (0, S))),
        *(f'<rect class="boundary" x="{_n(i)}" y="{_n(i)}" width="{_n(S - 2 * i)}" height="{_n(S - 2 * i)}"/>'
          for i in (a, d)),
    ]
    for t in ts[1:3]:
        lines += [_line(t, S - a, t, S, "split"), _line(t, 0, t, a, "split"),
                  _line(0, t, a, t, "split"), _line(S - a, t, S, t, "split")]
    g = c - r - PAD  # where the gora boxes stop short of the circle
    along = list(zip(ts, ts[1:]))
    sectors = {
        "bottom": Sector(tuple(Box(t0, S - a, t1, S) for t0, t1 in along),
                         Box(d, S - d, S - d, S - a), Box(g, S - g, S - g, S - d), Box(0, S, S, S + MARGIN)),
        "left": Sector(tuple(Box(0, t0, a, t1) for t0, t1 in along),
                       Box(a, d, d, S - d), Box(d, g, g, S - g), Box(-MARGIN, 0, 0, S)),
        "top": Sector(tuple(Box(t0, 0, t1, a) for t0, t1 in reversed(along)),
                      Box(d, a, S - d, d), Box(g, d, S - g, g), Box(0, -MARGIN, S, 0)),
        "right": Sector(tuple(Box(S - a, t0, S, t1) for t0, t1 in reversed(along)),
                        Box(S - d, d, S - a, S - d), Box(S - g, g, S - d, S - g), Box(S, 0, S + MARGIN, S)),
    }
    return Layout(S, S, MARGIN, (c, c, r), tuple(lines), sectors)


# -- fitting text into a box ------------------------------------------------


def text_width(text: str, size: float) -> float:
    return size * sum(GLYPH_WIDTH.get(ch, OTHER_WIDTH) for ch in text)


# Fitting counts widths in hundredths of an em: whole numbers, so a line's width is exactly the sum of its
# pieces' widths, each measured once, however the pieces are then laid out.
UNIT = 100
GLYPH_UNITS = {ch: round(w * UNIT) for ch, w in GLYPH_WIDTH.items()}
OTHER_UNITS = round(OTHER_WIDTH * UNIT)
ELLIPSIS = "…"


def _units(text: str) -> int:
    return sum(GLYPH_UNITS.get(ch, OTHER_UNITS) for ch in text)


def _wrap(pieces: Sequence[str], widths: Sequence[int], width: float, height: float, size: float) -> list[str] | None:
    """Greedy line filling; None when a piece is wider than the line or the lines overflow the height
    (found out as soon as they do: a long text costs no more than what the box holds)."""
    room, most = width * UNIT / size, _most_lines(height, size)
    if most < 1:
        return None
    starts = [0]
    used = 0
    for i, w in enumerate(widths):
        if w > room:
            return None
        if used and used + w > room:
            if len(starts) == most:
                return None
            starts.append(i)
            used = 0
        used += w
    return ["".join(pieces[a:b]) for a, b in zip(starts, [*starts[1:], len(pieces)])]


def _most_lines(height: float, size: float) -> int:
    """How many lines of `size` the height holds: the largest n with n * size * LINE_HEIGHT <= height."""
    n = int(height / (size * LINE_HEIGHT)) + 1
    while n > 0 and n * size * LINE_HEIGHT > height:
        n -= 1
    return n


def _newest(widths: Sequence[int], room: float, most: int, lead: int) -> int:
    """How many of the last pieces fit in `most` lines after a first piece `lead` wide.

    Filled from the newest end, each line as full as it goes: no layout keeps more of them, and the
    first line, which also holds the lead, is the one filled last."""
    if most < 1 or lead > room:
        return 0
    kept, line, used = 0, 1, 0
    for w in reversed(widths):
        while used + w > (room - lead if line == most else room):
            if used == 0 or line == most:  # wider than a whole line, or no line left
                return kept
            line, used = line + 1, 0
        used += w
        kept += 1
    return kept


def _sizes(largest: float, smallest: float) -> list[float]:
    steps = int(round((largest - smallest) / 0.5))
    return [largest - 0.5 * i for i in range(steps + 1)]


def fit(pieces: Sequence[str], width: float, height: float,
        largest: float = BAND_FONT, smallest: float = SMALLEST_FONT) -> tuple[float, list[str], int]:
    """(font size, lines, pieces left out) so that the text fits the box.

    Wrap first, then shrink; only below the smallest legible size do the
    oldest values give way to an ellipsis: the protocol keeps every value.
    """
    widths = [_units(piece) for piece in pieces]
    # Greedy filling makes the fewest lines, and never more in a wider line: what fits at one size fits at
    # every smaller one, so the largest size that fits is found by bisection.
    sizes = _sizes(largest, smallest)
    i = bisect_left(sizes, True, key=lambda size: _wrap(pieces, widths, width, height, size) is not None)
    if i < len(sizes) and (lines := _wrap(pieces, widths, width, height, sizes[i])) is not None:
        return sizes[i], lines, 0
    size, lead = smallest, _units(ELLIPSIS)
    kept = min(_newest(widths, width * UNIT / size, _most_lines(height, size), lead), len(pieces) - 1)
    if kept and (lines := _wrap([ELLIPSIS, *pieces[-kept:]], [lead, *widths[-kept:]], width, height, size)) is not None:
        return size, lines, len(pieces) - kept
    # Even the newest value alone is too wide: shrink it below the floor rather than overflow.
    last = pieces[-1]
    size = min(width / max(text_width(last, 1), 0.1), height / LINE_HEIGHT)
    return size, [last], len(pieces) - 1


def _chain_pieces(values: Sequence[Points]) -> list[str]:
    """"2.6.10" as pieces that may break after each dot."""
    texts = [points(v) for v in values]
    return [t + "." for t in texts[:-1]] + texts[-1:]


def _text_block(box: Box, angle: int, pieces: Sequence[str], cls: str, attrs: str, *,
                largest: float, smallest: float, bold_last: bool) -> str:
    """A group of centred lines, turned by `angle` about the box's centre."""
    inner = box.inset(PAD)
    width, height = inner.frame(angle)
    size, lines, dropped = fit(pieces, width, height, largest, smallest)
    cx, cy = inner.centre
    turn = f' transform="rotate({angle} {_n(cx)} {_n(cy)})"' if angle else ""
    elided = f' data-elided="{dropped}"' if dropped else ""
    out = [f'<g class="{cls}" {attrs} data-box="{_n(box.x0)} {_n(box.y0)} {_n(box.x1)} {_n(box.y1)}"'
           f'{elided}{turn}>']
    for i, line in enumerate(lines):
        y = cy + (i - (len(lines) - 1) / 2) * size * LINE_HEIGHT
        line = line.rstrip()
        body = escape(line)
        if bold_last and i == len(lines) - 1:
            newest = pieces[-1]
            body = f'{escape(line[: len(line) - len(newest)])}<tspan class="new">{escape(newest)}</tspan>'
        out.append(f'<text x="{_n(cx)}" y="{_n(y)}" dy="0.35em" text-anchor="middle" '
                   f'font-size="{size:g}">{body}</text>')
        if angle:
            new = len(pieces[-1]) if bold_last and i == len(lines) - 1 else 0
            out += _marks(line, new, cx, y + 0.35 * size, size)
    out.append("</g>")
    return "".join(out)


# The sheet font's advances (DejaVu Sans, regular and bold), in em: where each character of a line falls.
ADVANCE = (dict.fromkeys("0123456789", 0.6362) | {".": 0.3179, ",": 0.3179, "\u2212": 0.8379, " ": 0.3179},
           dict.fromkeys("0123456789", 0.6958) | {".": 0.3799, ",": 0.3799, "\u2212": 0.8379, " ": 0.3481})
TURNED = "69"  # turned upside down, a 6 reads as 9: on paper both are underlined


def _marks(line: str, new: int, cx: float, baseline: float, size: float) -> list[str]:
    """A line under each 6 and 9 of a turned line of numbers centred on `cx` (its last `new` characters
    bold). Drawn as lines: WeasyPrint draws no text-decoration in SVG."""
    widths = [ADVANCE[i >= len(line) - new].get(ch, 1.0) * size for i, ch in enumerate(line)]
    x = cx - sum(widths) / 2
    marks = []
    for ch, width in zip(line, widths):
        if ch in TURNED:
            y = baseline + 0.12 * size
            marks.append(_line(x + 0.1 * width, y, x + 0.9 * width, y, "mark"))
        x += width
    return marks


# -- the sheet ----------------------------------------------------------------


class Chained(Protocol):
    """A sheet and the chains of running totals that led to it: a pulka's replay, or a sheet from paper
    (each chain then the one total written on it)."""

    @property
    def sheet(self) -> Sheet: ...

    def chain(self, column: Column, player: int, on: int | None = None) -> list[Points]: ...


def sheet_svg(players: Sequence[str], rules: Rules, drawn: Chained, *, orientation: str = "table",
              currency: str = "", seats: Sequence[str] | None = None, styled: bool = True,
              language: str = "en") -> str:
    """The sheet as an inline <svg> (no XML declaration), sized by its viewBox.

    `orientation` "table" turns each sector's text to face its own edge, as
    the sheet lies in the middle of the table; "upright" keeps every entry
    horizontal for a screen (the side names then read bottom to top).
    `seats` gives each seat's position ("bottom", "left", "top", "right");
    the default seats players clockwise from the bottom. `styled` embeds the
    stylesheet (the PDF); a page links static/sheet.css instead.
    """
    n = len(players)
    if n not in POSITIONS:
        raise ValueError("a pulya sheet is drawn for 3 or 4 players")
    if orientation not in ORIENTATIONS:
        raise ValueError(f"orientation must be one of {ORIENTATIONS}, not {orientation!r}")
    clockwise = POSITIONS[n]
    seats = tuple(seats or clockwise)
    if sorted(seats) != sorted(clockwise):
        raise ValueError(f"seats must place the {n} players on {', '.join(clockwise)}")
    layout = _three() if n == 3 else _four()
    at = {position: seat for seat, position in enumerate(seats)}
    sheet = drawn.sheet

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="pulya-sheet" data-players="{n}" '
        f'data-orientation="{orientation}" viewBox="{_n(-MARGIN)} {_n(-layout.top)} '
        f'{_n(layout.width + 2 * MARGIN)} {_n(layout.height + layout.top + MARGIN)}" role="img" '
        f'aria-label="{escape(_label(players, language))}">',
        f"<style>{STYLE}</style>" if styled else "",
        '<g class="lines">', *layout.lines,
    ]
    cx, cy, r = layout.centre
    parts.append(f'<circle class="frame centre" cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}"/></g>')
    price = decimal(rules.whist_price, language) + (f" {currency}" if currency else "")
    parts.append(
        f'<g class="centre-text" data-pulya-size="{rules.pulya_size}">'
        f'<text class="size" x="{_n(cx)}" y="{_n(cy - r * 0.22)}" dy="0.35em" text-anchor="middle" '
        f'font-size="{_n(r * 0.55)}">{rules.pulya_size}</text>'
        f'<text class="price" x="{_n(cx)}" y="{_n(cy + r * 0.38)}" dy="0.35em" text-anchor="middle" '
        f'font-size="{_n(min(r * 0.3, 1.6 * r / max(text_width(price, 1), 0.1)))}">{escape(price)}</text></g>'
    )

    for seat, name in enumerate(players):
        position = seats[seat]
        sector = layout.sectors[position]
        table_angle = TABLE_ANGLE[position]
        angle = table_angle if orientation == "table" else 0
        name_angle = table_angle if orientation == "table" else -90 if table_angle % 180 else 0
        closed = seat in sheet.closed(rules)
        parts.append(f'<g class="sector" data-seat="{seat}" data-player="{escape(name)}" '
                     f'data-side="{position}" data-closed="{str(closed).lower()}">')
        label = name + (" ✓" if closed else "")
        parts.append(_text_block(sector.name, name_angle, _words(label), "name", "",
                                 largest=NAME_FONT, smallest=SMALLEST_NAME_FONT, bold_last=False))
        for column, box in ((Column.GORA, sector.gora), (Column.PULYA, sector.pulya)):
            parts.append(_band(box, angle, drawn.chain(column, seat), f'data-band="{column}"'))
        k = clockwise.index(position)
        for i, box in enumerate(sector.whists):
            on = at[clockwise[(k + 1 + i) % n]]
            parts.append(_band(box, angle, drawn.chain(Column.WHISTS, seat, on),
                               f'data-band="whists" data-on="{on}" data-against="{escape(players[on])}"'))
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts)


SHEET_LABEL = Msg("Pulya sheet: {players}")


def _label(players: Sequence[str], language: str) -> str:
    """What the drawing is, for a screen reader: «Лист пули: Анна, Борис, Вера»."""
    return translate.writer(players, language)(SHEET_LABEL(players=", ".join(players)))


def _words(text: str) -> list[str]:
    words = text.split(" ")
    return [w + " " for w in words[:-1]] + words[-1:]


def _band(box: Box, angle: int, values: Sequence[Points], attrs: str) -> str:
    attrs = f'{attrs} data-chain="{escape(chain(values))}"'
    if not values:
        return f'<g class="band" {attrs} data-box="{_n(box.x0)} {_n(box.y0)} {_n(box.x1)} {_n(box.y1)}"></g>'
    return _text_block(box, angle, _chain_pieces(values), "band", attrs,
                       largest=BAND_FONT, smallest=SMALLEST_FONT, bold_last=True)
