"""The pulkas that count (docs/club.md §1): a `Record` keeps what the figures need of one pulka, stored when it
is frozen and never worked out again, and a `Filter` says which records count, the same on every page, call
and file. Players are opaque keys (the web layer's ids)."""

from __future__ import annotations

import dataclasses
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Generic, Protocol, TypeVar

from .pulka import Replay
from .roles import Roles, roles
from .settlement import Settlement, settle

Who = TypeVar("Who", bound=Hashable)  # a player: a seat, a name or an id


class Day(Protocol):
    """A pulka's date: a `datetime.date` (its `started` in its own offset). Named by what is done with it,
    comparing, since the engine imports nothing that reads a clock."""

    def __lt__(self, other: Any, /) -> bool: ...

    def __le__(self, other: Any, /) -> bool: ...


@dataclass(frozen=True)
class Record(Generic[Who]):
    """What the figures need of one pulka, by seat: stored when it is frozen, never worked out again."""

    preset: str  # the preset it was created with
    currency: str
    started: Day  # its own local date
    finished: bool  # finished (docs/rules.md §8.1) or closed by hand
    players: tuple[Who, ...]
    net: tuple[Fraction, ...]  # exact whists (docs/rules.md §15)
    money: tuple[Decimal, ...]  # cents
    pairwise: tuple[tuple[Fraction, ...], ...]  # [i][j]: what i wins from j, in whists
    roles: tuple[Roles, ...]
    pulka: str = ""  # the pulka's id, for the lists that link to it
    minutes: int = 0  # how long it was played: from its start to its last deal

    @classmethod
    def of(cls, players: Sequence[Who], replay: Replay, started: Day, currency: str, closed: bool = False,
           settlement: Settlement | None = None, pulka: str = "", minutes: int = 0) -> Record[Who]:
        """The record of a replayed pulka (`settlement`, if already made, its settlement); `closed` when the
        owner ended it early."""
        s = settlement or settle(replay.sheet, replay.rules)
        return cls(replay.rules.preset.value, currency, started, replay.finished or closed, tuple(players),
                   s.net, s.money, s.pairwise, roles(replay), pulka, minutes)

    def seat(self, player: Who) -> int:
        return self.players.index(player)


@dataclass(frozen=True)
class Filter(Generic[Who]):
    """Which pulkas count (docs/club.md §1): the same on every page, call and file."""

    start: Day | None = None  # inclusive, on `Record.started`; None: open
    end: Day | None = None  # inclusive
    preset: str | None = None
    players: int | None = None  # 3 or 4
    currency: str | None = None
    with_: frozenset[Who] = frozenset()  # only pulkas every one of them sat in
    unfinished: bool = False  # count unfinished pulkas too, not only finished or closed ones

    def admits(self, record: Record[Who], player: Who | None = None) -> bool:
        """Whether `record` counts, for `player` when given (he sat in it)."""
        return ((self.unfinished or record.finished)
                and (self.start is None or self.start <= record.started)
                and (self.end is None or record.started <= self.end)
                and (self.preset is None or record.preset == self.preset)
                and (self.players is None or len(record.players) == self.players)
                and (self.currency is None or record.currency == self.currency)
                and self.with_.issubset(record.players)
                and (player is None or player in record.players))


def in_order(records: Iterable[Record[Who]]) -> list[Record[Who]]:
    """By date; pulkas of one date in the order given."""
    return sorted(records, key=lambda record: record.started)


def merged(records: Iterable[Record[Who]], into: Who, gone: Who) -> tuple[Record[Who], ...]:
    """The records with player `gone` become `into`'s (two spellings of one player); ValueError when both sat
    in one pulka, as one player cannot have two seats."""
    out = []
    for record in records:
        if gone in record.players:
            if into in record.players and into != gone:
                raise ValueError(f"{into!r} and {gone!r} sat in one pulka: they are two players")
            record = dataclasses.replace(record, players=tuple(into if p == gone else p for p in record.players))
        out.append(record)
    return tuple(out)
