"""The drawn sheet: structure, which column is against whom, the Sochi totals, escaping, fitting long chains."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from functools import lru_cache

import pytest
from fontTools.ttLib import TTFont

from scorekeeper.engine import Deal, DealType, Rules, replay
from scorekeeper.render import sheet_svg, svg
from scorekeeper.render.pdf import FONTS
from scorekeeper.render.svg import LINE_HEIGHT, PAD, SMALLEST_FONT, fit, text_width
from scorekeeper.render.text import points

NS = {"s": "http://www.w3.org/2000/svg"}


def tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # well-formed XML, or this raises


def draw(pulka, **options) -> ET.Element:
    return tree(sheet_svg(pulka.players, pulka.rules, pulka.replay(), **options))


def sectors(root: ET.Element) -> dict[int, ET.Element]:
    return {int(g.get("data-seat")): g for g in root.iterfind(".//s:g[@class='sector']", NS)}


def bands(sector: ET.Element, band: str) -> list[ET.Element]:
    return sector.findall(f"s:g[@data-band='{band}']", NS)


def chain(sector: ET.Element, band: str, on: int | None = None) -> str:
    for g in bands(sector, band):
        if on is None or g.get("data-on") == str(on):
            return g.get("data-chain")
    raise AssertionError(f"no {band} band on {on}")


def box(g: ET.Element) -> tuple[float, ...]:
    return tuple(map(float, g.get("data-box").split()))


def angle(g: ET.Element) -> int:
    match = re.match(r"rotate\((-?\d+)", g.get("transform", ""))
    return int(match[1]) if match else 0


def shown(g: ET.Element) -> str:
    """The text a band shows, its lines joined."""
    return "".join("".join(t.itertext()) for t in g.iterfind("s:text", NS))


# -- structure ------------------------------------------------------------------


def test_three_players_rectangle_three_spokes_circle(sochi):
    root = draw(sochi)
    lines = root.find("s:g[@class='lines']", NS)
    assert len(lines.findall("s:rect[@class='frame']", NS)) == 1
    assert len(lines.findall("s:line[@class='spoke']", NS)) == 3
    assert len(lines.findall("s:polyline[@class='boundary']", NS)) == 2  # пуля and гора boundaries
    assert len(lines.findall("s:line[@class='split']", NS)) == 3  # one per whist band, 2 columns each
    assert len(lines.findall("s:circle", NS)) == 1
    found = sectors(root)
    assert [found[s].get("data-side") for s in range(3)] == ["bottom", "left", "right"]
    for seat, sector in found.items():
        assert len(bands(sector, "gora")) == len(bands(sector, "pulya")) == 1
        assert sorted(int(g.get("data-on")) for g in bands(sector, "whists")) == sorted({0, 1, 2} - {seat})


def test_three_players_columns_are_nearest_the_opponents_sector(sochi):
    found = sectors(draw(sochi))

    def columns(seat):
        return [(int(g.get("data-on")), box(g)) for g in bands(found[seat], "whists")]

    (l_on, l_box), (r_on, r_box) = columns(0)  # bottom: left half on L, right half on R
    assert (l_on, r_on) == (1, 2) and l_box[0] < r_box[0]
    (up_on, up), (down_on, down) = sorted(columns(1), key=lambda c: c[1][1])  # left sector, top to bottom
    assert (up_on, down_on) == (2, 0)  # upper half on R, lower half on B
    (up_on, up), (down_on, down) = sorted(columns(2), key=lambda c: c[1][1])
    assert (up_on, down_on) == (1, 0)  # right sector: upper on L, lower on B


def test_four_players_square_two_diagonals(leningrad):
    root = draw(leningrad)
    lines = root.find("s:g[@class='lines']", NS)
    assert len(lines.findall("s:line[@class='spoke']", NS)) == 4  # two diagonals, cut by the circle
    assert len(lines.findall("s:rect[@class='boundary']", NS)) == 2
    assert len(lines.findall("s:line[@class='split']", NS)) == 8  # 3 columns on each of 4 edges
    found = sectors(root)
    assert [found[s].get("data-side") for s in range(4)] == ["bottom", "left", "top", "right"]
    for seat, sector in found.items():
        # From the owner's seat, left to right: left neighbour, opposite, right neighbour.
        assert [int(g.get("data-on")) for g in bands(sector, "whists")] == [(seat + k) % 4 for k in (1, 2, 3)]
    bottom = [box(g)[0] for g in bands(found[0], "whists")]
    assert bottom == sorted(bottom)  # the bottom player reads them left to right
    left = [box(g)[1] for g in bands(found[1], "whists")]
    assert left == sorted(left)  # the left player's left hand is at the top
    top = [box(g)[0] for g in bands(found[2], "whists")]
    assert top == sorted(top, reverse=True)


def test_seat_mapping_is_configurable_and_columns_follow_it(sochi):
    found = sectors(draw(sochi, seats=("left", "bottom", "right")))
    assert found[1].get("data-side") == "bottom"
    assert [int(g.get("data-on")) for g in bands(found[1], "whists")] == [0, 2]  # left half on the left player
    with pytest.raises(ValueError):
        sheet_svg(sochi.players, sochi.rules, sochi.replay(), seats=("bottom", "bottom", "left"))


def test_orientation_table_turns_each_sector_upright_does_not(leningrad):
    for seat, sector in sectors(draw(leningrad)).items():
        expected = (0, 90, 180, -90)[seat]  # each sector reads from its own edge
        assert {angle(g) for g in sector.iterfind("s:g", NS) if len(g)} == {expected}
    upright = draw(leningrad, orientation="upright")
    assert upright.get("data-orientation") == "upright"
    assert {angle(g) for g in upright.iterfind(".//s:g[@class='band']", NS)} == {0}
    names = {s.get("data-side"): angle(s.find("s:g[@class='name']", NS)) for s in sectors(upright).values()}
    assert names["top"] == names["bottom"] == 0  # never upside down on a screen
    with pytest.raises(ValueError):
        sheet_svg(leningrad.players, leningrad.rules, leningrad.replay(), orientation="sideways")


def test_rejects_two_or_five_players():
    rules = Rules.of("sochi")
    with pytest.raises(ValueError):
        sheet_svg(["A", "B"], rules, replay(rules, 3, []))


# -- what is written ------------------------------------------------------------


def test_sochi_totals_in_the_right_sectors(sochi):
    """docs/rules.md §10 Ex 10: the sheet after D10."""
    root = draw(sochi, currency="₽")
    a, b, c = (sectors(root)[s] for s in range(3))
    assert a.get("data-player") == "A" and a.get("data-side") == "bottom"
    assert chain(a, "pulya").split(".")[-1] == "10"
    assert chain(a, "gora") == "6"
    assert chain(a, "whists", 1) == "30.40"  # 30, then +10 help
    assert chain(a, "whists", 2) == "4.16.28.68"  # 4 + 12 + 12 + 40 help
    assert chain(b, "gora") == "12.16.20.40.39"  # 12 + 4 + 4 + 20 − 1
    assert chain(b, "whists", 0) == "8" and chain(b, "whists", 2) == "2"
    assert chain(c, "gora") == "2.8.22"
    assert chain(c, "whists", 1) == "18" and chain(c, "whists", 0) == ""
    centre = root.find("s:g[@class='centre-text']", NS)
    assert [("".join(t.itertext())) for t in centre] == ["10", "0.5 ₽"]


def test_chain_is_shown_in_full_with_the_newest_value_bold(sochi):
    root = draw(sochi)
    for g in root.iterfind(".//s:g[@class='band']", NS):
        if g.get("data-chain"):
            assert shown(g) == g.get("data-chain")
            newest = g.findall(".//s:tspan[@class='new']", NS)
            assert [t.text for t in newest] == [g.get("data-chain").split(".")[-1]]


def test_closed_pulya_is_marked(sochi, leningrad):
    assert {s.get("data-closed") for s in sectors(draw(sochi)).values()} == {"true"}
    found = sectors(draw(leningrad))
    assert [found[s].get("data-closed") for s in range(4)] == ["false", "false", "true", "false"]
    assert "✓" in shown(found[2].find("s:g[@class='name']", NS))
    assert "✓" not in shown(found[0].find("s:g[@class='name']", NS))


def test_empty_pulka_draws_the_sheet_without_entries():
    rules = Rules.of("sochi")
    root = tree(sheet_svg(["A", "B", "C", "D"], rules, replay(rules, 4, [])))
    assert not [g for g in root.iterfind(".//s:g[@class='band']", NS) if len(g)]
    assert len(sectors(root)) == 4


def test_names_and_currency_are_escaped():
    rules = Rules.of("sochi")
    players = ['<img src="http://127.0.0.1:9/x">', "Tom & 'Jerry'", "</svg><script>x()</script>"]
    svg = sheet_svg(players, rules, replay(rules, 3, []), currency="<b>₽</b>")
    root = tree(svg)
    assert [s.get("data-player") for s in sectors(root).values()] == players
    assert [shown(s.find("s:g[@class='name']", NS)) for s in sectors(root).values()] == players
    assert root.find(".//s:img", NS) is None and root.find(".//img") is None
    assert root.find(".//script") is None and "<script>" not in svg
    assert "<b>" not in svg


def test_styles_stay_inside_the_svg_and_follow_weasyprint_limits(sochi):
    svg = sheet_svg(sochi.players, sochi.rules, sochi.replay())
    assert "<style>" in svg and "currentColor" in svg
    assert "var(" not in svg and "dominant-baseline" not in svg
    assert all(t.get("dy") == "0.35em" for t in tree(svg).iterfind(".//s:text", NS))


def test_points_are_written_as_players_write_them():
    assert points(4) == "4" and points(-1) == "\u22121" and points(Fraction(8, 1)) == "8"
    assert points(Fraction(5, 2)) == "2½" and points(Fraction(160, 3)) == "53⅓"
    assert points(Fraction(-1, 3)) == "\u2212⅓"
    assert points(Fraction(7, 5)) == "1.40"


def test_importing_the_renderers_does_not_import_weasyprint():
    code = "import sys, scorekeeper.render.svg, scorekeeper.render.pdf; print('weasyprint' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# -- long chains ------------------------------------------------------------------


@lru_cache(maxsize=None)
def _advance() -> dict[str, float]:
    """Real glyph widths of the bundled bold font, in em (bold is the wider weight)."""
    font = TTFont(FONTS["bold"])
    cmap, metrics, unit = font.getBestCmap(), font["hmtx"], font["head"].unitsPerEm
    return {chr(code): metrics[glyph][0] / unit for code, glyph in cmap.items()}


def width(text: str, size: float) -> float:
    return size * sum(_advance().get(ch, 1.0) for ch in text)


def text_groups(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iterfind(".//s:g[@data-box]", NS) if g.findall("s:text", NS)]


def assert_fits(g: ET.Element) -> float:
    """Every line of the group inside its box, measured with the real font; the font size."""
    texts = g.findall("s:text", NS)
    x0, y0, x1, y1 = box(g)
    w, h = x1 - x0 - 2 * PAD, y1 - y0 - 2 * PAD
    if angle(g) % 180:
        w, h = h, w
    size = float(texts[0].get("font-size"))
    assert len(texts) * size * LINE_HEIGHT <= h + 0.01, f"{g.attrib}: {len(texts)} lines at {size} overflow"
    for t in texts:
        line = "".join(t.itertext())
        assert width(line, size) <= w + 0.01, f"{line!r} at {size} is wider than {w:.1f}"
        # Centred on the box (the rotation is about its centre), so the sizes above bound the extent.
        assert abs(float(t.get("x")) - (x0 + x1) / 2) < 0.1
        assert abs(float(t.get("y")) - (y0 + y1) / 2) + size * LINE_HEIGHT / 2 <= h / 2 + 0.1
    return size


@pytest.mark.parametrize("orientation", ["table", "upright"])
@pytest.mark.parametrize("which", ["long3", "long4"])
def test_150_deal_chains_fit_their_bands(which, orientation, request):
    pulka = request.getfixturevalue(which)
    assert len(pulka.deals) == 150
    groups = text_groups(draw(pulka, orientation=orientation))
    for g in groups:
        size = assert_fits(g)
        if g.get("data-band"):
            assert size >= SMALLEST_FONT  # legible
            assert g.get("data-elided") is None and shown(g) == g.get("data-chain")  # and complete
    n = len(pulka.players)
    assert len(groups) == n * (n + 2)  # per sector: the name, gora, pulya and a column per opponent


def test_5000_deal_chains_keep_their_newest_values(huge):
    """What no band holds gives way from the oldest end, as little of it as needs to."""
    elided = 0
    for g in text_groups(draw(huge)):
        size = assert_fits(g)
        if not g.get("data-band"):
            continue
        chain, text = g.get("data-chain"), shown(g)
        newest = [t.text for t in g.iterfind(".//s:tspan[@class='new']", NS)]
        assert size >= SMALLEST_FONT and newest == [chain.rsplit(".", 1)[-1]]
        if g.get("data-elided"):
            left_out = chain[: len(chain) - len(text) + 1]
            assert text.startswith("…") and chain.endswith(text[1:]) and left_out.endswith(".")
            assert left_out.count(".") == int(g.get("data-elided"))  # no value here has a dot of its own
            elided += 1
        else:
            assert text == chain
    assert elided >= 6  # gora and whists of 5,000 deals overflow their bands


def old_fit(pieces, width, height, largest=16.0, smallest=SMALLEST_FONT):
    """The fitting as first written, trying every size and every number left out: slow, and plainly right."""
    def wrap(pieces, size):
        lines = [""]
        for piece in pieces:
            if text_width(piece, size) > width:
                return None
            if lines[-1] and text_width(lines[-1] + piece, size) > width:
                lines.append(piece)
            else:
                lines[-1] += piece
        return lines if len(lines) * size * LINE_HEIGHT <= height else None

    for size in [largest - 0.5 * i for i in range(int(round((largest - smallest) / 0.5)) + 1)]:
        if lines := wrap(pieces, size):
            return size, lines, 0
    for dropped in range(1, len(pieces)):
        if lines := wrap(["…", *pieces[dropped:]], smallest):
            return smallest, lines, dropped
    return None  # the newest value alone does not fit: shrunk below the floor


def test_fit_lays_out_text_as_trying_every_size_would():
    rng = random.Random(5)
    for _ in range(2000):
        values = [str(rng.randint(-50, 2000)) for _ in range(rng.randint(1, 80))]
        pieces = [v + "." for v in values[:-1]] + values[-1:]
        w, h = rng.uniform(5, 200), rng.uniform(3, 200)
        expected = old_fit(pieces, w, h)
        if expected is None:
            size, lines, dropped = fit(pieces, w, h)
            assert size < SMALLEST_FONT and lines == pieces[-1:] and dropped == len(pieces) - 1
        else:
            assert fit(pieces, w, h) == expected, (pieces, w, h)


def work(call, limit: int = 10**8) -> int:
    """Lines of svg.py run by `call()`: a count of the work it does, the same on any machine
    (stopped past `limit`, so that a quadratic fitting fails this test instead of hanging it)."""
    count = 0

    def trace(frame, event, arg):
        nonlocal count
        if frame.f_code.co_filename != svg.__file__:
            return None
        if event == "line":
            count += 1
            if count > limit:
                raise RuntimeError(f"more than {limit} lines run")
        return trace

    sys.settrace(trace)
    try:
        call()
    finally:
        sys.settrace(None)
    return count


@pytest.mark.parametrize("box", [(60, 100), (2000, 2000)], ids=["values left out", "shrunk to fit"])
def test_fitting_work_grows_linearly_with_the_values(box):
    def pieces(n):
        return [f"{i % 997}." for i in range(n - 1)] + ["7"]

    small = work(lambda: fit(pieces(500), *box))
    large = work(lambda: fit(pieces(5000), *box), limit=20 * small)  # quadratic would be about 100×
    assert large <= 12 * small


def test_a_turned_6_and_9_are_underlined_as_on_paper():
    """Turned to face its own edge, a 6 reads as 9 from across the table: under each 6 and 9 of a turned band
    a line is drawn where the digit is (the font's own advances), as players mark them; upright, none."""
    rules = Rules.of("sochi", pulya_size=100)
    deals = [Deal(DealType.RASPASY, tricks={1: 6, 2: 3, 0: 1})]  # the left player (turned) takes 6: gora 6
    for orientation, marks in (("table", 1), ("upright", 0)):
        root = tree(sheet_svg(["A", "B", "C"], rules, replay(rules, 3, deals), orientation=orientation))
        gora = next(g for g in root.iter(f"{{{NS['s']}}}g") if g.get("data-band") == "gora"
                    and g.get("data-chain") == "6")
        lines = gora.findall("s:line", NS)
        assert len(lines) == marks
        if marks:  # under the digit: centred on the text's centre, the width of one digit
            text = gora.find("s:text", NS)
            x1, x2, cx = float(lines[0].get("x1")), float(lines[0].get("x2")), float(text.get("x"))
            size = float(text.get("font-size"))
            assert abs((x1 + x2) / 2 - cx) < 0.01 and 0.4 * size < x2 - x1 < 0.7 * size
