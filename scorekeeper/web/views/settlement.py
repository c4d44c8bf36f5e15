"""A settled sheet as pages show it: the balances, who pays whom, and the amnesty and pairwise tables to
check it by hand. For any sheet: a pulka's after its last deal, or one typed in from paper."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

from ...engine import Rules, Settlement, Sheet
from ...engine.cash import cash_transfers, in_cash

# The units a table settles in cash, in its currency (a cent: as exact as money goes).
CASH_UNITS = tuple(Decimal(unit) for unit in ("0.01", "0.10", "0.50", "1", "5", "10", "50", "100", "500", "1000"))


def balances(names: Sequence[str], settlement: Settlement, rules: Rules, currency: str) -> dict[str, Any]:
    """The balance as the pages show it: exact whists (263, −48⅔) beside the money in cents, and whether
    the money had to be rounded (then some player's money is not exactly his whists × the price)."""
    s, price = settlement, Fraction(rules.whist_price)
    return {
        "currency": currency,
        "rows": [{"name": name, "net": s.net[i], "money": s.money[i]} for i, name in enumerate(names)],
        "rounded": any(Fraction(s.money[i]) != s.net[i] * price for i in range(len(names))),
        "sum_net": sum(s.net, Fraction(0)),
        "sum_money": sum(s.money, Decimal(0)),
    }


def in_cash_view(names: Sequence[str], settled: Settlement, unit: Decimal) -> dict[str, Any]:
    """The money rounded to the unit a table pays in, still summing to zero, each row beside its exact cents
    and the difference the rounding made; and who pays whom in cash."""
    cash = in_cash(settled.money, unit)
    return {
        "unit": unit,
        "rows": [{"name": name, "money": settled.money[i], "cash": cash[i], "rounding": cash[i] - settled.money[i]}
                 for i, name in enumerate(names)],
        "rounded": cash != settled.money,
        "transfers": [{"from": names[t.payer], "to": names[t.payee], "amount": t.amount}
                      for t in cash_transfers(cash)],
    }


def settlement(names: Sequence[str], sheet: Sheet, settled: Settlement, rules: Rules, currency: str) -> dict[str, Any]:
    """Every step of the settlement: balances, the amnesty, the gora in whists, the pairwise table, transfers."""
    s, n = settled, len(names)
    return {
        "finished": sheet.finished,
        "currency": currency,
        "whist_price": rules.whist_price,
        "players": [{"name": names[i], "net": s.net[i], "balance": s.balance[i], "money": s.money[i]}
                    for i in range(n)],
        "amnesty": s.amnesty,
        "gora": list(sheet.gora),
        "gora_left": [g - s.amnesty for g in sheet.gora],
        "gora_whists": list(s.gora_whists),
        "pairwise": [[s.pairwise[i][j] for j in range(n)] for i in range(n)],
        "transfers": [{"from": names[t.payer], "to": names[t.payee], "amount": t.amount} for t in s.transfers],
        "sum_net": sum(s.net, Fraction(0)),
        "sum_money": sum(s.money, Decimal(0)),
    }
