"""How numbers, deals and file names are written on the sheet, the pages, the PDF and the command
line: one place for all of them."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction

from .. import i18n_engine
from ..engine import Deal, DealType, Preset, Text, Word
from ..words import Msg

# Halves and thirds come from split whists; players write them as vulgar fractions.
_VULGAR = {
    Fraction(1, 2): "½", Fraction(1, 3): "⅓", Fraction(2, 3): "⅔", Fraction(1, 4): "¼", Fraction(3, 4): "¾",
    Fraction(1, 6): "⅙", Fraction(5, 6): "⅚",
}


MINUS = "\u2212"
# The presets as players name them (the pages, the drawing's caption and the PDF).
PRESET_TITLES: dict[str, Text] = {Preset.SOCHI: Msg("Sochi"), Preset.LENINGRAD: Msg("Leningrad"), Preset.ROSTOV: Msg("Rostov")}
_WORDS = {Word.WHIST: Msg("whist"), Word.PASS: Msg("pass"), Word.HALF: Msg("half-whist")}
RASPASY = Msg("Raspasy: {tricks}")
RASPASY_NTH = Msg("Raspasy #{k}: {tricks}")
MISERE = Msg("{player} misère: {count} trick", "{player} misère: {count} tricks", "count")
CHECKED = Msg("{game} (checked)")
WHISTS = Msg("{game}: {words}")
OPEN = Msg("{text} (open)")
TRICKS = Msg("{text}; tricks {tricks}")


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
    text = f"{abs(value):.2f}" if isinstance(value, Decimal) else points(-value if value < 0 else value)
    return (MINUS if value < 0 else "+" if value > 0 else "") + text


def chain(values: Sequence[int | Fraction]) -> str:
    """Running totals as paper writes them: 2.6.10 (empty when nothing was written)."""
    return ".".join(points(v) for v in values)


def amount(value: Decimal | int, currency: str = "", sign: bool = False) -> str:
    """Money and balances to the cent: 263.33, −1.50, +4.00 ₽."""
    value = Decimal(value).quantize(Decimal("0.01"))
    text = f"{abs(value):.2f}"
    if value < 0:
        text = MINUS + text
    elif sign and value > 0:
        text = "+" + text
    return f"{text} {currency}".rstrip()


def decimal(value: Decimal) -> str:
    """0.5, 1, 10: a rule's money value without trailing zeros or exponent."""
    return format(value.normalize(), "f")


def describe(deal: Deal, names: Sequence[str], k: int = 0, language: str = "en") -> str:
    """One line of the protocol: "B 8♦: C whist, A whist; tricks B 6, A 3, C 1" (in `language`: «B 8♦: C
    вист, A вист; взятки B 6, A 3, C 1»)."""
    catalog = i18n_engine.catalog(language)

    def say(text: Text) -> str:
        return text.render(names, catalog.gettext, catalog.ngettext)

    tricks = ", ".join(f"{names[seat]} {count}" for seat, count in (deal.tricks or {}).items())
    if deal.type is DealType.RASPASY:
        return say(RASPASY_NTH(k=k, tricks=tricks) if k > 1 else RASPASY(tricks=tricks))
    assert deal.declarer is not None  # a valid deal: a game or misère has a declarer
    if deal.type is DealType.MISERE:
        assert deal.tricks is not None and isinstance(taken := deal.tricks[deal.declarer], int)
        return say(MISERE(player=names[deal.declarer], count=taken))
    assert deal.contract is not None
    text = f"{names[deal.declarer]} {deal.contract.label}"
    if deal.whist is None:
        text = say(CHECKED(game=text))
    else:
        words = ", ".join(f"{names[seat]} {say(_WORDS[Word(str(word))])}" for seat, word in deal.whist.items())
        text = say(WHISTS(game=text, words=words))
        if deal.open:
            text = say(OPEN(text=text))
    return say(TRICKS(text=text, tricks=tricks)) if tricks else text


_CYRILLIC = dict(zip(
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s", "t", "u",
     "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"],
))


def filename(title: str, day: date | datetime, ext: str) -> str:
    """`pulka-u-ani-2025-03-08.pdf`: ASCII only, safe in any Content-Disposition header."""
    text = "".join(_CYRILLIC.get(ch, ch) for ch in title.lower())
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    slug = re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:60].strip("-") or "pulka"
    day = day.date() if isinstance(day, datetime) else day
    return f"{slug}-{day.isoformat()}.{ext}"
