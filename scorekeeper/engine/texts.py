"""Texts a player reads: a template declared once, and the values that go into it.

The engine never writes a finished sentence. Each module declares its texts as
constants (`MISERE_MADE = Text("{player} made misère: pulya +{price}")`) and
fills one in with values where it applies (`MISERE_MADE(player=Seat(0),
price=10)`): the template stays a msgid that a catalog translates, the values
stay values. The edges turn a `Text` into words: `text(names)` in English,
`render(names, gettext, ngettext)` in any language a catalog holds. Names are
filled in there too: a value that is a player is his `Seat`.

A template has `{name}` placeholders and no other braces. Where a count chooses
the words ("1 trick", "2 tricks"; Russian has three forms), the text has a
`plural` template and names the `count` value that chooses the form.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

# The translation functions of a catalog, as `gettext.GNUTranslations` has them.
Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]


@dataclass(frozen=True, slots=True)
class Seat:
    """A player in a text: his name is filled in at the edge."""

    index: int

    def __hash__(self) -> int:
        return self.index  # equal seats hash alike without making a tuple: reasons are looked up by their values


# The players as values, made once: a replay fills thousands of texts with them.
SEATS = tuple(Seat(index) for index in range(4))


@dataclass(frozen=True, slots=True)
class Text:
    msgid: str  # the English template, and the key of its translations
    plural: str | None = None  # the English template when `count` is not 1
    count: str | None = None  # the name of the value that chooses between them
    values: tuple[tuple[str, Value], ...] = ()

    def __post_init__(self) -> None:
        if self.values:
            return  # filled in by __call__, from a template checked when it was declared
        if (self.plural is None) != (self.count is None):
            raise ValueError(f"{self.msgid!r}: a plural template and its count go together")
        if self.plural is not None and (_fields(self.plural) != _fields(self.msgid) or
                                        self.count not in _fields(self.msgid)):
            raise ValueError(f"{self.msgid!r}: both forms have the same placeholders, the count among them")

    def __call__(self, *ordered: Value, **values: Value) -> Text:
        """This text with its values: one for each placeholder, a whole number for the count. Values may also
        come in order, as `str.format` takes them: those of the placeholders not named, in the order the
        template first names them (`REMIZ(declarer, count, contract, per)`)."""
        if self.values:
            raise ValueError(f"{self.msgid!r} has its values already")
        if ordered:
            names = [name for name in _order(self.msgid) if name not in values]
            if len(ordered) != len(names):
                raise ValueError(f"{self.msgid!r} takes {names} in order, not {len(ordered)} values")
            values = dict(zip(names, ordered), **values)
        if values.keys() != _fields(self.msgid):
            raise ValueError(f"{self.msgid!r} takes {sorted(_fields(self.msgid))}, not {sorted(values)}")
        if self.count is not None and not _is_whole(values[self.count]):
            raise ValueError(f"{self.msgid!r}: the count {self.count} must be a whole number")
        return Text(self.msgid, self.plural, self.count, tuple(sorted(values.items())))

    def render(self, names: Sequence[str], gettext: Gettext, ngettext: Ngettext) -> str:
        """The text in the language of `gettext` and `ngettext`, with the players' names."""
        if self.plural is None or self.count is None:
            template = gettext(self.msgid)
        else:
            count = dict(self.values)[self.count]
            assert isinstance(count, int)  # __call__: a whole number
            template = ngettext(self.msgid, self.plural, count)
        return template.format_map({name: _show(value, names, gettext, ngettext) for name, value in self.values})

    def text(self, names: Sequence[str]) -> str:
        """The text in English: the templates themselves."""
        return self.render(names, _english, _english_plural)


# A value in a text: a player, a number, a value from the input already quoted (`quoted`), a
# symbol such as 7♥, or another text (a clause whose words are translated in their turn).
Value = Seat | int | Fraction | Decimal | str | Text


def _english(msgid: str) -> str:
    return msgid


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


@functools.cache  # a replay fills in thousands of texts from a few dozen templates
def _fields(template: str) -> frozenset[str]:
    """The placeholders of a template, `{name}` each."""
    return frozenset(part.partition("}")[0] for part in template.split("{")[1:])


@functools.cache
def _order(template: str) -> tuple[str, ...]:
    """The placeholders of a template in the order it first names them."""
    return tuple(dict.fromkeys(part.partition("}")[0] for part in template.split("{")[1:]))


def _is_whole(value: Value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# Halves and thirds, as players write them (a text holds exact numbers, never floats).
VULGAR = {Fraction(1, 2): "½", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔", Fraction(1, 4): "¼", Fraction(3, 4): "¾",
          Fraction(1, 6): "⅙", Fraction(5, 6): "⅚"}


def _show(value: Value, names: Sequence[str], gettext: Gettext, ngettext: Ngettext) -> str:
    # The usual values first, by their exact type: a sheet's reasons are written by the thousand.
    if type(value) is int or type(value) is str:
        return str(value)
    if type(value) is Seat:
        return names[value.index]
    if isinstance(value, Seat):
        return names[value.index]
    if isinstance(value, Text):
        return value.render(names, gettext, ngettext)
    if isinstance(value, Fraction) and value.denominator != 1:
        whole, part = divmod(abs(value), 1)
        if part in VULGAR:
            return f"{'-' if value < 0 else ''}{whole or ''}{VULGAR[part]}"
    return str(value)


def quoted(value: object) -> str:
    """A value from the input as a text shows it: its repr, cut to 40 characters."""
    text = repr(value)
    return text[:37] + "..." if len(text) > 40 else text
