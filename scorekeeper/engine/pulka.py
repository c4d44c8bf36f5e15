"""A pulka replayed: its deals, in order, validated and written on the sheet one after another.

Replaying is the only way the sheet changes, so an edit anywhere in the log is
"replay the new log"; a deal that the new log makes invalid stops the replay
with its problems.

A replay keeps, besides the deals, what the sheet's pages are drawn from: the chain of
running totals of every cell of the sheet (`Replay.chain`). What a deal wrote, line by
line with its reasons, and the sheet after it are worked out from those when someone
reads them (`DealResult.entries`, `DealResult.sheet`), so that a replay that only needs
the last sheet and its settlement makes neither.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

from .deals import Deal, DealType, seating
from .problems import Code, Problem, PulkaError
from .rules import RaspasyExitOn, Rules
from .scoring import Column, Entry, Tally
from .sheet import Points, Sheet
from .texts import Text
from .validation import check_next

THREE_OR_FOUR = Text("a pulka has 3 or 4 players")


class _Chain:
    """One cell of the sheet (a pulya, a gora, the whists of one player on another) through a replay:
    its new total after every deal that changed it. A paper opening's total is the first, at deal 0."""

    __slots__ = ("deals", "totals")

    def __init__(self) -> None:
        self.deals: list[int] = []
        self.totals: list[Points] = []

    def after(self, deal: int) -> Points:
        """The total once deal `deal` was written."""
        at = bisect_right(self.deals, deal)
        return self.totals[at - 1] if at else 0


class _History:
    """What a replay keeps of its deals: the chains of running totals, row by row as the sheet has them
    (the pulyas, the goras, then each player's whists on the others), and what it needs to work out
    the rest again. Shared by the replay and its results."""

    def __init__(self, rules: Rules, start: Sheet):
        self.rules, self.start = rules, start
        n = start.n
        self.rows: list[list[_Chain]] = [[_Chain() for _ in range(n)] for _ in range(2 + n)]
        self.last: list[list[Points]] = [list(start.pulya), list(start.gora), *map(list, start.whists)]
        for chains, totals in zip(self.rows, self.last):
            for chain, total in zip(chains, totals):
                if total:
                    chain.deals.append(0)
                    chain.totals.append(total)
        self.deals = 0  # written so far
        self.finished = False

    def record(self, number: int, rows: Sequence[Sequence[Points]]) -> None:
        """Deal `number` left the sheet's rows at `rows`: each total it changed gets a link in its chain."""
        for now, before, chains in zip(rows, self.last, self.rows):
            if now != before:
                for chain, total, was in zip(chains, now, before):
                    if total != was:
                        chain.deals.append(number)
                        chain.totals.append(total)
                before[:] = now
        self.deals = number

    def pulya(self, deals: int) -> tuple[int, ...]:
        """The pulyas once `deals` deals were written."""
        return cast("tuple[int, ...]", tuple(chain.after(deals) for chain in self.rows[0]))  # whole, as every write

    def sheet(self, deals: int, streak: int) -> Sheet:
        """The sheet once `deals` deals were written, and `streak` raspasy in a row."""
        gora, *whists = (tuple(chain.after(deals) for chain in chains) for chains in self.rows[1:])
        start = self.start
        finished = self.finished and deals == self.deals  # a deal after the end is refused: only the last ends it
        return Sheet(start.n, start.first_dealer, deals, self.pulya(deals), gora, tuple(whists), streak, finished)

    def entries(self, result: DealResult) -> tuple[Entry, ...]:
        """What deal `result` wrote, line by line: the deal written again, with its lines, on the pulyas it
        found (where they close decides the overflow; nothing else on the sheet changes what it writes)."""
        tally = Tally(self.rules, self.start.n)
        tally.pulya = list(self.pulya(result.number - 1))
        tally.play(result.deal, seating(self.start.n, result.dealer), result.k)
        return tuple(tally.entries)


class DealResult:
    """What deal `number` wrote: its lines (`entries`) and the sheet after it, worked out when first read."""

    __slots__ = ("number", "dealer", "deal", "k", "_streak", "_history", "_entries", "_sheet")

    def __init__(self, number: int, dealer: int, deal: Deal, k: int, streak: int, history: _History):
        self.number = number  # 1-based
        self.dealer = dealer
        self.deal = deal
        self.k = k  # for raspasy: its place in the streak
        self._streak = streak  # the raspasy in a row after it
        self._history = history
        self._entries: tuple[Entry, ...] | None = None
        self._sheet: Sheet | None = None

    @property
    def entries(self) -> tuple[Entry, ...]:
        if self._entries is None:
            self._entries = self._history.entries(self)
        return self._entries

    @property
    def sheet(self) -> Sheet:
        """The sheet after this deal."""
        if self._sheet is None:
            self._sheet = self._history.sheet(self.number, self._streak)
        return self._sheet

    def __repr__(self) -> str:
        return f"DealResult(number={self.number}, dealer={self.dealer}, deal={self.deal!r}, k={self.k})"


@dataclass(frozen=True)
class Replay:
    rules: Rules
    start: Sheet
    results: tuple[DealResult, ...]
    _history: _History = field(repr=False, compare=False)

    @property
    def sheet(self) -> Sheet:
        return self.results[-1].sheet if self.results else self.start

    @property
    def finished(self) -> bool:
        return self.sheet.finished

    def result(self, number: int) -> DealResult:
        """What deal `number` (1-based) wrote; LookupError when the pulka has no such deal."""
        if not 1 <= number <= len(self.results):
            raise LookupError(f"no deal {number}: the pulka has {len(self.results)}")
        return self.results[number - 1]

    def sheet_before(self, number: int) -> Sheet:
        """The sheet deal `number` (1-based) was written on: the start sheet for 1, and for the
        number after the last deal the sheet the next deal will be written on."""
        return self.start if number == 1 else self.result(number - 1).sheet

    def chain(self, column: Column, player: int, on: int | None = None) -> list[Points]:
        """The running totals as paper writes them ("2.6.10"): the new total after every deal that changed it,
        after a paper opening's total when it is not 0."""
        if column is Column.PULYA:
            row = 0
        elif column is Column.GORA:
            row = 1
        elif on is not None:
            row, player = 2 + player, on
        else:
            raise ValueError("whists are written on someone: say on whom")
        return list(self._history.rows[row][player].totals)


def replay(rules: Rules, n: int, deals: Iterable[Deal], first_dealer: int = 0, start: Sheet | None = None) -> Replay:
    """Validate and score every deal in order; PulkaError at the first deal with a problem.

    `start` is a sheet to go on from instead of the empty one (a pulka begun on paper): its
    pulyas, goras and whists, with no deal written and no raspasy streak. Whether such an
    opening is a possible one is not checked here.

    A long replay keeps every object it makes, so the cyclic garbage collector finds nothing
    to free in it; a caller that replays thousands of deals at once may pause it around the call.
    """
    if n not in (3, 4) or not 0 <= first_dealer < n:
        raise PulkaError([Problem(Code.BAD_PLAYERS, "players", THREE_OR_FOUR)])
    if start is None:
        start = Sheet.empty(n, first_dealer)
    elif start.n != n:
        raise ValueError(f"a sheet of {start.n} players cannot start a pulka of {n}")
    else:
        start = Sheet(n, first_dealer, 0, tuple(start.pulya), tuple(start.gora), tuple(map(tuple, start.whists)))
    history = _History(rules, start)
    tally = Tally(rules, n, lines=False)  # the lines are written when read: DealResult.entries
    tally.pulya, tally.gora, tally.whists = list(start.pulya), list(start.gora), [list(row) for row in start.whists]
    rows: list[Sequence[Points]] = [tally.pulya, tally.gora, *tally.whists]
    seatings = [seating(n, dealer) for dealer in range(n)]
    exit_on_any = rules.raspasy_exit_on is RaspasyExitOn.ANY
    results = []
    number, dealer, streak, finished = 0, first_dealer, 0, False
    for deal in deals:
        number += 1
        problems = check_next(deal, rules, number, seatings[dealer], streak, finished)
        if problems:
            raise PulkaError(problems)
        k = streak + 1 if deal.type is DealType.RASPASY else 0
        made = tally.play(deal, seatings[dealer], k)
        if k:
            streak = k
        elif made or exit_on_any:
            streak = 0
        history.record(number, rows)
        finished = tally.finished
        results.append(DealResult(number, dealer, deal, k, streak, history))
        dealer = (dealer + 1) % n
    history.finished = finished
    if results:  # the last sheet is the tally's, at hand
        results[-1]._sheet = Sheet(n, first_dealer, number, tuple(tally.pulya), tuple(tally.gora),
                                   tuple(map(tuple, tally.whists)), streak, finished)
    return Replay(rules, start, tuple(results), history)
