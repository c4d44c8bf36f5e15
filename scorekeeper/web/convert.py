"""The one place where rows, forms and JSON become engine objects, and back.

Rows hold seats (ints); the engine takes seats; names appear only when a
pulka file or an API body is read or written.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .. import pulyafile
from ..engine import Code, Contract, Deal, DealType, Rules, Sheet, Word
from ..engine.deals import defenders
from .errors import Refused, problem_json
from .models import DealRow, PulkaRow


def rules_of(row: PulkaRow) -> Rules:
    overrides = dict(row.rules)
    return Rules.of(overrides.pop("preset"), **overrides)


def players_of(row: PulkaRow) -> tuple[str, ...]:
    return tuple(seat.player.name for seat in row.seats)


def _seats(mapping: Mapping[str, Any] | None) -> dict[int, Any] | None:
    return None if mapping is None else {int(seat): value for seat, value in mapping.items()}


def deal_of(row: DealRow) -> Deal:
    return Deal(DealType(row.type), row.declarer, Contract.parse(row.contract), _seats(row.whist),
                _seats(row.tricks), row.open)


def deal_row_values(deal: Deal) -> dict[str, Any]:
    """Column values of a deal row (without pulka_id and position)."""
    return {
        "type": deal.type.value,
        "declarer": deal.declarer,
        "contract": str(deal.contract) if deal.contract else None,
        "whist": None if deal.whist is None else {str(s): str(w) for s, w in deal.whist.items()},
        "tricks": None if deal.tricks is None else {str(s): t for s, t in deal.tricks.items()},
        "open": deal.open,
    }


def pulka_of(players: tuple[str, ...], rules: Rules, deals: tuple[Deal, ...], first_dealer: int) -> pulyafile.Pulka:
    return pulyafile.Pulka(players, rules, deals, first_dealer)


# -- the JSON API: deals by name, exactly as the pulka file writes them ----------------


def deal_from_json(item: object, players: tuple[str, ...], number: int) -> Deal:
    """A deal object of the pulya/1 file (names); Refused with the file's codes when malformed."""
    # The file's own reader, so that the API and the pulka file take exactly the same deals.
    deal, problems = pulyafile.read_deal(item, {name: seat for seat, name in enumerate(players)}, number)
    if problems:
        problems.sort(key=lambda p: p.code.rank)
        first = problems[0]
        raise Refused(422 if first.code is not Code.BAD_FORMAT else 400, first.code.value, first.text(players),
                      first.field, number, [problem_json(p, players) for p in problems])
    return deal


def deal_to_json(deal: Deal, players: tuple[str, ...]) -> dict[str, Any]:
    return pulyafile.deal_to_json(deal, players)


# -- the HTML form: a few taps, seats as numbers ----------------------------------------


def _number(text: object) -> int | str | None:
    """'' → None, '7' → 7; anything else stays text so the engine names it in its message."""
    text = str(text or "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        return text


def _tricks(data: Mapping[str, Any], seats: tuple[int, ...], talon_seat: int | None = None) -> dict[int, Any] | None:
    """The tricks of `seats`; when exactly one is left blank it is 10 − the rest, as players count."""
    values = {seat: _number(data.get(f"t{seat}")) for seat in seats}
    talon = _number(data.get(f"t{talon_seat}")) if talon_seat is not None else None
    blank = [seat for seat, value in values.items() if value is None]
    counts = [value for value in values.values() if isinstance(value, int)]
    if len(blank) == 1 and len(counts) == len(seats) - 1:
        rest = 10 - sum(counts) - (talon if isinstance(talon, int) else 0)
        if 0 <= rest <= 10:
            values[blank[0]] = rest
    tricks = {seat: value for seat, value in values.items() if value is not None}
    if talon is not None and talon != 0:
        tricks[talon_seat] = talon
    return tricks or None


def deal_from_form(data: Mapping[str, Any], sheet: Sheet, rules: Rules) -> Deal:
    """The deal form's fields (type, declarer, level, strain, w<seat>, open, t<seat>) as a deal to
    be written after `sheet`. Only what this deal needs is read, so a hidden field never counts."""
    kind = data.get("type") or DealType.GAME.value
    if kind not in DealType.__members__.values():
        raise Refused(422, Code.BAD_FORMAT.value, "choose a game, misère or raspasy", "type")
    kind = DealType(kind)
    active = sheet.active
    if kind is DealType.RASPASY:
        talon = sheet.sitting_out if rules.raspasy_dealer == "talon" else None
        return Deal(kind, tricks=_tricks(data, active, talon))
    declarer = _number(data.get("declarer"))
    if not isinstance(declarer, int):
        declarer = None
    if kind is DealType.MISERE:
        taken = _number(data.get(f"t{declarer}")) if declarer is not None else None
        return Deal(kind, declarer, tricks=None if taken is None else {declarer: taken})
    contract = Contract.parse(f"{data.get('level') or ''}{data.get('strain') or ''}")
    checked_ten = contract is not None and contract.level == 10 and rules.ten_checked
    whist = None
    if not checked_ten:
        whist = {}
        if declarer in active:
            for seat in defenders(active, declarer):
                if word := data.get(f"w{seat}"):
                    whist[seat] = word
    played = checked_ten or Word.WHIST in (whist or {}).values()
    lone = whist is not None and list(whist.values()).count(Word.WHIST) == 1
    return Deal(kind, declarer, contract, whist, _tricks(data, active) if played else None,
                lone and data.get("open") == "open")


def deal_to_form(deal: Deal) -> dict[str, str]:
    """The form fields that enter `deal` again (the edit form starts from them)."""
    data = {"type": deal.type.value}
    if deal.declarer is not None:
        data["declarer"] = str(deal.declarer)
    if deal.contract is not None:
        data["level"], data["strain"] = str(deal.contract.level), deal.contract.strain.value
    for seat, word in (deal.whist or {}).items():
        data[f"w{seat}"] = str(word)
    for seat, count in (deal.tricks or {}).items():
        data[f"t{seat}"] = str(count)
    data["open"] = "open" if deal.open else "closed"
    return data
