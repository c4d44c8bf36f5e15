"""How long a PDF export takes, next to WeasyPrint's floor for a trivial document.

    .venv/bin/python benchmarks/pdf.py [deals] [runs]

Both are timed in the same process after a warm-up (the first WeasyPrint call
pays for imports and font setup), and the best of `runs` is reported, since
the best run is the least disturbed by other work on the machine.
Goal (issue "The classic paper pulya, drawn"): a 100-deal pulka under 1 s
and within 4× of the one-line document.
"""

from __future__ import annotations

import re
import shutil
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from generate import long_pulka  # noqa: E402

from scorekeeper.engine import settle  # noqa: E402
from scorekeeper.render.pdf import FONTS, render_pdf  # noqa: E402


def timed(make, runs: int) -> tuple[float, float, int]:
    """(best, median) seconds of `runs` calls, and the size of the last result."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        result = make()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times), len(result)


def _pages(data: bytes) -> str:
    if not shutil.which("pdfinfo"):
        return "?"
    out = subprocess.run(["pdfinfo", "-"], input=data, capture_output=True, check=True).stdout.decode()
    return re.search(r"Pages:\s*(\d+)", out)[1]


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    import weasyprint

    pulka = long_pulka(players=3, deals=deals)
    replay = pulka.replay()
    settlement = settle(replay.sheet, pulka.rules)

    def export() -> bytes:
        return render_pdf(pulka.players, pulka.rules, replay, settlement, title=f"Benchmark, {deals} deals",
                          created=date(2025, 1, 1), currency="₽")

    one_line = "<p>One line of text.</p>"
    font = FONTS["regular"].as_uri()
    one_line_font = (f"<style>@font-face{{font-family:F;src:url({font})}}body{{font-family:F}}</style>"
                     "<p>One line of text.</p>")

    for make in (export, lambda: weasyprint.HTML(string=one_line).write_pdf()):
        make()  # warm-up

    pdf_best, pdf_median, size = timed(export, runs)
    line_best, line_median, _ = timed(lambda: weasyprint.HTML(string=one_line).write_pdf(), runs)
    font_best, font_median, _ = timed(lambda: weasyprint.HTML(string=one_line_font).write_pdf(), runs)

    pages = _pages(export())
    print(f"WeasyPrint {weasyprint.__version__}, best / median of {runs} runs")
    print(f"{deals}-deal pulka PDF:             {pdf_best:.3f} s / {pdf_median:.3f} s  ({pages} pages, {size // 1024} KiB)")
    print(f"one-line document:              {line_best:.3f} s / {line_median:.3f} s")
    print(f"one-line document, bundled font: {font_best:.3f} s / {font_median:.3f} s")
    print(f"ratio (best):   {pdf_best / line_best:.1f}× the one-line document "
          f"({pdf_best / font_best:.1f}× with the bundled font)")
    print(f"goal: under 1 s {'met' if pdf_best < 1 else 'NOT met'}; "
          f"within 4× {'met' if pdf_best <= 4 * line_best else 'NOT met'}")


if __name__ == "__main__":
    main()
