"""How numbers, deals and file names are written on the sheet, the pages, the PDF and the command
line: one place for all of them."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from babel.numbers import format_decimal

from ..i18n import translate
from ..engine import (PARAMETERS, Deal, DealType, Kind, Parameter, Preset, Rules, SingleWhistMade, Text, Word,
                      choice_title)
from ..engine.texts import VULGAR  # halves and thirds come from split whists, written as players write them
from ..i18n.words import Msg

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


def _decimals(value: Decimal | float, places: int, language: str) -> str:
    """A number without its sign, to `places` decimals as the language writes it: 1234.50 in English, 1 234,50
    in Russian (a decimal comma, a non-breaking space between thousands)."""
    if language == "ru":
        return format_decimal(abs(Decimal(value)), format="#,##0." + "0" * places, locale="ru")
    return f"{abs(value):.{places}f}"


def points(value: int | Fraction, language: str = "en") -> str:
    """4, −1, 2½, 53⅓: the way a player writes it."""
    if value.denominator == 1:  # nearly every number on a sheet: no Fraction arithmetic for it
        whole = int(value.numerator)
        return f"{MINUS}{-whole}" if whole < 0 else str(whole)
    value = Fraction(value)
    sign = MINUS if value < 0 else ""
    whole, part = divmod(abs(value), 1)
    if not part:
        return f"{sign}{whole}"
    if part in VULGAR:
        return f"{sign}{whole or ''}{VULGAR[part]}"
    return sign + _decimals(float(value), 2, language)


def signed(value: int | Fraction | Decimal, language: str = "en") -> str:
    """+4, −1, +263.33 (+263,33 in Russian): points, or money and balances to the cent."""
    text = _decimals(value, 2, language) if isinstance(value, Decimal) else points(-value if value < 0 else value,
                                                                                   language)
    return (MINUS if value < 0 else "+" if value > 0 else "") + text


def chain(values: Sequence[int | Fraction], language: str = "en") -> str:
    """Running totals as paper writes them: 2.6.10 (empty when nothing was written)."""
    return ".".join(points(v, language) for v in values)


def amount(value: Decimal | int, currency: str = "", sign: bool = False, language: str = "en") -> str:
    """Money and balances to the cent: 263.33, −1.50, +4.00 ₽ (263,33 ₽ in Russian)."""
    value = Decimal(value).quantize(Decimal("0.01"))
    text = _decimals(value, 2, language)
    if value < 0:
        text = MINUS + text
    elif sign and value > 0:
        text = "+" + text
    return f"{text}\u00a0{currency}" if currency else text  # the sum and its currency on one line


def decimal(value: Decimal, language: str = "en") -> str:
    """0.5, 1, 10 (0,5 in Russian): a rule's money value without trailing zeros or exponent."""
    text = format(value.normalize(), "f")
    return text.replace(".", ",") if language == "ru" else text


# Where a line may not break in a reason a player reads: around an operator between numbers ("1 × 6"),
# between a number and the word it counts ("12 вистов"), after an arrow and "№".
_UNBROKEN = re.compile(r"(?<=\d) (?=[×÷=+−\d])|(?<=[×÷=+−]) (?=[\d+−])|(?<=\d) (?=[^\W\d_])|(?<=[→№]) ")


def unbroken(text: str) -> str:
    """`text` with non-breaking spaces where a line break would split a number from what belongs to it."""
    return _UNBROKEN.sub("\u00a0", text)


YES, NO, NONE = Msg("yes"), Msg("no"), Msg("none")


DEFENDERS = Msg("defenders {count}")


def _split_not_asked(deal: Deal, rules: Rules) -> bool:
    """One whister under `single_whist_made: whister_all`: only the defence's total counts, so the deal form
    asks the declarer's count alone and the split between the defenders means nothing (domain.deals)."""
    return (deal.type is DealType.GAME and rules.single_whist_made is SingleWhistMade.WHISTER_ALL
            and len(deal.whisters) == 1 and deal.tricks is not None)


def rule_value(parameter: Parameter, value: object, language: str = "en") -> str:
    """A rule's value as players say it: «да», «вистующий пишет за обоих», 6, 7, 0,5; never a code."""
    say = translate.writer((), language)
    if parameter.kind is Kind.BOOL:
        return say(YES if value else NO)
    if isinstance(value, StrEnum):
        return say(choice_title(value))
    if isinstance(value, (tuple, list)):
        return (", " if parameter.kind is Kind.LEVELS else "-").join(map(str, value)) or say(NONE)
    if isinstance(value, Decimal):
        return decimal(value, language)
    if isinstance(value, Fraction):
        return points(value, language)
    return str(value)


def rules_in_words(rules: Rules, language: str = "en", only: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """Each rule (or each of `only`) as (its title, its value) in `language`."""
    say = translate.writer((), language)
    return [(say(p.title) if p.title else p.name,
             rule_value(p, getattr(rules, p.name), language))
            for p in PARAMETERS if only is None or p.name in only]


def describe(deal: Deal, names: Sequence[str], k: int = 0, language: str = "en", rules: Rules | None = None) -> str:
    """One line of the protocol: "B 8♦: C whist, A whist; tricks B 6, A 3, C 1" (in `language`: «B 8♦: C
    вист, A вист; взятки B 6, A 3, C 1»). Under `rules` where a lone whister's split is not asked, the
    defence's tricks are said as one count: "tricks B 6, defenders 4"."""
    say = translate.writer(names, language)
    counts = dict(deal.tricks or {})
    if rules is not None and _split_not_asked(deal, rules) and deal.declarer in counts:
        taken = counts.pop(deal.declarer)
        tricks = f"{names[deal.declarer]} {taken}, " + say(DEFENDERS(count=sum(c for c in counts.values()
                                                                                 if isinstance(c, int))))
    else:
        tricks = ", ".join(f"{names[seat]} {count}" for seat, count in counts.items())
    if deal.type is DealType.RASPASY:
        return say(RASPASY_NTH(k=k, tricks=tricks) if k > 1 else RASPASY(tricks=tricks))
    assert deal.declarer is not None  # a valid deal: a game or misère has a declarer
    if deal.type is DealType.MISERE:
        assert deal.tricks is not None and isinstance(taken := deal.tricks[deal.declarer], int)
        return say(MISERE(player=names[deal.declarer], count=taken))
    assert deal.contract is not None
    label = deal.contract.label_text
    text = f"{names[deal.declarer]} {label if isinstance(label, str) else say(label)}"
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


def latin(text: str) -> str:
    """`text` in ASCII: Cyrillic spelled in Latin letters (Аня: Anya), accents dropped, what has no spelling
    (₽, ♠) left out."""
    spelled = "".join(_latin_letter(ch) for ch in text)
    return unicodedata.normalize("NFKD", spelled).encode("ascii", "ignore").decode()


def _latin_letter(ch: str) -> str:
    found = _CYRILLIC.get(ch.lower())
    if found is None:
        return ch
    return found.capitalize() if ch.isupper() else found


def filename(title: str, day: date | datetime, ext: str) -> str:
    """`pulka-u-ani-2025-03-08.pdf`: ASCII only, safe in any Content-Disposition header."""
    slug = re.sub(r"[^a-z0-9]+", "-", latin(title.lower())).strip("-")[:60].strip("-") or "pulka"
    day = day.date() if isinstance(day, datetime) else day
    return f"{slug}-{day.isoformat()}.{ext}"
