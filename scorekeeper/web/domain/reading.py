"""Text, numbers and files as requests send them, read the same way on SQLite and PostgreSQL: no use case
meets a number the database cannot hold, text it cannot store, or a file that is not a pulka."""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from decimal import Decimal

from ...files import pulyafile
from ...engine import Deal, Text
from ...i18n.words import Msg
from .limits import INT_MAX, PATH_MAX
from .refusals import DealRefused, Refused, Unstorable

# NUL, which PostgreSQL cannot store and SQLite can (a pulka holding one could not move from one to the
# other), and lone surrogates, which no UTF-8 encodes: no text the app keeps or looks up may hold them.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def unstorable(text: str) -> bool:
    return _UNSTORABLE.search(text) is not None


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
    return int(text) if text.isascii() and text.isdigit() and len(text) <= DIGITS_MAX else None


# -- numbers as people type them -------------------------------------------------------------------
# One reader for every number a request, a form or a file sends as text: ASCII digits, a sign only where the
# field takes one ('-', or '−' as the app prints it, or '+'), one decimal separator ('.' or ','), spaces only
# around it. Not int()'s or Decimal()'s whole syntax, which takes other scripts' digits ('١٢', '１２', '१२'),
# '1_000', '1e3', 'NaN', 'Infinity' and spaces inside; nor more digits than any number here has.

DIGITS_MAX = 18
MINUS = "-\u2212"
_NUMBER = re.compile(r"([-\u2212+]?)([0-9]*)(?:[.,]([0-9]*))?")


def number_text(text: str, signed: bool = False, whole: bool = False) -> Decimal | None:
    """The number `text` writes ('12', '12,5', '−4' when `signed`, not '12.5' when `whole`); None for anything
    else. Spaces around it are trimmed; nothing inside it is."""
    found = _NUMBER.fullmatch(text.strip(" "))
    if found is None:
        return None
    sign, integral, fraction = found.groups()
    if not (integral or fraction) or (sign and not signed) or (whole and fraction is not None) or \
            len(integral) > DIGITS_MAX or len(fraction or "") > DIGITS_MAX:
        return None
    number = Decimal(f"{integral or 0}.{fraction}" if fraction else integral or 0)
    return -number if sign and sign in MINUS else number


def number_of(value: object, signed: bool = False, whole: bool = False) -> Decimal | None:
    """A number as JSON sends it (an int, or a finite float unless `whole`; never a bool) or as text
    (`number_text`); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Decimal(value) if abs(value) < 10 ** DIGITS_MAX else None
    if isinstance(value, float):
        return Decimal(repr(value)) if math.isfinite(value) and not whole else None
    return number_text(value, signed, whole) if isinstance(value, str) else None


def within(number: Decimal | None, low: Decimal | int, high: Decimal | int, step: Decimal | int = 1,
           above: bool = False) -> bool:
    """Whether `number` is in the field's range (from `low`, or above it when `above`, to `high`) and a
    multiple of its `step` (a cent, a whole number)."""
    if number is None or number > high or number < low or (above and number == low):
        return False
    return number % Decimal(step) == 0


def read_number(value: object, field: str, low: int = 0, high: int = INT_MAX) -> int:
    """A whole number from JSON (an int: not a bool, a float or null) or from text (`number_text`: a sign only
    when `low` is below 0), from `low` to `high`; Refused, naming `field`, for anything else."""
    number = number_of(value, signed=low < 0, whole=True)
    if within(number, low, high):
        assert number is not None  # within() said so
        return int(number)
    raise Refused(Msg("{field} must be a whole number from {low} to {high}")(field=field, low=low, high=high), field)


# -- short texts: names, titles, currencies, notes, labels ----------------------------------------------
# One line of characters that show. Refused, never taken out (a text emptied by its reading would be stored as
# ""): controls (Cc), line and paragraph separators (Zl, Zp), lone surrogates, noncharacters; the direction
# controls that reorder the text after them (embeddings, overrides, isolates); Unicode's format characters (Cf:
# zero-width spaces and joiners, byte order marks, direction marks, soft hyphens) and the fillers that are
# letters or marks by category but draw nothing. A player's name keeps the format characters docs/club.md §1
# allows it (names.py: inside a name that shows and reads as no other); a text may not start with a combining
# mark, which would sit on whatever is printed before it. Spaces around a text are trimmed; a text of spaces
# alone is blank, which only a field that may be left empty takes.

_BROKEN = frozenset(("Cc", "Zl", "Zp", "Cs"))
_DIRECTION = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_FILLERS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u2800\u3164\uffa0")
FORMAT = "Cf"  # Unicode's format characters: the invisible ones of docs/club.md §1
SPACES = " \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"

HIDDEN = Msg("{field} holds {char}, a control, format, direction or invisible character or a line break: one line "
             "of text holds only characters that show")
MARK_FIRST = Msg("{field} starts with {char}, a combining mark with no letter before it")
SHAPE = Msg("{field} is one line of text of at most {most} characters")
NAME_HIDDEN = Msg("the name {name} holds {char}, a control, direction or invisible character or a line break: a "
                  "player's name is one line of text of characters that show")
NAME_MARK_FIRST = Msg("the name {name} starts with {char}, a combining mark with no letter before it")
NAME_SHAPE = Msg("a player's name is one line of 1 to {most} characters")


def invisible(char: str) -> bool:
    """Whether the character draws nothing: a format character (Cf) or a filler."""
    return char in _FILLERS or unicodedata.category(char) == FORMAT


def visible(text: str) -> str:
    """The text as a reader sees it: its invisible characters taken out."""
    return "".join(c for c in text if not invisible(c))


def _unshown(char: str) -> bool:
    return invisible(char) or unicodedata.category(char) in _BROKEN or _noncharacter(char)


def shown(text: str) -> str:
    """The text with each character that does not show written out (Аня⟨U+200B⟩), so that a message about
    it shows what it holds."""
    return "".join(_code(c) if _unshown(c) else c for c in text)


def _code(char: str) -> str:
    return f"⟨U+{ord(char):04X}⟩"


def _noncharacter(char: str) -> bool:
    code = ord(char)
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE


def hidden(text: str, name: bool = False) -> str | None:
    """The first character of `text` that no short text holds (a player's name, when `name`, keeps the format
    characters of docs/club.md §1, all but the direction controls); None when there is none."""
    for char in text:
        category = unicodedata.category(char)
        if category in _BROKEN or char in _DIRECTION or char in _FILLERS or _noncharacter(char) or \
                (category == FORMAT and not name):
            return char
    return None


def blank(text: str) -> bool:
    """Nothing but spaces (or nothing): a field left empty."""
    return not text.strip(SPACES)


def trimmed(text: str) -> str:
    """The text without the spaces around it (only spaces: a line break or an invisible character is no space
    to trim, and `hidden` refuses it)."""
    return text.strip(SPACES)


def text_fault(value: object, field: str, most: int, name: bool = False) -> Text | None:
    """Why `value` is not a short text of `field` (at most `most` characters, trimmed; blank is none) or, with
    `name`, not a player's name (never blank, said as one); None when it is one."""
    shape = NAME_SHAPE(most=most) if name else SHAPE(field=field, most=most)
    if not isinstance(value, str):
        return shape
    text = trimmed(value)
    if len(text) > most or (name and not text):
        return shape
    char = hidden(value, name)
    if char is not None:
        return NAME_HIDDEN(name=shown(text), char=_code(char)) if name else HIDDEN(field=field, char=_code(char))
    if text and unicodedata.category(text[0]).startswith("M"):  # Mn, Mc, Me
        char = _code(text[0])
        return NAME_MARK_FIRST(name=text, char=char) if name else MARK_FIRST(field=field, char=char)
    return None


def read_text(value: object, field: str, most: int, name: bool = False) -> str:
    """A short text of `field`, trimmed (`text_fault` says what it is); Refused, naming `field`, otherwise."""
    fault = text_fault(value, field, most, name)
    if fault is not None:
        raise Refused(fault, field)
    assert isinstance(value, str)  # text_fault said so
    return trimmed(value)


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
