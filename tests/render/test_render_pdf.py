"""Real PDFs, read back with poppler: text, pages, fonts, the drawing on page 1, and nothing fetched."""

from __future__ import annotations

import io
import math
import os
import re
import subprocess
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from datetime import date, datetime
from pathlib import Path

import pytest
from PIL import Image

from scorekeeper.files.pulyafile import PulkaFile
from scorekeeper.render import pdf
from scorekeeper.render.pdf import allowed_url, make_url_fetcher, pdf_filename, render_pdf

from .support import leningrad_four, weasyprint_log


def export(pulka: PulkaFile, **options) -> bytes:
    replay = pulka.replay()
    options = {"title": "Пулька", "created": date(2025, 3, 8)} | options
    with weasyprint_log():
        return render_pdf(pulka.players, pulka.rules, replay, pulka.settle(replay), **options)


def poppler_out(*command: str, data: bytes) -> str:
    return subprocess.run([*command, "-"], input=data, capture_output=True, check=True).stdout.decode()


def text(data: bytes, *pages: int, layout: bool = False) -> str:
    span = ["-f", str(pages[0]), "-l", str(pages[-1])] if pages else []
    return poppler_out("pdftotext", *span, *(["-layout"] if layout else []), "-", data=data)


def info(data: bytes) -> dict[str, str]:
    lines = poppler_out("pdfinfo", data=data).splitlines()
    return {key.strip(): value.strip() for key, value in (line.split(":", 1) for line in lines if ":" in line)}


def flat(value: str) -> str:
    return re.sub(r"\s+", "", value)


@pytest.fixture(scope="module")
def sochi_pdf(poppler, sochi) -> bytes:
    return export(sochi, title="Пулька в Сочи", created=datetime(2025, 3, 8, 19, 30), currency="₽")


@pytest.fixture(scope="module")
def leningrad_pdf(poppler) -> bytes:
    return export(leningrad_four(), title="Ленинград на четверых", currency="руб.")


def test_sochi_finished_three_players(sochi_pdf):
    meta = info(sochi_pdf)
    assert int(meta["Pages"]) == 3
    assert meta["Title"] == "Пулька в Сочи"
    assert meta["Page size"].split()[:3] == ["595.276", "x", "841.89"]  # A4
    first, everything = text(sochi_pdf, 1), text(sochi_pdf)
    assert "Пулька в Сочи" in first and "2025-03-08 19:30" in first and "finished after 10 deals" in first
    assert "Players (clockwise): A, B, C" in first and "Sochi · pulya 10 · whist 0.5 ₽" in first
    for chain in ("12.16.20.40.39", "4.16.28.68", "30.40", "2.8.22", "4.5.10", "0.5 ₽"):  # the drawing
        assert chain in first
    protocol = text(sochi_pdf, 2)
    assert "Protocol of deals" in protocol
    assert "1. A 7♥: B whist, C pass (open); tricks A 8, defenders 2 · dealer A"  # the split is not asked (issue 17) in protocol
    assert "pulya A +4 — A made 7♥: pulya +4" in protocol
    assert "gora B −1 — B's pulya is closed and nobody needs help: 1 surplus × 1 written off the gora" in protocol
    settlement = text(sochi_pdf, 3, layout=True)
    for row in (r"A\s+10\s+6\s+—\s+40\s+68", r"B\s+10\s+39\s+8\s+—\s+2", r"C\s+10\s+22\s+0\s+18\s+—"):
        assert re.search(row, settlement), row
    for row in (r"A\s+\+263⅓\s+\+263\.33\s+\+131\.67 ₽", r"B\s+−214⅔\s+−214\.67\s+−107\.33 ₽",
                r"C\s+−48⅔\s+−48\.67\s+−24\.34 ₽"):
        assert re.search(row, settlement), row
    assert re.search(r"A\s+—\s+\+142\s+\+121⅓", settlement)  # the amnesty form, Ex 11
    assert "B pays A 107.33 ₽" in settlement and "C pays A 24.34 ₽" in settlement
    for page in (1, 2, 3):
        assert f"Page {page} of 3" in everything


def test_fonts_are_bundled_and_embedded(sochi_pdf):
    fonts = poppler_out("pdffonts", data=sochi_pdf)
    rows = [line.split() for line in fonts.splitlines()[2:]]
    assert rows and all("SheetFont" in row[0] and row[-5] == "yes" for row in rows), fonts


def test_leningrad_unfinished_four_players(leningrad_pdf):
    assert int(info(leningrad_pdf)["Pages"]) == 3
    first = text(leningrad_pdf, 1)
    assert "in progress: 4 deals so far, Аня deals next" in first
    assert "Players (clockwise): Аня, Борис, Вера, Гоша" in first
    assert "Leningrad · pulya 10 · whist 1 руб." in first
    for name in ("Аня", "Борис", "Вера", "Гоша"):
        assert name in first
    settlement = text(leningrad_pdf, 3, layout=True)
    assert "Settlement as it stands" in settlement
    assert re.search(r"Аня\s+0\s+30\s+—\s+0\s+0\s+0", settlement)
    assert re.search(r"Аня\s+−380\s+−380\.00\s+−380\.00 руб\.", settlement)
    assert re.search(r"Вера\s+\+228\s+\+228\.00\s+\+228\.00 руб\.", settlement)
    assert "Аня pays Вера 228.00 руб." in settlement


def test_long_pulka_four_players(poppler, long4):
    data = export(long4, title="150 deals")
    pages = int(info(data)["Pages"])
    assert pages > 5
    everything = text(data)
    assert "150. " in everything and f"Page {pages} of {pages}" in everything
    assert "Settlement as it stands" in everything


# -- the drawing on page 1 ----------------------------------------------------------


def page_one(data: bytes) -> Image.Image:
    # Without an output root pdftoppm writes the image to stdout.
    png = subprocess.run(["pdftoppm", "-r", "50", "-png", "-f", "1", "-l", "1", "-singlefile", "-"], input=data,
                         capture_output=True, check=True).stdout
    return Image.open(io.BytesIO(png)).convert("L")


def frame(image: Image.Image, sides: tuple[float, float]) -> tuple[float, float, float]:
    """(left, top, pixels per sheet unit) of the sheet's outer rectangle, from its long straight edges."""
    w, h = image.size
    px = image.load()
    long_columns = [x for x in range(w) if sum(px[x, y] < 128 for y in range(h)) > 150]
    long_rows = [y for y in range(h) if sum(px[x, y] < 128 for x in range(w)) > 150]
    left, right, top, bottom = long_columns[0], long_columns[-1], long_rows[0], long_rows[-1]
    scale = (right - left) / sides[0]
    assert abs((bottom - top) / sides[1] - scale) < 0.02, "the frame is not the sheet's shape"
    return left, top, scale


def dark_near(image: Image.Image, x: float, y: float) -> bool:
    px = image.load()
    return min(px[int(round(x)) + dx, int(round(y)) + dy] for dx in (-1, 0, 1) for dy in (-1, 0, 1)) < 160


def check_drawing(image, width, height, r, corners, extra_spokes=(), blank=(5, 5)):
    left, top, scale = frame(image, (width, height))
    cx, cy = width / 2, height / 2

    def at(x, y):
        return left + x * scale, top + y * scale

    for corner in corners:  # along each diagonal spoke, between the corner and the circle
        length = math.dist(corner, (cx, cy))
        for t in (0.25, 0.5, 0.75):
            d = t * (length - r)
            x = corner[0] + (cx - corner[0]) * d / length
            y = corner[1] + (cy - corner[1]) * d / length
            assert dark_near(image, *at(x, y)), f"no spoke at {x:.0f},{y:.0f}"
    for x, y in extra_spokes:
        assert dark_near(image, *at(x, y)), f"no spoke at {x:.0f},{y:.0f}"
    for degrees in range(10, 360, 40):  # the centre circle
        a = math.radians(degrees)
        assert dark_near(image, *at(cx + r * math.cos(a), cy + r * math.sin(a))), f"no circle at {degrees}°"
    x, y = at(*blank)
    paper = image.crop((int(x) - 1, int(y) - 1, int(x) + 2, int(y) + 2))
    assert paper.getextrema()[0] > 200, f"{blank} should be blank paper: the lines are not everywhere"


def test_page_one_draws_the_three_player_sheet(sochi_pdf):
    check_drawing(page_one(sochi_pdf), 420, 400, 56, corners=[(0, 400), (420, 400)],
                  extra_spokes=[(210, 40), (210, 100)])


def test_page_one_draws_the_four_player_sheet(leningrad_pdf):
    check_drawing(page_one(leningrad_pdf), 400, 400, 48, corners=[(0, 0), (400, 0), (400, 400), (0, 400)],
                  blank=(99, 116))  # between the left gora's text and the diagonal


# -- nothing is fetched ------------------------------------------------------------------


HOSTILE = ('<img src="http://127.0.0.1:9/x">', "http://example.com/a.png", "<style>@import url(http://127.0.0.1:9/s)")


def test_names_with_html_or_urls_are_text_and_never_fetched(poppler, sochi, monkeypatch):
    asked: list[str] = []
    real = pdf.make_url_fetcher

    def spying_fetcher():
        fetcher = real()
        fetch = fetcher.fetch

        def recording(url, headers=None):
            asked.append(url)
            return fetch(url, headers)

        fetcher.fetch = recording
        return fetcher

    monkeypatch.setattr(pdf, "make_url_fetcher", spying_fetcher)
    pulka = PulkaFile(HOSTILE, sochi.rules, sochi.deals)
    data = export(pulka, title='<img src="http://127.0.0.1:9/title"> Пулька', currency="<b>₽</b>")
    assert asked, "the spy is not wired: the fonts at least are fetched through it"
    assert all(url.startswith("file:") for url in asked), asked
    assert not [url for url in asked if "http" in url.split(":", 1)[0]]
    everything = flat(text(data))
    for name in HOSTILE:
        assert flat(name) in everything
    assert flat('<img src="http://127.0.0.1:9/title"> Пулька') in everything and "<b>₽</b>" in everything


def test_url_fetcher_allows_only_static_files_and_data():
    fonts = pdf.FONTS["regular"]
    assert allowed_url(fonts.as_uri())
    assert allowed_url("data:text/plain,hello")
    for url in ("http://127.0.0.1:9/x", "https://example.com/a.png", "ftp://example.com/x", "file:///etc/passwd",
                (pdf.STATIC_DIR / ".." / "pyproject.toml").as_uri(), "file://example.com/static/x",
                (pdf.STATIC_DIR / "fonts" / "missing.ttf").as_uri(), "javascript:alert(1)"):
        assert not allowed_url(url), url
    fetcher = make_url_fetcher()
    with pytest.raises(ValueError):
        fetcher.fetch("http://127.0.0.1:9/x")
    with pytest.raises(ValueError):
        fetcher.fetch("file:///etc/passwd")
    response = fetcher.fetch(fonts.as_uri())
    assert response.read(4) == b"\x00\x01\x00\x00"  # a TrueType font
    response.close()


def test_file_names_are_ascii_slugs():
    assert pdf_filename("Пулька у Ани", date(2025, 3, 8)) == "pulka-u-ani-2025-03-08.pdf"
    assert pdf_filename("Friday's game — Café", datetime(2025, 3, 8, 23, 59)) == "friday-s-game-cafe-2025-03-08.pdf"
    assert pdf_filename("../../etc/passwd", date(2025, 1, 2)) == "etc-passwd-2025-01-02.pdf"
    assert pdf_filename("♠♣♦♥", date(2025, 1, 2)) == "pulka-2025-01-02.pdf"
    assert len(pdf_filename("x" * 500, date(2025, 1, 2))) <= 80


def test_a_worker_process_renders_the_same_pdf_and_a_dead_one_is_replaced(poppler, sochi):
    replay = sochi.replay()
    options = {"title": "Пулька", "created": date(2025, 3, 8)}
    data = pdf.render_pdf_in_worker(1, sochi.players, sochi.rules, replay, sochi.settle(replay), **options)
    assert text(data) == text(export(sochi, **options))
    pdf._pools[1].submit(os._exit, 1)  # the worker killed (out of memory, say): its pool is broken for good
    with pytest.raises(BrokenProcessPool):  # the PDF asked for meanwhile fails
        pdf.render_pdf_in_worker(1, sochi.players, sochi.rules, replay, **options)
    assert text(pdf.render_pdf_in_worker(1, sochi.players, sochi.rules, replay, **options)) == text(data)


def test_workers_end_with_a_killed_server():
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True)
    try:
        workers = [int(pid) for pid in server.stdout.readline().split()]
        assert workers
    finally:
        server.kill()
        server.wait()
    deadline = time.monotonic() + 30
    while any(alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived its server"
        time.sleep(0.1)


# A server that renders a PDF (which starts a worker), says its workers' process ids and waits to be killed.
SERVER = """
import time
from datetime import date
from scorekeeper.engine import Rules, replay
from scorekeeper.render import pdf

rules = Rules.of("sochi")
pdf.render_pdf_in_worker(2, ["A", "B", "C"], rules, replay(rules, 3, []), title="t", created=date(2025, 1, 1))
print(*pdf._pools[2]._processes, flush=True)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    """Running: neither gone nor a zombie waiting to be reaped."""
    try:
        return "\\tZ" not in Path(f"/proc/{pid}/status").read_text().split("State:")[1][:4]
    except FileNotFoundError:
        return False
