"""Text, numbers and files as requests send them, read the same way on SQLite and PostgreSQL: no use case
meets a number the database cannot hold, text it cannot store, or a file that is not a pulka."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...files import pulyafile
from ...engine import Deal
from ...i18n.words import Msg
from .limits import INT_MAX, PATH_MAX
from .refusals import DealRefused, Refused, Unstorable

# NUL, which PostgreSQL cannot store and SQLite can (a pulka holding one could not move from one to the
# other), and lone surrogates, which no UTF-8 encodes: no text the app keeps or looks up may hold them.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
# A name, a currency or a link's label is one line: no control character (C0, DEL, C1) either.
_NOT_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def unstorable(text: str) -> bool:
    return _UNSTORABLE.search(text) is not None


def one_line(text: str) -> bool:
    return _NOT_ONE_LINE.search(text) is None


def local_path(target: object) -> str | None:
    """`target` when it is a path on this site that may go into a Location header: one line of ASCII (a
    browser would send anything else as %-escapes), starting with one slash (two, or a backslash a browser
    reads as one, would leave the site). None otherwise: the caller goes to its default instead."""
    if not isinstance(target, str) or not target.startswith("/") or len(target) > PATH_MAX:
        return None
    if not target.isascii() or not target.isprintable() or "\\" in target or target[1:2] == "/":
        return None
    return target


def first_unstorable(data: object) -> str | None:
    """The field ("players[1]", "deal.whist") of the first string of JSON data, key or value, that
    `unstorable` refuses; None when there is none. A loop, not recursion: JSON may nest a thousand deep."""
    pending: list[tuple[str, object]] = [("", data)]
    while pending:
        path, value = pending.pop()
        if isinstance(value, str):
            if unstorable(value):
                return path
        elif isinstance(value, dict):
            if any(unstorable(key) for key in value):
                return path  # the key itself cannot be named in the answer
            pending += [(f"{path}.{key}" if path else key, item) for key, item in value.items()]
        elif isinstance(value, list):
            pending += [(f"{path}[{i}]", item) for i, item in enumerate(value)]
    return None


def digits(text: str) -> int | None:
    """'42' → 42; None for anything but ASCII digits (int() also takes '٣', '３', '1_0' and ' 7 ') or more
    of them than any count or id here has (int() of thousands of digits is slow)."""
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 18 else None


def read_number(value: object, field: str, low: int = 0, high: int = INT_MAX) -> int:
    """A whole number from JSON (an int: not a bool, a float or null) or from text (ASCII digits), from `low`
    to `high`; Refused, naming `field`, for anything else."""
    number = digits(value) if isinstance(value, str) else value
    if isinstance(number, int) and not isinstance(number, bool) and low <= number <= high:
        return number
    raise Refused(Msg("{field} must be a whole number from {low} to {high}")(field=field, low=low, high=high), field)


def read_pulka_file(text: bytes | str) -> pulyafile.PulkaFile:
    """A pulya/1 file, refused with the file's own problem code; text that no database here stores (a key
    too, which a refusal would name) is refused first."""
    try:
        data = pulyafile.decode(text)
        field = first_unstorable(data)
        if field is not None:
            raise Unstorable(field)
        return pulyafile.parse(data)
    except pulyafile.FileError as error:
        p = error.problem
        raise Refused(p.full, p.field, p.deal, code=p.code.value, names=error.players) from None


def read_deal(item: object, players: Sequence[str], number: int) -> Deal:
    """A deal as the pulka file writes it (players by name), read as deal `number`; DealRefused when it is not
    one (the problems ranked, as the engine ranks them)."""
    deal, problems = pulyafile.read_deal(item, {name: seat for seat, name in enumerate(players)}, number)
    if problems:
        raise DealRefused(sorted(problems, key=lambda p: p.code.rank), players)
    assert deal is not None  # no problem: a deal
    return deal
