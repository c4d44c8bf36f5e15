"""A pulka's frozen result (docs/club.md §1): stored when it ends (docs/rules.md §8.1) or its owner closes it, and read
by the list, the statistics and the ledger instead of a fresh replay. A frozen pulka takes no write until its
owner reopens it; a later engine that would score it otherwise is reported (`scorekeeper stats verify`),
never applied."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

from ... import __version__
from ...engine import Replay, Roles, Settlement, Transfer, roles
from ...files.statsfile import read_roles, stored_roles


class Ending(StrEnum):
    FINISHED = "finished"  # its last deal closed the pulka (docs/rules.md §8.1)
    CLOSED = "closed"  # its owner ended it early: settled as it stands


class Event(StrEnum):
    """What the pulka's log of endings records, besides the deals."""

    FINISHED = "finished"
    CLOSED = "closed"
    REOPENED = "reopened"


@dataclass(frozen=True)
class ClosePulka:
    """Its owner ends the pulka as it stands (services.results.close)."""

    uid: str
    expected: int | None = None  # the version the caller last saw; None: any


@dataclass(frozen=True)
class ReopenPulka:
    """Its owner takes the pulka's result back, to change it (services.results.reopen)."""

    uid: str
    expected: int | None = None  # the version the caller last saw; None: any


@dataclass(frozen=True)
class Result:
    """What a pulka's end settled, exactly (docs/rules.md §15), with when, how, by whom and which engine."""

    ending: Ending
    at: datetime
    by: str  # who closed it; "" when its last deal finished it
    engine: str  # the scorekeeper version that settled it
    deals: int
    net: tuple[Fraction, ...]  # exact whists by seat, summing to 0
    money: tuple[Decimal, ...]  # cents by seat, summing to 0
    transfers: tuple[Transfer[int], ...]
    pairwise: tuple[tuple[Fraction, ...], ...]  # [i][j]: what i wins from j
    roles: tuple[Roles, ...]  # each seat's deals by role, for the statistics (docs/club.md §2)

    @classmethod
    def settled(cls, s: Settlement, replayed: Replay, ending: Ending, at: datetime, by: str = "") -> Result:
        return cls(ending, at, by, __version__, len(replayed.results), s.net, s.money, s.transfers, s.pairwise,
                   roles(replayed))

    def same_score(self, other: Result) -> bool:
        """Whether `other` settles the pulka as this one did (when, how and which engine aside)."""
        return (self.deals, self.net, self.money, self.transfers, self.pairwise, self.roles) == (
            other.deals, other.net, other.money, other.transfers, other.pairwise, other.roles)

    def stored(self) -> dict[str, Any]:
        return {"ending": self.ending.value, "at": self.at.isoformat(), "by": self.by, "engine": self.engine,
                "deals": self.deals, "net": [str(v) for v in self.net], "money": [str(v) for v in self.money],
                "transfers": [[t.payer, t.payee, str(t.amount)] for t in self.transfers],
                "pairwise": [[str(v) for v in row] for row in self.pairwise],
                "roles": [stored_roles(r) for r in self.roles]}

    @classmethod
    def read(cls, data: object) -> Result | None:
        """From what `stored` wrote; None for nothing (a pulka not frozen)."""
        if not isinstance(data, dict):
            return None
        return cls(Ending(data["ending"]), datetime.fromisoformat(data["at"]), str(data["by"]), str(data["engine"]),
                   int(data["deals"]), tuple(Fraction(v) for v in data["net"]),
                   tuple(Decimal(v) for v in data["money"]),
                   tuple(Transfer(int(p), int(q), Decimal(a)) for p, q, a in data["transfers"]),
                   tuple(tuple(Fraction(v) for v in row) for row in data["pairwise"]),
                   tuple(read_roles(r) for r in data["roles"]))

