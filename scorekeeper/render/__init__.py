"""The paper pulya, drawn: pure rendering, no Flask.

svg  `sheet_svg(players, rules, replay or any sheet with its chains, ...)` returns the classic score sheet
     (rectangle and three spokes, or a square and two diagonals) as one SVG
     string, the same for the web page and the PDF.
pdf  `render_pdf(...)` exports a pulka to an A4 PDF with WeasyPrint: the
     drawing, the protocol of deals with every line's reason, and the
     settlement. WeasyPrint is imported only when a PDF is made.
"""

from .svg import sheet_svg

__all__ = ["sheet_svg"]
