"""A settled sheet with its players' names: the one projection of a settlement (docs/rules.md §9, §15) that the
pages, the PDF, the command line and the result file show. Exact values stay exact (Fractions, Decimals):
each edge writes them its own way. For any sheet: a pulka's after its deals, or one typed in from paper."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from . import Points, Rules, Settlement, Sheet, Transfer, settle


@dataclass(frozen=True)
class SettledPlayer:
    """One player's line of the settlement."""

    name: str
    pulya: Points
    gora: Points
    gora_left: Points  # after the amnesty
    gora_whists: Fraction  # what the others write on him for his gora left
    net: Fraction  # exact whists
    balance: Decimal  # whists, to 2 decimals
    money: Decimal  # cents, summing to exactly 0


@dataclass(frozen=True)
class Settled:
    players: tuple[str, ...]
    standings: tuple[SettledPlayer, ...]
    amnesty: Points  # the smallest gora, struck from every gora
    pairwise: tuple[tuple[Fraction, ...], ...]  # [i][j]: what i wins from j, in whists (0 on the diagonal)
    payments: tuple[Transfer[str], ...]  # the fewest that settle the money
    whist_price: Decimal
    finished: bool

    @property
    def rounded(self) -> bool:
        """Whether the money had to be rounded: some player's money is not exactly his whists × the price."""
        return any(Fraction(s.money) != s.net * Fraction(self.whist_price) for s in self.standings)

    @property
    def sum_net(self) -> Fraction:
        return sum((s.net for s in self.standings), Fraction(0))

    @property
    def sum_money(self) -> Decimal:
        return sum((s.money for s in self.standings), Decimal(0))


def settled(players: Sequence[str], sheet: Sheet, rules: Rules, settlement: Settlement | None = None) -> Settled:
    """The settlement of `sheet` (`settlement` if already made), with names."""
    s = settlement or settle(sheet, rules)
    names = tuple(players)
    return Settled(
        players=names,
        standings=tuple(SettledPlayer(name, sheet.pulya[i], sheet.gora[i], sheet.gora[i] - s.amnesty, s.gora_whists[i],
                                 s.net[i], s.balance[i], s.money[i]) for i, name in enumerate(names)),
        amnesty=s.amnesty,
        pairwise=s.pairwise,
        payments=tuple(Transfer(names[t.payer], names[t.payee], t.amount) for t in s.transfers),
        whist_price=Decimal(rules.whist_price),
        finished=sheet.finished,
    )
