"""The ledger's lists a page at a time (domain.paging): walking the pages from the latest shows every obligation and
every payment once, in the ledger's order, whatever the page size and however many rows share a time; rows added
at the top and obligations withdrawn between two pages neither repeat nor skip a row of the pages after; a
cursor goes through its text unchanged, and any other text is refused naming `cursor`."""

from __future__ import annotations

import base64
import json
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal

import pytest
from hypothesis import given, settings, strategies as st

from scorekeeper.engine import Obligation, Payment
from scorekeeper.web.domain.ledger import Ledger, ObligationRow, Row, Rows, line_key, row_key
from scorekeeper.web.domain.paging import numbered, read_cursor, read_page, window
from scorekeeper.web.domain.players import Player
from scorekeeper.web.domain.refusals import Refused

PLAYERS = {p: Player(p, p.upper()) for p in "abcd"}
START = datetime(2026, 11, 1, 20, tzinfo=timezone.utc)
# Few distinct times, so that many rows share one (a pulka's obligations always do): the ids order them then.
when = st.integers(0, 4).map(lambda h: START + timedelta(hours=h))
zone = st.sampled_from([timezone.utc, timezone(timedelta(hours=3)), timezone(timedelta(hours=-5))])
pair = st.sampled_from([("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")])


@st.composite
def obligations(draw, prefix="o"):
    """Obligations of pulkas frozen at a few times, each time in its pulka's own offset (the same instant)."""
    found = []
    for i in range(draw(st.integers(0, 14))):
        (debtor, creditor), at = draw(pair), draw(when).astimezone(draw(zone))
        pulka = f"{prefix}p{i // 2}"  # two obligations a pulka, as a three-player table often leaves
        ended = at if i % 2 == 0 else found[-1].ended
        found.append(ObligationRow(Obligation(f"{prefix}{i:02}", pulka, debtor, creditor, Decimal(i + 1), "₽"),
                                   pulka, date(2026, 11, 1), ended, True))
    return found


@st.composite
def payments(draw, prefix="m"):
    return [Row(Payment(f"{prefix}{i:02}", *draw(pair), Decimal(1), "₽"), "", "owner", draw(when), True)
            for i in range(draw(st.integers(0, 14)))]


def book(owed, paid) -> Ledger:
    return Ledger.of(Rows(PLAYERS, tuple(owed), tuple(paid)), "₽")


def walk(ledger: Ledger, size: int, start=None):
    """Every page from `start` on, each cursor read back from its text as a link carries it (a cursor that
    does not move on fails, rather than walking for ever)."""
    pages = []
    for _ in range(len(ledger.lines) + len(ledger.payments) + 1):
        shown = window(ledger, start, size)
        pages.append(shown)
        if shown.older is None:
            return pages
        start = read_cursor(shown.older.text())
    raise AssertionError("the pages never end")


@settings(max_examples=150, deadline=None)
@given(obligations(), payments(), st.integers(1, 5))
def test_the_pages_show_every_row_once_in_the_ledgers_order(owed, paid, size):
    ledger = book(owed, paid)
    pages = walk(ledger, size)
    assert [line for page in pages for line in page.lines] == list(ledger.lines)
    assert [row for page in pages for row in page.payments] == list(ledger.payments)
    assert len(pages) == max(1, -(-len(owed) // size), -(-len(paid) // size))
    assert all(len(page.lines) <= size and len(page.payments) <= size for page in pages)
    assert [page.later for page in pages] == [False] + [True] * (len(pages) - 1)
    assert [page.first_line for page in pages] == [min(len(owed), i * size) for i in range(len(pages))]
    assert [page.first_payment for page in pages] == [min(len(paid), i * size) for i in range(len(pages))]


@settings(max_examples=150, deadline=None)
@given(obligations(), payments(), st.integers(1, 4), obligations("n"), payments("q"), st.data())
def test_rows_added_and_withdrawn_between_two_pages_neither_repeat_nor_skip_one(owed, paid, size, new_owed,
                                                                                 new_paid, data):
    first = window(book(owed, paid), None, size)
    later = timedelta(days=1)  # the rows added since are the latest: a pulka frozen, a payment made just now
    added = [ObligationRow(e.obligation, e.title, e.day, e.ended + later, True) for e in new_owed]
    made = [Row(r.payment, r.note, r.by, r.at + later, True) for r in new_paid]
    gone = data.draw(st.sets(st.sampled_from(sorted({e.obligation.pulka for e in owed}) or ["none"])))
    now = book([e for e in owed if e.obligation.pulka not in gone] + added, paid + made)
    rest = walk(now, size, first.older) if first.older is not None else []
    seen_lines = [line for page in rest for line in page.lines]
    seen_rows = [row for page in rest for row in page.payments]
    # what follows is exactly what is still in the ledger and older than the last row the first page showed
    assert seen_lines == ([line for line in now.lines if line_key(line) < line_key(first.lines[-1])]
                          if first.older is not None and first.older.obligations is not None else [])
    assert seen_rows == ([row for row in now.payments if row_key(row) < row_key(first.payments[-1])]
                         if first.older is not None and first.older.payments is not None else [])
    assert not {line.entry.obligation.id for line in seen_lines} & {line.entry.obligation.id for line in first.lines}


def _text(value) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


@pytest.mark.parametrize("value", [
    "x", "!!!!", "ы", "a" * 201, _text([]), _text([None]), _text({"a": 1}), _text([None, None, None]),
    _text([[1.5, "a"], None]), _text([[True, "a"], None]), _text([["1", "a"], None]), _text([[1, ""], None]),
    _text([[1, "a\n"], None]), _text([[1, "a" * 41], None]), _text([[10**30, "a"], None]),
    _text([[-10**30, "a"], None]), _text([[1, "a", 2], None]), _text([[1, 2], None]), _text("[[1,"),
    base64.urlsafe_b64encode(b"\xff\xfe[]").decode(), 5, ["a"]])
def test_any_other_cursor_is_refused_naming_it(value):
    with pytest.raises(Refused) as refused:
        read_cursor(value)
    assert refused.value.field == "cursor" and refused.value.code == "bad_format"


def test_no_cursor_is_the_first_page():
    assert read_cursor(None) is None and read_cursor("") is None


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(), max_size=40), st.integers(1, 6))
def test_numbered_pages_show_every_row_once_in_order(rows, size):
    seen, number = [], 1
    while number is not None:
        shown, first, following = numbered(rows, number, size)
        assert first == len(seen) and len(shown) <= size
        seen += shown
        number = following
    assert seen == rows
    assert numbered(rows, len(rows) // size + 2, size) == ([], len(rows), None)  # past the end: nothing


@pytest.mark.parametrize("value, number", [(None, 1), ("", 1), ("1", 1), ("12", 12), (" 2", 2)])
def test_a_page_number_is_read_from_ascii_digits(value, number):
    assert read_page(value) == number


@pytest.mark.parametrize("value", ["0", "-1", "x", "1.5", "٣", "３", "1_0", "2 2", "2147483648", "9" * 40])
def test_any_other_page_number_is_refused_naming_it(value):
    with pytest.raises(Refused) as refused:
        read_page(value)
    assert refused.value.field == "page"
