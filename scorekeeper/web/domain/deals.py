"""Deal entry: a deal form's fields (seats as numbers) as the engine's deal, the way players count.

A count that tells the rest fills it in (the last hand's tricks as 10 − the others, 0 for the others when one
hand took all 10); with one whister under `single_whist_made: whister_all` only the declarer's count is
asked. The fields are lenient on purpose: text that is not a number stays text, so the engine refuses it and
names it in its own words, the same words the API and the pulka file get. static/js/tricks.js fills the form
in by the same rule (fill_tricks), and tests/data/trick_fill.json holds the cases both sides are tested on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...engine import Contract, Deal, DealType, Rules, Sheet, SingleWhistMade, defenders
from ...i18n.words import Msg
from .reading import digits
from .refusals import Refused


def whole_number(text: object) -> int | str | None:
    """'' → None, '7' → 7; anything else stays text so that the engine names it in its message."""
    text = str(text or "").strip()
    if not text:
        return None
    number = digits(text)
    return text if number is None else number


Count = int | str | None  # a count as the form sends it: a number, text that is not one, or a blank


def fill_tricks(counts: Sequence[Count], talon: Count = None) -> list[Count]:
    """`counts` (the hands' counts in seating order) with the blanks that one count tells filled in, as
    players count and as static/js/tricks.js fills the form in (tests/data/trick_fill.json, both tested on
    it). With the talon's count (a raspasy with four) they add up to 10: one blank gets 10 − the others when
    that is a count (0 to 10); several blanks get 0 each when the others already make 10 (a hand took all
    10); otherwise, or when any count or the talon's is text, the counts stay as they are."""
    given = [count for count in counts if count is not None]
    blanks = len(counts) - len(given)
    numbers = [count for count in [*given, 0 if talon is None else talon] if isinstance(count, int)]
    if not blanks or len(numbers) != len(given) + 1:
        return list(counts)
    left = 10 - sum(numbers)
    fill = (left if 0 <= left <= 10 else None) if blanks == 1 else (0 if left == 0 else None)
    return [fill if count is None else count for count in counts]


def _tricks(fields: Mapping[str, Any], seats: tuple[int, ...], talon_seat: int | None = None) -> dict[int, Any] | None:
    """The tricks of `seats`, the blanks that the others tell filled in (fill_tricks)."""
    talon = whole_number(fields.get(f"t{talon_seat}")) if talon_seat is not None else None
    counts = fill_tricks([whole_number(fields.get(f"t{seat}")) for seat in seats], talon)
    tricks = {seat: count for seat, count in zip(seats, counts, strict=True) if count is not None}
    if talon_seat is not None and talon is not None and talon != 0:
        tricks[talon_seat] = talon
    return tricks or None


def deal_from_fields(fields: Mapping[str, Any], sheet: Sheet, rules: Rules) -> Deal:
    """The deal form's fields (type, declarer, level, strain, w<seat>, open, t<seat>) as the deal written
    after `sheet`. Only what this deal needs is read, so a hidden field never counts."""
    kind = fields.get("type") or DealType.GAME.value
    if kind not in DealType.__members__.values():
        raise Refused(Msg("choose a game, misère or raspasy"), "type")
    kind = DealType(kind)
    active = sheet.active
    if kind is DealType.RASPASY:
        return Deal(kind, tricks=_tricks(fields, active, sheet.talon_seat(rules)))
    declarer = whole_number(fields.get("declarer"))
    declarer = declarer if isinstance(declarer, int) else None
    if kind is DealType.MISERE:
        taken = whole_number(fields.get(f"t{declarer}")) if declarer is not None else None
        return Deal(kind, declarer, tricks=None if declarer is None or taken is None else {declarer: taken})
    contract = Contract.parse(f"{fields.get('level') or ''}{fields.get('strain') or ''}")
    whist = None
    if not rules.checked_ten(contract):
        whist = {}
        if declarer in active:
            whist = {seat: word for seat in defenders(active, declarer) if (word := fields.get(f"w{seat}"))}
    words = Deal(kind, declarer, contract, whist)
    lone = len(words.whisters) == 1
    if not words.played(rules):
        tricks = None
    elif lone and lone_whist_total(rules) and declarer is not None:  # a whister: the declarer is in play
        passer = next(seat for seat in defenders(active, declarer) if seat not in words.whisters)
        tricks = _declarer_only(fields, declarer, words.whisters[0], passer)
    else:
        tricks = _tricks(fields, active)
    return Deal(kind, declarer, contract, whist, tricks, lone and fields.get("open") == "open")


def lone_whist_total(rules: Rules) -> bool:
    """Whether, with one whister (the other defender passed), only the defence's total of tricks counts, so
    the form asks for the declarer's count alone. True under `single_whist_made: whister_all`
    (scoring._game): made, the whister writes whists for the defence's total and his shortfall is measured
    on that total (_shortfall); remiz, `greedy` writes the total for the whister and `gentleman` halves the
    total between the two, and consolation counts the declarer's undertricks. Under `each_own` the passer
    writes whists for his own tricks, so the split counts and every count is asked."""
    return rules.single_whist_made is SingleWhistMade.WHISTER_ALL


def _declarer_only(fields: Mapping[str, Any], declarer: int, whister: int, passer: int) -> dict[int, Any] | None:
    """The tricks of a lone whist when only the defence's total counts (lone_whist_total): the declarer's
    count, and the rest stored as the whister's with 0 for the passer. The split between the two defenders
    is not recorded: it cannot change any score, so nobody is asked for it."""
    taken = whole_number(fields.get(f"t{declarer}"))
    if not isinstance(taken, int) or taken > 10:
        return None if taken is None else {declarer: taken}
    return {declarer: taken, whister: 10 - taken, passer: 0}


def fields_of(deal: Deal) -> dict[str, str]:
    """The form fields that enter `deal` again (the edit form starts from them)."""
    fields = {"type": deal.type.value, "open": "open" if deal.open else "closed"}
    if deal.declarer is not None:
        fields["declarer"] = str(deal.declarer)
    if deal.contract is not None:
        fields["level"], fields["strain"] = str(deal.contract.level), deal.contract.strain.value
    for seat, word in (deal.whist or {}).items():
        fields[f"w{seat}"] = str(word)
    for seat, count in (deal.tricks or {}).items():
        fields[f"t{seat}"] = str(count)
    return fields


# -- the writes, as a request asks for them (the edge reads them; services.deals makes them) ---------------


@dataclass(frozen=True)
class EnterDeal:
    """A deal added as the next one of the pulka (a restore adds again the deal an undo took back)."""

    uid: str
    deal: Deal
    expected: int | None = None  # the version the caller last saw; None: any


@dataclass(frozen=True)
class EditDeal:
    uid: str
    number: int
    deal: Deal
    expected: int | None = None


@dataclass(frozen=True)
class DeleteDeal:
    uid: str
    number: int
    expected: int | None = None


@dataclass(frozen=True)
class UndoDeal:
    """The last deal taken back."""

    uid: str
    expected: int | None = None
