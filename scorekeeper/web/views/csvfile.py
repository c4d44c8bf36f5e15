"""The one CSV writer: every CSV the app serves is written with it (tests/web/system/test_layers.py sees that no
other module makes one), so that none can be made without the guard against spreadsheet formulas.

A spreadsheet runs a cell that starts with =, +, -, @, a tab or a carriage return as a formula (OWASP's CSV
injection): a player's name "=HYPERLINK(…)" or a currency "-4+4" would run on the machine of whoever opens the
file, and a name reaches the files of everyone who opened its pulka's link. Such a text gets a leading
apostrophe, which spreadsheets take for "text" and do not run; a text that starts with an apostrophe gets one
more, so that dropping one leading apostrophe always gives the text back. A number the app writes (an int, a
Decimal, a Fraction, a Figure) is not text: -15.33 stays a number the spreadsheet can add up.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from decimal import Decimal
from fractions import Fraction
from typing import TextIO

# What a spreadsheet reads as the start of a formula, and the mark that makes a cell text.
FORMULA = ("=", "+", "-", "@", "\t", "\r")
GUARD = "'"


class Figure(str):
    """A number the app writes as text, the way its reader writes numbers (2,5 in Russian): a number, so a cell
    the guard leaves alone, as it leaves an int or a Decimal."""


def inert(cell: object) -> object:
    """The cell as written: a number as it is; anything else as text, with the guard when a spreadsheet would
    run it (or when it starts with the guard itself); None as an empty cell."""
    if cell is None:
        return ""
    if isinstance(cell, (int, float, Decimal, Fraction, Figure)):
        return cell
    text = str(cell)
    return GUARD + text if text[:1] in (*FORMULA, GUARD) else text


def drained(out: io.StringIO) -> str:
    """What was written to `out` since it was last drained: the rows a streamed file sends next, so that no file
    is ever held whole."""
    text = out.getvalue()
    out.seek(0)
    out.truncate()
    return text


class CsvWriter:
    """Rows of cells as CSV lines (CRLF, as RFC 4180 and spreadsheets have them), each cell through `inert`."""

    def __init__(self, out: TextIO):
        self._writer = csv.writer(out, lineterminator="\r\n")

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([inert(cell) for cell in row])
