"""How numbers and deals are written on the sheet and in the PDF, shared by both."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from ..engine import Deal, DealType, Word

# Halves and thirds come from split whists; players write them as vulgar fractions.
_VULGAR = {
    Fraction(1, 2): "½", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔", Fraction(1, 4): "¼", Fraction(3, 4): "¾",
    Fraction(1, 6): "⅙", Fraction(5, 6): "⅚",
}


def points(value: int | Fraction) -> str:
    """4, -1, 2½, 53⅓; the hyphen-minus keeps chains narrow."""
    if isinstance(value, Fraction) and value.denominator == 1:
        value = value.numerator
    if isinstance(value, int):
        return str(value)
    sign = "-" if value < 0 else ""
    whole, part = divmod(abs(value), 1)
    if part in _VULGAR:
        return f"{sign}{whole or ''}{_VULGAR[part]}"
    return f"{sign}{abs(value).numerator}/{value.denominator}"


def signed(value: int | Fraction | Decimal) -> str:
    """+263.33 / −214.67 for balances, with a real minus sign."""
    text = points(abs(value)) if not isinstance(value, Decimal) else f"{abs(value):.2f}"
    return ("−" if value < 0 else "+" if value > 0 else "") + text


def decimal(value: Decimal) -> str:
    """0.5, 1, 10: a rule's money value without trailing zeros or exponent."""
    return format(value.normalize(), "f")


def describe(deal: Deal, names: tuple[str, ...] | list[str], k: int = 0) -> str:
    """One line for the protocol: what happened at the table."""
    tricks = ", ".join(f"{names[seat]} {count}" for seat, count in (deal.tricks or {}).items())
    if deal.type is DealType.RASPASY:
        text = "raspasy" + (f" #{k}" if k > 1 else "")
    elif deal.type is DealType.MISERE:
        text = f"{names[deal.declarer]} misère"
    else:
        text = f"{names[deal.declarer]} {deal.contract.label}"
        if deal.whist:
            words = {Word.WHIST: "whist", Word.PASS: "pass", Word.HALF: "half-whist"}
            text += " · " + ", ".join(f"{names[seat]} {words[Word(word)]}" for seat, word in deal.whist.items())
            if deal.open:
                text += " (open)"
        elif deal.contract.level == 10:
            text += " · checked"
    if tricks:
        text += " · tricks " + tricks
    elif deal.type is DealType.GAME:
        text += " · not played"
    return text
