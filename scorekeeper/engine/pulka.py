"""A pulka replayed: its deals, in order, validated and written on the sheet one after another.

Replaying is the only way the sheet changes, so an edit anywhere in the log is
"replay the new log"; a deal that the new log makes invalid stops the replay
with its problems.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from .deals import Deal, DealType
from .problems import Code, Problem, PulkaError
from .rules import RaspasyExitOn, Rules
from .scoring import Column, Entry, Tally
from .sheet import Points, Sheet
from .validation import check


@dataclass(frozen=True)
class DealResult:
    number: int  # 1-based
    dealer: int
    deal: Deal
    entries: tuple[Entry, ...]
    sheet: Sheet  # after this deal
    k: int = 0  # for raspasy: its place in the streak


@dataclass(frozen=True)
class Replay:
    rules: Rules
    start: Sheet
    results: tuple[DealResult, ...] = field(default=())

    @property
    def sheet(self) -> Sheet:
        return self.results[-1].sheet if self.results else self.start

    @property
    def finished(self) -> bool:
        return self.sheet.finished

    def chain(self, column: Column, player: int, on: int | None = None) -> list[Points]:
        """The running totals as paper writes them ("2.6.10"): the new total after every deal that changed it."""
        values: list[Points] = []
        last: Points = 0
        for result in self.results:
            sheet = result.sheet
            if column is Column.PULYA:
                value = sheet.pulya[player]
            elif column is Column.GORA:
                value = sheet.gora[player]
            else:
                value = sheet.whists[player][on]
            if value != last:
                values.append(value)
                last = value
        return values


@contextmanager
def _no_cyclic_gc() -> Iterator[None]:
    """A replay allocates thousands of small objects that all survive it: the cyclic collector
    would rescan them again and again (a quarter of the replay's time) and can find no garbage."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def replay(rules: Rules, n: int, deals: Iterable[Deal], first_dealer: int = 0) -> Replay:
    """Validate and score every deal in order; PulkaError at the first deal with a problem."""
    if n not in (3, 4) or not 0 <= first_dealer < n:
        raise PulkaError([Problem(Code.BAD_PLAYERS, "players", "a pulka has 3 or 4 players")])
    with _no_cyclic_gc():
        return _replay(rules, n, deals, first_dealer)


def _replay(rules: Rules, n: int, deals: Iterable[Deal], first_dealer: int) -> Replay:
    sheet = Sheet.empty(n, first_dealer)
    tally = Tally(rules, n)
    results = []
    for deal in deals:
        problems = check(deal, sheet, rules)
        if problems:
            raise PulkaError(problems)
        dealer = sheet.dealer
        tally.entries = []
        made = tally.score(deal, dealer, sheet.streak)
        if deal.type is DealType.RASPASY:
            streak = sheet.streak + 1
        elif made or rules.raspasy_exit_on is RaspasyExitOn.ANY:
            streak = 0
        else:
            streak = sheet.streak
        sheet = Sheet(n, first_dealer, sheet.deals + 1, tuple(tally.pulya), tuple(tally.gora),
                      tuple(map(tuple, tally.whists)), streak, tally.finished)
        results.append(DealResult(sheet.deals, dealer, deal, tuple(tally.entries), sheet,
                                  streak if deal.type is DealType.RASPASY else 0))
    return Replay(rules, Sheet.empty(n, first_dealer), tuple(results))
