"""How long a PDF export takes, next to WeasyPrint's floor for a trivial document; and how the real
server answers other pages while it makes PDFs.

    .venv/bin/python benchmarks/pdf.py [deals] [runs] [--pdfs 8] [--pdf-deals 1000]

Both exports are timed in the same process after a warm-up (the first WeasyPrint call
pays for imports and font setup), and the best of `runs` is reported, since
the best run is the least disturbed by other work on the machine.
Then the server (waitress, as benchmarks/web.py starts it) gets `--pdfs` PDF requests at once, each
for a different `--pdf-deals`-deal pulka (a client told 503 comes back after Retry-After), while one
more client asks for the sheet page of another pulka every 50 ms until every PDF has arrived.
Goals: a 100-deal pulka under 1 s and within 4× of the one-line document (issue "The classic paper
pulya, drawn"); the sheet page's p95 under 100 ms while PDFs are made (the hardening issue).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import web  # noqa: E402
from generate import long_pulka  # noqa: E402

from scorekeeper.engine import settle  # noqa: E402
from scorekeeper.files.pulyafile import dumps  # noqa: E402
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


def export_times(deals: int, runs: int) -> None:
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


def imported(client: web.Client, text: str) -> str:
    status, data = client.request("POST", "/api/v1/import", text.encode(), "application/json")
    assert status == 201, data
    return json.loads(data)["id"]


def fetch_pdf(port: int, uid: str, record: list) -> None:
    """One phone asking for a PDF until it has it: (seconds until then, how many times it was told 503)."""
    client, start, refused = web.Client(port), time.perf_counter(), 0
    client.connection.timeout = 600
    while True:
        client.connection.request("GET", f"/p/{uid}/pulka.pdf", headers={"Authorization": f"Bearer {client.bearer}"})
        response = client.connection.getresponse()
        data = response.read()
        if response.status != 503:
            break
        refused += 1
        time.sleep(int(response.getheader("Retry-After")))
    assert response.status == 200 and data.startswith(b"%PDF"), (response.status, data[:200])
    record.append((time.perf_counter() - start, refused))


def under_load(pdfs: int, deals: int) -> None:
    port = web.free_port()
    env = os.environ | {"SCOREKEEPER_INSTANCE": tempfile.mkdtemp(prefix="scorekeeper-bench-")}
    env.pop("DATABASE_URL", None)
    server = subprocess.Popen([sys.executable, web.__file__, "--serve", str(port)], env=env)
    try:
        client = web.wait_for(port)
        web.sign_in(client)
        uids = [imported(client, dumps(long_pulka(deals=deals, seed=seed))) for seed in range(1, pdfs + 1)]
        sheet = f"/p/{imported(client, web.pulka_file(100))}"
        idle = [client.timed("GET", sheet) for _ in range(200)]
        for uid in uids:
            client.request("GET", f"/p/{uid}")  # replayed and drawn already: only the PDFs are left to make

        record: list[tuple[float, int]] = []
        phones = [threading.Thread(target=fetch_pdf, args=(port, uid, record)) for uid in uids]
        start = time.perf_counter()
        for phone in phones:
            phone.start()
        # A sheet request every 50 ms, each timed from when it was due: one stuck behind the PDFs delays
        # the next ones, and their waiting counts too (otherwise one long stall would be a single sample).
        loaded: list[float] = []
        while any(phone.is_alive() for phone in phones):
            due = start + 0.05 * len(loaded)
            time.sleep(max(0.0, due - time.perf_counter()))
            status, _ = client.request("GET", sheet)
            assert status == 200, status
            loaded.append((time.perf_counter() - due) * 1000)
        elapsed = time.perf_counter() - start
    finally:
        server.terminate()
        server.wait(10)
    assert len(record) == pdfs, "a PDF request failed"
    print(f"\n{pdfs} PDF requests at once, each for another {deals}-deal pulka (waitress, 8 threads; "
          f"{os.cpu_count()} CPUs):")
    print(f"  sheet page, idle              {web.summary(idle)}")
    print(f"  sheet page, while PDFs made   {web.summary(loaded)}   max {max(loaded):.0f} ms")
    times = sorted(t for t, _ in record)
    print(f"  PDFs: all {pdfs} in {elapsed:.1f} s; each {times[0]:.1f} to {times[-1]:.1f} s; "
          f"told 503 and to come back {sum(r for _, r in record)} times")
    print(f"goal: sheet page p95 under 100 ms while PDFs are made {'met' if web.p95(loaded) < 100 else 'NOT met'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("deals", type=int, nargs="?", default=100, help="deals of the timed export")
    parser.add_argument("runs", type=int, nargs="?", default=7)
    parser.add_argument("--pdfs", type=int, default=8, help="PDF requests at once to the server (0: none)")
    parser.add_argument("--pdf-deals", type=int, default=1000, help="deals of each pulka asked for as a PDF")
    args = parser.parse_args()
    export_times(args.deals, args.runs)
    if args.pdfs:
        under_load(args.pdfs, args.pdf_deals)


if __name__ == "__main__":
    main()
