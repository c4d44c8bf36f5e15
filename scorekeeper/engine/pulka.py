"""A pulka replayed: its deals, in order, validated and written on the sheet one after another.

Replaying is the only way the sheet changes, so an edit anywhere in the log is
"replay the new log"; a deal that the new log makes invalid stops the replay
with its problems.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .deals import Deal, DealType
from .problems import Code, Problem, PulkaError
from .rules import RaspasyExitOn, Rules
from .scoring import Column, Entry, Tally
from .sheet import Points, Sheet
from .texts import Text
from .validation import check

THREE_OR_FOUR = Text("a pulka has 3 or 4 players")


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
        """The running totals as paper writes them ("2.6.10"): the new total after every deal that changed it."""
        sheets = [result.sheet for result in self.results]
        totals: list[Points]
        if column is Column.PULYA:
            totals = [sheet.pulya[player] for sheet in sheets]
        elif column is Column.GORA:
            totals = [sheet.gora[player] for sheet in sheets]
        elif on is not None:
            totals = [sheet.whists[player][on] for sheet in sheets]
        else:
            raise ValueError("whists are written on someone: say on whom")
        values: list[Points] = []
        last: Points = 0
        for value in totals:
            if value != last:
                values.append(value)
                last = value
        return values


def replay(rules: Rules, n: int, deals: Iterable[Deal], first_dealer: int = 0) -> Replay:
    """Validate and score every deal in order; PulkaError at the first deal with a problem.

    A long replay keeps every object it makes, so the cyclic garbage collector finds nothing
    to free in it; a caller that replays thousands of deals at once may pause it around the call.
    """
    if n not in (3, 4) or not 0 <= first_dealer < n:
        raise PulkaError([Problem(Code.BAD_PLAYERS, "players", THREE_OR_FOUR)])
    start = sheet = Sheet.empty(n, first_dealer)
    tally = Tally(rules, n)
    results = []
    for deal in deals:
        problems = check(deal, sheet, rules)
        if problems:
            raise PulkaError(problems)
        tally.entries = []
        made = tally.score(deal, sheet)
        if deal.type is DealType.RASPASY:
            streak = sheet.streak + 1
        elif made or rules.raspasy_exit_on is RaspasyExitOn.ANY:
            streak = 0
        else:
            streak = sheet.streak
        dealer = sheet.dealer
        sheet = Sheet(n, first_dealer, sheet.deals + 1, tuple(tally.pulya), tuple(tally.gora),
                      tuple(map(tuple, tally.whists)), streak, tally.finished)
        results.append(DealResult(sheet.deals, dealer, deal, tuple(tally.entries), sheet,
                                  streak if deal.type is DealType.RASPASY else 0))
    return Replay(rules, start, tuple(results))
