"""A player's career over his counted pulkas: his list of results, his evenings and runs, his rival and his
nemesis (docs/club.md §2)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Generic

from .figures import HeadToHead, PlayerStats
from .records import Day, Filter, Who, Record, in_order


@dataclass(frozen=True)
class PulkaLine(Generic[Who]):
    """One counted pulka of a player, as his list of results shows it."""

    record: Record[Who]
    seat: int

    @property
    def mates(self) -> tuple[Who, ...]:
        return tuple(p for i, p in enumerate(self.record.players) if i != self.seat)

    @property
    def deals(self) -> int:
        return self.record.roles[self.seat].deals

    @property
    def net(self) -> Fraction:
        return self.record.net[self.seat]

    @property
    def money(self) -> Decimal:
        return self.record.money[self.seat]

    def against(self, opponent: Who) -> Fraction:
        """What he won from `opponent` in this pulka (pairwise, pulya term included)."""
        return self.record.pairwise[self.seat][self.record.seat(opponent)]


def pulka_lines(player: Who, records: Iterable[Record[Who]], filter: Filter[Who] | None = None
                ) -> tuple[PulkaLine[Who], ...]:
    """`player`'s counted pulkas, the latest first (pulkas of one date: the later given first)."""
    f: Filter[Who] = filter or Filter()
    counted = [PulkaLine(r, r.seat(player)) for r in in_order(records) if f.admits(r, player)]
    return tuple(reversed(counted))


@dataclass(frozen=True)
class Career:
    """A player's evenings over his counted pulkas (`pulka_lines`, the latest first)."""

    evenings: int  # the dates he played on
    first: Day | None
    last: Day | None
    minutes: int  # at the table: each pulka from its start to its last deal
    form: tuple[int, ...]  # his last ten pulkas, the latest first: 1 won, −1 lost, 0 even
    streak: int  # the run his latest pulkas make: +3 three won in a row, −2 two lost; 0 after an even one
    longest: int  # his longest run of won pulkas


def career(lines: Sequence[PulkaLine[Who]]) -> Career:
    signs = [(line.net > 0) - (line.net < 0) for line in lines]
    run = next((i for i, sign in enumerate(signs) if sign != signs[0]), len(signs)) if signs else 0
    longest = best = 0
    for sign in signs:
        best = best + 1 if sign > 0 else 0
        longest = max(longest, best)
    days = [line.record.started for line in lines]
    return Career(len(set(days)), min(days, default=None), max(days, default=None),
                  sum(line.record.minutes for line in lines), tuple(signs[:10]), run * (signs[0] if signs else 0),
                  longest)


@dataclass(frozen=True)
class Rivals(Generic[Who]):
    """From `floor` shared pulkas on: the rival, with whom he shared the most; the nemesis, who won from him
    (pairwise) in the most shared pulkas: counts, never whists, so presets are not added together."""

    rival: HeadToHead[Who] | None
    nemesis: Who | None
    beaten: int  # in how many of the shared pulkas the nemesis won from him
    shared: int  # how many pulkas they shared


def rivals(stats: PlayerStats[Who], lines: Sequence[PulkaLine[Who]], floor: int) -> Rivals[Who]:
    above = [h for h in stats.head_to_head if h.pulkas >= floor]
    beaten = Counter(other for line in lines for other in line.record.players if line.against(other) < 0)
    worst = max(above, key=lambda h: (beaten[h.opponent], h.pulkas), default=None)  # ties: the first listed
    if worst is None or beaten[worst.opponent] == 0:
        return Rivals(above[0] if above else None, None, 0, 0)
    return Rivals(above[0], worst.opponent, beaten[worst.opponent], worst.pulkas)
