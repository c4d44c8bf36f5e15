"""Long lists a page at a time (docs/club.md §2-§3): the ledger's obligations and payments, the latest first, each
page going on after the rows the one before showed; the standings, by page number.

The ledger's next page is named by a cursor holding the key of the last obligation and of the last payment shown
(when, then the id), never a position: rows added at the top meanwhile (a payment, a pulka frozen) and an
obligation withdrawn meanwhile (its pulka reopened) neither repeat nor skip a row of the pages that follow. The
standings grow at their end (a player first appears in a later pulka), so a page number holds its place."""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import TypeVar

from ...i18n.words import Msg
from .ledger import Ledger, Line, Row, line_key, row_key
from .limits import INT_MAX
from .reading import hidden, read_number
from .refusals import Refused

T = TypeVar("T")
Place = tuple[datetime, str]  # a row's place in a list, the latest first: when, then its id

EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
MICROSECOND = timedelta(microseconds=1)
# A cursor is two keys (two ids of at most 40 characters): anything longer is nobody's, refused unread.
CURSOR_MAX = 200
_BASE64 = re.compile("[A-Za-z0-9_-]+")
BAD_CURSOR = Msg("cursor is the cursor of a ledger page's next link")


@dataclass(frozen=True)
class Older:
    """Where the ledger's next page starts: after the obligation and after the payment the page before showed
    last; None where that list ended on a page before."""

    obligations: Place | None
    payments: Place | None

    def text(self) -> str:
        """The cursor as a link carries it (read back by read_cursor)."""
        keys = [None if key is None else [(key[0] - EPOCH) // MICROSECOND, key[1]]
                for key in (self.obligations, self.payments)]
        return base64.urlsafe_b64encode(json.dumps(keys, separators=(",", ":")).encode()).decode().rstrip("=")


def read_cursor(value: object) -> Older | None:
    """A cursor as Older.text writes it; None for none (absent or empty: the first page). Refused, naming
    `cursor`, for anything else."""
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > CURSOR_MAX or not _BASE64.fullmatch(value):
        raise Refused(BAD_CURSOR, "cursor")
    try:
        keys = json.loads(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)))
        if isinstance(keys, list) and len(keys) == 2:
            return Older(*(_key(key) for key in keys))
    except (ValueError, binascii.Error, OverflowError):
        pass
    raise Refused(BAD_CURSOR, "cursor")


def _key(found: object) -> Place | None:
    """A key as Older.text writes it: [microseconds since 1970 UTC, id], or null; ValueError otherwise."""
    if found is None:
        return None
    if isinstance(found, list) and len(found) == 2:
        micros, id = found
        if isinstance(micros, int) and not isinstance(micros, bool) and isinstance(id, str) and \
                0 < len(id) <= 40 and hidden(id) is None:
            return EPOCH + micros * MICROSECOND, id
    raise ValueError("not a key")


def after(rows: Sequence[T], key: Callable[[T], Place], start: Place) -> int:
    """Where the rows older than `start` begin in `rows` (the latest first by `key`): a binary search, so that a
    page far down a long list costs no more than the first."""
    low, high = 0, len(rows)
    while low < high:
        middle = (low + high) // 2
        if key(rows[middle]) < start:
            high = middle
        else:
            low = middle + 1
    return low


@dataclass(frozen=True)
class Window:
    """One page of the ledger's obligations and payments, the latest first."""

    lines: tuple[Line, ...]
    payments: tuple[Row, ...]
    first_line: int  # where the page's obligations begin in the whole list (0: the latest)
    first_payment: int
    older: Older | None  # where the next page starts; None: this page shows the oldest rows of both lists
    later: bool  # a page after the first (its cursor given)


def window(book: Ledger, start: Older | None, size: int) -> Window:
    """The page of `size` obligations and `size` payments that `start` names (None: the latest of each)."""
    def begin(rows: Sequence[T], key: Callable[[T], Place], last: Place | None) -> int:
        if start is None:
            return 0
        return len(rows) if last is None else after(rows, key, last)

    lines_at = begin(book.lines, line_key, None if start is None else start.obligations)
    payments_at = begin(book.payments, row_key, None if start is None else start.payments)
    lines, payments = book.lines[lines_at:lines_at + size], book.payments[payments_at:payments_at + size]
    more_lines, more_payments = lines_at + size < len(book.lines), payments_at + size < len(book.payments)
    older = Older(line_key(lines[-1]) if more_lines else None, row_key(payments[-1]) if more_payments else None)
    return Window(lines, payments, lines_at, payments_at, older if more_lines or more_payments else None,
                  start is not None)


def read_page(value: object) -> int:
    """A page number from a query: 1 when absent or empty."""
    return 1 if value is None or value == "" else read_number(value, "page", 1, INT_MAX)


def numbered(rows: Sequence[T], number: int, size: int) -> tuple[Sequence[T], int, int | None]:
    """Page `number` (from 1) of `rows`, `size` a page: its rows, where they begin, and the next page's number
    (None on the last page, and past it: an empty page)."""
    first = min(len(rows), (number - 1) * size)
    return rows[first:first + size], first, number + 1 if first + size < len(rows) else None
