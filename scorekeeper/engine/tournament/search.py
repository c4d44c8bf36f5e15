"""The searches behind the `fewest_repeats` draw, on players numbered 0 to n - 1 (`draw.py` numbers them).

Two searches, both bounded by a count of work, never by the clock, so that a seed and a history always give the
same draw:

- `zero_plan`: rounds in which no pair meets again, found by depth-first search. A table is built around the
  player with the fewest partners left (the most constrained goes first, the usual way to fail early), its other
  members in increasing number; who has met whom is a bitmask per player. Asking for several rounds at once is
  how a round is kept from closing off the rounds after it (a greedy round 3 of 16 players at tables of 4 can
  leave no round 4 without a repeat: the tables of an affine plane must be chosen together).
- `fewest_pairs`: one round with the fewest pairs meeting again when none without repeats was found: a tabu
  search swapping two players of different tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .lots import Lots

Plan = list[list[tuple[int, ...]]]  # rounds of tables of player numbers


class _Exhausted(Exception):
    """The search's work ran out before it ended."""


@dataclass(frozen=True)
class PlanRound:
    """One round of a plan: who is seated (a bitmask of player numbers) and the sizes of its tables."""

    seated: int
    sizes: tuple[int, ...]


def _bits(mask: int) -> list[int]:
    """The player numbers of a bitmask, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class _ZeroPlan:
    """A depth-first search for `rounds` with no pair meeting twice, given who has met (`met[p]`: a bitmask)."""

    def __init__(self, met: Sequence[int], rounds: Sequence[PlanRound], work: int) -> None:
        self.met = [m | 1 << p for p, m in enumerate(met)]  # nobody is his own partner
        self.rounds = rounds
        self.work = work
        self.plan: Plan = [[] for _ in rounds]
        # The rounds of a plan can be played in any order when they seat the same players: the search takes them
        # in one order only, that of the first seated player's lowest partner (he meets someone new each round).
        first = rounds[0].seated if rounds else 0
        same = all(r.seated == first for r in rounds)
        self.anchor = (first & -first).bit_length() - 1 if same and first else -1
        self.anchor_partner = [-1] * (len(rounds) + 1)
        # The partners each player still needs, from round r to the last: (size - 1) per round he is seated in.
        self.needed = [[0] * len(met) for _ in range(len(rounds) + 1)]
        for r in range(len(rounds) - 1, -1, -1):
            least = min(rounds[r].sizes, default=1) - 1
            for p in range(len(met)):
                self.needed[r][p] = self.needed[r + 1][p] + (least if rounds[r].seated >> p & 1 else 0)

    def spend(self, units: int) -> None:
        self.work -= units
        if self.work < 0:
            raise _Exhausted

    def round(self, r: int) -> bool:
        if r == len(self.rounds):
            return True
        seated, needed = self.rounds[r].seated, self.needed[r]
        self.spend(len(self.met))
        # Everyone must still have enough players he has not met for every round left.
        for p in _bits(seated):
            if (seated & ~self.met[p]).bit_count() < needed[p]:
                return False
        return self.tables(r, seated, sorted(self.rounds[r].sizes, reverse=True))

    def tables(self, r: int, left: int, sizes: list[int]) -> bool:
        if not left:
            return self.round(r + 1)
        least = sizes[-1] - 1  # sizes run from large to small
        best, fewest = -1, len(self.met)
        players = _bits(left)
        self.spend(len(players))
        for p in players:
            partners = (left & ~self.met[p]).bit_count()
            if partners < least:
                return False
            if partners < fewest:
                best, fewest = p, partners
        rest_of = left & ~(1 << best)
        for size in sorted(set(sizes), reverse=True):
            rest = list(sizes)
            rest.remove(size)
            if self.members(r, rest_of, [best], rest_of & ~self.met[best], size, rest):
                return True
        return False

    def members(self, r: int, left: int, table: list[int], candidates: int, size: int, rest: list[int]) -> bool:
        if len(table) == size:
            return self.seat(r, left, table, rest)
        need = size - len(table)
        while candidates:
            if candidates.bit_count() < need:
                return False
            low = candidates & -candidates
            candidates ^= low
            q = low.bit_length() - 1
            table.append(q)
            found = self.members(r, left & ~low, table, candidates & ~self.met[q], size, rest)
            table.pop()
            if found:
                return True
        return False

    def seat(self, r: int, left: int, table: list[int], rest: list[int]) -> bool:
        self.spend(1)
        if self.anchor in table:
            partner = min(q for q in table if q != self.anchor)
            if r and partner <= self.anchor_partner[r - 1]:
                return False
            self.anchor_partner[r] = partner
        mask = sum(1 << q for q in table)
        saved = [self.met[q] for q in table]
        for q in table:
            self.met[q] |= mask
        self.plan[r].append(tuple(table))
        if self.tables(r, left, rest):
            return True
        self.plan[r].pop()
        for q, before in zip(table, saved):
            self.met[q] = before
        return False


def zero_plan(met: Sequence[int], rounds: Sequence[PlanRound], work: int) -> tuple[Plan | None, int]:
    """Rounds seating `rounds[i].seated` at tables of `rounds[i].sizes` in which no two players meet who have met
    (`met[p]`, a bitmask per player, p's own bit not needed) or meet in another round of the plan; None when
    there are none or the `work` ran out first. With the work left over (a search that ends early leaves some)."""
    search = _ZeroPlan(met, rounds, work)
    try:
        found = search.round(0)
    except _Exhausted:
        return None, 0
    return (search.plan if found else None), search.work


def fewest_pairs(weight: Sequence[Sequence[int]], sizes: Sequence[int], lots: Lots, work: int,
                 patience: int) -> list[list[int]]:
    """Players 0 to n - 1 at tables of `sizes` with the least total weight of the pairs at one table (`weight[p][q]`,
    symmetric), by tabu search: from tables drawn by lot, each step swaps the two players of different tables,
    one of them in a weighed pair, that lower the weight most (or raise it least), never moving a player back to
    a table he left in the last few steps unless that finds a new best. Ends at weight 0, after `patience` steps
    without a new best, or when `work` (pairs of players weighed) runs out; the best tables seen."""
    n = len(weight)
    order = lots.shuffled(range(n))
    tables: list[list[int]] = []
    for size in sizes:
        tables.append(order[:size])
        order = order[size:]
    table_of = [0] * n
    for t, members in enumerate(tables):
        for p in members:
            table_of[p] = t
    # at[p][t]: the weight p would add to table t (his own table's without himself)
    at = [[sum(weight[p][q] for q in members if q != p) for members in tables] for p in range(n)]
    cost = sum(at[p][table_of[p]] for p in range(n)) // 2
    best, best_cost = [list(members) for members in tables], cost
    tabu: dict[tuple[int, int], int] = {}
    step = last_best = 0
    while cost > 0 and work > 0 and step - last_best < patience:
        step += 1
        chosen: tuple[int, int] | None = None
        chosen_delta, ties = 0, 0
        weighed = [p for p in range(n) if at[p][table_of[p]]]
        work -= len(weighed) * n
        for p in weighed:
            a, row_p = table_of[p], at[p]
            for q in range(n):
                b = table_of[q]
                if b == a or (q < p and at[q][b]):  # a pair of two weighed players is tried once
                    continue
                delta = row_p[b] - weight[p][q] + at[q][a] - weight[q][p] - row_p[a] - at[q][b]
                allowed = tabu.get((p, b), 0) < step and tabu.get((q, a), 0) < step
                if not allowed and cost + delta >= best_cost:
                    continue
                if chosen is None or delta < chosen_delta:
                    chosen, chosen_delta, ties = (p, q), delta, 1
                elif delta == chosen_delta:
                    ties += 1  # among equal swaps, each as likely: the k-th replaces the chosen with chance 1/k
                    if lots.below(ties) == 0:
                        chosen = (p, q)
        if chosen is None:
            break
        p, q = chosen
        a, b = table_of[p], table_of[q]
        tables[a][tables[a].index(p)] = q
        tables[b][tables[b].index(q)] = p
        table_of[p], table_of[q] = b, a
        for x in range(n):
            at[x][a] += weight[x][q] - weight[x][p]
            at[x][b] += weight[x][p] - weight[x][q]
        cost += chosen_delta
        tenure = 2 + lots.below(max(1, n // 4))
        tabu[p, a] = tabu[q, b] = step + tenure
        if cost < best_cost:
            best, best_cost, last_best = [list(members) for members in tables], cost, step
    return best
