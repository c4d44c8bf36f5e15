"""A pulka replayed: its deals, in order, validated and written on the sheet one after another.

Replaying is the only way the sheet changes, so an edit anywhere in the log is
"replay the new log"; a deal that the new log makes invalid stops the replay
with its problems.

A replay validates every deal and keeps the totals of the sheet it ends on. What the
pages draw besides, the chain of running totals of every cell (`Replay.chain`), the
sheet after each deal and each deal's lines with their reasons (`DealResult`), is worked
out from the deals again when someone first asks for it: a replay that only needs the
last sheet and its settlement makes none of it. A caller that will show them has the
chains linked as the replay goes (`replay(…, chains=True)`), in the one pass. A writer of every line of a long pulka
has them said once for each distinct line (`Replay.lines`, or `replay(…, say=…)` as it
replays), rather than made and kept line by line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast, overload

from .deals import RASPASY, Deal, seating
from .problems import Code, Problem, PulkaError
from .rules import RaspasyExitOn, Rules
from .scoring import Column, Entry, Reason, Tally
from .sheet import Points, Sheet
from .texts import Text, Value
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
        """The total once deal `deal` was written: that of the last link at or before it."""
        low, high = 0, len(self.deals)
        while low < high:  # halving, for the first link after `deal`
            middle = (low + high) // 2
            if self.deals[middle] <= deal:
                low = middle + 1
            else:
                high = middle
        return self.totals[low - 1] if low else 0


class _Links:
    """The chains of a tally's totals, link by link as deals are written on it: each total a deal changed gets
    a link in its chain; the totals it starts with (a paper opening's), when not 0, are links of deal 0."""

    def __init__(self, tally: Tally):
        self.now: list[Sequence[Points]] = [tally.pulya, tally.gora, *tally.whists]  # the tally's own lists
        self.before = [list(row) for row in self.now]
        self.rows = [[_Chain() for _ in row] for row in self.now]
        for chains, opening in zip(self.rows, self.before):
            for chain, total in zip(chains, opening):
                if total:
                    chain.deals.append(0)
                    chain.totals.append(total)

    def written(self, number: int) -> None:
        """Deal `number` was just written on the tally."""
        for totals, was, chains in zip(self.now, self.before, self.rows):
            if totals != was:
                for chain, total, old in zip(chains, totals, was):
                    if total != old:
                        chain.deals.append(number)
                        chain.totals.append(total)
                was[:] = totals


class _History:
    """A replay's valid deals, and what the rest is worked out from: each deal's place in a raspasy streak,
    the streak after it, the sheet at the start and at the end. Shared by the replay and its results."""

    def __init__(self, rules: Rules, start: Sheet):
        self.rules, self.start = rules, start
        self.deals: list[Deal] = []
        self.ks: list[int] = []  # a raspasy's place in its streak; 0 for a game or misère
        self.streaks: list[int] = []  # raspasy in a row after each deal
        self.end = start  # the sheet after the last deal
        self._rows: list[list[_Chain]] | None = None

    def dealer(self, number: int) -> int:
        return (self.start.first_dealer + number - 1) % self.start.n

    @property
    def rows(self) -> list[list[_Chain]]:
        """The chains row by row, as the sheet has them: the pulyas, the goras, then each player's whists on the
        others. Linked by the replay when asked to (`replay(…, chains=True)`), else worked out on first use, by
        writing every deal again (the totals only)."""
        if self._rows is None:
            self._rows = self._chains()
        return self._rows

    @rows.setter
    def rows(self, rows: list[list[_Chain]]) -> None:
        self._rows = rows

    def _chains(self) -> list[list[_Chain]]:
        start = self.start
        tally = Tally(self.rules, start.n, lines=False)
        tally.pulya, tally.gora, tally.whists = list(start.pulya), list(start.gora), [list(r) for r in start.whists]
        links = _Links(tally)
        for number in range(1, len(self.deals) + 1):
            self.write(tally, number)
            links.written(number)
        return links.rows

    def pulya(self, deals: int) -> list[int]:
        """The pulyas once `deals` deals were written."""
        return [cast(int, chain.after(deals)) for chain in self.rows[0]]  # whole, as every pulya write

    def sheet(self, deals: int) -> Sheet:
        """The sheet once `deals` deals were written."""
        if deals == len(self.deals):
            return self.end
        gora, *whists = (tuple(chain.after(deals) for chain in chains) for chains in self.rows[1:])
        start = self.start
        # Not finished: a deal after the end is refused, so only the last can end the pulka.
        return Sheet(start.n, start.first_dealer, deals, tuple(self.pulya(deals)), gora, tuple(whists),
                     self.streaks[deals - 1] if deals else 0)

    def write(self, tally: Tally, number: int) -> None:
        """Write deal `number` again on `tally`. What it writes depends on the pulyas it finds (where they close
        decides the overflow), and on nothing else on the sheet."""
        tally.play(self.deals[number - 1], seating(self.start.n, self.dealer(number)), self.ks[number - 1])

    def entries(self, number: int) -> tuple[Entry, ...]:
        """What deal `number` wrote, line by line."""
        tally = Tally(self.rules, self.start.n)
        tally.pulya = self.pulya(number - 1)
        self.write(tally, number)
        return tuple(tally.entries)


class DealResult:
    """What deal `number` wrote: its lines (`entries`) and the sheet after it, worked out when first read."""

    __slots__ = ("number", "dealer", "deal", "k", "_history", "_entries", "_sheet")

    def __init__(self, number: int, history: _History):
        self.number = number  # 1-based
        self.dealer = history.dealer(number)
        self.deal = history.deals[number - 1]
        self.k = history.ks[number - 1]  # for raspasy: its place in the streak
        self._history = history
        self._entries: tuple[Entry, ...] | None = None
        self._sheet: Sheet | None = None

    @property
    def entries(self) -> tuple[Entry, ...]:
        if self._entries is None:
            self._entries = self._history.entries(self.number)
        return self._entries

    @property
    def sheet(self) -> Sheet:
        """The sheet after this deal."""
        if self._sheet is None:
            self._sheet = self._history.sheet(self.number)
        return self._sheet

    def __repr__(self) -> str:
        return f"DealResult(number={self.number}, dealer={self.dealer}, deal={self.deal!r}, k={self.k})"


class _Results(Sequence[DealResult]):
    """A replay's results, in order: each made when first read, then kept."""

    __slots__ = ("_history", "_made")

    def __init__(self, history: _History):
        self._history = history
        self._made: list[DealResult | None] = [None] * len(history.deals)

    def __len__(self) -> int:
        return len(self._made)

    @overload
    def __getitem__(self, index: int) -> DealResult: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[DealResult, ...]: ...

    def __getitem__(self, index: int | slice) -> DealResult | tuple[DealResult, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(len(self))[index])
        made = self._made[index]
        if made is None:
            made = self._made[index] = DealResult(range(1, len(self) + 1)[index], self._history)
        return made

    def __iter__(self) -> Iterator[DealResult]:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        return f"<{len(self)} deal results>"


@dataclass(frozen=True)
class Replay:
    rules: Rules
    start: Sheet
    results: Sequence[DealResult]
    _history: _History = field(repr=False, compare=False)
    # The replay's `say`, when it was given one, and each deal's lines as it said them.
    say: Callable[[Entry], Any] | None = field(default=None, repr=False, compare=False)
    said: Sequence[list[Any]] = field(default=(), repr=False, compare=False)

    @property
    def sheet(self) -> Sheet:
        return self._history.end

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

    def lines(self, say: Callable[[Entry], Told]) -> Iterator[tuple[DealResult, list[Told]]]:
        """Every deal with each of its lines as `say` says it, in order: the deals written again in one pass,
        nothing kept. Each distinct line (who writes what where, and why) is made and said once however often
        the pulka writes it: for a writer of every line of a long pulka (a file), where `DealResult.entries`
        would keep every line with its own reason. (`replay(…, say=…)` says them as it replays.)"""
        tally = _Saying(self.rules, self.start.n, say)
        tally.pulya = list(self.start.pulya)
        for result in self.results:
            tally.said = []
            self._history.write(tally, result.number)
            yield result, tally.said


Told = TypeVar("Told")  # what `say` makes of a line


class _Saying(Tally, Generic[Told]):
    """A tally that says each line as it writes it, each distinct line once."""

    def __init__(self, rules: Rules, n: int, say: Callable[[Entry], Told]):
        super().__init__(rules, n)
        self.say = say
        self.known: dict[tuple[object, ...], Told] = {}  # each line said, by its parts and its reason's
        self.said: list[Told] = []

    def line(self, player: int, column: Column, points: Points, on: int | None, reason: Reason,
             values: tuple[Value, ...]) -> None:
        # A template by its msgid: declared once each, and cheaper to look up than the Text; its values in order.
        key = (player, column, points, on, reason.msgid if type(reason) is Text else reason, *values)
        said = self.known.get(key)
        if said is None:
            said = self.known[key] = self.say(Entry(player, column, points, reason(*values), on))
        self.said.append(said)


def replay(rules: Rules, n: int, deals: Iterable[Deal], first_dealer: int = 0, start: Sheet | None = None,
           say: Callable[[Entry], Any] | None = None, chains: bool = False) -> Replay:
    """Validate and score every deal in order; PulkaError at the first deal with a problem.

    `start` is a sheet to go on from instead of the empty one (a pulka begun on paper): its
    pulyas, goras and whists, with no deal written and no raspasy streak. Whether such an
    opening is a possible one is not checked here.

    `say`, when given, says each line as the deal is written (as `Replay.lines` does, each distinct
    line once), and the replay keeps the deals' lines as said (`Replay.said`): for a writer of every
    line, one pass instead of two. `chains`: the chains of running totals are linked as the deals are
    written, for a caller that will show them (a page, the answer to a deal): one pass instead of two.

    A long replay keeps every object it makes, so the cyclic garbage collector finds nothing
    to free in it; a caller that replays thousands of deals at once may pause it around the call.
    """
    if n not in (3, 4) or not 0 <= first_dealer < n:
        raise PulkaError([Problem(Code.BAD_PLAYERS, "players", THREE_OR_FOUR)])
    if start is None:
        start = Sheet.empty(n, first_dealer)
    elif start.n != n:
        raise ValueError(f"a sheet of {start.n} players cannot start a pulka of {n}")
    saying = None if say is None else _Saying(rules, n, say)
    tally = Tally(rules, n, lines=False) if saying is None else saying  # the totals only: the lines when read
    tally.pulya, tally.gora, tally.whists = list(start.pulya), list(start.gora), [list(row) for row in start.whists]
    if start.deals or start.first_dealer != first_dealer or start.streak or start.finished != tally.finished:
        # An opening may end the pulka already (a whole evening kept on paper): a deal after it is refused.
        start = Sheet(n, first_dealer, 0, tuple(start.pulya), tuple(start.gora), tuple(map(tuple, start.whists)),
                      0, tally.finished)
    history = _History(rules, start)
    links = _Links(tally) if chains else None
    seatings = [seating(n, dealer) for dealer in range(n)]
    exit_on_any = rules.raspasy_exit_on is RaspasyExitOn.ANY
    said: list[list[Any]] = []
    number, dealer, streak, finished = 0, first_dealer, 0, start.finished
    for deal in deals:
        number += 1
        problems = check_next(deal, rules, number, seatings[dealer], streak, finished)
        if problems:
            raise PulkaError(problems)
        k = streak + 1 if deal.type is RASPASY else 0
        if saying is not None:
            saying.said = []
            said.append(saying.said)
        made = tally.play(deal, seatings[dealer], k)
        if links is not None:
            links.written(number)
        if k:
            streak = k
        elif made or exit_on_any:
            streak = 0
        finished = tally.finished
        history.deals.append(deal)
        history.ks.append(k)
        history.streaks.append(streak)
        dealer = (dealer + 1) % n
    if links is not None:
        history.rows = links.rows
    if number:
        history.end = Sheet(n, first_dealer, number, tuple(tally.pulya), tuple(tally.gora),
                            tuple(map(tuple, tally.whists)), streak, finished)
    return Replay(rules, start, _Results(history), history, say, said)
