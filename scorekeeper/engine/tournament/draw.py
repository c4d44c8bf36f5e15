"""The draw of an event's rounds (docs/tournament.md §2): the sizes of the tables, who sits out, and who sits where.

A round is drawn from the players present (in the order they entered; those who withdrew left out, late entrants
in), the rounds drawn before it and the event's seed: the same three give the same round. The numbers drawn by
lot come from `Lots` streams named by their use and the round's number, never from shared state.

- The tables are of the event's size; when the players do not divide, the fewest tables of the other size (3 or
  4) make up the count; when no mix of 3 and 4 seats them all (5 players; or fewer than 3), the fewest sit out,
  by turn (`byes_due`).
- The first round is drawn by lot (unless manual). After it, `fewest_repeats` seats players who have not met
  (a pair meets when both sit at one table), `swiss` by the standings, `manual` as the director gives it.
- Tables of the event's size come first; inside a table the seats are in the drawn order, the first seat deals
  first.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic

from ..records import Who
from ..texts import Text, quoted
from .lots import Lots
from .search import PlanRound, fewest_pairs, zero_plan
from .terms import TABLE_SIZES, DrawMethod, EventRefusal, RefusalCode


@dataclass(frozen=True)
class Round(Generic[Who]):
    """One round's seating: the tables (tables of the event's size first, each in seating order: the first seat
    deals first) and the players who sit out."""

    tables: tuple[tuple[Who, ...], ...]
    byes: tuple[Who, ...] = ()

    @property
    def seated(self) -> tuple[Who, ...]:
        return tuple(p for table in self.tables for p in table)

    def pairs(self) -> Iterator[tuple[Who, Who]]:
        """Every pair that meets in this round: two players at one table."""
        for table in self.tables:
            for i, p in enumerate(table):
                for q in table[i + 1:]:
                    yield p, q


@dataclass(frozen=True)
class TableSizes:
    """How a number of players sits: the sizes of the tables (the event's size first) and how many sit out."""

    sizes: tuple[int, ...]
    byes: int


def table_sizes(players: int, table_size: int) -> TableSizes:
    """Tables of `table_size` for `players`, with the fewest tables of the other size when they do not divide, and
    the fewest players sitting out when no mix of 3 and 4 seats them all (5 sit as 4 and one out; 1 or 2 all
    sit out)."""
    if table_size not in TABLE_SIZES:
        raise ValueError(f"a table seats 3 or 4 players, not {table_size}")
    other = 7 - table_size
    for byes in range(players + 1):
        seated = players - byes
        for others in range(seated // other + 1):
            if (seated - others * other) % table_size == 0:
                return TableSizes((table_size,) * ((seated - others * other) // table_size) + (other,) * others, byes)
    raise ValueError(f"no number of players, not {players}")  # 0 players sit at no table: only a negative count


# -- byes by turn ----------------------------------------------------------------------------------------------


def bye_order(present: Sequence[Who], history: Sequence[Round[Who]], seed: int) -> list[Who]:
    """The players present in the order they are due to sit out: those who sat out fewest first; among those who
    never did, an order drawn by lot for this round; among the others, the order they first sat out in (so the
    turn comes round again in the same order)."""
    byes: dict[Who, int] = {}
    first: dict[Who, tuple[int, int]] = {}
    for number, played in enumerate(history):
        for position, p in enumerate(played.byes):
            byes[p] = byes.get(p, 0) + 1
            first.setdefault(p, (number, position))
    drawn = Lots.of(seed, "byes", len(history) + 1).shuffled(range(len(present)))
    lot = {present[i]: place for place, i in enumerate(drawn)}
    return sorted(present, key=lambda p: (byes.get(p, 0), first.get(p, (-1, lot[p]))))


def byes_due(present: Sequence[Who], history: Sequence[Round[Who]], table_size: int, seed: int) -> tuple[Who, ...]:
    """The players who sit out the next round: as many as `table_sizes` leaves out, by turn (`bye_order`)."""
    count = table_sizes(len(present), table_size).byes
    return tuple(bye_order(present, history, seed)[:count]) if count else ()


# -- pairs that met --------------------------------------------------------------------------------------------


def meetings(history: Sequence[Round[Who]]) -> dict[frozenset[Who], int]:
    """How many times each pair has met in the rounds of `history`."""
    met: dict[frozenset[Who], int] = {}
    for played in history:
        for p, q in played.pairs():
            pair = frozenset((p, q))
            met[pair] = met.get(pair, 0) + 1
    return met


def repeats(drawn: Round[Who], history: Sequence[Round[Who]]) -> int:
    """The pairs of `drawn` that met in a round of `history`."""
    met = meetings(history)
    return sum(frozenset(pair) in met for pair in drawn.pairs())


# -- the methods -----------------------------------------------------------------------------------------------


def _checked(present: Sequence[Who]) -> None:
    if len(set(present)) != len(present):
        raise ValueError("a player is present twice")


def _ordered(tables: Sequence[Sequence[Who]], table_size: int, lots: Lots) -> tuple[tuple[Who, ...], ...]:
    """The tables in an order and with seats drawn by lot, the event's size first."""
    drawn = [tuple(lots.shuffled(table)) for table in lots.shuffled(tables)]
    return tuple(sorted(drawn, key=lambda table: len(table) != table_size))


def _cut(players: Sequence[Who], sizes: Sequence[int]) -> list[tuple[Who, ...]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(tuple(players[start:start + size]))
        start += size
    return tables


def random_round(present: Sequence[Who], history: Sequence[Round[Who]], table_size: int, seed: int) -> Round[Who]:
    """A round drawn by lot (the first round): who sits out by turn, the others at tables in an order drawn."""
    _checked(present)
    number = len(history) + 1
    byes = byes_due(present, history, table_size, seed)
    seated = Lots.of(seed, "seats", number).shuffled([p for p in present if p not in byes])
    return Round(tuple(_cut(seated, table_sizes(len(present), table_size).sizes)), byes)


@dataclass(frozen=True)
class Effort:
    """The work `fewest_repeats` may do for one round, counted (never timed, so that a seed and a history always
    give the same round). A unit is a player weighed: from half a million to a million a second on this machine."""

    plan: int = 2_000_000  # the search for rounds without repeats: half for the longest plan, half of the rest next…
    first_try: int = 10_000  # …in tries of 1, 1, 2, 1, 1, 2, 4 … times this, the players renumbered by lot each time
    fewest: int = 2_000_000  # the tabu search for the fewest repeats, when no round without them was found
    patience: int = 1000  # steps of the tabu search without a new best before it stops


EFFORT = Effort()
MOST_PLANNED_TABLES = 120  # the tables a plan may hold: its depth-first search recurses about 4 deep per table
REPEAT = 10_000  # the weight of a pair that meets again, beside that of each time it met before (1 each)


def fewest_repeats(present: Sequence[Who], history: Sequence[Round[Who]], table_size: int, seed: int,
                   rounds: int, effort: Effort = EFFORT) -> Round[Who]:
    """The next round of an event of `rounds` rounds with as few pairs as possible meeting again.

    The round is one of a plan without repeats for the rounds left, when one is found: it leaves the rounds after
    it a way to go on without repeats. Failing that, a plan for fewer rounds ahead, down to this round alone;
    failing that too, the round with the fewest repeated pairs the tabu search finds (and among those, the pairs
    that met fewest times). The first round is drawn by lot."""
    _checked(present)
    if not history:
        return random_round(present, history, table_size, seed)
    number = len(history) + 1
    layout = table_sizes(len(present), table_size)
    byes = byes_due(present, history, table_size, seed)
    index = {p: i for i, p in enumerate(present)}
    times = []  # (i, j, how many times): the pairs of players present that met, by their number in `present`
    for pair, count in meetings(history).items():
        p, q = tuple(pair)
        if p in index and q in index:
            times.append((index[p], index[q], count))
    plan = _plan(present, history, table_size, seed, rounds, times, layout, effort)
    if plan is not None:
        tables = [tuple(present[i] for i in table) for table in plan]
    else:
        seated = [i for i, p in enumerate(present) if p not in byes]
        weight = [[0] * len(present) for _ in present]
        for i, j, count in times:
            weight[i][j] = weight[j][i] = REPEAT + count
        found = fewest_pairs([[weight[i][j] for j in seated] for i in seated], layout.sizes,
                             Lots.of(seed, "fewest", number), effort.fewest, effort.patience)
        tables = [tuple(present[seated[i]] for i in sorted(table)) for table in found]
    return Round(_ordered(tables, table_size, Lots.of(seed, "order", number)), byes)


def _plan(present: Sequence[Who], history: Sequence[Round[Who]], table_size: int, seed: int, rounds: int,
          times: Sequence[tuple[int, int, int]], layout: TableSizes, effort: Effort) -> list[tuple[int, ...]] | None:
    """This round's tables (by number in `present`) from the longest plan without repeats found for the rounds
    ahead, or None."""
    number, n = len(history) + 1, len(present)
    if not layout.sizes:
        return []
    met = [0] * n
    for i, j, _ in times:
        met[i] |= 1 << j
        met[j] |= 1 << i
    horizon = max(1, min(rounds - number + 1, MOST_PLANNED_TABLES // len(layout.sizes)))
    if layout.byes == 0:  # everyone plays every round: (size - 1) partners he has not met per round
        least = min(layout.sizes) - 1
        horizon = max(1, min(horizon, min((n - 1 - m.bit_count()) // least for m in met)))
    # The rounds ahead sit out by turn as well: their byes follow from the byes alone.
    ahead: list[Round[Who]] = list(history)
    planned: list[PlanRound] = []
    for _ in range(horizon):
        out = byes_due(present, ahead, table_size, seed)
        planned.append(PlanRound(sum(1 << i for i, p in enumerate(present) if p not in out), layout.sizes))
        ahead.append(Round((), out))
    work = effort.plan
    for h in range(horizon, 0, -1):
        share = work // 2 if h > 1 else work
        tries = 0
        while share > 0:
            spend = min(effort.first_try * luby(tries + 1), share)
            order = Lots.of(seed, "plan", number, h, tries).shuffled(range(n))  # order[new] = old
            new = [0] * n
            for i, old in enumerate(order):
                new[old] = i
            found, left = zero_plan([_renumber(met[old], new) for old in order],
                                    [PlanRound(_renumber(r.seated, new), r.sizes) for r in planned[:h]], spend)
            share -= spend - left
            work -= spend - left
            if found is not None:
                return [tuple(sorted(order[i] for i in table)) for table in found[0]]
            if left > 0:
                break  # searched to the end: there is no such plan, however the players are numbered
            tries += 1
    return None


def luby(i: int) -> int:
    """The i-th term (from 1) of Luby, Sinclair and Zuckerman's restart sequence 1, 1, 2, 1, 1, 2, 4, 1, …: the
    tries of a search whose time varies wildly from one numbering to the next, most of them short, a few long."""
    k = i.bit_length()  # the sequence's k-th run ends at 2^k - 1 with 2^(k-1); before that, the runs before it again
    return 1 << (k - 1) if i == (1 << k) - 1 else luby(i - (1 << (k - 1)) + 1)


def _renumber(mask: int, new: Sequence[int]) -> int:
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << new[low.bit_length() - 1]
        mask ^= low
    return out


def swiss(present: Sequence[Who], history: Sequence[Round[Who]], ranking: Sequence[Who], table_size: int,
          seed: int) -> Round[Who]:
    """The next round by the standings: `ranking` the players best-placed first (those present and missing from it,
    late entrants, after them in the order of entry). The best-placed sit at table 1 and so on (tables of the
    event's size first); then, while swapping two players of neighbouring tables lowers the pairs meeting again,
    the swap that lowers them most (of those, the two closest in the standings, the higher-placed pair first),
    nobody ending more than one table from where the standings put him. Inside a table, the standings' order. The
    first round is drawn by lot."""
    _checked(present)
    if not history:
        return random_round(present, history, table_size, seed)
    byes = byes_due(present, history, table_size, seed)
    place = {p: i for i, p in enumerate(dict.fromkeys([*ranking, *present]))}
    seated = sorted((p for p in present if p not in byes), key=place.__getitem__)
    tables = [list(table) for table in _cut(seated, table_sizes(len(present), table_size).sizes)]
    home = {p: t for t, table in enumerate(tables) for p in table}
    met = meetings(history)

    def met_at(p: Who, table: list[Who], without: Who) -> int:
        return sum(frozenset((p, q)) in met for q in table if q != p and q != without)

    while True:
        # (change, how far apart the two are in the standings, the higher's place, table, seat, seat at the next)
        best: tuple[int, int, int, int, int, int] | None = None
        for t in range(len(tables) - 1):
            upper, lower = tables[t], tables[t + 1]
            for i, p in enumerate(upper):
                for j, q in enumerate(lower):
                    if abs(home[p] - (t + 1)) > 1 or abs(home[q] - t) > 1:
                        continue
                    change = (met_at(p, lower, q) + met_at(q, upper, p)) - (met_at(p, upper, p) + met_at(q, lower, q))
                    swap = (change, abs(place[p] - place[q]), min(place[p], place[q]), t, i, j)
                    if change < 0 and (best is None or swap < best):
                        best = swap
        if best is None:
            break
        *_, t, i, j = best
        tables[t][i], tables[t + 1][j] = tables[t + 1][j], tables[t][i]
    return Round(tuple(tuple(sorted(table, key=place.__getitem__)) for table in tables), byes)


# -- the director's tables -------------------------------------------------------------------------------------

TABLES = Text("tables must be a list of tables, each a list of 3 or 4 players")
TABLES_NOT_MANUAL = Text("tables are given only when the draw is manual")
TABLE_SEATS = Text("table {table} has {count} player: a table seats 3 or 4",
                   "table {table} has {count} players: a table seats 3 or 4", "count")
NOT_ENTERED = Text("{player} is not a player of this event")
WITHDREW = Text("{player} has withdrawn from the event")
SEATED_TWICE = Text("{player} is seated twice")
SITS_OUT = Text("{player} sits out this round by turn")
LEFT_OUT = Text("{player} is not seated")


def _bad(message: Text) -> EventRefusal:
    return EventRefusal("tables", message, RefusalCode.BAD_TABLES)


def manual(tables: object, present: Sequence[Who], history: Sequence[Round[Who]], table_size: int, seed: int,
           withdrawn: Collection[Who] = ()) -> Round[Who]:
    """The director's tables, in his order and seating, checked: each of 3 or 4 players, every player present
    seated once, except those who sit out by turn (`byes_due`: only when no mix of 3 and 4 seats everyone); a
    player who withdrew or is not in the event seated nowhere. Refused with `bad_tables` on `tables`."""
    _checked(present)
    if not isinstance(tables, Sequence) or isinstance(tables, str) or not all(
            isinstance(table, Sequence) and not isinstance(table, str) for table in tables):
        raise _bad(TABLES())
    byes = byes_due(present, history, table_size, seed)
    entered, gone = set(present), set(withdrawn)
    seen: set[Who] = set()
    for number, table in enumerate(tables, 1):
        if len(table) not in TABLE_SIZES:
            raise _bad(TABLE_SEATS(table=number, count=len(table)))
        for p in table:
            if p in gone:
                raise _bad(WITHDREW(player=str(p)))
            if p not in entered:
                raise _bad(NOT_ENTERED(player=quoted(p)))
            if p in seen:
                raise _bad(SEATED_TWICE(player=str(p)))
            if p in byes:
                raise _bad(SITS_OUT(player=str(p)))
            seen.add(p)
    for p in present:
        if p not in seen and p not in byes:
            raise _bad(LEFT_OUT(player=str(p)))
    return Round(tuple(tuple(table) for table in tables), byes)


def draw_round(method: DrawMethod, present: Sequence[Who], history: Sequence[Round[Who]], *, table_size: int,
               seed: int, rounds: int, ranking: Sequence[Who] = (), tables: object = None,
               withdrawn: Collection[Who] = (), effort: Effort = EFFORT) -> Round[Who]:
    """Round len(history) + 1 of an event by its draw `method`: `rounds` the rounds planned (fewest_repeats plans
    ahead to them), `ranking` the standings after the last round (swiss), `tables` the director's (manual only;
    `withdrawn` the players who withdrew, named as such when seated)."""
    if method is DrawMethod.MANUAL:
        if tables is None:
            raise _bad(TABLES())
        return manual(tables, present, history, table_size, seed, withdrawn)
    if tables is not None:
        raise EventRefusal("tables", TABLES_NOT_MANUAL())
    if method is DrawMethod.SWISS:
        return swiss(present, history, ranking, table_size, seed)
    return fewest_repeats(present, history, table_size, seed, rounds, effort)
