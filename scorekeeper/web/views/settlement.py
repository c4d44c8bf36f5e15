"""A settled sheet as pages show it: the balances, who pays whom, and the amnesty and pairwise tables to
check it by hand. For any sheet: a pulka's after its last deal, or one typed in from paper."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from ...engine import Settlement
from ...engine.cash import cash_transfers, in_cash, left_owed
from ...engine.settled import Settled

# The units a table settles in cash, in its currency (a cent: as exact as money goes).
CASH_UNITS = tuple(Decimal(unit) for unit in ("0.01", "0.10", "0.50", "1", "5", "10", "50", "100", "500", "1000"))
CASH_COOKIE = "cash"  # the unit this browser's table settles in, for every pulka and the ledger


def cash_unit(value: str | None) -> Decimal | None:
    """A unit of CASH_UNITS from a query or a cookie; anything else (a cent too) is no rounding to cash."""
    return next((unit for unit in CASH_UNITS[1:] if value == str(unit)), None)


def balances(s: Settled, currency: str) -> dict[str, Any]:
    """The balance as the pages show it: exact whists (263, −48⅔) beside the money in cents, and whether
    the money had to be rounded (then some player's money is not exactly his whists × the price)."""
    return {
        "currency": currency,
        "rows": [{"name": row.name, "net": row.net, "money": row.money} for row in s.standings],
        "rounded": s.rounded,
        "sum_net": s.sum_net,
        "sum_money": s.sum_money,
    }


def in_cash_view(names: Sequence[str], settled: Settlement, unit: Decimal) -> dict[str, Any]:
    """The money rounded to the unit a table pays in, still summing to zero, each row beside its exact cents
    and the difference the rounding made; who pays whom in cash, and who still owes whom what it leaves."""
    cash = in_cash(settled.money, unit)
    return {
        "unit": unit,
        "rows": [{"name": name, "money": settled.money[i], "cash": cash[i], "rounding": cash[i] - settled.money[i]}
                 for i, name in enumerate(names)],
        "rounded": cash != settled.money,
        "transfers": [{"from": names[t.payer], "to": names[t.payee], "amount": t.amount}
                      for t in cash_transfers(cash)],
        # The rounding's remainders, said as who still owes whom: the Rounding column's figures in words.
        "left": [{"from": names[t.payer], "to": names[t.payee], "amount": t.amount}
                 for t in left_owed(settled.money, cash)],
    }


def settlement(s: Settled, currency: str) -> dict[str, Any]:
    """Every step of the settlement: balances, the amnesty, the gora in whists, the pairwise table, transfers."""
    return {
        "finished": s.finished,
        "currency": currency,
        "whist_price": s.whist_price,
        "players": [{"name": row.name, "net": row.net, "balance": row.balance, "money": row.money}
                    for row in s.standings],
        "amnesty": s.amnesty,
        "gora": [row.gora for row in s.standings],
        "gora_left": [row.gora_left for row in s.standings],
        "gora_whists": [row.gora_whists for row in s.standings],
        "pairwise": [list(row) for row in s.pairwise],
        "transfers": [{"from": p.payer, "to": p.payee, "amount": p.amount} for p in s.payments],
        "sum_net": s.sum_net,
        "sum_money": s.sum_money,
    }
