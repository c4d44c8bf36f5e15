"""How numbers and deals are written on the sheet, the pages and the PDF: one place for all three."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from ..engine import Deal, DealType, Word

# Halves and thirds come from split whists; players write them as vulgar fractions.
_VULGAR = {
    Fraction(1, 2): "½", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔", Fraction(1, 4): "¼", Fraction(3, 4): "¾",
    Fraction(1, 6): "⅙", Fraction(5, 6): "⅚",
}


MINUS = "\u2212"
_WORDS = {Word.WHIST: "whist", Word.PASS: "pass", Word.HALF: "half-whist"}


def points(value: int | Fraction) -> str:
    """4, −1, 2½, 53⅓: the way a player writes it."""
    value = Fraction(value)
    sign = MINUS if value < 0 else ""
    whole, part = divmod(abs(value), 1)
    if not part:
        return f"{sign}{whole}"
    if part in _VULGAR:
        return f"{sign}{whole or ''}{_VULGAR[part]}"
    return f"{sign}{float(abs(value)):.2f}"


def signed(value: int | Fraction | Decimal) -> str:
    """+4, −1, +263.33: points, or money and balances to the cent."""
    text = f"{abs(value):.2f}" if isinstance(value, Decimal) else points(abs(value))
    return (MINUS if value < 0 else "+" if value > 0 else "") + text


def decimal(value: Decimal) -> str:
    """0.5, 1, 10: a rule's money value without trailing zeros or exponent."""
    return format(value.normalize(), "f")


def describe(deal: Deal, names: Sequence[str], k: int = 0) -> str:
    """One line of the protocol: "B 8♦: C whist, A whist; tricks B 6, A 3, C 1"."""
    tricks = ", ".join(f"{names[seat]} {count}" for seat, count in (deal.tricks or {}).items())
    if deal.type is DealType.RASPASY:
        return f"Raspasy{f' #{k}' if k > 1 else ''}: {tricks}"
    if deal.type is DealType.MISERE:
        taken = deal.tricks[deal.declarer]
        return f"{names[deal.declarer]} misère: {taken} trick{'' if taken == 1 else 's'}"
    text = f"{names[deal.declarer]} {deal.contract.label}"
    if deal.whist is None:
        text += " (checked)"
    else:
        text += ": " + ", ".join(f"{names[seat]} {_WORDS[Word(word)]}" for seat, word in deal.whist.items())
        if deal.open:
            text += " (open)"
    return f"{text}; tricks {tricks}" if tricks else text
