"""Draws static/icons/icon-192.png and icon-512.png from static/icons/icon.svg with the tests' chromium.
Run once when the icon changes; the PNGs are committed (a phone's home screen wants PNG).

    .venv/bin/python scripts/icons.py
"""

from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parents[1] / "static" / "icons"

with sync_playwright() as playwright:
    browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    svg = (ICONS / "icon.svg").read_text()
    for size in (192, 512):
        page = browser.new_page(viewport={"width": size, "height": size})
        page.set_content(f"<body style='margin:0'>{svg.replace('<svg ', f'<svg width={size} height={size} ')}</body>")
        page.screenshot(path=str(ICONS / f"icon-{size}.png"), omit_background=True)
    browser.close()
