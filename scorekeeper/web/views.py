"""What pages and the API show: the sheet, the protocol, the settlement, deal previews.

Values stay exact here (ints, Fractions, Decimals); templates format them with
the filters below and the API turns them into JSON numbers with `jsonable`.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ..engine import Column, DealResult, Entry
from ..engine.rules import json_value
from ..render.svg import ORIENTATIONS, sheet_svg
from ..render.text import MINUS, describe, points, signed
from . import convert
from .service import State

def chain(values: Sequence[Any]) -> str:
    """Running totals as on paper: 2.6.10."""
    return ".".join(points(v) for v in values) or "—"


def amount(value: Any, currency: str = "", sign: bool = False) -> str:
    value = Decimal(value).quantize(Decimal("0.01"))
    text = f"{abs(value):.2f}"
    if value < 0:
        text = MINUS + text
    elif sign and value > 0:
        text = "+" + text
    return f"{text} {currency}".rstrip()


def jsonable(value: Any) -> Any:
    """Exact values as JSON numbers (ints stay ints); containers recursively."""
    if isinstance(value, dict):
        return {k: jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, (Fraction, Decimal)):
        return json_value(value)
    return value


FILTERS = {"points": points, "signed": signed, "chain": chain, "amount": amount}


# -- deals ------------------------------------------------------------------------------


def entry_view(entry: Entry, names: Sequence[str]) -> dict[str, Any]:
    view = {"player": names[entry.player], "column": entry.column.value}
    if entry.on is not None:
        view["on"] = names[entry.on]
    return view | {"points": entry.points, "reason": entry.text(names)}


def summary(entries: Sequence[Entry], names: Sequence[str]) -> list[str]:
    """What a deal writes, one phrase per player and column: "Boris: pulya +4", "Anna: 8 whists on Boris"."""
    totals: dict[tuple[int, Column, int | None], Any] = {}
    for e in entries:
        key = (e.player, e.column, e.on)
        totals[key] = totals.get(key, 0) + e.points
    lines = []
    for (player, column, on), total in totals.items():
        if column is Column.WHISTS:
            what = f"{points(total)} whist{'' if total == 1 else 's'} on {names[on]}"
        else:
            what = f"{column.value} {signed(total)}"
        lines.append(f"{names[player]}: {what}")
    return lines


def closed_by(result: DealResult, before: Sequence[Any], size: int) -> list[int]:
    """Seats whose pulya reached its size in this deal."""
    return [seat for seat, value in enumerate(result.sheet.pulya) if value >= size > before[seat]]


def deal_view(state: State, result: DealResult) -> dict[str, Any]:
    names = state.players
    before = state.sheet_before(result.number)
    closed = closed_by(result, before.pulya, state.rules.pulya_size)
    view = {"n": result.number, "dealer": names[result.dealer]}
    if state.n == 4:
        view["sitting_out"] = names[result.dealer]
    return view | {
        "deal": convert.deal_to_json(result.deal, names),
        "text": describe(result.deal, names, result.k),
        "raspasy_k": result.k or None,
        "entries": [entry_view(e, names) for e in result.entries],
        "summary": summary(result.entries, names),
        "pulya_closed": [names[s] for s in closed],
        "finished": result.sheet.finished and not before.finished,
    }


def protocol(state: State) -> list[dict[str, Any]]:
    key = "protocol"
    if key not in state.cache:
        state.cache[key] = [deal_view(state, r) for r in state.replay.results]
    return state.cache[key]


# -- the sheet and the settlement --------------------------------------------------------


def next_deal(state: State) -> dict[str, Any] | None:
    sheet, names = state.sheet, state.players
    if sheet.finished:
        return None
    return {
        "n": sheet.deals + 1,
        "dealer": names[sheet.dealer],
        "first_hand": names[sheet.active[0]],
        "active": [names[s] for s in sheet.active],
        "sitting_out": names[sheet.sitting_out] if sheet.sitting_out is not None else None,
        "least_level": sheet.least_level(state.rules),
    }


def sheet_view(state: State) -> dict[str, Any]:
    if "sheet" in state.cache:
        return state.cache["sheet"]
    sheet, names, rules, replay = state.sheet, state.players, state.rules, state.replay
    settlement = state.settlement
    rows = []
    for i, name in enumerate(names):
        rows.append({
            "name": name,
            "pulya": sheet.pulya[i],
            "pulya_chain": replay.chain(Column.PULYA, i),
            "pulya_closed": sheet.pulya[i] >= rules.pulya_size,
            "gora": sheet.gora[i],
            "gora_chain": replay.chain(Column.GORA, i),
            "whists": [{"on": names[j], "total": sheet.whists[i][j], "chain": replay.chain(Column.WHISTS, i, j)}
                       for j in range(state.n) if j != i],
            "balance": settlement.balance[i],
            "money": settlement.money[i],
        })
    last = deal_view(state, replay.results[-1]) if replay.results else None
    view = {
        "id": state.id,
        "name": state.name,
        "version": state.version,
        "players": list(names),
        "currency": state.currency,
        "rules": rules.to_dict(),
        "deals": sheet.deals,
        "finished": sheet.finished,
        "streak": sheet.streak,
        "next": next_deal(state),
        "table": rows,
        "last": last,
    }
    state.cache["sheet"] = view
    return view


def orientation_of(value: str | None) -> str:
    """The drawing's orientation from a query or a cookie; anything unknown is the paper's own."""
    return value if value in ORIENTATIONS else "table"


def drawing(state: State, orientation: str = "table") -> str:
    """The paper sheet as inline SVG, escaped by sheet_svg; once per pulka version and orientation."""
    key = f"drawing:{orientation}"
    if key not in state.cache:
        state.cache[key] = sheet_svg(state.players, state.rules, state.replay, orientation=orientation,
                                     currency=state.currency)
    return state.cache[key]


def settlement_view(state: State) -> dict[str, Any]:
    if "settlement" in state.cache:
        return state.cache["settlement"]
    s, names = state.settlement, state.players
    n = state.n
    view = {
        "finished": state.sheet.finished,
        "currency": state.currency,
        "whist_price": state.rules.whist_price,
        "players": [{"name": names[i], "net": s.net[i], "balance": s.balance[i], "money": s.money[i]}
                    for i in range(n)],
        "amnesty": s.amnesty,
        "gora": list(state.sheet.gora),
        "gora_left": [g - s.amnesty for g in state.sheet.gora],
        "gora_whists": list(s.gora_whists),
        "pairwise": [[s.pairwise[i][j] for j in range(n)] for i in range(n)],
        "transfers": [{"from": names[t.payer], "to": names[t.payee], "amount": t.amount} for t in s.transfers],
        "sum_net": sum(s.net, Fraction(0)),
        "sum_money": sum(s.money, Decimal(0)),
    }
    state.cache["settlement"] = view
    return view
