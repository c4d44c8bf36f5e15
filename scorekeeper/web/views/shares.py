"""A share link as the table sees it: its address as a QR code to scan across the table."""

from __future__ import annotations

import segno
from markupsafe import Markup


def qr_svg(text: str, label: str = "") -> Markup:
    """`text` as a QR code in inline SVG, drawn here (no outside service): black on white with the
    quiet zone scanners need, even in dark mode; sized by the page."""
    code = segno.make(text, error="m")
    svg = code.svg_inline(scale=1, dark="#000", light="#fff", border=4, omitsize=True, svgclass="qr",
                          title=label or None)
    return Markup(svg)
