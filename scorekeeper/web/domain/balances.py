"""What the ledger's writes work out from the few rows they read (docs/club.md §3-§4): a currency's balances from
its obligations and what each player paid and received in all, one obligation's line from its debtor's rows, and
where a pulka's players stand. Every figure is the engine's, as the whole ledger's are (domain.ledger), so that
a write answers what the ledger shows after it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Protocol

from ...engine import SettleUp, balances_of, debtor_standing, order_key, settle_up
from .ledger import Line, ObligationRow, Row, line_of
from .players import Player


class Standing(Protocol):
    """A currency's balances and the players they are of: a whole ledger, or what a write reads."""

    @property
    def currency(self) -> str: ...

    @property
    def players(self) -> Mapping[str, Player]: ...

    @property
    def balances(self) -> Mapping[str, Decimal]: ...

    def name(self, player: str) -> str: ...


@dataclass(frozen=True)
class Balances:
    """A currency's balances, as the ledger's are (every player on a row, even at 0), from its obligations and
    what each player paid less what he received, reversals counted as minus."""

    currency: str
    players: Mapping[str, Player]
    balances: Mapping[str, Decimal]

    @classmethod
    def of(cls, currency: str, players: Mapping[str, Player], obligations: Sequence[ObligationRow],
           paid: Mapping[str, Decimal]) -> Balances:
        return cls(currency, players, balances_of([e.obligation for e in obligations], paid))

    def name(self, player: str) -> str:
        return self.players[player].name if player in self.players else "?"

    def settle_up(self, unit: Decimal | None) -> SettleUp[str]:
        """The fewest payments that bring every balance to 0 (in a cash unit, if one is given)."""
        return settle_up(self.balances, unit)


def line_among(entry: ObligationRow, on_it: Sequence[Row], balance: Decimal, theirs: Sequence[ObligationRow],
               paid: Mapping[str, Decimal]) -> Line:
    """The obligation's line as the ledger shows it, from its debtor's rows alone: `on_it`, the payments linked to
    it (oldest first); `balance`, its debtor's (his rows alone make it); `theirs`, every obligation of his in the
    currency; `paid`, what the payments linked to each of those paid (by id)."""
    o = entry.obligation
    ordered = sorted(theirs, key=lambda e: order_key(e.obligation, e.ended))
    states = debtor_standing(balance, [e.obligation for e in ordered], paid)
    state = next(s for s in states if s.obligation.id == o.id)
    return line_of(entry, state, [r.payment for r in on_it], {r.payment.id: r for r in on_it})


@dataclass(frozen=True)
class TableStanding:
    """Where the players of a pulka stand in the ledger now, in its currency (docs/club.md §4): each one's
    balance, everything included (that pulka too), as read at `read`."""

    ledger: Standing  # the ledger, or the balances a write read
    players: tuple[str, ...]  # their ids by seat, each once
    read: datetime

    @property
    def balances(self) -> tuple[tuple[str, Decimal], ...]:
        """Each player's balance (0 when he has no row in the currency), by seat."""
        return tuple((player, self.ledger.balances.get(player, Decimal(0))) for player in self.players)

    @property
    def settled(self) -> bool:
        """Every one of them at 0: nothing to show."""
        return not any(amount for _, amount in self.balances)

    @property
    def among_themselves(self) -> bool:
        """Their balances sum to 0: the table owes only itself, and its own settle-up settles all of it."""
        return sum((amount for _, amount in self.balances), Decimal(0)) == 0

    @property
    def writable(self) -> bool:
        """Every one of them is the caller's own player: he may record their settle-up."""
        return all(player in self.ledger.players and self.ledger.players[player].own for player in self.players)

    def settle_up(self, unit: Decimal | None = None) -> SettleUp[str]:
        """The fewest payments that bring their balances to 0 (in a cash unit if one is given); only when
        `among_themselves`."""
        return settle_up(dict(self.balances), unit)
